"""Read-only queries behind the history, review and player pages. Lists and statistics are
aggregated in the database, so the number of queries does not grow with the data."""

from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import date, datetime, time, timedelta
from typing import Any, cast

from django.db.models import (
    Case,
    Count,
    Exists,
    F,
    IntegerField,
    OuterRef,
    Q,
    QuerySet,
    Sum,
    Value,
    When,
)
from django.utils import timezone

from scorekeeper.engine.scoring import MatchResult, Trump
from scorekeeper.matches.models import Deal, Match, Player, Seat, counted, decided

# History list --------------------------------------------------------------------------------


ABANDONED = "abandoned"  # the status filter's third choice (Match.abandoned_at, not a status)


@dataclass(frozen=True)
class HistoryFilters:
    date_from: date | None = None
    date_to: date | None = None
    game: str = ""
    preset: str = ""
    player: str = ""
    status: str = ""
    q: str = ""


def filter_history(matches: QuerySet[Match], filters: HistoryFilters) -> QuerySet[Match]:
    # Bounds on created_at itself (not on its date part), so the history index serves them.
    if filters.date_from:
        matches = matches.filter(created_at__gte=_day_start(filters.date_from))
    if filters.date_to:
        matches = matches.filter(created_at__lt=_day_start(filters.date_to + timedelta(days=1)))
    if filters.game:
        matches = matches.filter(game=filters.game)
    if filters.preset:
        matches = matches.filter(preset=filters.preset)
    if filters.status == ABANDONED:
        matches = matches.filter(abandoned_at__isnull=False)
    elif filters.status:  # playing or finished, not abandoned
        matches = matches.filter(status=filters.status, abandoned_at__isnull=True)
    if filters.player:
        matches = matches.filter(_any_seat_named(filters.player))
    if filters.q:
        matches = matches.filter(
            Q(team0_name__icontains=filters.q)
            | Q(team1_name__icontains=filters.q)
            | _any_seat_named(filters.q)
        )
    return matches.order_by("-created_at", "-id")


def _day_start(day: date) -> datetime:
    """Midnight of `day` in the site's time zone."""
    return timezone.make_aware(datetime.combine(day, time.min))


def _any_seat_named(text: str) -> Q:
    return Q(Exists(Seat.objects.filter(match=OuterRef("pk"), player__name__icontains=text)))


# Match review --------------------------------------------------------------------------------


@dataclass
class TeamFacts:
    taken: int = 0
    made: int = 0
    failed: int = 0
    litiges: int = 0
    coinches: int = 0
    surcoinches: int = 0
    capots: int = 0
    belotes: int = 0
    announcement_points: int = 0


@dataclass
class MatchFacts:
    teams: tuple[TeamFacts, TeamFacts] = field(default_factory=lambda: (TeamFacts(), TeamFacts()))
    passed: int = 0
    manual: int = 0
    biggest: tuple[int, int, int] | None = None  # (deal number, team, points)


def match_facts(rows: list[Deal], result: MatchResult) -> MatchFacts:
    """Per-team counts of one match, from its stored inputs and the engine's results."""
    facts = MatchFacts()
    for row, scored in zip(rows, result.deals, strict=True):
        if row.kind == Deal.Kind.PASSED:
            facts.passed += 1
            continue
        if row.kind == Deal.Kind.MANUAL:
            facts.manual += 1
        else:
            assert row.taker is not None
            takers, defence = facts.teams[row.taker], facts.teams[1 - row.taker]
            takers.taken += 1
            if scored.outcome == "made":
                takers.made += 1
            elif scored.outcome == "failed":
                takers.failed += 1
            else:
                takers.litiges += 1
            if row.coinche != "none":
                defence.coinches += 1
            if row.coinche == "surcoinche":
                takers.surcoinches += 1
            if row.capot is not None:
                facts.teams[row.capot].capots += 1
            facts.teams[0].belotes += row.belote0
            facts.teams[1].belotes += row.belote1
            for team in (0, 1):
                facts.teams[team].announcement_points += scored.result.announcement_points[team]
        for team in (0, 1):
            points = scored.scores[team]
            if points and (facts.biggest is None or points > facts.biggest[2]):
                facts.biggest = (scored.number, team, points)
    return facts


# Player statistics ---------------------------------------------------------------------------

# The matches the viewer may see, as a condition on Match or, given a prefix ("match__"), on Deal:
# access.Viewer.matches. Every figure of a player page is computed over those matches only.
Visible = Callable[[str], Q]


def _counted(visible: Visible) -> Visible:
    """Of those, the ones statistics count: not deleted, with at least one deal (models.counted).
    Abandoned matches count, except in wins and finished matches (models.decided)."""
    return lambda prefix: visible(prefix) & counted(prefix)


