"""The pure tournament (concours) engine of docs/tournaments.md: settings, table results, standings,
byes, draws, the paper check and the `belote-tournament/1` file. Plain dataclasses and functions,
no Django; table results come from the scoring engine. Errors are TournamentError (a subclass of
the scoring engine's InvalidInput) with a path, a code and params: words live Django-side."""

from .byes import bye_count, bye_points, choose_byes, round_like_a_deal
from .draws import Draw, History, draw_round
from .errors import TournamentError
from .matching import min_cost_pairs, pairing_cost
from .paper import PaperCheck, paper_check
from .random_source import DrawRandom
from .report import draw_report, standing_to_dict, standings_report
from .results import TableResult, table_result
from .settings import CRITERIA, ByeRule, Criterion, Settings, settings_from_dict
from .standings import RoundResult, Standing, round_results, standings
from .tfile import (
    FORMAT,
    append_round,
    check_tournament,
    dump_tournament,
    load_tournament,
    parse_tournament,
)
from .tournament import Entrant, Round, Side, Table, Tournament

__all__ = [
    "CRITERIA",
    "FORMAT",
    "ByeRule",
    "Criterion",
    "Draw",
    "DrawRandom",
    "Entrant",
    "History",
    "PaperCheck",
    "Round",
    "RoundResult",
    "Settings",
    "Side",
    "Standing",
    "Table",
    "TableResult",
    "Tournament",
    "TournamentError",
    "append_round",
    "bye_count",
    "bye_points",
    "check_tournament",
    "choose_byes",
    "draw_report",
    "draw_round",
    "dump_tournament",
    "load_tournament",
    "min_cost_pairs",
    "pairing_cost",
    "paper_check",
    "parse_tournament",
    "round_like_a_deal",
    "round_results",
    "settings_from_dict",
    "standing_to_dict",
    "standings",
    "standings_report",
    "table_result",
]
