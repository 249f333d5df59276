"""NUL, other control characters and lone surrogates in any text of a match file (names, notes) are
refused with the path of the text, never a server error (PostgreSQL cannot store NUL, no encoding
can write half a character); names made only of invisible characters are refused like empty ones.
The same through the import page, the commands, and the forms of the app."""

import io
import json
from pathlib import Path
from typing import Any

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import CommandError, call_command
from django.test import Client
from django.urls import reverse
from django.utils import translation

from scorekeeper.matches.models import Match

from .conftest import MakeMatch, Snapshot
from .support import coinche_deal, deal_post, new_match_post

pytestmark = pytest.mark.django_db
EXIT_INVALID = 2


def match_file(**changes: Any) -> dict[str, Any]:
    doc: dict[str, Any] = {
        "format": "belote-match/1",
        "rules": {"preset": "coinche", "target": 1000},
        "teams": [
            {"name": "Nous", "players": ["Alice", "Bruno"]},
            {"name": "Eux", "players": ["Chloé", "David"]},
        ],
        "deals": [
            {"taker": 0, "contract": 80, "trump": "hearts", "taker_points": 100},
            {"passed": True, "note": "four passes"},
        ],
    }
    doc.update(changes)
    return doc


def with_name(team: int, name: str) -> dict[str, Any]:
    doc = match_file()
    doc["teams"][team]["name"] = name
    return doc


def with_player(team: int, seat: int, name: str) -> dict[str, Any]:
    doc = match_file()
    doc["teams"][team]["players"][seat] = name
    return doc


def with_note(deal: int, note: str) -> dict[str, Any]:
    doc = match_file()
    doc["deals"][deal]["note"] = note
    return doc


# json.dumps writes them as the escapes "\u0000" and "\ud800", as a file carries them.
BAD_FILES = [
    pytest.param(with_name(0, "\u0000"), "teams[0].name: must not contain control characters "
                 "(U+0000)", id="nul-team-name"),
    pytest.param(with_player(1, 0, "Chlo\u0000é"), "teams[1].players[0]: must not contain "
                 "control characters (U+0000)", id="nul-in-a-player"),
    pytest.param(with_player(0, 1, "\ud800"), "teams[0].players[1]: must not contain a broken "
                 "character (U+D800, half of a surrogate pair)", id="lone-surrogate-player"),
    pytest.param(with_note(1, "\ud83d"), "deals[1].note: must not contain a broken character "
                 "(U+D83D", id="lone-surrogate-note"),
    pytest.param(with_note(0, "a\u0000b"), "deals[0].note: must not contain control characters",
                 id="nul-note"),
    pytest.param(with_name(1, "\u200b\u200d\ufeff"), "teams[1].name: must not be empty: it "
                 "holds only invisible characters", id="zero-width-team-name"),
    pytest.param(with_player(1, 1, "\u2060 "), "teams[1].players[1]: must not be empty",
                 id="word-joiner-player"),
]  # fmt: skip


def upload(doc: object) -> SimpleUploadedFile:
    return SimpleUploadedFile("match.json", json.dumps(doc).encode(), "application/json")


@pytest.mark.parametrize(("doc", "message"), BAD_FILES)
def test_an_upload_with_a_bad_character_is_refused_with_its_path(
    owner_client: Client, snapshot: Snapshot, doc: object, message: str
) -> None:
    state = snapshot()
    response = owner_client.post(reverse("matches:import"), {"file": upload(doc)})
    assert response.status_code == 200
    assert "This match file cannot be imported:" in response.text
    assert message in response.text
    assert snapshot() == state


def test_the_new_errors_are_in_french_too(owner_client: Client) -> None:
    owner_client.cookies["django_language"] = "fr"
    for doc, words in (
        (with_name(0, "\u0000"), "teams[0].name\u00a0: ne doit pas contenir de caractère de "
         "contrôle (U+0000)"),
        (with_player(0, 1, "\ud800"), "teams[0].players[1]\u00a0: ne doit pas contenir de "
         "caractère cassé (U+D800, moitié d'une paire de substitution)"),
        (with_name(1, "\u200b"), "teams[1].name\u00a0: ne doit pas être vide\u00a0: il n'a que "
         "des caractères invisibles"),
    ):  # fmt: skip
        with translation.override("fr"):
            response = owner_client.post(reverse("matches:import"), {"file": upload(doc)})
        assert words in response.text.replace("&#x27;", "'")


