"""The pure tournament (concours) engine of docs/tournaments.md: settings, table results, standings,
byes, draws, the paper check and the `belote-tournament/1` file. Plain dataclasses and functions,
no Django; table results come from the scoring engine. Errors are TournamentError (a subclass of
the scoring engine's InvalidInput) with a path, a code and params: words live Django-side."""

from .bracket import (
    Bracket,
    BracketRound,
    BracketTable,
    Step,
    bracket_state,
    final_places,
    qualifying_finished,
    sequence,
    standard_order,
)
from .byes import bye_count, bye_points, choose_byes, round_like_a_deal
from .draws import Draw, History, draw_round
from .errors import TournamentError
from .matching import min_cost_pairs, pairing_cost
from .paper import PaperCheck, paper_check
from .random_source import DrawRandom
from .report import draw_report, standing_to_dict, standings_report
from .results import TableResult, table_result
from .round_robin import Schedule, max_rounds, schedule_round
from .settings import CRITERIA, ByeRule, Criterion, Final, Settings, Stage, settings_from_dict
from .standings import RoundResult, Standing, lots_order, round_results, standings
from .tfile import (
    FORMAT,
    append_round,
    check_tournament,
    dump_tournament,
    load_tournament,
    parse_tournament,
)
from .tournament import Entrant, Prize, Round, Side, Table, Tournament

__all__ = [
    "CRITERIA",
    "FORMAT",
    "Bracket",
    "BracketRound",
    "BracketTable",
    "ByeRule",
    "Criterion",
    "Draw",
    "DrawRandom",
    "Entrant",
    "Final",
    "History",
    "PaperCheck",
    "Prize",
    "Round",
    "RoundResult",
    "Schedule",
    "Settings",
    "Side",
    "Stage",
    "Standing",
    "Step",
    "Table",
    "TableResult",
    "Tournament",
    "TournamentError",
    "append_round",
    "bracket_state",
    "bye_count",
    "bye_points",
    "check_tournament",
    "choose_byes",
    "draw_report",
    "draw_round",
    "dump_tournament",
    "final_places",
    "load_tournament",
    "lots_order",
    "max_rounds",
    "min_cost_pairs",
    "pairing_cost",
    "paper_check",
    "parse_tournament",
    "qualifying_finished",
    "round_like_a_deal",
    "round_results",
    "schedule_round",
    "sequence",
    "settings_from_dict",
    "standard_order",
    "standing_to_dict",
    "standings",
    "standings_report",
    "table_result",
]
