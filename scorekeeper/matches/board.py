"""The scoreboard as the templates need it, read in a constant number of queries: the match (with
its seats) and its deals; every figure comes from the engine, breakdowns in the page's language."""

from dataclasses import dataclass

from django.utils.translation import get_language

from scorekeeper.scoring import MatchResult, render, score_match
from scorekeeper.scoring.breakdown import Lang

from .models import Deal, Match


@dataclass(frozen=True)
class BoardDeal:
    row: Deal
    number: int
    dealer: str
    outcome: str
    scores: tuple[int, int]
    totals: tuple[int, int]
    reserve: int
    lines: list[str]


@dataclass(frozen=True)
class Board:
    match: Match
    result: MatchResult
    deals: list[BoardDeal]  # newest first
    dealer: str
    speaker: str

    @property
    def winner_name(self) -> str | None:
        winner = self.result.winner
        return self.match.team_names[winner] if isinstance(winner, int) else None


def page_lang() -> Lang:
    return "fr" if (get_language() or "en").startswith("fr") else "en"


def build_board(match: Match) -> Board:
    rows = list(match.deals.in_order())
    rules = match.engine_rules
    result = score_match(rules, [row.to_engine() for row in rows], match.first_dealer)
    lang = page_lang()
    names = match.team_names
    deals = [
        BoardDeal(
            row=row,
            number=scored.number,
            dealer=match.seat_name(scored.dealer),
            outcome=scored.outcome,
            scores=scored.scores,
            totals=scored.totals,
            reserve=scored.reserve,
            lines=render(scored.breakdown, lang, names),
        )
        for row, scored in zip(rows, result.deals, strict=True)
    ]
    deals.reverse()
    return Board(
        match=match,
        result=result,
        deals=deals,
        dealer=match.seat_name(result.next_dealer),
        speaker=match.seat_name(result.next_speaker),
    )
