"""Match files through the pages and the commands: download a match (scorer and read-only links),
upload it to import it with the same scores; a bad file is refused whole with its reason;
`import_match` prints "<id> <read-only URL path>" per match, `export_match ID` prints the file."""

import io
import json
from pathlib import Path
from typing import Any

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import CommandError, call_command
from django.test import Client
from django.urls import reverse

from scorekeeper.engine.scoring import ManualDeal, PassedDeal, PlayedDeal, Trump, load_match
from scorekeeper.matches.models import Match

from .conftest import MakeMatch, Snapshot
from .support import coinche_deal

pytestmark = pytest.mark.django_db
EXIT_INVALID = 2


@pytest.fixture
def match(make_match: MakeMatch) -> Match:
    return make_match(
        deals=[
            coinche_deal(belote=(1, 0), coinche="coinche", note="coinché!"),
            PlayedDeal(taker=1, trump=Trump.ALL_TRUMP, contract=90, taker_points=95),
            PassedDeal(),
            ManualDeal((0, 40), "penalty"),
            PlayedDeal(taker=0, trump=Trump.SPADES, contract="capot", capot=0),
        ],
        first_dealer=2,
    )


def scores(match: Match) -> list[tuple[Any, ...]]:
    return [
        (d.number, d.dealer, d.kind, d.outcome, d.score0, d.score1, d.total0, d.total1, d.note)
        for d in match.deals.in_order()
    ]


def upload(content: bytes, name: str = "match.json") -> SimpleUploadedFile:
    return SimpleUploadedFile(name, content, content_type="application/json")


def test_download_then_upload_gives_the_same_match(
    owner_client: Client, other_client: Client, match: Match
) -> None:
    download = owner_client.get(reverse("matches:export", args=[match.scorer_token]))
    assert download.status_code == 200
    assert download["Content-Type"] == "application/json; charset=utf-8"
    assert download["Content-Disposition"].startswith('attachment; filename="match-')
    data = download.json()
    assert data["format"] == "belote-match/1" and len(data["deals"]) == 5
    assert data["teams"][0] == {"name": "Nous", "players": ["Alice", "Bruno"]}
    assert data["first_dealer"] == 2
    viewer = other_client.get(reverse("matches:export_viewer", args=[match.view_token]))
    assert viewer.json() == data

    response = other_client.post(reverse("matches:import"), {"file": upload(download.content)})
    imported = Match.objects.exclude(pk=match.pk).get()
    assert response.status_code == 302
    assert response["Location"] == reverse("matches:scoreboard", args=[imported.scorer_token])
    assert scores(imported) == scores(match)
    assert imported.rules == match.rules and imported.first_dealer == match.first_dealer
    assert (imported.total0, imported.total1, imported.status) == (
        match.total0,
        match.total1,
        match.status,
    )
    assert imported.owner_key == other_client.session["device"]
    board = other_client.get(response["Location"])
    assert "Match imported." in board.text and "coinché!" in board.text


BAD_FILES = [
    (b"not json", "JSON"),
    (
        b'{"format": "belote-match/2", "rules": {"preset": "coinche"}, "deals": []}',
        "format: unsupported format: expected",
    ),
    (
        b'{"format": "belote-match/1", "rules": {"preset": "poker"}, "deals": []}',
        "rules.preset: unknown preset: choose one of",
    ),
    (b'{"format": "belote-match/1", "deals": []}', "rules: missing"),
    (
        b'{"format": "belote-match/1", "rules": {"preset": "coinche"}, "deals": '
        b'[{"passed": true}, {"taker": 0, "contract": 85, "trump": "hearts", "taker_points": 90}]}',
        "deals[1].contract",
    ),
    (
        b'{"format": "belote-match/1", "rules": {"preset": "coinche", "target": 100}, "deals": '
        b'[{"manual_scores": [200, 0]}, {"passed": true}]}',
        "deals[1]",
    ),
    (b"\xff\xfe\x00garbage", ""),
    (b"", ""),
    # The app's own checks: four different players, a believable number of deals.
    (
        b'{"format": "belote-match/1", "rules": {"preset": "coinche"}, "deals": [], "teams": '
        b'[{"name": "A", "players": ["Alice", "Bruno"]}, {"name": "B", "players": ["alice", "D"]}]}',
        "alice sits twice at the table",
    ),
    (
        b'{"format": "belote-match/1", "rules": {"preset": "coinche"}, "deals": ['
        + b",".join([b'{"passed": true}'] * 1001)
        + b"]}",
        "at most 1000 deals",
    ),
]


