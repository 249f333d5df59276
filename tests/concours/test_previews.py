"""Results as links worth opening (issue 45): the public standings (live, then the final ranking)
and a finished match's read-only view carry Open Graph and Twitter card tags with a one-line
summary and an image of the result: a PNG of 1200 × 630, its address naming the version it
shows (an older one sent on, the current one cached for good), drawn once per version and
language, holding only what the page shows everyone. The desk's Share the results."""

import io
from collections.abc import Callable
from datetime import date
from html.parser import HTMLParser

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse
from PIL import Image, ImageDraw

from scorekeeper.concours import previews as concours_previews
from scorekeeper.concours import selectors, services
from scorekeeper.concours.models import Table, Tournament
from scorekeeper.engine.scoring import rules_from_dict
from scorekeeper.web import previews
from tests.factories import MatchFactory, TournamentFactory
from tests.matches.support import coinche_deal

from .support import play_out, play_rounds

pytestmark = pytest.mark.django_db

TEAMS = "Les As; Alice; Bruno\nPique Dame; Chloé; David\nTrèfle; Emma; Farid\nCarreau; Gilles; Hana"


class Tags(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.tags: dict[str, str] = {}

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        found = dict(attrs)
        key = found.get("property") or found.get("name")
        if tag == "meta" and key and found.get("content") is not None:
            self.tags[key] = str(found["content"])


def tags(html: str) -> dict[str, str]:
    parser = Tags()
    parser.feed(html)
    return parser.tags


@pytest.fixture
def organiser(make_user: Callable[[str], User]) -> User:
    return make_user("organiser")


@pytest.fixture(autouse=True)
def nothing_kept() -> None:
    previews.KEPT.images.clear()


def finished(organiser: User) -> Tournament:
    tournament = TournamentFactory.create(
        owner=organiser,
        name="Concours de la Saint-Martin",
        date=date(2026, 11, 11),
        place="Salle des fêtes",
        overrides={"seed": 5, "rounds": 2, "partie": {"preset": "belote", "deals_limit": 2}},
        teams=TEAMS,
    )
    play_rounds(tournament, 2, finish=False)
    last = tournament.rounds.get(number=2).tables.get(number=1)
    services.correct_result(table=last, totals=(900, 100))  # one team clearly first
    services.finish(tournament=tournament)
    tournament.refresh_from_db()
    return tournament


def public(tournament: Tournament, query: str = "") -> str:
    return reverse("concours_public:standings", args=[tournament.public_token]) + query


def test_the_final_ranking_carries_its_preview(organiser: User) -> None:
    tournament = finished(organiser)
    rows = selectors.standings_rows(tournament)
    assert [row["rank"] for row in rows][:2] == [1, 2], rows
    winner = rows[0]["name"]
    found = tags(Client().get(public(tournament)).content.decode())
    expected = f"{winner} win the Concours de la Saint-Martin · 4 teams"
    assert found["og:description"] == found["twitter:description"] == expected
    assert found["og:title"] == "Concours de la Saint-Martin · Final ranking"
    assert found["twitter:card"] == "summary_large_image"
    assert found["og:url"] == "http://testserver" + public(tournament)
    version = selectors.change_key(public_token=tournament.public_token)
    card = reverse("concours_public:card", args=[tournament.public_token])
    assert found["og:image"] == f"http://testserver{card}?v={version}&lang=en"
    assert (found["og:image:width"], found["og:image:height"]) == ("1200", "630")
    assert winner in found["og:image:alt"]


def test_the_preview_speaks_the_language_its_link_asks(organiser: User) -> None:
    tournament = finished(organiser)
    found = tags(Client().get(public(tournament, "?lang=fr")).content.decode())
    assert "remporte" in found["og:description"] and "4 équipes" in found["og:description"]
    assert found["og:image"].endswith("&lang=fr") and found["og:locale"] == "fr_FR"


def test_the_live_standings_and_a_registration_say_where_they_are(organiser: User) -> None:
    tournament = TournamentFactory.create(
        owner=organiser, date=date(2026, 11, 11), teams=TEAMS, overrides={"seed": 2}
    )
    services.set_registration(tournament=tournament, opened=True)
    found = tags(Client().get(public(tournament)).content.decode())
    assert found["og:description"] == "Registration open · 4 teams registered"
    services.set_registration(tournament=tournament, opened=False)
    round_ = services.draw_round(tournament=tournament)
    for table in round_.tables.all():
        play_out(table, seed=1)
    found = tags(Client().get(public(tournament)).content.decode())
    assert found["og:description"].startswith("Round 1 of 4 · 4 teams · leading: ")


def png_of(content: bytes) -> Image.Image:
    return Image.open(io.BytesIO(content))


def test_the_image_is_a_png_of_1200_by_630_cached_by_its_version(
    organiser: User, monkeypatch: pytest.MonkeyPatch
) -> None:
    tournament = finished(organiser)
    drawn: list[previews.Card] = []
    draw = previews.draw_card

    def counted(card: previews.Card) -> bytes:
        drawn.append(card)
        return draw(card)

    monkeypatch.setattr(previews, "draw_card", counted)
    address = tags(Client().get(public(tournament)).content.decode())["og:image"]
    response = Client().get(address)
    assert response.status_code == 200 and response["Content-Type"] == "image/png"
    assert response["Cache-Control"] == "public, max-age=31536000, immutable"
    image = png_of(response.content)
    assert image.format == "PNG" and image.size == (1200, 630)
    assert len(response.content) < 60_000  # 32 colours: about 25 KB
    # Asked again: the image kept, not drawn again.
    assert Client().get(address).content == response.content
    assert len(drawn) == 1
    # A corrected result moves the version: the old address is sent on, a new image drawn.
    table = Table.objects.get(round__tournament=tournament, round__number=2, number=2)
    services.correct_result(table=table, totals=(950, 50))
    moved = Client().get(address)
    assert moved.status_code == 302 and moved["Cache-Control"] == "no-cache"
    assert moved["Location"] != address.removeprefix("http://testserver")
    assert Client().get(moved["Location"]).status_code == 200
    assert len(drawn) == 2
    # Without a version: the current image, kept a few minutes only.
    bare = Client().get(reverse("concours_public:card", args=[tournament.public_token]))
    assert bare.status_code == 200 and bare["Cache-Control"] == "public, max-age=300"
    assert Client().get(reverse("concours_public:card", args=["nope"])).status_code == 404


def test_the_image_holds_only_what_the_page_shows_everyone(organiser: User) -> None:
    tournament = finished(organiser)
    rows = selectors.standings_rows(tournament)
    card = concours_previews.card(tournament, rows, teams=4, current=2, rounds=2)
    text = " ".join([card.title, card.summary, card.site, *(" ".join(r) for r in card.rows)])
    assert card.title == "Concours de la Saint-Martin"
    assert card.rows[0] == ("1.", rows[0]["name"], f"{rows[0]['points']} pts")
    assert len(card.rows) == 4 and "Salle des fêtes" in card.site and "2026" in card.site
    for secret in (
        tournament.co_token,
        tournament.public_token,
        organiser.username,
        *(t for t in tournament.rounds.values_list("tables__token", flat=True) if t),
    ):
        assert secret not in text


def test_long_names_are_cut_to_fit_and_the_image_stays_its_size() -> None:
    card = previews.Card(
        title="Le très grand concours de belote de la Saint-Martin et de la Toussaint " * 3,
        summary="Les Rois de la Coinche du Dimanche Après-Midi win " * 4,
        rows=tuple((f"{n}.", "Œ" * 80, "12 345 pts") for n in range(1, 20)),
        site="Belote score",
    )
    image = Image.open(io.BytesIO(previews.draw_card(card)))
    assert image.size == (1200, 630)
    drawer = ImageDraw.Draw(Image.new("RGB", (10, 10)))
    font = previews._font(40, False)
    cut = previews.fit(drawer, "Œ" * 80, font, 300)
    assert cut.endswith("…") and drawer.textlength(cut, font=font) <= 300
    lines = previews.wrap(drawer, card.title, previews._font(54, True), 1080, 2)
    assert len(lines) == 2 and lines[-1].endswith("…")


def test_a_finished_match_s_view_carries_its_preview() -> None:
    rules = rules_from_dict({"preset": "coinche", "target": 300})
    match = MatchFactory.create(
        rules=rules,
        team_names=("Les As", "Les Rois"),
        deals=[coinche_deal(contract=160, points=162)],
    )
    assert match.is_finished
    view = reverse("matches:viewer", args=[match.view_token])
    found = tags(Client().get(view).content.decode())
    winner, loser = (0, 1) if match.winner == 0 else (1, 0)
    names = ("Les As", "Les Rois")
    totals = (match.total0, match.total1)
    assert found["og:description"].startswith(
        f"{names[winner]} win {totals[winner]} – {totals[loser]} against {names[loser]} · "
    )
    assert found["og:title"] == f"Les As {totals[0]} – {totals[1]} Les Rois"
    image = Client().get(found["og:image"])
    assert image.status_code == 200 and png_of(image.content).size == (1200, 630)
    assert match.scorer_token not in str(found)
    # The scorer's page has none, nor a match still playing.
    scorer = reverse("matches:scoreboard", args=[match.scorer_token])
    assert "og:image" not in Client().get(scorer).content.decode()
    playing = MatchFactory.create()
    html = Client().get(reverse("matches:viewer", args=[playing.view_token])).content.decode()
    assert "og:image" not in html
    card = reverse("matches:card", args=[playing.view_token])
    assert Client().get(card).status_code == 404


def test_the_desk_shares_the_results(organiser: User) -> None:
    tournament = finished(organiser)
    owner = Client()
    owner.force_login(organiser)
    html = owner.get(reverse("concours:desk", args=[tournament.pk])).content.decode()
    assert 'id="share"' in html and "Share the results" in html
    assert f"http://testserver{public(tournament)}?lang=en" in html
    assert reverse("concours_public:qr", args=[tournament.public_token]) in html
    assert 'download="concours-de-la-saint-martin.png"' in html
    image = reverse("concours_public:card", args=[tournament.public_token])
    assert f'href="{image}?v=' in html
