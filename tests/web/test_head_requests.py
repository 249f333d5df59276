"""HEAD asks for a page's headers: every page that answers GET answers HEAD the same way (monitors
and link previews use it), with no body, instead of 405."""

from collections.abc import Iterable
from typing import cast

import pytest
from django.contrib.auth.models import User
from django.http import HttpResponse, HttpResponseBase
from django.test import Client
from django.urls import reverse

from scorekeeper.matches.models import Match
from tests.matches.conftest import MakeMatch
from tests.matches.support import coinche_deal

pytestmark = pytest.mark.django_db


@pytest.fixture
def match(make_match: MakeMatch) -> Match:
    return make_match(deals=[coinche_deal()])


def pages(match: Match) -> list[str]:
    scorer, viewer = match.scorer_token, match.view_token
    return [
        reverse("home"),
        reverse("healthz"),
        reverse("matches:new"),
        reverse("matches:import"),
        reverse("matches:scoreboard", args=[scorer]),
        reverse("matches:deal_new", args=[scorer]),
        reverse("matches:deal_edit", args=[scorer, 1]),
        reverse("matches:deal_delete", args=[scorer, 1]),
        reverse("matches:deal_log", args=[scorer, 1]),
        reverse("matches:deal_manual", args=[scorer]),
        reverse("matches:count", args=[scorer]),
        reverse("matches:share", args=[scorer]),
        reverse("matches:qr", args=[scorer, "view"]),
        reverse("matches:export", args=[scorer]),
        reverse("matches:viewer", args=[viewer]),
        reverse("matches:export_viewer", args=[viewer]),
        reverse("history:history"),
        reverse("history:history_csv"),
        reverse("history:backup"),
        reverse("history:restore"),
        reverse("history:review", args=[viewer]),
        reverse("history:match_csv", args=[viewer]),
        reverse("accounts:login"),
        reverse("accounts:signup"),
    ]


def test_every_get_page_answers_head_like_get(owner_client: Client, match: Match) -> None:
    # Restoring a backup needs an account: this browser signs in first.
    owner_client.force_login(User.objects.create_user("owner"))
    for path in pages(match):
        got = owner_client.get(path)
        head = owner_client.head(path)
        assert head.status_code == got.status_code == 200, path
        assert head["Content-Type"] == got["Content-Type"], path
        # The test client keeps HEAD responses as Django made them, bodies removed.
        response = cast(HttpResponseBase, head)
        body = (
            b"".join(cast(Iterable[bytes], getattr(response, "streaming_content", [])))
            if response.streaming
            else cast(HttpResponse, response).content
        )
        assert body == b"", path
