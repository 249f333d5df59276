"""The deal form's fields (a POST of templates/matches/deal_fields.html, one string per name) read
into a match-file deal, without Django: the in-browser engine's reading of a deal typed offline
(docs/offline-engine.md). It reads exactly as the server's `DealForm` does (matches/forms/deal.py:
the same fields for the same rules, the same cleaning, the same preselection of a capot or
générale bid, the same checks, in the same order), and a test compares the two on many POSTs.

`deal_from_form(fields, rules)` gives `{"deal": <match-file deal>}`, or `{"error": {"code",
"field"}}` for the form's first error: `field` is the form field the server would mark (None for
an error of the whole form), `code` Django's code for a field's own check (`required`,
`invalid_choice`, `invalid`, `min_value`, `max_value`, `max_length`, a text fault's code) or the
engine's (`check_deal`'s), `points_sum` and `top_card_required` for the form's own two."""

import re
from collections.abc import Mapping
from dataclasses import dataclass
from itertools import product
from typing import Any, Literal

from .announcements import Announcement, Declared, Kind, Override, deciding_tops, with_lowest_tops
from .cards import Rank, Trump
from .deals import PlayedDeal, check_deal
from .errors import InvalidInput
from .free_text import text_fault
from .matchfile import deal_to_dict
from .rules import Rules

ANNOUNCEMENT_SLOTS = 3  # as the form (matches/forms/deal.py)
PAGE_ORDER = (
    *("taker", "taker_player", "contract", "trump", "coinche", "coinche_player", "generale_bid"),
    *("taker_points", "defence_points", "capot", "generale", "belote0", "belote1"),
)
CARRE_TOPS = ("J", "9", "A", "10", "K", "Q")
NOTE_LENGTH = 1000
_DECIMAL_TAIL = re.compile(r"\.0*\s*$")  # Django's IntegerField drops "12.0"'s tail


class FieldError(Exception):
    def __init__(self, code: str) -> None:
        super().__init__(code)
        self.code = code


@dataclass(frozen=True, slots=True)
class Field:
    """One form field: how Django's field of the same kind reads the posted value."""

    kind: Literal["choice", "int", "bool", "text"]
    required: bool = False
    choices: tuple[str, ...] = ()
    low: int | None = None
    high: int | None = None
    max_length: int | None = None
    note: bool = False  # validated as a note (web/validators.validate_note)
    coerce_int: bool = False

    def read(self, fields: Mapping[str, Any], name: str) -> Any:
        """The widget's value (`value_from_datadict`), then the field's `clean`."""
        if self.kind == "bool":  # CheckboxInput: absent is False, "false" is False, else bool()
            if name not in fields:
                return False
            value = fields[name]
            if isinstance(value, str):
                value = {"true": True, "false": False}.get(value.lower(), value)
            return bool(value)
        return self.clean(fields.get(name))

    def clean(self, value: Any) -> Any:
        if self.kind == "choice":
            text = "" if value in (None, "") else str(value)
            if not text:
                if self.required:
                    raise FieldError("required")
                return ""
            if text not in self.choices:
                raise FieldError("invalid_choice")
            return int(text) if self.coerce_int else text
        if self.kind == "int":
            if value in (None, ""):
                if self.required:
                    raise FieldError("required")
                return None
            try:
                number = int(_DECIMAL_TAIL.sub("", str(value)))
            except (ValueError, TypeError):
                raise FieldError("invalid") from None
            if self.high is not None and number > self.high:
                raise FieldError("max_value")
            if self.low is not None and number < self.low:
                raise FieldError("min_value")
            return number
        # text: stripped; its validators in Django's order (the field's own, max length, NUL)
        text = "" if value in (None, "") else str(value).strip()
        if not text:
            return ""
        if self.note:
            fault = text_fault(text, "note")
            if fault is not None:
                raise FieldError(fault.code)
        if self.max_length is not None and len(text) > self.max_length:
            raise FieldError("max_length")
        if "\x00" in text:
            raise FieldError("null_characters_not_allowed")
        return text


