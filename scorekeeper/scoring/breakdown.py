"""How a score was reached, as data, and its rendering in English or French.

The engine builds lines of data (no strings), so the same result reads in either language and with
the real team names: `render(lines, "fr", ("Nous", "Eux"))`.
"""

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Literal

from .announcements import Announcement

Lang = Literal["en", "fr"]
LANGS: tuple[Lang, ...] = ("en", "fr")


@dataclass(frozen=True, slots=True)
class Term:
    value: int
    label: str  # a key of LABELS
    times: int = 1  # value = times × a single amount, shown as "2 × 100 contract"


@dataclass(frozen=True, slots=True)
class Formula:
    """`team`'s total or score: terms added up, times `multiplier`, then rounded."""

    key: Literal["total", "score"]
    team: int
    terms: tuple[Term, ...]
    multiplier: int = 1
    rounded: int | None = None  # None when rounding changed nothing

    @property
    def exact(self) -> int:
        return self.multiplier * sum(term.value for term in self.terms)

    @property
    def result(self) -> int:
        return self.exact if self.rounded is None else self.rounded


@dataclass(frozen=True, slots=True)
class Note:
    key: str  # a key of MESSAGES
    team: int | None = None
    points: int | None = None
    other: int | None = None
    contract: int | str | None = None
    trump: str | None = None
    coinche: str | None = None
    items: tuple[Announcement, ...] = ()


Line = Formula | Note

MESSAGES: dict[Lang, dict[str, str]] = {
    "en": {
        "contract": "Contract {contract} {trump}{coinche}, taken by {team}",
        "took": "{team} took at {trump}",
        "took_generale": "{team} announced a générale at {trump}",
        "capot": "Capot by {team}",
        "generale": "Générale: one player of {team} won every trick",
        "made_bid_and_beat": "Made: {points} ≥ {contract} and more than {other}",
        "made_bid_only": "Made: {points} ≥ {contract}",
        "failed_below": "Failed: {points} < {contract}",
        "failed_not_more": "Failed: {points} is not more than {other}",
        "made_capot_bid": "Made: every trick won",
        "failed_capot_bid": "Failed: the takers did not win every trick",
        "made_generale_bid": "Made: one taker won every trick",
        "failed_generale_bid": "Failed: no single taker won every trick",
        "made_classic": "Made: {points} > {other}",
        "failed_classic": "Failed (dedans): {points} < {other}",
        "failed_equal": "Failed: equal totals, {points} each",
        "made_capot": "Made: capot",
        "failed_capot": "Failed: capot by the defence",
        "litige": "Litige: {points} each; the {other} of {team} are held for the next deal's winners",
        "litige_unawarded": "Litige: {points} each; the {other} of {team} stay held in reserve, "
        "not awarded (the match is over)",
        "ann_team": "Announcements counted for {team}: {items}",
        "ann_tie": "Announcements: equal best, none count",
        "ann_ruling_none": "Announcements: by the table's ruling, none count",
        "ann_ruling": "Announcements: by the table's ruling, those of {team} count",
        "passed": "All passed",
        "manual": "Scores entered by hand",
        "reserve_received": "{team} receives the {points} held in reserve",
        "coinched_points": "Coinched contract scored on points: the defence keeps its total",
        "capot_bid_contract": "A made {contract} bid scores its contract alone",
    },
    "fr": {
        "contract": "Contrat {contract} {trump}{coinche}, pris par {team}",
        "took": "{team} a pris à {trump}",
        "took_generale": "{team} a annoncé une générale à {trump}",
        "capot": "Capot de {team}",
        "generale": "Générale : un joueur de {team} a fait tous les plis",
        "made_bid_and_beat": "Fait : {points} ≥ {contract} et plus que {other}",
        "made_bid_only": "Fait : {points} ≥ {contract}",
        "failed_below": "Chute : {points} < {contract}",
        "failed_not_more": "Chute : {points} n'est pas plus que {other}",
        "made_capot_bid": "Fait : tous les plis",
        "failed_capot_bid": "Chute : les preneurs n'ont pas fait tous les plis",
        "made_generale_bid": "Fait : un preneur a fait tous les plis",
        "failed_generale_bid": "Chute : aucun preneur n'a fait tous les plis seul",
        "made_classic": "Fait : {points} > {other}",
        "failed_classic": "Dedans : {points} < {other}",
        "failed_equal": "Chute : égalité, {points} chacun",
        "made_capot": "Fait : capot",
        "failed_capot": "Dedans : capot de la défense",
        "litige": "Litige : {points} chacun ; les {other} de {team} en réserve pour les "
        "gagnants de la donne suivante",
        "litige_unawarded": "Litige : {points} chacun ; les {other} de {team} restent en réserve, "
        "non attribués (la partie est finie)",
        "ann_team": "Annonces comptées pour {team} : {items}",
        "ann_tie": "Annonces : meilleures égales, aucune ne compte",
        "ann_ruling_none": "Annonces : selon la table, aucune ne compte",
        "ann_ruling": "Annonces : selon la table, celles de {team} comptent",
        "passed": "Tout le monde a passé",
        "manual": "Points saisis à la main",
        "reserve_received": "{team} reçoit les {points} points en réserve",
        "coinched_points": "Contrat coinché compté aux points : la défense garde les siens",
        "capot_bid_contract": "Une annonce de {contract} réussie ne compte que le contrat",
    },
}

