"""The round clock (issue 26, docs/concours.md "The round clock"): a stored start time and length
on the round, started by the draw when the concours has `minutes` and again by the organiser;
at zero, time called at every table still playing in one transaction. Every state a page shows
is the server's (the DB's times and `timezone.now()`): the services refuse what the page would
not offer, and a reload (a new client, a server restart) shows the same clock."""

import json
import re
from collections.abc import Callable
from datetime import timedelta
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from scorekeeper.concours import services
from scorekeeper.concours.forms import SettingsForm, form_data
from scorekeeper.concours.models import ResultChange, Round, Table, Tournament
from scorekeeper.concours.services import FORMATS
from scorekeeper.engine.tournament import settings_from_dict
from tests.factories import TournamentFactory

from .support import play_deals, play_out

pytestmark = pytest.mark.django_db

TEAMS = (
    "Les As; Alice; Bruno\nPique Dame; Chloé; David\nTrèfle; Emma; Farid\nCarreau; Gilles; Hana\n"
    "Cœur; Inès; Jules\nPique; Karim; Léa"
)


def concours(organiser: User, minutes: int | None = 45, drawn: bool = True) -> Tournament:
    overrides: dict[str, Any] = {"partie": {"preset": "belote", "deals_limit": 12, "target": None}}
    if minutes is not None:
        overrides["minutes"] = minutes
    return TournamentFactory.create(owner=organiser, overrides=overrides, teams=TEAMS, drawn=drawn)


def round_one(tournament: Tournament) -> Round:
    return Round.objects.select_related("tournament").get(tournament=tournament, number=1)


def to_zero(round_: Round, later: int = 0) -> None:
    """The clock's time is up (its start moved back in the DB by its length, `later` s more)."""
    assert round_.clock_minutes is not None
    back = timedelta(minutes=round_.clock_minutes, seconds=later + 1)
    Round.objects.filter(pk=round_.pk).update(clock_started_at=timezone.now() - back)
    round_.refresh_from_db()


@pytest.fixture
def organiser(make_user: Callable[[str], User]) -> User:
    return make_user("organiser")


@pytest.fixture
def desk(organiser: User) -> Client:
    client = Client()
    client.force_login(organiser)
    return client


# Services ------------------------------------------------------------------------------------


def test_the_draw_starts_the_clock_when_the_concours_has_minutes(organiser: User) -> None:
    before = timezone.now()
    round_ = round_one(concours(organiser, minutes=45))
    assert round_.clock_minutes == 45
    assert round_.clock_started_at is not None
    assert before <= round_.clock_started_at <= timezone.now()
    assert round_.clock_ends_at == round_.clock_started_at + timedelta(minutes=45)
    assert not round_.time_up(timezone.now())
    assert round_.time_up(round_.clock_started_at + timedelta(minutes=45))


def test_no_minutes_no_clock_and_start_is_refused(organiser: User) -> None:
    round_ = round_one(concours(organiser, minutes=None))
    assert round_.clock_started_at is None and round_.clock_ends_at is None
    with pytest.raises(services.Refused) as refused:
        services.start_clock(round_=round_)
    assert refused.value.code == "no_clock"
    round_.refresh_from_db()
    assert round_.clock_started_at is None


def test_start_again_counts_the_full_length_from_now(organiser: User) -> None:
    tournament = concours(organiser, minutes=30)
    round_ = round_one(tournament)
    to_zero(round_)
    version = Tournament.objects.get(pk=tournament.pk).version
    services.start_clock(round_=round_)
    round_.refresh_from_db()
    assert round_.clock_ends_at is not None
    left = round_.clock_ends_at - timezone.now()
    assert timedelta(minutes=29) < left <= timedelta(minutes=30)
    assert Tournament.objects.get(pk=tournament.pk).version > version  # the projector's poll


