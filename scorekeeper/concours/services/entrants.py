"""Registration: an entrant added (a late entry once a round is drawn), checked in, withdrawn
and back, renamed (the matches of its open tables follow)."""

from collections.abc import Sequence

from django.db import transaction
from django.db.models import F, Max

from scorekeeper.engine.tournament import Settings
from scorekeeper.engine.tournament.readers import read_name
from scorekeeper.matches.models import Match
from scorekeeper.web.folding import fold

from ..holder import get_holder
from ..models import Entrant, Table, Tournament
from .base import MAX_NAME, Refused


def _name_taken(tournament: Tournament, name: str, but: int | None = None) -> bool:
    """Another entrant of the concours has this name, read as a reader reads names
    (`folding.fold`: "Cœur" is "COEUR", "Trèfle" is "trefle"), as the file's import reads them."""
    wanted = fold(name)
    entrants = tournament.entrants.all() if but is None else tournament.entrants.exclude(pk=but)
    return any(fold(other) == wanted for other in entrants.values_list("name", flat=True))


def _name(value: str, path: str) -> str:
    name = " ".join(str(value).split())
    return read_name(name, path, MAX_NAME)


@transaction.atomic
def add_entrant(
    *,
    tournament: Tournament,
    name: str,
    players: Sequence[str] = ("", ""),
    from_round: int | None = None,
) -> Entrant:
    """A team (two players required) or, à la mêlée, a player (`name` alone). Once a round is
    drawn it is a late entry: it joins at `from_round` (default: the next round), never at a
    round already drawn."""
    entrant = _add(tournament, name, players, from_round, tournament.drawn_rounds())
    get_holder().names_changed(tournament)
    return entrant


def entry_refusal(tournament: Tournament, drawn: int) -> Refused | None:
    """Why no entrant can join now (from the round after the `drawn` ones), as `add_entrant`
    refuses one, or None: the desk offers its registration forms only when one can."""
    if tournament.status == Tournament.Status.FINISHED:
        return Refused("finished")
    return _start_refusal(tournament.engine_settings, drawn + 1, drawn)


def _start_refusal(settings: Settings, start: int, drawn: int) -> Refused | None:
    """Why an entrant cannot start at round `start` once `drawn` rounds are drawn, or None."""
    if start <= drawn or start < 1:
        return Refused("round_already_drawn", round=start)
    if start > settings.rounds:
        return Refused("after_last_round", round=start, rounds=settings.rounds)
    if start > 1 and settings.pairing == "round_robin":  # its schedule is fixed (§7)
        return Refused("round_robin_late_entry")
    return None


def _add(
    tournament: Tournament,
    name: str,
    players: Sequence[str],
    from_round: int | None,
    drawn: int,
    number: int | None = None,
) -> Entrant:
    if tournament.status == Tournament.Status.FINISHED:
        raise Refused("finished")
    settings = tournament.engine_settings
    clean = _name(name, "name")
    if settings.melee:
        p1 = p2 = ""
        if any(p.strip() for p in players):
            raise Refused("melee_no_players")
    else:
        p1, p2 = (_name(p, f"players[{i}]") for i, p in enumerate(players))
    if _name_taken(tournament, clean):
        raise Refused("duplicate_name", name=clean)
    start = from_round if from_round is not None else drawn + 1
    refused = _start_refusal(settings, start, drawn)
    if refused is not None:
        raise refused
    if number is None:
        number = int(tournament.entrants.aggregate(top=Max("number"))["top"] or 0) + 1
    entrant = Entrant.objects.create(
        tournament=tournament,
        number=number,
        name=clean,
        player1=p1,
        player2=p2,
        from_round=start,
        present=True if drawn else None,
    )
    tournament.touch()
    return entrant


@transaction.atomic
def check_in(*, entrant: Entrant, present: bool) -> Entrant:
    """Present or absent, before round 1 is drawn. An absent entrant is left out of the concours
    (in no draw, no standings); arriving later, it is added as a late entry."""
    if entrant.tournament.drawn_rounds():
        raise Refused("check_in_closed")
    entrant.present = present
    entrant.save(update_fields=["present"])
    entrant.tournament.touch()
    return entrant


@transaction.atomic
def withdraw(*, entrant: Entrant, before_round: int | None = None) -> Entrant:
    """The entrant leaves before `before_round` (default: the next round to draw): drawn no
    more, its results and place kept, marked withdrawn."""
    tournament = entrant.tournament
    drawn = tournament.drawn_rounds()
    round_number = before_round if before_round is not None else drawn + 1
    if entrant.withdrawn_before_round is not None:
        raise Refused("already_withdrawn", round=entrant.withdrawn_before_round)
    if round_number <= drawn:
        raise Refused("round_already_drawn", round=round_number)
    if round_number > tournament.engine_settings.rounds:
        raise Refused("after_last_round", round=round_number)
    entrant.withdrawn_before_round = round_number
    entrant.save(update_fields=["withdrawn_before_round"])
    tournament.touch()
    return entrant


@transaction.atomic
def cancel_withdrawal(*, entrant: Entrant) -> Entrant:
    """Back in, while the round it left before is not drawn yet."""
    if entrant.withdrawn_before_round is None:
        return entrant
    if entrant.withdrawn_before_round <= entrant.tournament.drawn_rounds():
        raise Refused("round_already_drawn", round=entrant.withdrawn_before_round)
    entrant.withdrawn_before_round = None
    entrant.save(update_fields=["withdrawn_before_round"])
    entrant.tournament.touch()
    return entrant


@transaction.atomic
def edit_entrant(*, entrant: Entrant, name: str, players: Sequence[str] = ("", "")) -> Entrant:
    """A team's name and players (à la mêlée, a player's name), at any time. Every page that
    reads the concours (the desk, the standings, the public page, the prints) shows the new names
    at once; the matches of the tables of an open round take the new team name too (their
    phones show it), while closed rounds' matches keep the names they were played under, and a
    match's players (the app's players, whom accounts may have claimed) are left as drawn."""
    tournament = entrant.tournament
    if tournament.melee:
        p1 = p2 = ""
        if any(p.strip() for p in players):
            raise Refused("melee_no_players")
    else:
        p1, p2 = (_name(p, f"players[{i}]") for i, p in enumerate(players))
    clean = _name(name, "name")
    if _name_taken(tournament, clean, but=entrant.pk):
        raise Refused("duplicate_name", name=clean)
    if (clean, p1, p2) == (entrant.name, entrant.player1, entrant.player2):
        return entrant
    renamed = clean != entrant.name
    entrant.name, entrant.player1, entrant.player2 = clean, p1, p2
    entrant.save(update_fields=["name", "player1", "player2"])
    get_holder().names_changed(tournament)
    if renamed:
        _rename_open_tables(entrant)
    tournament.touch()
    return entrant


def _rename_open_tables(entrant: Entrant) -> None:
    """The team names of the matches at the entrant's tables in open rounds, from the names of
    who sits there now."""
    tables = Table.objects.filter(
        places__entrant=entrant, round__closed_at__isnull=True, match__isnull=False
    )
    for table in tables.select_related("match").prefetch_related("places__entrant"):
        sides: list[list[str]] = [[], []]
        for place in sorted(table.places.all(), key=lambda p: p.seat):
            if place.side is not None:
                sides[place.side].append(place.entrant.name)
        names = [" & ".join(side)[:MAX_NAME] for side in sides]
        Match.objects.filter(concours_table=table).update(
            team0_name=names[0], team1_name=names[1], version=F("version") + 1
        )
