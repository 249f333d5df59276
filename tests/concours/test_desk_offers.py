"""Issue 42 on the desk: what it offers is what the services take, and what they refuse is said
as a sentence that says what to do.

- A round robin with more rounds than its teams allow, and a draw once the final bracket is
  complete: refused in words of their own (capitalised, what to do), in English and French.
- The standings CSV after a bracket round (the standings are the last qualifying round's) is
  neither offered nor served; the qualifying rounds' are.
- A round robin takes no late entry: between its rounds the desk offers none of the three
  registration forms, and each of their POSTs is refused with nothing written."""

import io
from collections.abc import Callable
from html import unescape

import pytest
from django.contrib.auth.models import User
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.urls import reverse

from scorekeeper.concours import selectors, services
from scorekeeper.concours.models import Entrant, Tournament
from tests.factories import TournamentFactory

from .test_formats import bracket_concours, paper_round, run_everything, teams

pytestmark = pytest.mark.django_db

ROUND_ROBIN = {
    "en": "A round robin of 5 teams has at most 5 rounds: change Rounds to 5 or fewer in the "
    "settings (Format, Change the settings), then draw round 1.",
    "fr": "Un championnat de 5 équipes compte au plus 5 parties\u00a0: passez Parties à 5 ou "
    "moins dans les réglages (Formule, Modifier les réglages), puis tirez la partie 1.",
}
COMPLETE = {
    "en": "The final bracket is complete (5 rounds in all): no round is left to draw. Finish "
    "the concours to make its ranking final.",
    "fr": "La phase finale est complète (5 parties en tout)\u00a0: il ne reste aucune partie à "
    "tirer. Terminez le concours pour arrêter son classement final.",
}


def organiser_client(owner: User, lang: str = "en") -> Client:
    client = Client(headers={"accept-language": lang})
    client.force_login(owner)
    return client


def desk(client: Client, tournament: Tournament) -> str:
    return unescape(client.get(reverse("concours:desk", args=[tournament.pk])).text)


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_too_many_rounds_for_a_round_robin_says_to_change_rounds(
    make_user: Callable[[str], User], lang: str
) -> None:
    owner = make_user("org")
    tournament = TournamentFactory.create(
        owner=owner,
        name="Ligue",
        overrides={"seed": 1, "rounds": 6, "pairing": "round_robin"},
        teams=teams(5),
    )
    client = organiser_client(owner, lang)
    response = client.post(reverse("concours:draw", args=[tournament.pk]), follow=True)
    assert ROUND_ROBIN[lang] in unescape(response.content.decode())
    assert not tournament.rounds.exists()
    # Doing what it says draws round 1.
    services.update_tournament(
        tournament=tournament,
        name=tournament.name,
        settings={**tournament.settings, "rounds": 5},
    )
    client.post(reverse("concours:draw", args=[tournament.pk]))
    assert tournament.rounds.count() == 1


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_a_draw_after_the_complete_bracket_says_to_finish(
    make_user: Callable[[str], User], lang: str
) -> None:
    owner = make_user("org")
    tournament = bracket_concours(owner, {"size": 4}, count=6)
    run_everything(tournament)  # 3 qualifying rounds, the semi-finals, the final
    client = organiser_client(owner, lang)
    response = client.post(reverse("concours:draw", args=[tournament.pk]), follow=True)
    assert COMPLETE[lang] in unescape(response.content.decode())
    assert tournament.rounds.count() == 5


def test_no_standings_csv_after_a_bracket_round(make_user: Callable[[str], User]) -> None:
    owner = make_user("org")
    tournament = bracket_concours(owner, {"size": 4}, count=6)
    run_everything(tournament)
    services.finish(tournament=tournament)
    client = organiser_client(owner)
    csv_url = reverse("concours:standings_csv", args=[tournament.pk])
    page = desk(client, tournament)
    # The three qualifying rounds' standings and the final ranking; not rounds 4 and 5.
    for n in (1, 2, 3):
        assert f'href="{csv_url}?round={n}"' in page
    assert f'href="{csv_url}?round=4"' not in page and f'href="{csv_url}?round=5"' not in page
    assert f'href="{csv_url}"' in page
    # Asked all the same, it is refused with a word; the qualifying rounds' are served.
    response = client.get(csv_url, {"round": "4"}, follow=True)
    assert response.redirect_chain[-1][0] == reverse("concours:desk", args=[tournament.pk])
    assert (
        "No standings after round 4: it is a round of the final bracket, which leaves the "
        "standings as they were after round 3. Download those, or the final ranking once the "
        "concours is finished." in unescape(response.content.decode())
    )
    after_3 = client.get(csv_url, {"round": "3"})
    assert after_3.status_code == 200 and after_3["Content-Type"].startswith("text/csv")
    rows = after_3.content.decode().splitlines()
    assert len(rows) == 1 + 6
    final = client.get(csv_url).content.decode()
    assert final.splitlines()[1].startswith(f"1,{selectors.standings_rows(tournament)[0]['id']},")


def test_a_swiss_concours_finished_offers_every_round_but_the_last(
    make_user: Callable[[str], User],
) -> None:
    """Without a bracket, the last round's standings are the final ranking: offered once."""
    owner = make_user("org")
    tournament = TournamentFactory.create(
        owner=owner, name="Suisse", overrides={"seed": 1, "rounds": 2}, teams=teams(4)
    )
    for _ in range(2):
        paper_round(services.draw_round(tournament=tournament))
    client = organiser_client(owner)
    csv_url = reverse("concours:standings_csv", args=[tournament.pk])
    assert f'href="{csv_url}?round=2"' in desk(client, tournament)  # not finished: offered
    services.finish(tournament=tournament)
    page = desk(client, tournament)
    assert f'href="{csv_url}?round=1"' in page and f'href="{csv_url}?round=2"' not in page
    assert f'href="{csv_url}"' in page


def test_a_round_robin_between_rounds_offers_no_late_entry(
    make_user: Callable[[str], User],
) -> None:
    owner = make_user("org")
    tournament = TournamentFactory.create(
        owner=owner,
        name="Ligue",
        overrides={"seed": 1, "rounds": 3, "pairing": "round_robin"},
        teams=teams(4),
    )
    paper_round(services.draw_round(tournament=tournament))  # round 1 played and closed
    client = organiser_client(owner)
    forms = {
        name: reverse(f"concours:{name}", args=[tournament.pk])
        for name in ("add", "paste", "import_csv")
    }
    page = desk(client, tournament)
    assert not any(f'action="{url}"' in page for url in forms.values())
    assert "Add a late entry" not in page
    line = "A round robin takes no late entry: every team plays from round 1."
    assert f'<p class="help" id="entry-closed">{line}</p>' in page
    # The service refuses each all the same, and writes nothing.
    posts = {
        "add": {"name": "Tard", "player1": "a", "player2": "b"},
        "paste": {"text": "Tard; a; b"},
        "import_csv": {
            "file": SimpleUploadedFile("t.csv", io.BytesIO(b"Tard;a;b\n").read(), "text/csv")
        },
    }
    for name, data in posts.items():
        response = client.post(forms[name], data, follow=True)
        assert line in unescape(response.content.decode()), name
    assert Entrant.objects.filter(tournament=tournament).count() == 4
    assert not Entrant.objects.filter(name="Tard").exists()
