"""The upload limits are defined once (settings.MATCH_FILE_MAX_BYTES, BACKUP_MAX_BYTES): the
import form, the restore form and each file of a backup zip follow the setting, and the message
says the limit it applied."""

import io
import zipfile
from pathlib import Path

import pytest
from django.contrib.auth.models import User
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client, override_settings
from django.urls import reverse
from django.utils import translation

from scorekeeper.engine.scoring import InvalidInput
from scorekeeper.history import exports
from scorekeeper.web.forms import too_large

ROOT = Path(__file__).resolve().parents[2]


def test_the_default_limits_are_2_mb_a_match_file_and_20_mb_a_backup(owner_client: Client) -> None:
    """As shipped (no override): the import form takes a match file of 2 MB and refuses one byte
    more, saying so; the restore form refuses a backup of 20 MB and one byte, saying so."""
    mb = 1024 * 1024
    at_most = SimpleUploadedFile("m.json", b" " * (2 * mb))
    response = owner_client.post(reverse("matches:import"), {"file": at_most})
    assert "too large" not in response.text
    over = SimpleUploadedFile("m.json", b" " * (2 * mb + 1))
    response = owner_client.post(reverse("matches:import"), {"file": over})
    assert "The file is too large (2 MB at most)." in response.text
    client = Client()
    client.force_login(User.objects.create_user("ann", password="a-long-enough-password-42"))
    over = SimpleUploadedFile("backup.zip", b"\0" * (20 * mb + 1))
    response = client.post(reverse("history:restore"), {"file": over})
    assert "The file is too large (20 MB at most)." in response.text


def test_no_other_module_defines_a_limit() -> None:
    """The numbers appear in settings.py only."""
    found = [
        str(path.relative_to(ROOT))
        for path in (ROOT / "scorekeeper").rglob("*.py")
        if path.name != "settings.py"
        and ("2 * 1024 * 1024" in path.read_text() or "20 * 1024 * 1024" in path.read_text())
    ]
    assert found == []


def test_the_message_says_the_limit() -> None:
    with translation.override("en"):
        assert too_large(2 * 1024 * 1024).messages == ["The file is too large (2 MB at most)."]
        assert too_large(20 * 1024 * 1024).messages == ["The file is too large (20 MB at most)."]


def test_the_message_in_french() -> None:
    with translation.override("fr"):
        assert too_large(2 * 1024 * 1024).messages == [
            "Le fichier est trop gros (2 Mo au maximum)."
        ]


@override_settings(MATCH_FILE_MAX_BYTES=1024 * 1024)
def test_the_import_form_follows_the_setting(owner_client: Client) -> None:
    big = SimpleUploadedFile("m.json", b" " * (1024 * 1024 + 1))
    response = owner_client.post(reverse("matches:import"), {"file": big})
    assert "The file is too large (1 MB at most)." in response.text


@override_settings(BACKUP_MAX_BYTES=1024 * 1024)
@pytest.mark.django_db
def test_the_restore_form_follows_the_setting() -> None:
    client = Client()
    client.force_login(User.objects.create_user("ann", password="a-long-enough-password-42"))
    big = SimpleUploadedFile("backup.zip", b"\0" * (1024 * 1024 + 1))
    response = client.post(reverse("history:restore"), {"file": big})
    assert "The file is too large (1 MB at most)." in response.text


@override_settings(MATCH_FILE_MAX_BYTES=100)
def test_a_file_of_a_backup_follows_the_setting() -> None:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        archive.writestr("a.json", b" " * 101)
    with zipfile.ZipFile(buffer) as archive:
        entry = archive.infolist()[0]
        with pytest.raises(InvalidInput) as refused:
            exports._read(archive, entry)
    assert refused.value.code == "file_too_large"
