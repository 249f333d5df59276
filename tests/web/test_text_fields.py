"""Issue 23, text fields: one rule for every free text the app stores (engine/scoring/free_text.py, said by
scorekeeper/web/validators.py). A walk over every model text field and every form of the project
proves none is missed; a concours's place with a right-to-left override is refused on its form,
the field named and nothing written; a form body with a lone surrogate (which Django decodes
into U+FFFD) is refused, not stored; the club archive of a club with legitimate texts restores."""

import contextlib
import importlib
import io
import json
import pkgutil
import zipfile
from collections.abc import Callable, Iterator
from datetime import date
from typing import Any

import pytest
from django import forms
from django.apps import apps
from django.contrib.auth.models import User
from django.core.exceptions import ValidationError
from django.db import models
from django.test import Client
from django.urls import reverse
from django.utils import translation

import scorekeeper
from scorekeeper.accounts.forms import SignupForm
from scorekeeper.clubs import exports
from scorekeeper.clubs import services as club_services
from scorekeeper.clubs.models import Club, Person, Season
from scorekeeper.concours import services as tournament_services
from scorekeeper.concours.forms import form_data
from scorekeeper.concours.models import Entrant, Tournament
from scorekeeper.concours.selectors import export_document
from scorekeeper.concours.services import concours as concours_services
from scorekeeper.engine.scoring import InvalidInput, load_match
from scorekeeper.engine.tournament import TournamentError
from scorekeeper.web import validators
from scorekeeper.web.words import explain
from tests.clubs.public_support import played, season
from tests.factories import ClubFactory, TournamentFactory

TEXT_VALIDATORS = {validators.validate_name, validators.validate_text, validators.validate_note}

# Model text fields nobody types: the app writes them (tokens, keys, codes, labels it makes).
# Each is named, with why; a field not here and not a choice must carry a text validator.
INTERNAL_MODEL_FIELDS = {
    "matches.Player.owner_key": "the browser's key (a token)",
    "matches.Match.view_token": "a link's token",
    "matches.Match.scorer_token": "a link's token",
    "matches.Match.owner_key": "the browser's key (a token)",
    "matches.Match.preset": "a preset's code (scoring.rules.PRESETS)",
    "matches.Match.game": "a game's code (coinche, belote)",
    "matches.Deal.contract": 'a code: "90", "capot", "generale" or ""',
    "matches.Deal.trump": "a suit's code",
    "matches.Deal.coinche": "a code: none, coinche, surcoinche",
    "matches.Deal.announcements_to": 'a code: "", "0", "1" or "none"',
    "matches.Deal.outcome": "the engine's code (made, failed...)",
    "matches.DealChange.author_key": "the browser's key (a token)",
    "matches.DealChange.author": "a label the app writes (a username, 'scorer link'...)",
    "matches.DealChange.submission": "a form's one-time id (checked [A-Za-z0-9_-])",
    "concours.Tournament.co_token": "a link's token",
    "concours.Tournament.public_token": "a link's token",
    "concours.Table.token": "a link's token",
    "concours.Registration.token": "a link's token",
    "concours.Registration.code": "a short code the app draws ([A-Z2-9]{6})",
    "concours.ResultChange.author_label": "a label the app writes ('co-organiser link')",
    "concours.ResultChange.action": "a code: paper, correction, time",
    "clubs.Club.invite_token": "a link's token",
    "clubs.Alias.spelling_key": "spelling_key(spelling): derived from a validated spelling",
    "web.RateLimit.key": "a rate limit's key (a scope and a hashed address)",
    "web.LiveChange.topic": "a topic the database's triggers write (m12: match 12)",
    "jobs.Job.kind": "a key of settings.JOB_KINDS, set by the view that starts the job",
    "jobs.Job.owner_key": "the browser's key (a token)",
}

# Form fields nobody types a free text in, or whose rule is Django's own.
INTERNAL_FORM_FIELDS = {
    "DealStamp.submission": "hidden: a one-time id (the view keeps it only if [A-Za-z0-9_-])",
    "DealForm.submission": "hidden: the same",
    "DealForm.preselected": 'hidden: "generale:0", compared, never stored',
    "ManualDealForm.submission": "hidden: a one-time id",
    "SignupForm.username": "Django's username validator: letters, digits and @.+-_ only "
    "(test_the_username_rule_refuses_them_too)",
    "SignupForm.password1": "a password is hashed, never shown: its characters are its owner's",
    "SignupForm.password2": "the same password again",
}


def has_text_rule(found: list[Any]) -> bool:
    # by identity: other validators (MaxLengthValidator...) are not hashable
    return any(validator is rule for validator in found for rule in TEXT_VALIDATORS)


