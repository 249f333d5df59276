"""What the desk says of a table phone that works without signal (docs/offline.md): "phone
offline since 14:32 · 3 deals waiting" once the phone reported in with changes waiting, "no news
for N minutes" when it has not got through for a while, nothing for a finished table or a phone
that never kept its pages. Only the phone's POSTs write it; the desk reads it in the query it
already makes."""

from collections.abc import Callable
from datetime import datetime, timedelta
from zoneinfo import ZoneInfo

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from scorekeeper.concours.models import Table
from scorekeeper.concours.phones import phone_news
from scorekeeper.matches.models import Match
from tests.factories import TournamentFactory

pytestmark = pytest.mark.django_db

PARIS = ZoneInfo("Europe/Paris")
NOW = datetime(2026, 11, 27, 15, 0, tzinfo=PARIS)


@pytest.mark.parametrize(
    ("finished", "seen", "since", "waiting", "words"),
    [
        (False, None, None, 0, ""),  # never kept its pages: nothing to say
        (False, NOW - timedelta(minutes=1), None, 0, ""),  # heard of a minute ago
        (False, NOW - timedelta(minutes=7), None, 0, "no news for 7 minutes"),
        (False, NOW - timedelta(minutes=61), None, 0, "no news for 61 minutes"),
        (
            False,
            NOW - timedelta(minutes=1),
            datetime(2026, 11, 27, 14, 32, tzinfo=PARIS),
            3,
            "phone offline since 14:32 · 3 deals waiting",
        ),
        (
            False,
            NOW - timedelta(minutes=20),
            datetime(2026, 11, 27, 14, 32, tzinfo=PARIS),
            1,
            "phone offline since 14:32 · 1 deal waiting",
        ),
        (True, NOW - timedelta(minutes=30), NOW, 2, ""),  # a finished table's phone is done
    ],
)
def test_phone_news(
    finished: bool, seen: datetime | None, since: datetime | None, waiting: int, words: str
) -> None:
    news = phone_news(
        finished=finished, seen_at=seen, offline_since=since, waiting=waiting, now=NOW
    )
    assert news == words


def test_the_desk_shows_what_the_table_phone_said(
    make_user: Callable[[str], User], client: Client
) -> None:
    organiser = make_user("organiser")
    client.force_login(organiser)
    tournament = TournamentFactory.create(
        owner=organiser,
        overrides={"partie": {"preset": "belote", "deals_limit": 12, "target": None}},
        teams="Les As; Alice; Bruno\nPique Dame; Chloé; David\nTrèfle; Emma; Farid\nCarreau; Gilles; Hana",
        drawn=True,
    )
    first, second = Table.objects.filter(round__tournament=tournament).order_by("number")
    since = timezone.now() - timedelta(minutes=25)
    Match.objects.filter(concours_table=first).update(
        phone_seen_at=timezone.now(), phone_offline_since=since, phone_waiting=2
    )
    Match.objects.filter(concours_table=second).update(
        phone_seen_at=timezone.now() - timedelta(minutes=12)
    )
    page = client.get(reverse("concours:desk", args=[tournament.pk])).content.decode()
    local = timezone.localtime(since).strftime("%H:%M")
    assert f"phone offline since {local} · 2 deals waiting" in page
    assert "no news for 12 minutes" in page
    # The desk's GET wrote nothing.
    assert Match.objects.get(concours_table=second).phone_waiting == 0


def test_the_table_phone_reports_in_through_its_outbox(
    client: Client, make_user: Callable[[str], User]
) -> None:
    organiser = make_user("organiser")
    tournament = TournamentFactory.create(
        owner=organiser,
        overrides={"partie": {"preset": "belote", "deals_limit": 12, "target": None}},
        teams="Les As; Alice; Bruno\nPique Dame; Chloé; David",
        drawn=True,
    )
    table = Table.objects.select_related("match").get(round__tournament=tournament)
    assert table.match is not None
    phone = Client()
    phone.get(reverse("concours:table", args=[table.token]))
    since = int((timezone.now() - timedelta(minutes=3)).timestamp() * 1000)
    answer = phone.post(
        reverse("matches:outbox", args=[table.match.scorer_token]),
        {"action": "heartbeat", "offline_since": str(since), "waiting": "4"},
    )
    assert answer.status_code == 200
    match = Match.objects.get(pk=table.match.pk)
    assert match.phone_waiting == 4
    assert match.phone_offline_since is not None
    assert match.phone_seen_at is not None