def test_start_refused_for_a_closed_round(organiser: User) -> None:
    tournament = concours(organiser, minutes=30)
    round_ = round_one(tournament)
    for table in round_.tables.all():
        play_out(table)
    services.close_round(round_=round_)
    started = Round.objects.get(pk=round_.pk).clock_started_at
    with pytest.raises(services.Refused) as refused:
        services.start_clock(round_=round_)
    assert refused.value.code == "clock_round_closed"
    assert Round.objects.get(pk=round_.pk).clock_started_at == started


def test_call_time_everywhere_at_zero(organiser: User) -> None:
    tournament = concours(organiser, minutes=30)
    round_ = round_one(tournament)
    tables = list(round_.tables.order_by("number"))
    play_deals(tables[0], 3)
    play_deals(tables[1], 5)
    play_out(tables[2])  # finished on its own: left as it is
    to_zero(round_)
    called, left = services.call_time_everywhere(round_=round_, author=organiser)
    assert (called, left) == ([1, 2], [])
    stored = {t.number: t for t in Table.objects.filter(round=round_)}
    assert stored[1].ended and stored[1].finished and stored[1].deal_count == 3
    assert stored[2].ended and stored[2].finished and stored[2].deal_count == 5
    assert not stored[3].ended and stored[3].finished
    logged = ResultChange.objects.filter(action="time").values_list("table__number", flat=True)
    assert sorted(logged) == [1, 2]
    services.close_round(round_=round_)  # every table finished: the round closes


def test_a_table_without_a_deal_is_left_and_named(organiser: User) -> None:
    round_ = round_one(concours(organiser, minutes=30))
    tables = list(round_.tables.order_by("number"))
    play_deals(tables[1], 2)
    to_zero(round_)
    called, left = services.call_time_everywhere(round_=round_)
    assert (called, left) == ([2], [1, 3])
    assert not Table.objects.get(pk=tables[0].pk).finished


def test_call_time_everywhere_before_zero_needs_the_confirmation(organiser: User) -> None:
    round_ = round_one(concours(organiser, minutes=30))
    table = round_.tables.get(number=1)
    play_deals(table, 2)
    with pytest.raises(services.Refused) as refused:
        services.call_time_everywhere(round_=round_)
    assert refused.value.code == "clock_running"
    assert not Table.objects.get(pk=table.pk).ended  # nothing changed
    called, _left = services.call_time_everywhere(round_=round_, early=True)
    assert called == [1]
    assert Table.objects.get(pk=table.pk).ended


def test_without_a_clock_only_with_the_confirmation(organiser: User) -> None:
    round_ = round_one(concours(organiser, minutes=None))
    play_deals(round_.tables.get(number=1), 1)
    with pytest.raises(services.Refused) as refused:
        services.call_time_everywhere(round_=round_)
    assert refused.value.code == "clock_running"
    assert services.call_time_everywhere(round_=round_, early=True)[0] == [1]


def test_call_time_everywhere_refused_for_a_closed_round_or_no_table(organiser: User) -> None:
    round_ = round_one(concours(organiser, minutes=30))
    to_zero(round_)
    with pytest.raises(services.Refused) as refused:
        services.call_time_everywhere(round_=round_)
    assert refused.value.code == "no_table_playing"  # no deal anywhere yet
    for table in round_.tables.all():
        play_out(table)
    services.close_round(round_=round_)
    with pytest.raises(services.Refused) as refused:
        services.call_time_everywhere(round_=round_, early=True)
    assert refused.value.code == "clock_round_closed"


def test_call_time_everywhere_is_one_transaction(organiser: User, monkeypatch: Any) -> None:
    """A failure at the second table leaves the first as it was."""
    round_ = round_one(concours(organiser, minutes=30))
    tables = list(round_.tables.order_by("number"))
    play_deals(tables[0], 1)
    play_deals(tables[1], 1)
    to_zero(round_)
    from scorekeeper.concours.services import clock
    from scorekeeper.concours.services import tables as table_services

    real = table_services.call_time
    calls: list[int] = []

    def failing(**kwargs: Any) -> Table:
        calls.append(kwargs["table"].number)
        if len(calls) == 2:
            raise RuntimeError("boom")
        return real(**kwargs)

    monkeypatch.setattr(clock, "call_time", failing)
    with pytest.raises(RuntimeError):
        services.call_time_everywhere(round_=round_)
    assert not Table.objects.filter(round=round_, ended=True).exists()