def project_models() -> Iterator[type[models.Model]]:
    """The project's models (Django's and other libraries' are theirs: the app's only form over
    one of them is the sign-up, whose username follows Django's rule, see below)."""
    for model in apps.get_models():
        if model.__module__.startswith("scorekeeper."):
            yield model


def text_fields(model: type[models.Model]) -> Iterator[models.Field[Any, Any]]:
    for field in model._meta.get_fields():
        if (
            isinstance(field, models.CharField | models.TextField)
            and not isinstance(field, models.SlugField)  # a slug's own validator: [-a-zA-Z0-9_]
            and not field.choices  # one of the codes it lists
        ):
            yield field


def test_every_model_text_field_has_the_text_rule() -> None:
    missing, seen = [], set()
    for model in project_models():
        for field in text_fields(model):
            name = f"{model._meta.app_label}.{model.__name__}.{field.name}"
            seen.add(name)
            if name in INTERNAL_MODEL_FIELDS:
                continue
            if not has_text_rule(field.validators):
                missing.append(name)
    assert missing == []
    assert set(INTERNAL_MODEL_FIELDS) - seen == set()  # no stale exclusion
    assert "concours.Tournament.place" in seen  # the walk reaches the field
    prizes = Tournament._meta.get_field("prizes")  # a JSON field of texts
    assert validators.validate_prizes in prizes.validators


def project_forms() -> list[type[forms.BaseForm]]:
    """Every form class defined in the project, every module imported first."""
    for module in pkgutil.walk_packages(scorekeeper.__path__, "scorekeeper."):
        if ".migrations" in module.name or module.name in ("scorekeeper.wsgi", "scorekeeper.asgi"):
            continue
        importlib.import_module(module.name)
    found: list[type[forms.BaseForm]] = []
    todo: list[type[forms.BaseForm]] = [forms.BaseForm]
    while todo:
        for sub in todo.pop().__subclasses__():
            todo.append(sub)
            if sub.__module__.startswith("scorekeeper.") and sub not in found:
                found.append(sub)
    return found


def form_fields(form: type[forms.BaseForm]) -> dict[str, forms.Field]:
    """The form's fields, those its constructor adds too when it can be built without arguments
    (the new match form's settings)."""
    fields: dict[str, forms.Field] = dict(getattr(form, "base_fields", {}))
    with contextlib.suppress(TypeError):  # it needs the match's rules...: its declared fields
        fields.update(form().fields)
    return fields


@pytest.mark.django_db
def test_every_form_text_field_has_the_text_rule() -> None:
    classes = project_forms()
    names = {form.__name__ for form in classes}
    assert {"ConcoursForm", "TeamForm", "ClubForm", "SeasonForm", "NewMatchForm"} <= names
    missing, seen = [], set()
    for form in classes:
        for name, field in form_fields(form).items():
            if not isinstance(field, forms.CharField):
                continue
            key = f"{form.__name__}.{name}"
            seen.add(key)
            if key not in INTERNAL_FORM_FIELDS and not has_text_rule(field.validators):
                missing.append(key)
    assert missing == []
    assert set(INTERNAL_FORM_FIELDS) - seen == set()
    assert "NewConcoursForm.place" in seen and "NewMatchForm.multipliers" in seen


BAD = ["Da\u202evid", "Da\u2066vid", "Da\u200fvid", "Da\x07vid", "Da\ufffdvid", "Da\u200bvid"]


@pytest.mark.django_db
@pytest.mark.parametrize("name", BAD)
def test_the_username_rule_refuses_them_too(name: str) -> None:
    form = SignupForm({"username": name, "password1": "Xy9-long-pw", "password2": "Xy9-long-pw"})
    assert not form.is_valid() and "username" in form.errors


@pytest.mark.parametrize(
    ("validator", "value", "code"),
    [
        (validators.validate_name, "\u200b", "empty"),  # a name's words: "Write a name that shows"
        (validators.validate_text, "\u200b", "invisible"),
        (validators.validate_text, "Caf\ufffd", "replacement_character"),
        (validators.validate_note, "a\u202eb", "direction_control"),
        (validators.validate_note, "a\x1bb", "control_character"),
    ],
)
def test_the_validators_say_the_rule_in_a_forms_words(
    validator: Callable[[Any], None], value: str, code: str
) -> None:
    with pytest.raises(ValidationError) as raised:
        validator(value)
    assert raised.value.code in {code, "invisible"}
    with translation.override("fr"):
        french = str(raised.value.messages[0])
    assert french != str(raised.value.messages[0]) or "\u00a0:" in french


def test_the_form_words_read_in_french() -> None:
    for words in validators.FORM_WORDS.values():
        with translation.override("fr"):
            french = str(words)
        assert french != str(words) and "\u00a0:" in french


# A concours's place ------------------------------------------------------------------------


