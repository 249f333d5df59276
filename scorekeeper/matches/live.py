"""A match's live topic (`m<id>`, scorekeeper/web/live): its version, which every change moves."""

from .models import Match


def versions(ids: list[int]) -> dict[int, str]:
    """The versions of these matches (one query); a deleted one is left out (gone)."""
    rows = Match.objects.alive().filter(pk__in=ids).values_list("pk", "version")
    return {pk: str(version) for pk, version in rows}
