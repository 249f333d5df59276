"""Scoring a match (docs/rules.md §6): running totals, the dealer, the litige reserve, the end and winner."""

from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Literal

from .breakdown import Line, Note
from .deal_scoring import DealScore, Pair, score_deal
from .deals import Deal
from .errors import InvalidInput
from .rules import Rules

Winner = int | Literal["draw"] | None
SEATS = 4  # playing order: team 0 player 1, team 1 player 1, team 0 player 2, team 1 player 2


@dataclass(frozen=True, slots=True)
class MatchDeal:
    number: int  # 1-based, passed deals included
    dealer: int  # seat 0-3
    result: DealScore
    scores: Pair  # what each team adds with this deal, any reserve received included
    totals: Pair  # running totals after it
    reserve: int  # litige points still held after it
    breakdown: tuple[Line, ...]

    @property
    def outcome(self) -> str:
        return self.result.outcome


@dataclass(frozen=True, slots=True)
class MatchResult:
    rules: Rules
    deals: tuple[MatchDeal, ...]
    totals: Pair
    reserve: int
    finished: bool
    winner: Winner
    scored_deals: int  # deals that count towards a deals limit (not the passed ones)
    next_dealer: int


def _can_clinch(rules: Rules, result: DealScore, received: Pair, team: int) -> bool:
    # §6: a team cannot win on a deal where it scored nothing but its belote (failed, capot...).
    # Judged on exact points, before rounding: a defence with 4 card points + belote (24 → 20)
    # won a trick and may win; a litige reserve received counts as more than belote.
    if not rules.belote_cannot_clinch:
        return True
    return result.exact[team] + received[team] > result.belote[team]


def _decide(rules: Rules, result: DealScore, received: Pair, totals: Pair, scored: int) -> Winner:
    """The winner after a scored deal, or None while the match goes on."""
    target = rules.target
    if target is not None:
        reached = [team for team in (0, 1) if totals[team] >= target]
        if len(reached) == 1 and _can_clinch(rules, result, received, reached[0]):
            return reached[0]
        if len(reached) == 2:
            # §6: both at or past the target: the higher total wins, if it may clinch on this
            # deal; if not, play goes on (the other team never wins with fewer points).
            if totals[0] != totals[1]:
                higher = 0 if totals[0] > totals[1] else 1
                if _can_clinch(rules, result, received, higher):
                    return higher
            elif (
                rules.end_tie == "last_deal_winner"
                and result.winner is not None
                and _can_clinch(rules, result, received, result.winner)
            ):
                return result.winner
            # extra_deal (or no clear winner of the last deal): play on.
    if rules.deals_limit is not None and scored >= rules.deals_limit:
        if totals[0] == totals[1]:
            return "draw"
        return 0 if totals[0] > totals[1] else 1
    return None


def score_match(rules: Rules, deals: Sequence[Deal], first_dealer: int = 0) -> MatchResult:
    """Score every deal in order. InvalidInput (path `deals[i]...`) on a bad deal or one played
    after the match was over. The same input always gives the same result."""
    if first_dealer not in range(SEATS):
        raise InvalidInput("first_dealer", "out_of_range", min=0, max=SEATS - 1)
    totals, reserve, scored = (0, 0), 0, 0
    winner: Winner = None
    scored_deals: list[MatchDeal] = []
    for index, deal in enumerate(deals):
        if winner is not None:
            raise InvalidInput(f"deals[{index}]", "after_match_end", deal=index)
        try:
            result = score_deal(rules, deal)
        except InvalidInput as error:
            raise error.under(f"deals[{index}]") from None
        scores = result.scores
        received: Pair = (0, 0)
        lines = list(result.breakdown)
        # §3 litige: held points go to the next deal's winners; a second litige hands them to
        # its defence (the reserve never rolls further) and holds its own takers' points.
        receiver = None
        if result.outcome in ("made", "failed"):
            receiver = result.winner
        elif result.outcome == "litige" and result.taker is not None:
            receiver = 1 - result.taker
        if reserve and receiver is not None:
            received = (reserve, 0) if receiver == 0 else (0, reserve)
            scores = (scores[0] + received[0], scores[1] + received[1])
            lines.append(Note("reserve_received", team=receiver, points=reserve))
            reserve = 0
        if result.outcome == "litige":
            reserve = result.held
        totals = (totals[0] + scores[0], totals[1] + scores[1])
        if result.outcome != "passed":
            scored += 1
            winner = _decide(rules, result, received, totals, scored)
        if winner is not None and result.outcome == "litige" and reserve:
            # No next deal: the points held stay in reserve, not awarded (said on that deal).
            lines = [
                replace(line, key="litige_unawarded")
                if isinstance(line, Note) and line.key == "litige"
                else line
                for line in lines
            ]
        scored_deals.append(
            MatchDeal(
                number=index + 1,
                dealer=(first_dealer + index) % SEATS,
                result=result,
                scores=scores,
                totals=totals,
                reserve=reserve,
                breakdown=tuple(lines),
            )
        )
    return MatchResult(
        rules=rules,
        deals=tuple(scored_deals),
        totals=totals,
        reserve=reserve,
        finished=winner is not None,
        winner=winner,
        scored_deals=scored,
        next_dealer=(first_dealer + len(deals)) % SEATS,
    )
