"""The club's side of the concours app's one extension point (scorekeeper/concours/holder.py),
named in settings.CONCOURS_HOLDER: a club holds its concours (`Tournament.club`). When a club
concours's entrant names change, its new names become the club's people in the same transaction
(`people.record_people`), so the club pages find every name recorded and write nothing."""

from typing import TYPE_CHECKING

from scorekeeper.concours.holder import ConcoursHolder
from scorekeeper.concours.models import Tournament

from .models import Club
from .people import record_people


class ClubPeople:
    def names_changed(self, tournament: Tournament) -> None:
        if tournament.club_id is not None:
            record_people(club=Club(pk=tournament.club_id), tournaments=[tournament.pk])


if TYPE_CHECKING:  # mypy holds the class to the protocol it is loaded as (settings.CONCOURS_HOLDER)
    _implements: ConcoursHolder = ClubPeople()