def test_a_note_may_hold_tabs_and_line_breaks(owner_client: Client) -> None:
    response = owner_client.post(
        reverse("matches:import"), {"file": upload(with_note(1, "line 1\nline 2\tend"))}
    )
    assert response.status_code == 302
    assert Match.objects.get().deals.get(seq=2).note == "line 1\nline 2\tend"


@pytest.mark.parametrize(("doc", "message"), BAD_FILES[:4])
def test_the_commands_refuse_them_too(
    snapshot: Snapshot, tmp_path: Path, doc: object, message: str
) -> None:
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    state = snapshot()
    with pytest.raises(CommandError) as raised:
        call_command("import_match", str(path), stdout=io.StringIO())
    assert raised.value.returncode == EXIT_INVALID
    assert message in str(raised.value)
    assert snapshot() == state
    with pytest.raises(SystemExit) as exited:
        call_command("score_match", str(path), stdout=(out := io.StringIO()))
    assert exited.value.code == EXIT_INVALID
    error = json.loads(out.getvalue())
    assert message.startswith(f"{error['path']}: ")


# The forms of the app ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("field", "value", "message"),
    [
        ("team0_name", "\u200b", "Write a name that shows"),
        ("team1_name", " \u2060\ufeff ", "Write a name that shows"),
        ("seat2", "\u200c\u200d", "Write a name that shows"),
        ("seat3", "Da\x1bvid", "control character (U+001B)"),
        ("team0_name", "No\tus", "control character (U+0009)"),
        ("seat0", "Al\x85ice", "control character (U+0085)"),
    ],
)
def test_the_new_match_form_refuses_invisible_names_and_control_characters(
    owner_client: Client, snapshot: Snapshot, field: str, value: str, message: str
) -> None:
    state = snapshot()
    response = owner_client.post(reverse("matches:new"), new_match_post(**{field: value}))
    assert response.status_code == 200
    assert message in response.text
    assert f'id="id_{field}_error"' in response.text
    assert snapshot() == state


def test_a_name_with_a_joiner_among_letters_is_kept(owner_client: Client) -> None:
    response = owner_client.post(reverse("matches:new"), new_match_post(seat1="Chlo\u200dé"))
    assert response.status_code == 302
    seat = Match.objects.get().seats[1]
    assert seat is not None and seat.name == "Chlo\u200dé"


@pytest.mark.parametrize("note", ["ding\x07", "a\rb", "esc\x1b[2J", "nul\x00"])
def test_deal_and_manual_notes_refuse_control_characters(
    owner_client: Client, make_match: MakeMatch, snapshot: Snapshot, note: str
) -> None:
    match = make_match(deals=[coinche_deal()])
    state = snapshot()

    def link(name: str, **kwargs: object) -> str:
        return reverse(f"matches:{name}", kwargs={"token": match.scorer_token, **kwargs})

    for url, data in (
        (link("deal_new"), deal_post(match.version, note=note)),
        (link("deal_edit", seq=1), deal_post(match.version, note=note)),
        (link("deal_manual"), {"score0": "10", "score1": "0", "note": note}),
    ):
        response = owner_client.post(url, data)
        assert response.status_code == 200, url
        assert 'id="id_note_error"' in response.text, url
        assert snapshot() == state


def test_a_note_with_a_tab_is_saved(owner_client: Client, make_match: MakeMatch) -> None:
    match = make_match()
    url = reverse("matches:deal_manual", kwargs={"token": match.scorer_token})
    response = owner_client.post(url, {"score0": "10", "score1": "0", "note": "a\tb"})
    assert response.status_code == 302
    assert match.deals.get().note == "a\tb"