def player_ids_for(player: Player) -> list[int]:
    """The player, and every other name linked to the same account ("this is me")."""
    if player.user_id is None:
        return [player.pk]
    return list(Player.objects.filter(user_id=player.user_id).values_list("pk", flat=True))


def linked_names(ids: list[int], player: Player, visible: Visible) -> QuerySet[Player]:
    """The other names of `ids` that sit in a match the viewer may see (the others, and the
    matches behind them, are not the viewer's to know)."""
    in_sight = Seat.objects.filter(player=OuterRef("pk")).filter(_counted(visible)("match__"))
    return Player.objects.filter(pk__in=ids).exclude(pk=player.pk).filter(Exists(in_sight))


# A person sits once at a table ("this is me" refuses a name that shared a table with one of the
# account's names), so joining a match (`prefix` "", or a deal: "match__") to the Seat of one of
# `ids` gives one row per match, whose position is theirs. The annotations below reuse that join.


def _seated(ids: list[int], prefix: str = "") -> Q:
    return Q(**{f"{prefix}seat_rows__player_id__in": ids})


def _seat(prefix: str = "") -> F:
    """The seat (0-3) of the player joined by `_seated`."""
    return F(f"{prefix}seat_rows__position")


def _team(prefix: str = "") -> Any:
    """Their team: the parity of their seat."""
    return _seat(prefix) % 2


@dataclass
class Rate:
    total: int
    good: int

    @property
    def percent(self) -> int | None:
        return round(100 * self.good / self.total) if self.total else None


@dataclass
class Companion:
    player: Player
    matches: int
    finished: int
    wins: int

    @property
    def losses(self) -> int:  # draws are neither
        return self.finished - self.wins


@dataclass
class PlayerStats:
    matches: int
    finished: int
    wins: int
    deals: int  # every deal, as My matches counts them (issue 22)
    passed: int  # of which all passed (no score): `played` are the others
    # Contracts credited to the player: those they took, and their team's when the deal does not
    # say who took (Deal.taker_player); `taken_by_player` counts the first kind.
    taken: Rate
    taken_by_player: int
    by_contract: list[tuple[str, Rate]]
    by_trump: list[tuple[str, Rate]]
    coinching: Rate  # our coinches (theirs, or the team's if not said) that made the takers fail
    coinched: Rate  # contracts credited to the player that were coinched, and made anyway
    capots: int
    average_points: float | None
    partners: list[Companion]
    opponents: list[Companion]
    form: list[float]  # share of wins over the last ten finished matches, match after match

    @property
    def played(self) -> int:
        """Deals with a score (played or entered by hand): what points per deal divide by."""
        return self.deals - self.passed

    @property
    def taken_by_team(self) -> int:
        """Contracts of the player's team whose deal does not say who took."""
        return self.taken.total - self.taken_by_player


FORM_WINDOW = 10


TRUMP_ORDER = [t.value for t in Trump]  # ♠ ♥ ♦ ♣, then sans atout, tout atout


def _trump_order(trump: str) -> int:
    return TRUMP_ORDER.index(trump) if trump in TRUMP_ORDER else len(TRUMP_ORDER)


def _contract_order(contract: str) -> tuple[int, str]:
    return (int(contract), "") if contract.isdecimal() else (10_000, contract)