@pytest.fixture
def organiser(make_user: Callable[[str], User], client: Client) -> User:
    user = make_user("organiser")
    client.force_login(user)
    return user


def concours_post(tournament: Tournament, **changes: str) -> dict[str, str]:
    return {"name": tournament.name, "place": tournament.place, "prizes": "",
            **form_data(tournament.settings), **changes}  # fmt: skip


@pytest.mark.django_db
@pytest.mark.parametrize("place", ["Salle\u202e des fêtes", "\u200b", "Salle\x07", "\u2067Caf"])
def test_a_place_with_an_override_is_refused_on_the_settings_page(
    organiser: User, client: Client, place: str
) -> None:
    tournament = TournamentFactory.create(owner=organiser, name="Saint-Martin")
    before = list(Tournament.objects.values())
    url = reverse("concours:settings", args=[tournament.pk])
    response = client.post(url, concours_post(tournament, place=place))
    assert response.status_code == 200
    html = response.content.decode()
    assert 'id="id_place_error"' in html
    assert '<a href="#id_place">Place</a>: ' in html  # the summary names the field
    assert list(Tournament.objects.values()) == before


@pytest.mark.django_db
def test_a_new_concours_with_an_override_in_its_place_writes_nothing(
    organiser: User, client: Client
) -> None:
    data = {"preset": "belote", "name": "Saint-Martin", "place": "Salle \u202edes fêtes"}
    response = client.post(reverse("concours:list"), data)
    assert response.status_code == 200
    html = response.content.decode()
    assert "Remove the direction control (U+202E): it can make the text read backwards." in html
    assert '<a href="#id_place">Place</a>: ' in html
    assert not Tournament.objects.exists()
    client.cookies["django_language"] = "fr"
    html = client.post(reverse("concours:list"), data).content.decode()
    assert "Retirez le contrôle de direction (U+202E)\u00a0: il peut faire lire le texte" in html


@pytest.mark.django_db
def test_prizes_and_a_team_refuse_them_too(organiser: User, client: Client) -> None:
    tournament = TournamentFactory.create(owner=organiser, name="Saint-Martin")
    url = reverse("concours:settings", args=[tournament.pk])
    for prizes in ("1: un jambon\u202e", "1: \u200b"):
        response = client.post(url, concours_post(tournament, prizes=prizes))
        assert 'id="id_prizes_error"' in response.content.decode()
    add = reverse("concours:add", args=[tournament.pk])
    response = client.post(add, {"name": "Les \u202eRois", "player1": "A", "player2": "B"})
    assert not Entrant.objects.exists()
    tournament.refresh_from_db()
    assert tournament.prizes == {}


def test_the_services_refuse_them_with_the_path() -> None:
    with pytest.raises(TournamentError) as raised:
        concours_services._place("Salle\u202e")
    assert (raised.value.path, raised.value.code) == ("place", "direction_control")
    with pytest.raises(TournamentError) as raised:
        concours_services._prizes({2: "\u200b"})
    assert (raised.value.path, raised.value.code) == ("prizes[2]", "invisible")


# A lone surrogate in a form body -----------------------------------------------------------


@pytest.mark.django_db
def test_a_lone_surrogate_in_a_form_body_is_refused_not_stored(
    organiser: User, client: Client
) -> None:
    """`%ED%A0%80` is U+D800 written in UTF-8, which no text may hold: Django decodes the body
    with errors replaced (U+FFFD), and the rule refuses that as a broken character."""
    body = "preset=belote&name=Saint-Martin&place=Caf%ED%A0%80"
    response = client.post(
        reverse("concours:list"), body, content_type="application/x-www-form-urlencoded"
    )
    assert response.status_code == 200
    html = response.content.decode()
    assert "Remove the broken character (U+FFFD)" in html
    assert '<a href="#id_place">Place</a>: ' in html
    assert not Tournament.objects.exists()
    body = "name=Club%ED%A0%80&town="
    response = client.post(
        reverse("clubs:list"), body, content_type="application/x-www-form-urlencoded"
    )
    assert "Remove the broken character (U+FFFD)" in response.content.decode()
    assert not Club.objects.exists()


@pytest.mark.django_db
def test_a_town_with_an_override_is_refused_on_the_club_desk(
    organiser: User, client: Client
) -> None:
    club = ClubFactory.create(organiser=organiser, name="Le Club", town="Rouen")
    response = client.post(
        reverse("clubs:edit", args=[club.pk]), {"name": "Le Club", "town": "Rou\u202een"}
    )
    assert response.status_code == 302
    page = client.get(response["Location"]).content.decode()
    assert "Town: Remove the direction control (U+202E)" in page
    club.refresh_from_db()
    assert club.town == "Rouen"


# The club archive --------------------------------------------------------------------------