LABELS: dict[Lang, dict[str, str]] = {
    "en": {
        "cards": "cards",
        "belote": "belote",
        "announcements": "announcements",
        "contract": "contract",
        "base": "base",
        "capot": "capot",
        "generale": "générale",
        "dedans": "dedans",
        "reserve": "reserve",
    },
    "fr": {
        "cards": "points",
        "belote": "belote",
        "announcements": "annonces",
        "contract": "contrat",
        "base": "base",
        "capot": "capot",
        "generale": "générale",
        "dedans": "dedans",
        "reserve": "réserve",
    },
}

TRUMPS: dict[Lang, dict[str, str]] = {
    "en": {"spades": "♠", "hearts": "♥", "diamonds": "♦", "clubs": "♣",
           "no_trump": "sans atout", "all_trump": "tout atout"},
    "fr": {"spades": "♠", "hearts": "♥", "diamonds": "♦", "clubs": "♣",
           "no_trump": "sans atout", "all_trump": "tout atout"},
}  # fmt: skip
COINCHES: dict[Lang, dict[str, str]] = {
    "en": {"none": "", "coinche": " coinched", "surcoinche": " surcoinched"},
    "fr": {"none": "", "coinche": " coinché", "surcoinche": " surcoinché"},
}
CONTRACTS: dict[Lang, dict[str, str]] = {
    "en": {"capot": "capot", "generale": "générale"},
    "fr": {"capot": "capot", "generale": "générale"},
}
COLON: dict[Lang, str] = {"en": ": ", "fr": " : "}  # French puts a space before the colon
KINDS = {"tierce": "tierce", "quarte": "quarte", "quinte": "quinte", "carre": "carré"}
TRUMP_WORD: dict[Lang, str] = {"en": "trump", "fr": "atout"}
DEFAULT_TEAMS: dict[Lang, tuple[str, str]] = {
    "en": ("Team 1", "Team 2"),
    "fr": ("Équipe 1", "Équipe 2"),
}


RANKS: dict[Lang, dict[str, str]] = {"en": {}, "fr": {"J": "V", "Q": "D", "K": "R"}}


def _announcement(item: Announcement, lang: Lang) -> str:
    text = f"{KINDS[item.kind]} {RANKS[lang].get(item.high.value, item.high.value)}"
    return f"{text} ({TRUMP_WORD[lang]})" if item.trump else text


def _formula(line: Formula, lang: Lang, teams: Sequence[str]) -> str:
    labels = LABELS[lang]
    terms = [
        f"{t.times} × {t.value // t.times} {labels[t.label]}"
        if t.times != 1
        else f"{t.value} {labels[t.label]}"
        for t in line.terms
    ]
    expr = " + ".join(terms) if terms else "0"
    if line.multiplier != 1:
        expr = f"{line.multiplier} × ({expr})"
    if len(line.terms) > 1 or line.multiplier != 1:
        expr = f"{expr} = {line.exact}"
    if line.rounded is not None:
        expr = f"{expr} → {line.rounded}"
    return f"{teams[line.team]}{COLON[lang]}{expr}"


def render_line(line: Line, lang: Lang = "en", teams: Sequence[str] | None = None) -> str:
    names = teams or DEFAULT_TEAMS[lang]
    if isinstance(line, Formula):
        return _formula(line, lang, names)
    contract = line.contract
    if isinstance(contract, str):
        contract = CONTRACTS[lang][contract]
    return MESSAGES[lang][line.key].format(
        team=names[line.team] if line.team is not None else "",
        points=line.points,
        other=line.other,
        contract=contract,
        trump=TRUMPS[lang][line.trump] if line.trump else "",
        coinche=COINCHES[lang][line.coinche] if line.coinche else "",
        items=", ".join(_announcement(item, lang) for item in line.items),
    )


def render(
    lines: Iterable[Line], lang: Lang = "en", teams: Sequence[str] | None = None
) -> list[str]:
    return [render_line(line, lang, teams) for line in lines]