def test_minutes_change_at_any_time_and_other_settings_stay_locked(organiser: User) -> None:
    tournament = concours(organiser, minutes=30)
    services.update_tournament(
        tournament=tournament,
        name=tournament.name,
        settings={**tournament.settings, "minutes": 20},
    )
    tournament.refresh_from_db()
    assert tournament.settings["minutes"] == 20
    assert round_one(tournament).clock_minutes == 30  # the running clock keeps its length
    settings = {k: v for k, v in tournament.settings.items() if k != "minutes"}
    services.update_tournament(tournament=tournament, name=tournament.name, settings=settings)
    tournament.refresh_from_db()
    assert "minutes" not in tournament.settings
    with pytest.raises(services.Refused):
        services.update_tournament(
            tournament=tournament, name=tournament.name, settings={**settings, "rounds": 7}
        )


def test_export_and_import_carry_the_minutes(organiser: User, desk: Client) -> None:
    tournament = concours(organiser, minutes=40, drawn=False)
    data = json.loads(desk.get(reverse("concours:export", args=[tournament.pk])).content)
    assert data["settings"]["minutes"] == 40
    assert settings_from_dict(data["settings"]).minutes == 40
    copy = services.import_tournament(owner=organiser, text=json.dumps(data))
    assert copy.settings["minutes"] == 40 and copy.engine_settings.minutes == 40
    old = concours(organiser, minutes=None, drawn=False)
    data = json.loads(desk.get(reverse("concours:export", args=[old.pk])).content)
    assert "minutes" not in data["settings"]  # a file from before stays as it was
    copy = services.import_tournament(owner=organiser, text=json.dumps(data))
    assert "minutes" not in copy.settings


# Views ---------------------------------------------------------------------------------------


def test_new_concours_form_sets_the_minutes(desk: Client) -> None:
    page = desk.get(reverse("concours:list")).content.decode()
    assert 'name="minutes"' in page
    post = {**form_data(FORMATS["belote"]), "name": "Le concours", "preset": "belote"}
    post.update(start="belote", minutes="35")
    response = desk.post(reverse("concours:list"), post)
    assert response.status_code == 302, response.content.decode()[:2000]
    created = Tournament.objects.get(name="Le concours")
    assert created.settings["minutes"] == 35
    assert SettingsForm.initial_from(created.settings)["minutes"] == 35
    settings_page = desk.get(reverse("concours:settings", args=[created.pk])).content.decode()
    assert (
        "Round clock: 35 minutes per round"
        in desk.get(reverse("concours:desk", args=[created.pk])).content.decode()
    )
    assert 'value="35"' in settings_page


def test_bad_minutes_are_refused_with_a_message(desk: Client, organiser: User) -> None:
    tournament = concours(organiser, minutes=None, drawn=False)
    post = {**form_data(tournament.settings), "name": tournament.name, "minutes": "601"}
    response = desk.post(reverse("concours:settings", args=[tournament.pk]), post)
    assert response.status_code == 200
    assert "600" in response.content.decode()
    tournament.refresh_from_db()
    assert "minutes" not in tournament.settings


def test_minutes_editable_after_the_draw(desk: Client, organiser: User) -> None:
    tournament = concours(organiser, minutes=30)
    url = reverse("concours:settings", args=[tournament.pk])
    page = desk.get(url).content.decode()
    assert re.search(r'<input[^>]*name="minutes"(?![^>]*disabled)', page)
    response = desk.post(url, {"name": tournament.name, "minutes": "25", "rounds": "9"})
    assert response.status_code == 302
    tournament.refresh_from_db()
    assert tournament.settings["minutes"] == 25
    assert tournament.settings["rounds"] == 4  # locked: what is posted is ignored


