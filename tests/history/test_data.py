"""CSV, zip backup and restore, seed_demo, the admin, and query counts that do not grow."""

import csv
import io
import json
import zipfile
from collections.abc import Callable

import pytest
from django.contrib.auth.models import User
from django.core.management import CommandError, call_command
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from scorekeeper.engine.scoring import PlayedDeal, Trump, score_match
from scorekeeper.history.exports import CSV_COLUMNS
from scorekeeper.matches.models import Deal, DealChange, Match, MatchScorer, Player
from scorekeeper.web.models import RateLimit
from tests.conftest import Browser

from .conftest import FACTS_DEALS, FACTS_SCORES, OWNER_KEY, MakeMatch

# These read response.context (the figures a page was given).
pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("template_context")]


def read_csv(response: object) -> list[list[str]]:
    body = b"".join(response.streaming_content).decode()  # type: ignore[attr-defined]
    return list(csv.reader(io.StringIO(body)))


def upload(client: Client, data: bytes, name: str = "backup.zip") -> str:
    file = io.BytesIO(data)
    file.name = name
    return client.post("/history/restore/", {"file": file}, follow=True).text


def zip_of(files: dict[str, object]) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        for name, content in files.items():
            archive.writestr(name, content if isinstance(content, str) else json.dumps(content))
    return buffer.getvalue()


def snapshot() -> tuple[int, int, int]:
    return (Match.objects.count(), Deal.objects.count(), Player.objects.count())


# CSV ------------------------------------------------------------------------------------------


def test_match_csv_has_a_header_and_one_row_per_deal(facts_match: Match, browser: Browser) -> None:
    response = browser("anyone").get(f"/view/{facts_match.view_token}/deals.csv")
    assert response["Content-Type"] == "text/csv; charset=utf-8"
    assert "attachment" in response["Content-Disposition"]
    rows = read_csv(response)
    assert rows[0] == CSV_COLUMNS
    deals = [dict(zip(CSV_COLUMNS, row, strict=True)) for row in rows[1:]]
    assert len(deals) == 6
    assert [d["deal"] for d in deals] == ["1", "2", "3", "4", "5", "6"]
    assert [(d["score1"], d["score2"]) for d in deals] == [
        ("200", "80"), ("250", "0"), ("580", "0"), ("0", "0"), ("20", "330"), ("1120", "0"),
    ]  # fmt: skip
    last = deals[5]
    assert last["team1"] == "Nous" and last["team2"] == "Eux"
    assert last["takers"] == "Eux"
    assert (last["contract"], last["trump"], last["coinche"]) == ("120", "spades", "surcoinche")
    assert (last["total1"], last["total2"], last["outcome"]) == ("2170", "410", "failed")
    assert deals[0]["announcements"] == "Nous: tierce K"
    assert deals[3]["kind"] == "passed" and deals[3]["takers"] == ""
    assert deals[4]["capot"] == "Eux" and deals[4]["belote1"] == "1"


def test_csv_of_all_my_matches(make_match: MakeMatch, browser: Browser) -> None:
    first = make_match("coinche", FACTS_DEALS)
    second = make_match(
        "belote", [PlayedDeal(taker=0, trump=Trump.CLUBS, taker_points=100)], team_names=("A", "B")
    )
    make_match(
        "belote",
        [PlayedDeal(taker=0, trump=Trump.CLUBS, taker_points=90)],
        owner_key="not-me",
        players=(None, None, None, None),
    )
    rows = read_csv(browser(OWNER_KEY).get("/history/deals.csv"))
    assert rows[0] == CSV_COLUMNS
    tokens = [row[0].removeprefix("'") for row in rows[1:]]  # "'-..." for a token starting with "-"
    assert tokens == [first.view_token[:8]] * 6 + [second.view_token[:8]]


# Backup and restore ---------------------------------------------------------------------------


