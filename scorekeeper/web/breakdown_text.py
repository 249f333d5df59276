"""A breakdown's lines in words, given the words of one language (`Phrases`): pure Python, no
Django, so the very same module words a breakdown on the server (`words.breakdown`, with the
phrases gettext resolves) and in the browser offline (the in-browser engine, with the phrases the
server resolved for English and French when it built the engine's zip: docs/offline-engine.md).

Imports only the scoring engine and the standard library (a test checks it)."""

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import asdict, dataclass
from typing import Any

from scorekeeper.engine.scoring import Formula, Line


@dataclass(frozen=True, slots=True)
class Phrases:
    """The breakdown's words resolved in one language: a breakdown has hundreds of lines on a
    long match, and a dictionary look-up costs far less than a lazy string's gettext."""

    notes: dict[str, str]
    contract_notes: dict[str, str]
    terms: dict[str, str]
    trumps: dict[str, str]
    kinds: dict[str, str]
    ranks: dict[str, str]
    formula: str
    trump_announcement: str

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> "Phrases":
        return cls(**data)


NOTE_FIELDS = ("team", "points", "other", "contract", "trump", "coinche")


def announcement_text(kind: str, high: str, trump: bool, words: Phrases, said: bool = True) -> str:
    text = f"{words.kinds[kind]} {words.ranks.get(high, high)}" if said else words.kinds[kind]
    return words.trump_announcement % {"announcement": text} if trump else text


# A line is worded from its fields, read off the engine's objects (a breakdown just scored) or off
# the data a deal row keeps (`line_to_data`: no object is built for a stored line, as a 300-deal
# scoreboard words 1,800 of them).


def formula_text(
    team: int,
    terms: Iterable[Sequence[Any]],  # (value, label, times)
    multiplier: int,
    rounded: int | None,
    names: Sequence[str],
    words: Phrases,
) -> str:
    texts, total = [], 0
    for value, label, times in terms:
        total += value
        texts.append(
            f"{times} × {value // times} {words.terms[label]}"
            if times != 1
            else f"{value} {words.terms[label]}"
        )
    expr = " + ".join(texts) if texts else "0"
    if multiplier != 1:
        expr = f"{multiplier} × ({expr})"
    if len(texts) > 1 or multiplier != 1:
        expr = f"{expr} = {multiplier * total}"
    if rounded is not None:
        expr = f"{expr} → {rounded}"
    return words.formula % {"team": names[team], "formula": expr}


def note_text(
    key: str,
    values: Mapping[str, Any],  # team, points, other, contract, trump, coinche (None if unset)
    items: Iterable[Sequence[Any]],  # (kind, high, trump[, said])
    names: Sequence[str],
    words: Phrases,
) -> str:
    team, contract, trump = values["team"], values["contract"], values["trump"]
    if isinstance(contract, str):
        contract = words.terms[contract]  # "capot", "generale": the terms' words
    coinche = values["coinche"] or "none"
    template = words.contract_notes[coinche] if key == "contract" else words.notes[key]
    return template % {
        "team": names[team] if team is not None else "",
        "points": values["points"],
        "other": values["other"],
        "contract": contract,
        "trump": words.trumps[trump] if trump else "",
        "items": ", ".join(
            announcement_text(item[0], item[1], item[2], words, len(item) < 4 or item[3])
            for item in items
        ),
    }


def line_text(line: Line, names: Sequence[str], words: Phrases) -> str:
    """One line of a breakdown, with the teams' names."""
    if isinstance(line, Formula):
        terms = ((term.value, term.label, term.times) for term in line.terms)
        return formula_text(line.team, terms, line.multiplier, line.rounded, names, words)
    values = {name: getattr(line, name) for name in NOTE_FIELDS}
    items = ((item.kind.value, item.high.value, item.trump, item.said) for item in line.items)
    return note_text(line.key, values, items, names, words)


def breakdown_text(lines: Iterable[Line], names: Sequence[str], words: Phrases) -> list[str]:
    return [line_text(line, names, words) for line in lines]