def form_fields(rules: Rules) -> dict[str, Field]:
    """The DealForm's fields for `rules`, in its order (the page's, then the hidden stamp)."""
    teams = ("0", "1")
    players = ("0", "2", "1", "3")
    fields: dict[str, Field] = {
        "taker": Field("choice", required=True, choices=teams),
        "taker_player": Field("choice", choices=players),
    }
    if rules.is_coinche:
        bids = [str(bid) for bid in rules.bid_values()]
        bids += ["capot"] if rules.capot_bid is not None else []
        bids += ["generale"] if rules.generale_bid is not None else []
        fields["contract"] = Field("choice", required=True, choices=tuple(bids))
    trumps = tuple(t.value for t in Trump if t.is_suit or rules.sa_ta)
    fields["trump"] = Field("choice", required=True, choices=trumps)
    if rules.is_coinche:
        fields["coinche"] = Field(
            "choice", required=True, choices=("none", "coinche", "surcoinche")
        )
        fields["coinche_player"] = Field("choice", choices=players)
    elif rules.generale_bid is not None:
        fields["generale_bid"] = Field("bool")
    fields["taker_points"] = Field("int", low=0, high=162)
    fields["defence_points"] = Field("int", low=0, high=162)
    fields["capot"] = Field("choice", choices=teams)
    fields["generale"] = Field("bool")
    belotes = tuple(str(n) for n in range((4 if rules.sa_ta else 1) + 1))
    for team in (0, 1):
        fields[f"belote{team}"] = Field("choice", required=True, choices=belotes, coerce_int=True)
    if rules.announcements:
        kinds = ("tierce", "quarte", "quinte", *(f"carre_{top}" for top in CARRE_TOPS))
        ranks = tuple(rank.value for rank in Rank)
        for team, slot in product((0, 1), range(ANNOUNCEMENT_SLOTS)):
            prefix = f"ann{team}_{slot}"
            fields[f"{prefix}_kind"] = Field("choice", choices=kinds)
            fields[f"{prefix}_high"] = Field("choice", choices=ranks)
            fields[f"{prefix}_trump"] = Field("bool")
        fields["announcements_to"] = Field("choice", choices=("0", "1", "none"))
    fields["note"] = Field("text", max_length=NOTE_LENGTH, note=True)
    fields["preselected"] = Field("text", max_length=20)
    fields["version"] = Field("int")
    fields["submission"] = Field("text", max_length=64)
    return fields


def _bid_key(data: Mapping[str, Any], rules: Rules, names: Mapping[str, Field]) -> str:
    """ "capot:1", "generale:0": the capot or générale bid posted and its takers, or ""."""
    taker = data.get("taker")
    if taker not in ("0", "1"):
        return ""
    if rules.is_coinche:
        contract = data.get("contract")
        bid = contract if contract in ("capot", "generale") else ""
    else:
        bid = "generale" if "generale_bid" in names and data.get("generale_bid") else ""
    return f"{bid}:{taker}" if bid else ""


def preselect(data: Mapping[str, Any], rules: Rules, names: Mapping[str, Field]) -> dict[str, Any]:
    """DealForm._preselect: a capot or générale bid preselects what makes it, once per bid; card
    points typed over it (its takers' capot still chosen) take it back."""
    out = dict(data)
    key = _bid_key(data, rules, names)
    if not key:
        return out
    typed = data.get("taker_points") or data.get("defence_points")
    taker = key.rsplit(":", 1)[1]
    capot = data.get("capot") or ""
    if data.get("preselected") == key:
        if typed and capot == taker:
            out["capot"] = ""
            out.pop("generale", None)
        return out
    if typed or capot not in ("", taker):
        return out
    out["capot"] = taker
    if key.startswith("generale"):
        out["generale"] = "on"
    out["preselected"] = key
    return out


def _error(code: str, field: str | None) -> dict[str, Any]:
    return {"error": {"code": code, "field": field}}


