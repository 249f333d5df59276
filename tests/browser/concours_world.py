"""Issue 27: one seeded world of concours and club pages for the accessibility browser tests
(test_concours_a11y.py): a concours in registration, one with round 2 under way (some tables
finished, one playing, others not started), a finished one attached to a club with a season;
and the list of their pages, by who sees them. Built once per test and visited in one browser
page per role, so that the many pages cost one set-up."""

from dataclasses import dataclass
from datetime import date

from django.contrib.auth.models import User

from scorekeeper.clubs import services as club_services
from scorekeeper.clubs.models import Club, Person, Season
from scorekeeper.concours import services
from scorekeeper.concours.models import Table, Tournament

from ..clubs.public_support import played, season
from ..concours.support import play_deals, play_out, play_rounds

PASSWORD = "a-long-enough-password-42"
# Long names, as clubs have them: what squeezes a table's columns.
TEAMS = [
    ("Les Invincibles de Marseille", "Benoît-Alexandre", "Chloé"),
    ("Pique Dame", "Anna", "David"),
    ("Trèfle d'Or", "Emma", "Farid"),
    ("Carreau Magique", "Gaston", "Hélène"),
    ("Cœur Vaillant", "Inès", "Jules"),
    ("Atout Maître", "Karim", "Louise"),
    ("Belote et Rebelote", "Marcel", "Nadia"),
    ("Les Rois du Pique", "Octave", "Pauline"),
]


@dataclass
class World:
    owner: User
    registration: Tournament
    running: Tournament
    finished: Tournament
    playing_table: Table  # round 2 of `running`, under way
    finished_table: Table  # round 2 of `running`, played out
    club: Club
    season: Season
    person: Person


def _concours(owner: User, name: str, rounds: int) -> Tournament:
    tournament = services.create_tournament(
        owner=owner,
        name=name,
        preset="belote",
        overrides={"seed": 1111, "rounds": rounds},
        place="Salle des fêtes",
        date=date(2025, 11, 11),
        prizes={1: "Un jambon de Bayonne", 2: "Deux bouteilles"},
    )
    for team, a, b in TEAMS:
        services.add_entrant(tournament=tournament, name=team, players=(a, b))
    tournament.refresh_from_db()
    return tournament


def build(owner: User) -> World:
    registration = _concours(owner, "Concours de printemps", 3)
    running = _concours(owner, "Concours de la Saint-Martin", 3)
    play_rounds(running, 1, finish=False)
    round_ = services.draw_round(tournament=running)
    tables = list(round_.tables.order_by("number"))
    play_out(tables[0], seed=2)
    play_deals(tables[1], 2)
    finished = play_rounds(_concours(owner, "Concours de Noël", 3), 3)
    club = club_services.create_club(user=owner, name="Belote Club du Vieux Port", town="Marseille")
    club_services.attach(club=club, tournament=finished, user=owner)
    club_services.publish(club=club, tournament=finished, published=True)
    points = {team: 900 - 50 * i for i, (team, _, _) in enumerate(TEAMS)}
    players = {team: (a, b) for team, a, b in TEAMS}
    played(owner, club, "Concours de janvier", date(2026, 1, 10), points, players=players)
    a_season = season(club, "Saison 2025-2026", rank="players", measure="placement")
    person = Person.objects.filter(club=club).order_by("pk").first()
    assert person is not None
    for tournament in (registration, running, finished):
        tournament.refresh_from_db()
    return World(
        owner=owner,
        registration=registration,
        running=running,
        finished=finished,
        playing_table=Table.objects.get(pk=tables[1].pk),
        finished_table=Table.objects.get(pk=tables[0].pk),
        club=club,
        season=a_season,
        person=person,
    )


def public_pages(world: World) -> list[tuple[str, str]]:
    """What anyone sees: the public standings in every state and tab, Find my table, the table
    phone, the club's public pages and the prints anyone may open."""
    running, finished, club = world.running, world.finished, world.club
    playing = world.playing_table.token
    done = world.finished_table.token
    slug = club.slug
    return [
        ("public-registration", f"/c/{world.registration.public_token}/"),
        ("public-running", f"/c/{running.public_token}/"),
        ("public-running+after-1", f"/c/{running.public_token}/?after=1"),
        ("public-running-find", f"/c/{running.public_token}/?q=Invincibles"),
        ("public-running+find-many", f"/c/{running.public_token}/?q=Les"),
        ("public-finished", f"/c/{finished.public_token}/"),
        ("public-finished+after-2", f"/c/{finished.public_token}/?after=2"),
        ("public-finished-find", f"/c/{finished.public_token}/?q=Anna"),
        ("table-phone-playing", f"/t/{playing}/"),
        ("table-phone-finished", f"/t/{done}/"),
        ("club", f"/club/{slug}/"),
        ("club-concours", f"/club/{slug}/concours/{finished.pk}/"),
        ("club-season", f"/club/{slug}/season/{world.season.pk}/"),
        ("club-season-print", f"/club/{slug}/season/{world.season.pk}/print/"),
        ("club-record", f"/club/{slug}/record/{world.person.pk}/"),
    ]


def projector_pages(world: World) -> list[tuple[str, str]]:
    return [
        ("projector-registration", f"/c/{world.registration.public_token}/projector/"),
        ("projector-running", f"/c/{world.running.public_token}/projector/"),
        ("projector-finished", f"/c/{world.finished.public_token}/projector/"),
    ]


def organiser_pages(world: World) -> list[tuple[str, str]]:
    """What the organiser sees: the desks in the three states, their forms and prints, the
    club's desk and season pages."""
    reg, running, finished, club = world.registration, world.running, world.finished, world.club
    return [
        ("concours-list", "/concours/"),
        ("desk-registration", f"/concours/{reg.pk}/"),
        ("desk-settings", f"/concours/{reg.pk}/settings/"),
        ("desk-entrant", f"/concours/{reg.pk}/entrant/1/edit/"),
        ("desk-running", f"/concours/{running.pk}/"),
        ("desk-round-tables", f"/concours/{running.pk}/round/1/tables/"),
        ("table-phone-playing+desk", f"/concours/{running.pk}/round/2/table/2/deals/"),
        ("desk-running+swap", f"/concours/{running.pk}/round/2/swap/"),
        ("desk-finished", f"/concours/{finished.pk}/"),
        ("desk-delete", f"/concours/{finished.pk}/delete/"),
        ("print-draw", f"/concours/{running.pk}/round/2/print/draw/"),
        ("print-sheets", f"/concours/{running.pk}/round/2/print/sheets/"),
        ("print-ranking-running", f"/concours/{running.pk}/print/ranking/"),
        ("print-ranking", f"/concours/{finished.pk}/print/ranking/"),
        ("concours-import", "/concours/import/"),
        ("clubs", "/clubs/"),
        ("club-desk", f"/clubs/{club.pk}/"),
        ("club-season-new", f"/clubs/{club.pk}/seasons/new/"),
        ("club-season-edit", f"/clubs/{club.pk}/seasons/{world.season.pk}/"),
        ("club-people", f"/clubs/{club.pk}/people/"),
        ("club-restore", f"/club/{club.slug}/restore/"),
    ]


def co_organiser_pages(world: World) -> list[tuple[str, str]]:
    """The co-organiser's desk (opened through its link: a redirect to the desk)."""
    return [("desk-running+co-organiser", f"/concours/co/{world.running.co_token}/")]
