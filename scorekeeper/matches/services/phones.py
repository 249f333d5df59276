"""What a phone that keeps working without signal says of itself when it gets through
(docs/offline.md): a concours's desk shows a table whose phone had no signal ("phone offline
since 14:32 · 3 deals waiting") or has not been heard of for a while ("no news for 7 minutes")."""

from datetime import datetime

from django.db import transaction
from django.utils import timezone

from ..models import Match


@transaction.atomic
def phone_contact(*, match_id: int, offline_since: datetime | None, waiting: int) -> None:
    """The match's phone got through now; it had no signal since `offline_since` (None: it had
    signal) with `waiting` changes still in its outbox. Only a concours's table is followed (its
    desk is the one reader): any other match writes nothing. One UPDATE, no version bump: a
    scoreboard's poll sees no change."""
    Match.objects.filter(pk=match_id, in_concours=True).update(
        phone_seen_at=timezone.now(),
        phone_offline_since=offline_since if waiting > 0 else None,
        phone_waiting=max(0, min(waiting, 999)),
    )
