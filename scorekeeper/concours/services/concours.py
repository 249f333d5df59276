"""A concours as a whole: created from a ready format, its name, date, place, prizes and
settings changed, its co-organiser link renewed, finished (its final ranking stored), deleted."""

import secrets
from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from django.contrib.auth.models import User
from django.db import transaction
from django.db.models import F
from django.utils import timezone

from scorekeeper.engine import tournament as tournament_engine
from scorekeeper.engine.tournament import settings_from_dict
from scorekeeper.engine.tournament.readers import read_name, read_text
from scorekeeper.engine.tournament.settings import settings_to_dict
from scorekeeper.matches.models import Match, new_token

from .. import selectors
from ..models import Tournament
from ..selectors import final_rows
from .base import SEED_LIMIT, Refused

MAX_PLACE = 100  # Tournament.place
MAX_PRIZE = 200  # a prize (forms.read_prizes keeps as much; the club archive reads as much)


# The three ready formats of issue 15, as the engine's settings (without the seed, drawn at
# creation). Each is a starting point: `create_tournament(overrides=...)` changes any setting.
FORMATS: dict[str, dict[str, Any]] = {
    # "Belote: 4 parties of 12 deals, ranked by points"
    "belote": {
        "mode": "teams",
        "rounds": 4,
        "partie": {"preset": "belote", "deals_limit": 12, "target": None},
        "pairing": "swiss",
        "ranking": ["points", "wins", "difference", "best_partie"],
        "bye": {"points": "average", "win": False},
    },
    # "Coinche: 3 parties to 2000, ranked by wins then points": a bye counts as a win (ranked
    # by wins, a bye that is not one would sink the team that sat out).
    "coinche": {
        "mode": "teams",
        "rounds": 3,
        "partie": {"preset": "coinche", "deals_limit": None, "target": 2000},
        "pairing": "swiss",
        "ranking": ["wins", "points", "difference", "best_partie"],
        "bye": {"points": "average", "win": True},
    },
    # "Belote à la mêlée: 4 × 12"
    "melee": {
        "mode": "melee",
        "rounds": 4,
        "partie": {"preset": "belote", "deals_limit": 12, "target": None},
        "pairing": "random",
        "ranking": ["points", "wins", "difference", "best_partie"],
        "bye": {"points": "average", "win": False},
    },
}


def _place(value: str) -> str:
    """A concours's place: a line of text (engine/scoring/free_text.py's rule), stripped, may be empty."""
    return read_text(value.strip(), "place", MAX_PLACE)


def _prizes(prizes: dict[int, str] | None) -> dict[str, str]:
    """{"1": "a ham"}: each prize a line of text, stripped, the empty ones left out."""
    out = {}
    for rank, text in (prizes or {}).items():
        prize = text.strip()
        if prize:
            out[str(rank)] = read_text(prize, f"prizes[{rank}]", MAX_PRIZE)
    return out


@transaction.atomic
def create_tournament(
    *,
    owner: User,
    name: str,
    preset: str = "belote",
    overrides: dict[str, Any] | None = None,
    date: Any = None,
    place: str = "",
    prizes: dict[int, str] | None = None,
) -> Tournament:
    """A new concours of `owner` from one of FORMATS, any setting overridden; the seed of every
    draw is drawn here unless `overrides` gives one. TournamentError on a bad setting."""
    if preset not in FORMATS:
        raise Refused("unknown_format", format=preset)
    values = {**FORMATS[preset], **(overrides or {})}
    values.setdefault("seed", secrets.randbelow(SEED_LIMIT))
    settings = settings_from_dict(values)
    return Tournament.objects.create(
        owner=owner,
        name=read_name(" ".join(name.split()), "name", 100),
        date=date,
        place=_place(place),
        settings=settings_to_dict(settings),
        prizes=_prizes(prizes),
    )


def _rules_of(settings: tournament_engine.Settings) -> tuple[Any, ...]:
    """What a concours plays by (every setting but the seed and how the file wrote them)."""
    final = settings.final
    bracket = None if final is None else (
        final.size, final.partie, final.consolation, final.third_place
    )  # fmt: skip
    return (settings.mode, settings.rounds, settings.partie, settings.pairing,
            settings.ranking, settings.bye.points, settings.bye.win, bracket)  # fmt: skip


