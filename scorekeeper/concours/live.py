"""A concours's live topics (scorekeeper/web/live): `c<id>`, its change key (its version and its
open tables' matches': the projector, the public standings, the desk, moved by every deal);
`t<id>`, its version alone (what its standings count: a table finished, a round drawn or closed,
the clock; a finished table's phone); `r<id>`, a round's clock and state (`Round.live_version`:
a table's scoreboard's clock)."""

from .models import Round, Tournament
from .selectors import change_keys


def change_key_versions(ids: list[int]) -> dict[int, str]:
    return change_keys(Tournament.objects.filter(pk__in=ids))


def versions(ids: list[int]) -> dict[int, str]:
    rows = Tournament.objects.filter(pk__in=ids).values_list("pk", "version")
    return {pk: str(version) for pk, version in rows}


def round_versions(ids: list[int]) -> dict[int, str]:
    rows = Round.objects.filter(pk__in=ids).only("clock_started_at", "clock_minutes", "closed_at")
    return {round_.pk: round_.live_version for round_ in rows}