@pytest.mark.parametrize(("content", "where"), BAD_FILES)
def test_a_bad_file_upload_shows_the_error_and_saves_nothing(
    owner_client: Client, match: Match, snapshot: Snapshot, content: bytes, where: str
) -> None:
    state = snapshot()
    response = owner_client.post(reverse("matches:import"), {"file": upload(content)})
    assert response.status_code == 200
    assert '<p class="error" id="id_file_error">' in response.text
    assert 'aria-describedby="id_file_error"' in response.text
    if content:
        assert "This match file cannot be imported:" in response.text
        assert where in response.text
    assert snapshot() == state


def test_an_unreadable_file_is_explained_in_the_page_language(
    owner_client: Client, snapshot: Snapshot
) -> None:
    state = snapshot()
    owner_client.cookies["django_language"] = "fr"
    for content, message in (
        (b'{"format": ', "JSON non valide (ligne 1, colonne 12)"),
        (b'{"format": "belote-match/1", "deals": []}', "importé\u00a0: rules\u00a0: manquant"),
        ("é".encode("latin-1") + b"{}", "pas du texte UTF-8"),
    ):
        response = owner_client.post(reverse("matches:import"), {"file": upload(content)})
        assert message in response.text, response.text[:3000]
    assert snapshot() == state


def test_an_import_without_a_file(owner_client: Client, snapshot: Snapshot) -> None:
    state = snapshot()
    # A browser always posts the CSRF token, so the form is bound even with no file chosen.
    response = owner_client.post(reverse("matches:import"), {"csrfmiddlewaretoken": "x"})
    assert response.status_code == 200 and "This field is required." in response.text
    assert snapshot() == state


# Commands -------------------------------------------------------------------------------------


def run(*args: str) -> str:
    out = io.StringIO()
    call_command(*args, stdout=out)
    return out.getvalue()


def test_export_match_prints_the_file_and_import_match_gives_the_same_scores(
    match: Match, tmp_path: Path
) -> None:
    text = run("export_match", str(match.pk))
    data = json.loads(text)
    assert data["format"] == "belote-match/1"
    assert load_match(text.encode()).deals == tuple(d.to_engine() for d in match.deals.in_order())
    first, second = tmp_path / "a.json", tmp_path / "b.json"
    first.write_text(text, encoding="utf-8")
    data["teams"][0]["name"] = "Les autres"
    second.write_text(json.dumps(data), encoding="utf-8")

    output = run("import_match", str(first), str(second))
    lines = output.splitlines()
    created = list(Match.objects.exclude(pk=match.pk).order_by("pk"))
    assert len(lines) == 2 and len(created) == 2
    for line, new in zip(lines, created, strict=True):
        assert line == f"{new.pk} /view/{new.view_token}/"
        assert line == f"{new.pk} {reverse('matches:viewer', args=[new.view_token])}"
        assert scores(new) == scores(match)
    assert created[1].team0_name == "Les autres"
    assert output.endswith("\n")


def test_import_match_reads_standard_input(match: Match, monkeypatch: pytest.MonkeyPatch) -> None:
    text = run("export_match", str(match.pk))
    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(text.encode())))
    output = run("import_match", "-")
    new = Match.objects.exclude(pk=match.pk).get()
    assert output == f"{new.pk} /view/{new.view_token}/\n"


@pytest.mark.parametrize(("content", "where"), BAD_FILES)
def test_import_match_refuses_every_file_when_one_is_bad(
    match: Match, snapshot: Snapshot, tmp_path: Path, content: bytes, where: str
) -> None:
    good, bad = tmp_path / "good.json", tmp_path / "bad.json"
    good.write_text(run("export_match", str(match.pk)), encoding="utf-8")
    bad.write_bytes(content)
    state = snapshot()
    with pytest.raises(CommandError) as raised:
        run("import_match", str(good), str(bad))
    assert raised.value.returncode == EXIT_INVALID
    message = str(raised.value)
    assert message.startswith(f"{bad}: ")
    assert where in message
    assert snapshot() == state


def test_import_match_of_a_missing_file(snapshot: Snapshot, tmp_path: Path) -> None:
    state = snapshot()
    with pytest.raises(CommandError) as raised:
        run("import_match", str(tmp_path / "nope.json"))
    assert raised.value.returncode == EXIT_INVALID
    assert "cannot read" in str(raised.value)
    assert snapshot() == state


def test_export_match_of_an_unknown_id(db: None) -> None:
    with pytest.raises(CommandError) as raised:
        run("export_match", "999999")
    assert raised.value.returncode == EXIT_INVALID
    assert str(raised.value) == "no match with id 999999"