def deal_from_form(posted: Mapping[str, Any], rules: Rules) -> dict[str, Any]:
    """The deal the form's fields describe, or the form's first error (see the module)."""
    fields = form_fields(rules)
    data = preselect(posted, rules, fields)
    clean: dict[str, Any] = {}
    for name, field in fields.items():
        try:
            clean[name] = field.read(data, name)
        except FieldError as error:
            return _error(error.code, name)
    capot = clean["capot"] or None
    taker_points, defence_points = clean["taker_points"], clean["defence_points"]
    if capot is None:
        if taker_points is None and defence_points is None:
            return _error("required", "taker_points")
        if taker_points is None:
            taker_points = 162 - defence_points
        elif defence_points is not None and taker_points + defence_points != 162:
            return _error("points_sum", "defence_points")
    else:
        taker_points = None  # a capot's card points are fixed by the rules
    announcements = _announcements(clean, rules)
    if isinstance(announcements, dict):
        return announcements
    contract: Any = None
    if rules.is_coinche:
        raw = clean["contract"]
        contract = int(raw) if raw.isdecimal() else raw
    elif clean.get("generale_bid"):
        contract = "generale"
    to = clean.get("announcements_to") or None
    deal = PlayedDeal(
        taker=int(clean["taker"]),
        trump=Trump(clean["trump"]),
        contract=contract,
        coinche=clean.get("coinche") or "none",
        taker_points=taker_points,
        capot=int(capot) if capot is not None else None,
        generale=bool(clean["generale"]),
        belote=(clean["belote0"] or 0, clean["belote1"] or 0),
        announcements=announcements,
        announcements_to=_override(to),
        note=clean["note"] or None,
        taker_player=int(clean["taker_player"]) if clean["taker_player"] else None,
        coinche_player=int(clean["coinche_player"]) if clean.get("coinche_player") else None,
    )
    try:
        check_deal(rules, deal)
    except InvalidInput as error:
        return _error(error.code, _engine_field(error.path, fields))
    return {"deal": deal_to_dict(deal)}


def _override(value: str | None) -> Override | None:
    if value in ("0", "1"):
        return 0 if value == "0" else 1
    return "none" if value == "none" else None


def _announcements(
    clean: Mapping[str, Any], rules: Rules
) -> tuple[tuple[Announcement, ...], tuple[Announcement, ...]] | dict[str, Any]:
    """The declared announcements, or the error on the first top card that decides and is
    missing (DealForm._announcements)."""
    if not rules.announcements:
        return ((), ())
    declared: tuple[list[Declared], list[Declared]] = ([], [])
    slots: tuple[list[int], list[int]] = ([], [])
    for team, slot in product((0, 1), range(ANNOUNCEMENT_SLOTS)):
        kind = clean.get(f"ann{team}_{slot}_kind")
        if not kind:
            continue
        high = clean.get(f"ann{team}_{slot}_high") or None
        trump = bool(clean.get(f"ann{team}_{slot}_trump"))
        if kind.startswith("carre_"):
            item = Declared(Kind.CARRE, Rank(kind.removeprefix("carre_")))
        else:
            item = Declared(Kind(kind), Rank(high) if high else None, trump)
        declared[team].append(item)
        slots[team].append(slot)
    teams = (tuple(declared[0]), tuple(declared[1]))
    if not clean.get("announcements_to"):
        contract = Trump(clean.get("trump") or "spades")
        deciding = sorted(deciding_tops(teams, contract, rules.announcements_resolution))
        if deciding:
            team, i = deciding[0]
            return _error("top_card_required", f"ann{team}_{slots[team][i]}_high")
    return with_lowest_tops(teams)


def _engine_field(path: str, fields: Mapping[str, Field]) -> str | None:
    """DealForm.add_engine_error: the field an engine error's path names, if the form has it."""
    found = re.match(r"announcements\[(\d)\]\[(\d)\]\.(\w+)", path)
    if found:
        team, slot, key = found.groups()
        name = f"ann{team}_{slot}_{key}"
        return name if name in fields else None
    name = "belote0" if path == "belote" else path
    return name if name in fields else None
