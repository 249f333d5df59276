"""Scoring one deal: docs/rules.md §3 (classic belote), §4 (coinche) and §5 (rounding)."""

from dataclasses import dataclass
from typing import Literal

from .announcements import Counted, resolve
from .breakdown import Formula, Line, Note, Term, TermLabel
from .cards import TOTAL_CARD_POINTS
from .deals import Deal, ManualDeal, PassedDeal, PlayedDeal, check_deal, contract_value
from .rules import COINCHED_CAPOT_BASE, Rounding, Rules

Outcome = Literal["made", "failed", "litige", "passed", "manual"]
Pair = tuple[int, int]


@dataclass(frozen=True, slots=True)
class DealScore:
    outcome: Outcome
    scores: Pair  # points each team adds with this deal, rounded; a litige reserve not included
    exact: Pair = (0, 0)  # the same before rounding
    taker: int | None = None
    winner: int | None = None  # the team that won the deal, which receives any litige reserve
    held: int = 0  # on a litige: the takers' points now held in reserve
    belote: Pair = (0, 0)  # belote points per team (a team scoring only these cannot clinch)
    card_points: Pair = (0, 0)
    announcement_points: Pair = (0, 0)  # the announcements that count
    totals: Pair = (0, 0)  # card points + belote + counted announcements
    breakdown: tuple[Line, ...] = ()


def round_score(value: int, rounding: Rounding) -> int:
    """§5: to the nearest ten, a 5 going up (half_up) or down (half_down)."""
    if rounding == "half_up":
        return (value + 5) // 10 * 10
    if rounding == "half_down":
        return (value + 4) // 10 * 10
    return value


def _pair(team: int, mine: int, theirs: int) -> Pair:
    return (mine, theirs) if team == 0 else (theirs, mine)


class _Deal:
    """The facts of one played deal that every scoring rule draws on."""

    def __init__(self, rules: Rules, deal: PlayedDeal) -> None:
        self.rules, self.deal = rules, deal
        self.t, self.d = deal.taker, deal.defence
        points = rules.belote_points
        self.belote: Pair = (deal.belote[0] * points, deal.belote[1] * points)
        self.cards_label: TermLabel = "cards"
        if deal.capot is not None:
            value = rules.capot_cards
            self.cards_label = "capot"
            if deal.generale and rules.generale_cards is not None:
                value, self.cards_label = rules.generale_cards, "generale"
            self.cards = _pair(deal.capot, value, 0)
        else:
            assert deal.taker_points is not None
            self.cards = _pair(deal.taker, deal.taker_points, TOTAL_CARD_POINTS - deal.taker_points)
        if rules.announcements:
            self.counted = resolve(
                deal.announcements,
                deal.trump,
                rules.announcements_resolution,
                deal.announcements_to,
            )
        else:
            self.counted = Counted((0, 0), ((), ()), "none")
        self.ann = self.counted.points
        self.totals: Pair = (
            self.cards[0] + self.belote[0] + self.ann[0],
            self.cards[1] + self.belote[1] + self.ann[1],
        )
        self.takers_capot = deal.capot == self.t

    # Terms of the formulas in the breakdown.
    def cards_term(self, team: int) -> list[Term]:
        return [Term(self.cards[team], self.cards_label)] if self.cards[team] else []

    def belote_term(self, team: int) -> list[Term]:
        return [Term(self.belote[team], "belote")] if self.belote[team] else []

    def ann_term(self, *teams: int) -> list[Term]:
        value = sum(self.ann[team] for team in teams)
        return [Term(value, "announcements")] if value else []

    def own_total(self, team: int) -> list[Term]:
        return self.cards_term(team) + self.belote_term(team) + self.ann_term(team)

    def intro(self) -> list[Line]:
        deal = self.deal
        lines: list[Line] = []
        if self.rules.is_coinche:
            lines.append(Note("contract", team=self.t, contract=deal.contract,
                              trump=deal.trump.value, coinche=deal.coinche))  # fmt: skip
        elif deal.contract == "generale":
            lines.append(Note("took_generale", team=self.t, trump=deal.trump.value))
        else:
            lines.append(Note("took", team=self.t, trump=deal.trump.value))
        if deal.capot is not None:
            lines.append(Note("generale" if deal.generale else "capot", team=deal.capot))
        counted = self.counted
        if counted.reason == "ruling" and not any(counted.counted):
            lines.append(Note("ann_ruling_none"))
        elif counted.reason == "ruling" and deal.announcements_to in (0, 1):
            lines.append(Note("ann_ruling", team=deal.announcements_to))
        elif counted.reason == "tie" and not any(counted.counted):
            lines.append(Note("ann_tie"))
        for team in (0, 1):
            if counted.counted[team]:
                lines.append(Note("ann_team", team=team, items=counted.counted[team]))
        if deal.capot is None:
            lines += [Formula("total", team, tuple(self.own_total(team))) for team in (0, 1)]
        return lines