TEXTS: dict[str, str] = {
    "club": "L’As de Cœur 🂱",
    "town": "Saint\u2011Étienne « centre »",
    "place": "Salle des fêtes ‘Le Cœur’ 👨\u200d👩\u200d👧",
    "prize": "Un jambon 🍖 et « deux bouteilles »",
    "season": "Saison d’hiver 🇫🇷",
}
TEAMS = {"Les Rois 👑": 900, "Chloé\u200d & Zoë": 800, "نادي": 700, "L’Œuf": 600}


@pytest.mark.django_db
def test_the_archive_of_a_club_with_legitimate_texts_restores(
    make_user: Callable[[str], User],
) -> None:
    ann = make_user("ann")
    club = ClubFactory.create(organiser=ann, name=TEXTS["club"], town=TEXTS["town"])
    concours = played(ann, club, "Octobre ‘25’", date(2025, 10, 1), TEAMS,
                      prizes={1: TEXTS["prize"]})  # fmt: skip
    tournament_services.update_tournament(
        tournament=concours,
        name=concours.name,
        date=concours.date,
        place=TEXTS["place"],
        prizes={1: TEXTS["prize"]},
    )
    season(club, TEXTS["season"])
    data = exports.archive_zip(club)
    Tournament.objects.all().delete()
    club.delete()
    fresh = ClubFactory.create(organiser=ann, name="Nouveau", town="")
    result = exports.restore_archive(club=fresh, owner=ann, data=data)
    assert result is not None
    fresh.refresh_from_db()
    assert (fresh.name, fresh.town) == (TEXTS["club"], TEXTS["town"])
    restored = Tournament.objects.get(club=fresh)
    assert (restored.name, restored.place) == ("Octobre ‘25’", TEXTS["place"])
    assert restored.prizes == {"1": TEXTS["prize"]}
    assert set(restored.entrants.values_list("name", flat=True)) == set(TEAMS)
    assert Season.objects.get(club=fresh).name == TEXTS["season"]
    assert set(TEAMS) <= set(Person.objects.filter(club=fresh).values_list("name", flat=True))


@pytest.mark.django_db
def test_a_text_stored_before_the_rule_is_reported_with_its_path_on_restore(
    make_user: Callable[[str], User],
) -> None:
    """Rows saved before issue 23 keep their characters (validators touch no stored row) and the
    export writes them as they are: the restore refuses such an archive whole, naming the path,
    and the organiser corrects the text on the desk (its form names the field) and archives
    again."""
    ann = make_user("ann")
    club = ClubFactory.create(organiser=ann)
    concours = played(ann, club, "Octobre", date(2025, 10, 1), {"Rois": 900, "Dames": 800})
    Tournament.objects.filter(pk=concours.pk).update(place="Salle\u202e")  # an old row
    data = exports.archive_zip(club)
    with zipfile.ZipFile(io.BytesIO(data)) as archive:
        assert json.loads(archive.read("manifest.json"))["concours"][0]["place"] == "Salle\u202e"
    fresh = ClubFactory.create(organiser=ann, name="Nouveau")
    with pytest.raises(TournamentError) as raised:
        exports.restore_archive(club=fresh, owner=ann, data=data)
    assert raised.value.path == "manifest.json: concours[0].place"
    assert raised.value.code == "direction_control"
    assert not Tournament.objects.filter(club=fresh).exists()
    club_services.update_club(club=fresh, name="Nouveau", town="")  # nothing else was touched


# The file readers: the same rule, said with the path ----------------------------------------


@pytest.mark.django_db
def test_the_files_refuse_a_direction_control_with_its_path(
    make_user: Callable[[str], User],
) -> None:
    ann = make_user("ann")
    tournament = TournamentFactory.create(
        owner=ann, name="Saint-Martin", teams=[(name, "A", "B") for name in ("Rois", "Dames")]
    )
    document = export_document(tournament)
    document["entrants"][1]["name"] = "Da\u202emes"
    with pytest.raises(TournamentError) as raised:
        tournament_services.import_tournament(owner=ann, text=json.dumps(document))
    assert (raised.value.path, raised.value.code) == ("entrants[1].name", "direction_control")
    with translation.override("en"):
        assert explain(raised.value) == (
            "entrants[1].name: must not contain a direction control (U+202E): it can make a text "
            "read backwards"
        )
    match_file = {
        "format": "belote-match/1",
        "rules": {"preset": "coinche"},
        "teams": [{"name": "Nous"}, {"name": "Eux"}],
        "deals": [{"passed": True, "note": "line 1\nline 2\u2067"}],
    }
    with pytest.raises(InvalidInput) as refused:
        load_match(json.dumps(match_file).encode())
    assert (refused.value.path, refused.value.code) == ("deals[0].note", "direction_control")
