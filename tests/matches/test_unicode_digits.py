"""Numbers in a request are read only when they are decimal digits: "²" is a digit to Python's
str.isdigit() but no number to int(), so a form or an address carrying it once gave a server
error. Now it is read as no number, as any other junk."""

import pytest
from django.test import Client
from django.urls import reverse

from .conftest import MakeMatch, Snapshot
from .support import deal_post

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("junk", ["²", "¹2", "①"])
def test_a_superscript_version_or_deal_number_is_no_number(
    owner_client: Client, make_match: MakeMatch, snapshot: Snapshot, junk: str
) -> None:
    match = make_match()
    before = snapshot()
    saved = owner_client.post(
        reverse("matches:deal_new", args=[match.scorer_token]), {**deal_post(None), "version": junk}
    )
    assert saved.status_code == 200 and "altered outside the app" in saved.text
    assert snapshot() == before
    count = owner_client.get(reverse("matches:count", args=[match.scorer_token]), {"for": junk})
    assert count.status_code == 200