def test_desk_shows_the_clock_and_its_actions(desk: Client, organiser: User) -> None:
    tournament = concours(organiser, minutes=30)
    round_ = round_one(tournament)
    play_deals(round_.tables.get(number=1), 2)
    url = reverse("concours:desk", args=[tournament.pk])
    page = desk.get(url).content.decode()
    assert 'id="round-clock"' in page and "data-clock-ends=" in page
    assert "Start the clock again: 30 min from now" in page
    assert "Call time at every table…" in page  # before zero: behind a confirmation
    assert 'name="early" value="yes"' in page
    to_zero(round_)
    page = desk.get(url).content.decode()
    assert "data-clock-time>Time!<" in page and "is-up" in page
    assert 'name="early"' not in page  # at zero: one button, no confirmation


def test_desk_call_time_all_views(desk: Client, organiser: User) -> None:
    tournament = concours(organiser, minutes=30)
    round_ = round_one(tournament)
    play_deals(round_.tables.get(number=1), 2)
    url = reverse("concours:time_all", args=[tournament.pk, 1])
    response = desk.post(url, follow=True)  # before zero, unconfirmed: refused
    assert "has not reached zero" in response.content.decode()
    assert not Table.objects.filter(round=round_, ended=True).exists()
    response = desk.post(url, {"early": "yes"}, follow=True)
    html = response.content.decode()
    assert "Time called at 1 table: 1." in html
    assert "Tables 2, 3 have no deal on their phones" in html
    assert Table.objects.get(round=round_, number=1).ended
    assert desk.get(url).status_code == 405


def test_desk_start_clock_view(desk: Client, organiser: User) -> None:
    tournament = concours(organiser, minutes=30)
    round_ = round_one(tournament)
    to_zero(round_)
    response = desk.post(reverse("concours:start_clock", args=[tournament.pk, 1]), follow=True)
    assert "Round 1: clock started, 30 min." in response.content.decode()
    round_.refresh_from_db()
    assert not round_.time_up(timezone.now())


def test_co_organiser_runs_the_clock(organiser: User) -> None:
    tournament = concours(organiser, minutes=30)
    round_ = round_one(tournament)
    play_deals(round_.tables.get(number=1), 1)
    to_zero(round_)
    helper = Client()
    helper.get(reverse("concours:co", args=[tournament.co_token]))
    assert helper.post(reverse("concours:start_clock", args=[tournament.pk, 1])).status_code == 302
    to_zero(round_)
    response = helper.post(reverse("concours:time_all", args=[tournament.pk, 1]), follow=True)
    assert "Time called at 1 table: 1." in response.content.decode()
    change = ResultChange.objects.get(action="time")
    assert change.author_label  # logged as the co-organiser link


@pytest.mark.parametrize("who", ["stranger", "anonymous", "phone"])
def test_others_cannot_touch_the_clock(
    who: str, organiser: User, make_user: Callable[[str], User]
) -> None:
    tournament = concours(organiser, minutes=30)
    round_ = round_one(tournament)
    play_deals(round_.tables.get(number=1), 1)
    to_zero(round_)
    started = round_.clock_started_at
    client = Client()
    if who == "stranger":
        client.force_login(make_user("stranger"))
    elif who == "phone":
        table = round_.tables.get(number=1)
        client.get(reverse("concours:table", args=[table.token]))
    for name in ("start_clock", "time_all"):
        response = client.post(
            reverse(f"concours:{name}", args=[tournament.pk, 1]), {"early": "yes"}
        )
        assert response.status_code in (302, 404)
        if response.status_code == 302:
            assert "login" in response["Location"]
    assert Round.objects.get(pk=round_.pk).clock_started_at == started
    assert not Table.objects.filter(round=round_, ended=True).exists()