def _finish(
    facts: _Deal,
    outcome: Outcome,
    verdict: Note,
    formulas: dict[int, tuple[list[Term], int]],
    held: int = 0,
    variant: Note | None = None,
) -> DealScore:
    """Round each team's formula (terms, multiplier) into its score and assemble the result;
    `variant` names a scoring variant that changed the usual formula."""
    rounding = facts.rules.rounding
    lines = [*facts.intro(), verdict, *([variant] if variant else [])]
    scores, exacts = [0, 0], [0, 0]
    for team in (0, 1):
        terms, multiplier = formulas[team]
        exact = exacts[team] = multiplier * sum(term.value for term in terms)
        scores[team] = round_score(exact, rounding)
        rounded = scores[team] if scores[team] != exact else None
        lines.append(Formula("score", team, tuple(terms), multiplier, rounded))
    winner = {"made": facts.t, "failed": facts.d}.get(outcome)
    return DealScore(
        outcome=outcome,
        scores=(scores[0], scores[1]),
        exact=(exacts[0], exacts[1]),
        taker=facts.t,
        winner=winner,
        held=held,
        belote=facts.belote,
        card_points=facts.cards,
        announcement_points=facts.ann,
        totals=facts.totals,
        breakdown=tuple(lines),
    )


def _score_classic(f: _Deal) -> DealScore:
    rules, deal, t, d = f.rules, f.deal, f.t, f.d
    if deal.contract == "generale":
        assert rules.generale_bid is not None
        bid = [Term(rules.generale_bid, "contract")]
        if f.takers_capot:
            return _finish(f, "made", Note("made_generale_bid"),
                           {t: (bid + f.belote_term(t), 1), d: (f.belote_term(d), 1)})  # fmt: skip
        return _finish(f, "failed", Note("failed_capot_bid"),
                       {d: (bid + f.belote_term(d), 1), t: (f.belote_term(t), 1)})  # fmt: skip
    if deal.capot is not None:
        winner = deal.capot
        terms = f.cards_term(winner) + f.belote_term(winner) + f.ann_term(0, 1)
        outcome: Outcome = "made" if winner == t else "failed"
        verdict = Note("made_capot" if winner == t else "failed_capot")
        return _finish(f, outcome, verdict,
                       {winner: (terms, 1), 1 - winner: (f.belote_term(1 - winner), 1)})  # fmt: skip
    taken, other = f.totals[t], f.totals[d]
    if taken > other:
        return _finish(f, "made", Note("made_classic", points=taken, other=other),
                       {t: (f.own_total(t), 1), d: (f.own_total(d), 1)})  # fmt: skip
    if taken == other and rules.litige == "reserve":
        # §3: the takers score nothing now; their whole total (belote included, as the table
        # and the FFB book say) waits for the next deal's winners.
        held = round_score(taken, rules.rounding)
        return _finish(f, "litige", Note("litige", team=t, points=taken, other=held),
                       {t: ([], 1), d: (f.own_total(d), 1)}, held=held)  # fmt: skip
    verdict = (
        Note("failed_equal", points=taken)
        if taken == other
        else Note("failed_classic", points=taken, other=other)
    )
    dedans = [Term(rules.failure_points, "dedans"), *f.ann_term(0, 1), *f.belote_term(d)]
    return _finish(f, "failed", verdict, {d: (dedans, 1), t: (f.belote_term(t), 1)})


def _coinche_verdict(f: _Deal, contract: int) -> tuple[bool, Note]:
    deal, taken, other = f.deal, f.totals[f.t], f.totals[f.d]
    if deal.contract == "capot":
        made = f.takers_capot
        return made, Note("made_capot_bid" if made else "failed_capot_bid")
    if deal.contract == "generale":
        made = f.takers_capot and deal.generale
        return made, Note("made_generale_bid" if made else "failed_generale_bid")
    if taken < contract:
        return False, Note("failed_below", points=taken, contract=contract)
    if f.rules.success == "bid_only":
        return True, Note("made_bid_only", points=taken, contract=contract)
    if taken <= other:
        return False, Note("failed_not_more", points=taken, other=other)
    return True, Note("made_bid_and_beat", points=taken, contract=contract, other=other)


