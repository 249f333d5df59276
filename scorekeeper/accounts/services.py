"""Claiming: once a browser signs in, what it created without an account becomes the account's."""

from django.contrib.auth.models import User
from django.db import transaction

from scorekeeper.matches.models import Match, MatchScorer, Player


@transaction.atomic
def claim_device(*, user: User, device_key: str, scored_tokens: list[str]) -> int:
    """Give `user` the matches and player names this browser created, and record it as a scorer
    of the matches it opened through scorer links. Returns how many matches were claimed."""
    claimed = Match.objects.filter(owner_key=device_key, owner__isnull=True).update(owner=user)
    Player.objects.filter(owner_key=device_key, owner__isnull=True).update(owner=user)
    scored = Match.objects.filter(scorer_token__in=scored_tokens).values_list("pk", flat=True)
    existing = set(
        MatchScorer.objects.filter(user=user, match_id__in=scored).values_list(
            "match_id", flat=True
        )
    )
    MatchScorer.objects.bulk_create(
        [MatchScorer(user=user, match_id=pk) for pk in scored if pk not in existing]
    )
    return claimed