def test_table_phone_shows_the_clock_and_last_deal_at_zero(organiser: User) -> None:
    tournament = concours(organiser, minutes=30)
    round_ = round_one(tournament)
    table = round_.tables.get(number=1)
    phone = Client()
    page = phone.get(reverse("concours:table", args=[table.token]), follow=True).content.decode()
    assert 'id="round-clock"' in page and "Round 1: time left" in page
    assert round_.clock_ends_at is not None
    ends = timezone.localtime(round_.clock_ends_at).strftime("%H:%M")
    assert f"ends at {ends}" in page  # what the page says without its script
    match = re.search(r'data-clock-ends="(\d+)" data-clock-now="(\d+)"', page)
    assert match is not None
    assert int(match[1]) == int(round_.clock_ends_at.timestamp() * 1000)
    assert abs(int(match[2]) - timezone.now().timestamp() * 1000) < 60_000
    assert "data-clock-time>Last deal<" not in page
    to_zero(round_)
    fresh = Client()  # a reload, another phone: the state is in the DB
    page = fresh.get(reverse("concours:table", args=[table.token]), follow=True).content.decode()
    assert "data-clock-time>Last deal<" in page and "is-up" in page
    clock = fresh.get(reverse("concours:table_clock", args=[table.token])).content.decode()
    assert "data-clock-time>Last deal<" in clock and "hx-get" in clock


def test_table_phone_clock_gone_once_time_is_called(organiser: User) -> None:
    tournament = concours(organiser, minutes=30)
    round_ = round_one(tournament)
    table = round_.tables.get(number=1)
    play_deals(table, 1)
    to_zero(round_)
    services.call_time_everywhere(round_=round_)
    phone = Client()
    assert phone.get(reverse("concours:table_clock", args=[table.token])).content == b""
    page = phone.get(reverse("concours:table", args=[table.token])).content.decode()
    assert 'id="round-clock"' not in page


def test_table_clock_of_an_unknown_link_is_404() -> None:
    assert Client().get(reverse("concours:table_clock", args=["nope"])).status_code == 404


def test_projector_shows_the_clock(organiser: User) -> None:
    tournament = concours(organiser, minutes=30)
    round_ = round_one(tournament)
    url = reverse("concours_public:projector", args=[tournament.public_token])
    page = Client().get(url).content.decode()
    assert "proj-clock" in page and "data-clock-ends=" in page
    assert "data-clock-time>Time!<" not in page and "ends at" in page
    to_zero(round_)
    page = Client().get(url).content.decode()  # a reload: the same clock, now at zero
    assert "data-clock-time>Time!<" in page and "is-up" in page
    assert 'role="timer"' in page and 'aria-live="polite"' not in page


def test_projector_without_a_clock(organiser: User) -> None:
    tournament = concours(organiser, minutes=None)
    url = reverse("concours_public:projector", args=[tournament.public_token])
    assert "data-clock-ends" not in Client().get(url).content.decode()


def test_public_standings_page_has_no_clock_actions(organiser: User) -> None:
    tournament = concours(organiser, minutes=30)
    page = (
        Client()
        .get(reverse("concours_public:standings", args=[tournament.public_token]))
        .content.decode()
    )
    assert "time_all" not in page and "time-all" not in page and "/clock/" not in page


def test_french_words(organiser: User) -> None:
    tournament = concours(organiser, minutes=30)
    round_ = round_one(tournament)
    to_zero(round_)
    table = round_.tables.get(number=1)
    phone = Client(HTTP_ACCEPT_LANGUAGE="fr")
    page = phone.get(reverse("concours:table", args=[table.token]), follow=True).content.decode()
    assert "Dernière donne" in page
    url = reverse("concours_public:projector", args=[tournament.public_token])
    assert "Dernière donne" in Client(HTTP_ACCEPT_LANGUAGE="fr").get(url).content.decode()