def _score_coinche(f: _Deal) -> DealScore:
    rules, deal, t, d = f.rules, f.deal, f.t, f.d
    contract = contract_value(rules, deal)
    multiplier = {"none": 1, "coinche": rules.multipliers[0], "surcoinche": rules.multipliers[1]}[
        deal.coinche
    ]
    bid = Term(contract, "contract")
    made, verdict = _coinche_verdict(f, contract)
    by_deal = rules.multiplier_scope == "deal"
    if not made:
        base = Term(rules.failure_base, "base")
        if by_deal:
            terms, m = [base, bid, *f.ann_term(0, 1), *f.belote_term(d)], multiplier
        else:
            bid = Term(multiplier * contract, "contract", times=multiplier)
            terms, m = [base, bid, *f.ann_term(0, 1), *f.belote_term(d)], 1
        return _finish(f, "failed", verdict, {d: (terms, m), t: (f.belote_term(t), 1)})
    defence_belote = (f.belote_term(d), 1)
    if multiplier == 1:
        if deal.contract in ("capot", "generale") and rules.capot_bid_scores == "contract":
            # §4 variant: a made capot or générale bid scores its contract alone, with the
            # belote (before `made_scores`, which speaks of contracts in general).
            return _finish(f, "made", verdict, {t: ([bid, *f.belote_term(t)], 1), d: defence_belote},
                           variant=Note("capot_bid_contract", contract=deal.contract))  # fmt: skip
        if rules.made_scores == "contract_only":
            terms = [bid, *f.belote_term(t), *f.ann_term(t)]
            return _finish(f, "made", verdict, {t: (terms, 1), d: defence_belote})
        if f.takers_capot:
            terms = [*f.cards_term(t), *f.belote_term(t), *f.ann_term(0, 1), bid]
            return _finish(f, "made", verdict, {t: (terms, 1), d: defence_belote})
        return _finish(f, "made", verdict,
                       {t: ([*f.own_total(t), bid], 1), d: (f.own_total(d), 1)})  # fmt: skip
    # Coinched and made. §4: with the whole-deal scope B is 250 when the takers made capot; the
    # contract-scope formula names `coinched_base` itself, capot or not.
    if by_deal and rules.coinched_scores == "points":
        # §4 variant: m × (the takers' total + C), the defence keeps its total; with a capot, the
        # m = 1 capot row multiplied (the defence's announcements too, the defence its belote).
        points = Note("coinched_points")
        if f.takers_capot:
            terms = [*f.cards_term(t), *f.belote_term(t), *f.ann_term(0, 1), bid]
            return _finish(f, "made", verdict, {t: (terms, multiplier), d: defence_belote},
                           variant=points)  # fmt: skip
        return _finish(f, "made", verdict,
                       {t: ([*f.own_total(t), bid], multiplier), d: (f.own_total(d), 1)},
                       variant=points)  # fmt: skip
    if by_deal:
        base = Term(COINCHED_CAPOT_BASE if f.takers_capot else rules.coinched_base, "base")
        terms, m = [base, bid, *f.ann_term(0, 1), *f.belote_term(t)], multiplier
    else:
        bid = Term(multiplier * contract, "contract", times=multiplier)
        base = Term(rules.coinched_base, "base")
        terms, m = [base, bid, *f.belote_term(t), *f.ann_term(0, 1)], 1
    return _finish(f, "made", verdict, {t: (terms, m), d: defence_belote})


def score_deal(rules: Rules, deal: Deal) -> DealScore:
    """Check `deal` against `rules` (InvalidInput if not allowed) and score it."""
    check_deal(rules, deal)
    if isinstance(deal, PassedDeal):
        return DealScore(outcome="passed", scores=(0, 0), breakdown=(Note("passed"),))
    if isinstance(deal, ManualDeal):
        return DealScore(
            outcome="manual", scores=deal.scores, exact=deal.scores, breakdown=(Note("manual"),)
        )
    facts = _Deal(rules, deal)
    return _score_coinche(facts) if rules.is_coinche else _score_classic(facts)