def test_backup_and_restore_recreate_the_same_matches(
    make_match: MakeMatch, browser: Browser, make_user: Callable[[str], User]
) -> None:
    originals = [
        make_match("coinche", FACTS_DEALS),
        make_match(
            "belote",
            [PlayedDeal(taker=0, trump=Trump.CLUBS, taker_points=81)],
            team_names=("Les As", "Capot"),
            players=(None, None, None, None),
        ),
    ]
    response = browser(OWNER_KEY).get("/history/backup.zip")
    assert response["Content-Type"] == "application/zip"
    archive = zipfile.ZipFile(io.BytesIO(response.content))
    assert len(archive.namelist()) == 2
    for name in archive.namelist():
        assert json.loads(archive.read(name))["format"] == "belote-match/1"

    user = make_user("restorer")
    before = set(Match.objects.values_list("pk", flat=True))
    text = upload(browser("new-phone", user), response.content)
    assert "2 matches restored." in text
    restored = list(Match.objects.exclude(pk__in=before).order_by("pk"))
    assert len(restored) == 2
    for old, new in zip(originals, restored, strict=True):
        assert new.owner == user and new.owner_key == "new-phone"
        for field in ("team0_name", "team1_name", "total0", "total1", "reserve", "status"):
            assert getattr(new, field) == getattr(old, field), field
        assert (new.winner, new.deal_count, new.rules) == (old.winner, old.deal_count, old.rules)
        assert [p.name if p else None for p in new.seats] == [
            p.name if p else None for p in old.seats
        ]
        assert list(new.deals.values_list("score0", "score1", "total0", "total1")) == list(
            old.deals.values_list("score0", "score1", "total0", "total1")
        )


def test_restored_players_belong_to_the_account(
    make_match: MakeMatch, browser: Browser, make_user: Callable[[str], User]
) -> None:
    """Restored while signed in, the matches and their player pages follow the account."""
    make_match("coinche", FACTS_DEALS)
    backup = browser(OWNER_KEY).get("/history/backup.zip").content
    user = make_user("restorer")
    upload(browser("new-phone", user), backup)
    alice = Player.objects.get(owner_key="new-phone", name="Alice")
    assert alice.owner == user
    assert browser("laptop", user).get(f"/players/{alice.pk}/").status_code == 200


@pytest.fixture
def restorer(browser: Browser, make_user: Callable[[str], User]) -> Client:
    """Restoring needs an account (test_restore.py: anonymous browsers are sent to log in)."""
    return browser("restorer", make_user("restorer"))


def test_a_zip_with_one_invalid_file_restores_the_others(
    facts_match: Match, browser: Browser, restorer: Client
) -> None:
    """Each file stands alone: the valid ones are restored, the invalid one is listed with its
    reason (it was "refused whole" before the restore went one match per transaction)."""
    good = browser(OWNER_KEY).get("/history/backup.zip").content
    good_file = zipfile.ZipFile(io.BytesIO(good)).read(
        zipfile.ZipFile(io.BytesIO(good)).namelist()[0]
    )
    bad = json.loads(good_file)
    bad["deals"][1]["taker_points"] = 200
    data = zip_of({"a-good.json": good_file.decode(), "b-broken.json": bad})
    matches, deals, players = snapshot()
    text = upload(restorer, data)
    assert "1 match restored, 1 file refused." in text
    assert "b-broken.json: deals[1].taker_points" in text
    assert snapshot() == (matches + 1, deals + 6, players + 4)


@pytest.mark.parametrize(
    ("data", "message"),
    [
        (b"this is not a zip", "Nothing was restored: not a zip file"),
        (zip_of({}), "Nothing was restored: the zip holds no match file"),
        (zip_of({"notes.txt": "hello"}), "notes.txt"),
    ],
)
def test_restore_refuses_bad_uploads_clearly(restorer: Client, data: bytes, message: str) -> None:
    before = snapshot()
    text = upload(restorer, data)
    assert message in text
    assert snapshot() == before