def player_stats(ids: list[int], visible: Visible) -> PlayerStats:
    """The statistics of these names (one person) over the matches the viewer may see, with a
    deal and not deleted; wins and finished matches leave abandoned ones out."""
    visible = _counted(visible)
    matches = Match.objects.filter(_seated(ids)).filter(visible("")).annotate(team=_team())
    totals = matches.aggregate(
        played=Count("id"),
        finished=Count("id", filter=decided()),
        wins=Count("id", filter=decided() & Q(winner=F("team"))),
    )
    deals = (
        Deal.objects.filter(_seated(ids, "match__"))
        .filter(visible("match__"))
        .annotate(team=_team("match__"), seat=_seat("match__"))
    )
    # A contract is the player's when they took it, or when their team did and who took is not
    # said; a coinche likewise (a surcoinche keeps who surcoinched: the defence's coinche is then
    # the team's).
    took = Q(taker_player=F("seat"))
    ours = Q(taker=F("team")) & (Q(taker_player__isnull=True) | took)
    played = Q(kind=Deal.Kind.PLAYED)
    coinched = ~Q(coinche="none")
    our_coinche = (
        Q(coinche="surcoinche") | Q(coinche_player__isnull=True) | Q(coinche_player=F("seat"))
    )
    theirs = ~Q(taker=F("team"))
    scored = ~Q(kind=Deal.Kind.PASSED)
    # One pass over the deals, grouped by contract and trump (a few dozen rows at most): the
    # totals are the sums of the groups, the two tables their tallies.
    groups: list[dict[str, Any]] = cast(
        list[dict[str, Any]],
        list(
            deals.values("contract", "trump")
            .annotate(
                scored=Count("id", filter=scored),
                dealt=Count("id"),
                taken=Count("id", filter=played & ours),
                taken_by_player=Count("id", filter=played & Q(taker=F("team")) & took),
                made=Count("id", filter=played & ours & Q(outcome="made")),
                coinching=Count("id", filter=played & theirs & coinched & our_coinche),
                coinching_won=Count(
                    "id", filter=played & theirs & coinched & our_coinche & Q(outcome="failed")
                ),
                coinched=Count("id", filter=played & ours & coinched),
                coinched_made=Count("id", filter=played & ours & coinched & Q(outcome="made")),
                capots=Count("id", filter=played & Q(capot=F("team"))),
                points=Sum(
                    Case(
                        When(team=0, then=F("score0")),
                        default=F("score1"),
                        output_field=IntegerField(),
                    ),
                    filter=scored,
                ),
            )
            .order_by()
        ),
    )
    agg = {
        key: sum(group[key] or 0 for group in groups)
        for key in ("scored", "dealt", "taken", "taken_by_player", "made", "coinching", "coinching_won",
                    "coinched", "coinched_made", "capots", "points")
    }  # fmt: skip

    def rates(key: str) -> list[tuple[str, Rate]]:
        tallies: dict[str, Rate] = {}
        for group in groups:
            if group["taken"]:
                rate = tallies.setdefault(group[key] or "", Rate(0, 0))
                rate.total += group["taken"]
                rate.good += group["made"]
        return list(tallies.items())

    by_contract = sorted(rates("contract"), key=lambda item: _contract_order(item[0]))
    by_trump = sorted(rates("trump"), key=lambda item: _trump_order(item[0]))
    partners, opponents = _companions(ids, visible)
    outcomes = matches.filter(decided()).order_by("created_at", "id")
    form: list[float] = []
    window: list[int] = []
    for winner, team in outcomes.values_list("winner", "team"):
        window = [*window[-(FORM_WINDOW - 1) :], int(winner == team)]
        form.append(round(sum(window) / len(window), 2))
    return PlayerStats(
        matches=totals["played"],
        finished=totals["finished"],
        wins=totals["wins"],
        deals=agg["dealt"],
        passed=agg["dealt"] - agg["scored"],
        taken=Rate(agg["taken"], agg["made"]),
        taken_by_player=agg["taken_by_player"],
        by_contract=by_contract,
        by_trump=by_trump,
        coinching=Rate(agg["coinching"], agg["coinching_won"]),
        coinched=Rate(agg["coinched"], agg["coinched_made"]),
        capots=agg["capots"],
        # As AVG() in SQLite: the sum divided as a float, then rounded.
        average_points=round(agg["points"] / agg["scored"], 1) if agg["scored"] else None,
        partners=partners,
        opponents=opponents,
        form=form,
    )


def _companions(ids: list[int], visible: Visible) -> tuple[list[Companion], list[Companion]]:
    """Who sat with and against these players, with the results of the finished matches: the
    other seats of their matches (a join of Seat to itself through the match), grouped by who sat
    there and whether on their team, in one query."""
    tallies: dict[str, dict[int, list[int]]] = {"partner": defaultdict(lambda: [0, 0, 0]),
                                                "opponent": defaultdict(lambda: [0, 0, 0])}  # fmt: skip
    others = (
        Seat.objects.filter(_seated(ids, "match__"))
        .exclude(player_id__in=ids)
        .filter(visible("match__"))
        .annotate(our_team=_team("match__"), their_team=F("position") % 2)
        .annotate(
            role=Case(
                When(our_team=F("their_team"), then=Value("partner")), default=Value("opponent")
            )
        )
        .values("player_id", "role")
        .annotate(
            n=Count("id"),
            finished=Count("id", filter=decided("match__")),
            wins=Count("id", filter=decided("match__") & Q(match__winner=F("our_team"))),
        )
        .order_by()
    )
    for row in others:
        tally = tallies[row["role"]][row["player_id"]]
        tally[0] += row["n"]
        tally[1] += row["finished"]
        tally[2] += row["wins"]
    names = Player.objects.in_bulk([pid for role in tallies.values() for pid in role])

    def listed(role: str) -> list[Companion]:
        items = [Companion(names[pid], *tally) for pid, tally in tallies[role].items()]
        return sorted(items, key=lambda c: (-c.matches, c.player.name))[:10]

    return listed("partner"), listed("opponent")