@transaction.atomic
def update_tournament(
    *,
    tournament: Tournament,
    name: str,
    date: Any = None,
    place: str = "",
    prizes: dict[int, str] | None = None,
    settings: dict[str, Any] | None = None,
) -> Tournament:
    """The concours's name, date, place and prizes (at any time) and, until round 1 is drawn,
    its settings (docs/tournaments.md §1; the seed kept); the round clock's `minutes` at any
    time. Refused: settings once a round is drawn,
    a change of mode once entrants are registered (teams and players do not convert).
    TournamentError on a bad setting or name."""
    tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
    tournament.name = read_name(" ".join(name.split()), "name", 100)
    tournament.date = date
    tournament.place = _place(place)
    tournament.prizes = _prizes(prizes)
    fields = ["name", "date", "place", "prizes"]
    if settings is not None:
        values = {**settings, "seed": tournament.settings["seed"]}
        engine = settings_from_dict(values)
        current = tournament.engine_settings
        if _rules_of(engine) != _rules_of(current):
            if tournament.drawn_rounds():
                raise Refused("settings_locked")
            if engine.mode != current.mode and tournament.entrants.exists():
                raise Refused("mode_has_entrants")
            tournament.settings = settings_to_dict(engine)
            fields.append("settings")
        elif engine.minutes != current.minutes:
            # The round clock's length changes no result: changed at any time, for the rounds
            # drawn (or clocks started) from now on; a running clock keeps its own length.
            tournament.settings = settings_to_dict(replace(current, minutes=engine.minutes))
            fields.append("settings")
    tournament.save(update_fields=fields)
    tournament.touch()
    return tournament


@transaction.atomic
def regenerate_co_link(*, tournament: Tournament) -> Tournament:
    """A new co-organiser link: every browser granted the desk by the old one loses it at once."""
    tournament.co_token = new_token()
    tournament.save(update_fields=["co_token"])
    return tournament


@transaction.atomic
def finish(*, tournament: Tournament) -> Tournament:
    """The concours is over: the standings become the final ranking. Refused before a round is
    played or while a round is open."""
    if tournament.status == Tournament.Status.FINISHED:
        return tournament
    rounds = list(tournament.rounds.all())
    if not rounds:
        raise Refused("no_round")
    if any(not r.is_closed for r in rounds):
        raise Refused("round_open", round=rounds[-1].number)
    if any(r.stage for r in rounds):
        state = selectors.progress(selectors.snapshot(tournament))
        if not state.complete:
            raise Refused("bracket_unfinished")
    tournament.status = Tournament.Status.FINISHED
    tournament.finished_at = timezone.now()
    tournament.save(update_fields=["status", "finished_at"])
    tournament.touch()
    store_final_standings(tournament=tournament)
    return tournament


def concours_complete(
    engine: tournament_engine.Tournament, results: Sequence[tournament_engine.RoundResult]
) -> bool:
    """Every planned round is in and finished: the qualifying rounds and, with a final bracket
    (docs/tournaments.md §7), the whole bracket."""
    qualifying = [r for r, round_ in zip(results, engine.rounds, strict=True) if not round_.stage]
    if len(qualifying) != engine.settings.rounds or not all(r.finished for r in results):
        return False
    bracket = tournament_engine.bracket_state(engine, results)
    return bracket is None or bracket.complete


def store_final_standings(*, tournament: Tournament) -> Tournament:
    """Keep a finished concours's final ranking on it (`final_standings`: the rows of
    `selectors.final_rows` and the `version` they were computed at), so the club pages read 120
    concours without computing 120 standings. Written by `finish`, and again by a correction
    after the finish (a reader finding another version computes it afresh)."""
    rows = final_rows(tournament)
    tournament.refresh_from_db(fields=["version"])
    tournament.final_standings = {"version": tournament.version, "rows": rows}
    tournament.save(update_fields=["final_standings"])
    return tournament


@transaction.atomic
def delete_tournament(*, tournament: Tournament) -> int:
    """Delete the concours (entrants, rounds, tables, places, log) and its table matches with
    it: those are deleted as the matches app deletes one (gone from every page, their links
    answer 404; restorable by their owner for DELETED_KEPT_DAYS, then purged). How many matches
    were deleted."""
    matches = Match.objects.filter(
        concours_table__round__tournament=tournament, deleted_at__isnull=True
    )
    # Restored from Recently deleted, a table's match is a match of its own again.
    gone = matches.update(
        deleted_at=timezone.now(), in_concours=False, frozen_at=None, version=F("version") + 1
    )
    tournament.delete()
    return gone