def _damaged(how: str) -> bytes:
    """A zip whose one member is damaged in a way zipfile only notices when reading it."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("m.json", json.dumps({"format": "belote-match/1"}) * 50)
    data = bytearray(buffer.getvalue())
    header = 30 + len("m.json")  # the local file header, then the compressed data
    if how == "crc":
        data[14] ^= 0xFF  # the CRC in the local header
        data[data.rindex(b"PK\x01\x02") + 16] ^= 0xFF  # and in the central directory
    elif how == "deflate":
        data[header : header + 8] = b"\xff" * 8
    elif how == "encrypted":
        data[6] |= 1
        data[data.rindex(b"PK\x01\x02") + 8] |= 1
    elif how == "method":
        data[8] = 99
        data[data.rindex(b"PK\x01\x02") + 10] = 99
    return bytes(data)


@pytest.mark.parametrize("how", ["crc", "deflate", "encrypted", "method"])
def test_a_damaged_zip_is_refused_with_a_message(restorer: Client, how: str) -> None:
    before = snapshot()
    text = upload(restorer, _damaged(how))
    assert "0 matches restored, 1 file refused." in text
    assert "m.json: damaged zip: this file cannot be read" in text
    assert snapshot() == before


def test_restore_without_a_file_says_so(restorer: Client) -> None:
    response = restorer.post("/history/restore/", {})
    assert response.status_code == 200
    assert "This field is required." in response.text


# seed_demo ------------------------------------------------------------------------------------


def test_seed_demo_creates_realistic_matches_scored_by_the_engine(
    capsys: pytest.CaptureFixture[str],
) -> None:
    call_command("seed_demo", "--matches", "4", "--seed", "7", "--owner", "demo")
    assert "Created 4 matches, in the history of demo." in capsys.readouterr().out
    demo = User.objects.get(username="demo")
    matches = list(Match.objects.all())
    assert len(matches) == 4
    assert sum(m.deal_count for m in matches) > 4 * 3
    for match in matches:
        assert match.owner == demo
        assert all(p is not None for p in match.seats)
        assert match.team0_name != match.team1_name
        rows = list(match.deals.in_order())
        assert len(rows) == match.deal_count
        result = score_match(
            match.engine_rules, [row.to_engine() for row in rows], match.first_dealer
        )
        assert (match.total0, match.total1) == result.totals
        assert match.reserve == result.reserve
        assert match.is_finished == result.finished
        assert match.winner == (result.winner if isinstance(result.winner, int) else None)
        for row, scored in zip(rows, result.deals, strict=True):
            assert (row.score0, row.score1) == scored.scores
            assert (row.total0, row.total1) == scored.totals
            assert row.outcome == scored.outcome
    assert Player.objects.filter(owner=demo).count() >= 4


@pytest.mark.parametrize("value", ["0", "-3", "many"])
def test_seed_demo_refuses_a_bad_count(value: str) -> None:
    with pytest.raises(CommandError, match="--matches"):
        call_command("seed_demo", "--matches", value)
    assert not Match.objects.exists()


# Admin ----------------------------------------------------------------------------------------

ADMIN_PAGES = {
    Player: "/admin/matches/player/?q=ali&user__isempty=1",
    Match: "/admin/matches/match/?q=nous&status__exact=finished",
    MatchScorer: "/admin/matches/matchscorer/?q=sam&match__game=coinche",
    Deal: "/admin/matches/deal/?q=nous&kind__exact=played",
    DealChange: "/admin/matches/dealchange/?q=nous&action__exact=add",
    User: "/admin/auth/user/?q=sam&is_staff__exact=0",
    RateLimit: "/admin/web/ratelimit/?q=import",
}


def test_every_model_is_in_the_admin_with_search_and_filters(
    facts_match: Match, browser: Browser, make_user: Callable[[str], User]
) -> None:
    from django.contrib import admin

    MatchScorer.objects.create(match=facts_match, user=make_user("sam"))
    superuser = User.objects.create_superuser("root", password="a-long-enough-password-42")
    client = browser("admin-device", superuser)
    for model, url in ADMIN_PAGES.items():
        model_admin = admin.site._registry[model]
        assert model_admin.search_fields, model
        assert model_admin.list_filter, model
        response = client.get(url)
        assert response.status_code == 200, url
        assert "?e=" not in response.get("Location", ""), url  # a bad filter redirects with ?e=1
        assert client.get(url.split("?")[0]).status_code == 200


def test_admin_search_finds_the_rows(facts_match: Match, browser: Browser) -> None:
    superuser = User.objects.create_superuser("root", password="a-long-enough-password-42")
    client = browser("admin-device", superuser)
    response = client.get("/admin/matches/match/?q=nous&status__exact=finished")
    assert response.context["cl"].result_count == 1
    response = client.get("/admin/matches/match/?q=nobody")
    assert response.context["cl"].result_count == 0
    response = client.get("/admin/matches/dealchange/?q=nous")
    assert response.context["cl"].result_count == DealChange.objects.count() == 6


def test_the_admin_cannot_change_a_score(facts_match: Match, browser: Browser) -> None:
    """Scores are the engine's: deals and their history are read-only in the admin, and on a
    match only the owning account can be changed (its other fields are shown, not editable)."""
    superuser = User.objects.create_superuser("root", password="a-long-enough-password-42")
    client = browser("admin-device", superuser)
    deal = facts_match.deals.first()
    assert deal is not None
    page = client.get(f"/admin/matches/deal/{deal.pk}/change/").text
    assert 'name="score0"' not in page and 'name="_save"' not in page
    assert client.post(f"/admin/matches/deal/{deal.pk}/change/", {"score0": 1}).status_code == 403
    assert client.get("/admin/matches/deal/add/").status_code == 403
    page = client.get(f"/admin/matches/match/{facts_match.pk}/change/").text
    assert 'name="owner"' in page
    for field in ("total0", "team0_name", "rules", "status", "rematch_of"):
        assert f'name="{field}"' not in page, field
    deal.refresh_from_db()
    assert deal.score0 == FACTS_SCORES[0][0]


def test_the_admin_shows_who_sits_where_read_only(facts_match: Match, browser: Browser) -> None:
    superuser = User.objects.create_superuser("root", password="a-long-enough-password-42")
    client = browser("admin-device", superuser)
    page = client.get(f"/admin/matches/match/{facts_match.pk}/change/").text
    names = [player.name for player in facts_match.seats if player is not None]
    assert len(names) == 4 and all(name in page for name in names)
    assert 'name="seat_rows-0-player"' not in page and 'name="seat_rows-0-position"' not in page


# Query counts ---------------------------------------------------------------------------------


def count_queries(client: Client, url: str) -> int:
    with CaptureQueriesContext(connection) as context:
        assert client.get(url).status_code == 200
    return len(context.captured_queries)


def test_history_and_player_pages_do_not_grow_with_the_data(
    make_match: MakeMatch, browser: Browser, make_user: Callable[[str], User]
) -> None:
    user = make_user("alice")
    deals = FACTS_DEALS[:3]
    for _ in range(3):
        make_match("coinche", deals, owner=user)
    Player.objects.filter(owner_key=OWNER_KEY).update(owner=user)
    alice = Player.objects.get(owner_key=OWNER_KEY, name="Alice")
    client = browser("another-device", user)
    pages = ["/history/", "/history/?q=nous&status=playing", f"/players/{alice.pk}/"]
    few = {url: count_queries(client, url) for url in pages}
    for i in range(27):
        make_match(
            "coinche",
            deals,
            owner=user,
            players=("Alice", f"Opponent {i}", f"Partner {i}", "David"),
        )
    many = {url: count_queries(client, url) for url in pages}
    assert many == few
