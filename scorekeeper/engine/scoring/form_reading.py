"""The deal form read into a deal, without Django: the ONE builder of a played deal from the deal
form's fields (templates/matches/deal_fields.html), on the server and in the browser.

- `build_deal(clean, rules)` is the deal of the form's cleaned fields: the card points, the
  capot, the announcements and their top cards, the contract, then the engine's `check_deal`.
  The server's `DealForm.clean` (matches/forms/deal.py) calls it on Django's `cleaned_data`, the
  in-browser engine on `read_fields`' own cleaning (docs/offline-engine.md), so the two build
  the same deal and refuse the same deals by construction.
- `preselection(data, rules)`: what a capot or générale bid preselects, or takes back once card
  points are typed over it (the form's `_preselect` applies it to the POST, the browser's
  reading to its fields); `bid_failed_on_points(data, rules)`: such a bid left with points and
  no capot, the state the form's note describes.
- `form_fields(rules)` and `Field.read`: the form's fields for the rules, read as Django's fields
  of the same kind read a POST (a random test keeps the two readings equal, since the server
  keeps Django's own fields, widgets and error rendering).
- `deal_from_form(fields, rules)` (the browser's entry) gives `{"deal": <match-file deal>}`, or
  `{"error": {"code", "field"}}` for the form's first error: `field` is the form field the
  server marks (None for an error of the whole form), `code` Django's code for a field's own
  check (`required`, `invalid_choice`, `invalid`, `min_value`, `max_value`, `max_length`, a text
  fault's code), else the builder's (`FormError.code`: `required` for missing card points,
  `points_sum`, `top_card_required`, or the engine's `check_deal` code).

Errors are data (`FormError`: a field and an `InvalidInput` whose code and params
`web/words.py` words), never sentences."""

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

ANNOUNCEMENT_SLOTS = 3  # per team; more than three declarations in one hand does not happen
# The deal form's fields as templates/matches/deal_fields.html shows them, before the
# announcements and the note.
PAGE_ORDER = (
    *("taker", "taker_player", "contract", "trump", "coinche", "coinche_player", "generale_bid"),
    *("taker_points", "defence_points", "capot", "generale", "belote0", "belote1"),
)
CARRE_TOPS = ("J", "9", "A", "10", "K", "Q")
NOTE_LENGTH = 1000
# A form's hidden stamp (DealStamp): the match's version it was drawn at, nine digits at most
# (a version is a count of changes), and its one-time submission id (a uuid's hex, "-undo"...).
VERSION_MAX = 999_999_999
SUBMISSION_LENGTH = 64
SUBMISSION = re.compile(r"\A[A-Za-z0-9_-]{1,64}\Z")
_DECIMAL_TAIL = re.compile(r"\.0*\s*$")  # Django's IntegerField drops "12.0"'s tail
_ANNOUNCEMENT_PATH = re.compile(r"announcements\[(\d)\]\[(\d)\]\.(\w+)")


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
    pattern: re.Pattern[str] | None = None  # a RegexValidator's (Django's code "invalid")
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
        if self.pattern is not None and not self.pattern.search(text):
            raise FieldError("invalid")
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
    fields["version"] = Field("int", low=0, high=VERSION_MAX)
    fields["submission"] = Field("text", max_length=SUBMISSION_LENGTH, pattern=SUBMISSION)
    return fields


def _bid_key(data: Mapping[str, Any], rules: Rules) -> str:
    """ "capot:1", "generale:0": the capot or générale bid of `data` and its takers; "" for any
    other contract, or before the takers are chosen."""
    taker = data.get("taker")
    if taker not in ("0", "1"):
        return ""
    if rules.is_coinche:
        contract = data.get("contract")
        bid = contract if contract in ("capot", "generale") else ""
    else:  # classic belote: the générale bid's box, where the rules have one
        bid = "generale" if rules.generale_bid is not None and data.get("generale_bid") else ""
    return f"{bid}:{taker}" if bid else ""


# What card points typed over a preselected capot set (issue 41): no capot, no générale.
TAKEN_BACK = {"capot": "", "generale": ""}


def preselection(data: Mapping[str, Any], rules: Rules) -> dict[str, str]:
    """What a capot or générale bid preselects in the posted `data`, as the values to set: the
    takers' capot and, for a générale, "one player won every trick". Once per bid and takers
    (the form's hidden `preselected`: what the table changes after it stands), and only what
    the table left open: typed card points or the defence's capot stand. The preselection
    stands while no card points are typed: points typed over it (its takers' capot still
    chosen) say the bid failed by them, and take it back (TAKEN_BACK; app.js does the same as
    they are typed). {}: nothing."""
    key = _bid_key(data, rules)
    if not key:
        return {}
    typed = data.get("taker_points") or data.get("defence_points")
    taker = key.rsplit(":", 1)[1]
    capot = data.get("capot") or ""
    if data.get("preselected") == key:
        return dict(TAKEN_BACK) if typed and capot == taker else {}
    if typed:
        return {}  # the bid failed, and the points say by how much
    if capot not in ("", taker):
        return {}  # the defence's capot
    chosen = {"capot": taker, "preselected": key}
    if key.startswith("generale"):
        chosen["generale"] = "on"
    return chosen


def bid_failed_on_points(data: Mapping[str, Any], rules: Rules) -> bool:
    """A capot or générale bid with card points typed and no capot chosen: it failed, and the
    points score it (the deal form says so beside them: deal_fields.html, app.js)."""
    points = (data.get("taker_points"), data.get("defence_points"))
    typed = any(value not in (None, "") for value in points)
    return typed and not data.get("capot") and bool(_bid_key(data, rules))


@dataclass(frozen=True, slots=True)
class FormError:
    """An error the form marks: on `field` (None: the whole form), with `reason` (an
    InvalidInput: its code and params are what web/words.py words). `code` is the error's code
    as a form gives it: `kind` when set (`required` for missing card points, which a page does
    not list while the deal is being typed), else the reason's."""

    field: str | None
    reason: InvalidInput
    kind: str = ""

    @property
    def code(self) -> str:
        return self.kind or self.reason.code


@dataclass(frozen=True, slots=True)
class Built:
    """What `build_deal` made of the form: the deal, or the errors that stop it (in the order a
    form lists them); `points_left_out`, card points typed and then a capot chosen (a capot's
    card points are fixed by the rules: they are left out, and the page says so)."""

    deal: PlayedDeal | None = None
    errors: tuple[FormError, ...] = ()
    points_left_out: int | None = None


def missing_points(clean: Mapping[str, Any]) -> FormError | None:
    """No card points and no capot: the takers' card points are asked for (a form says it with
    the other missing fields on the first Save, before the rest of the deal is built)."""
    if clean.get("capot") or clean.get("taker_points") is not None:
        return None
    if clean.get("defence_points") is not None:
        return None
    return FormError(
        "taker_points", InvalidInput("taker_points", "taker_points_required"), kind="required"
    )


def build_deal(clean: Mapping[str, Any], rules: Rules) -> Built:
    """The played deal of the deal form's cleaned fields for `rules` (each field cleaned as its
    form field cleans it: see `form_fields`; every field of the form present), or the errors
    that stop it: missing card points, card points that do not add up to 162, the top cards
    that decide whose announcements count, then the engine's `check_deal`."""
    missing = missing_points(clean)
    if missing is not None:
        return Built(errors=(missing,))
    capot = clean.get("capot") or None
    taker_points: int | None = clean.get("taker_points")
    defence_points: int | None = clean.get("defence_points")
    left_out = None
    if capot is None:
        if taker_points is None and defence_points is not None:
            taker_points = 162 - defence_points
        elif (
            taker_points is not None
            and defence_points is not None
            and taker_points + defence_points != 162
        ):
            sum_error = InvalidInput("defence_points", "points_sum")
            return Built(errors=(FormError("defence_points", sum_error),))
    else:
        left_out = taker_points if taker_points is not None else defence_points
        taker_points = None  # a capot's card points are fixed by the rules
    announcements = _announcements(clean, rules)
    if not isinstance(announcements, tuple):
        return Built(errors=tuple(announcements), points_left_out=left_out)
    contract: Any = None
    if rules.is_coinche:
        raw = clean["contract"]
        contract = int(raw) if raw.isdecimal() else raw
    elif clean.get("generale_bid"):
        contract = "generale"
    deal = PlayedDeal(
        taker=int(clean["taker"]),
        trump=Trump(clean["trump"]),
        contract=contract,
        coinche=clean.get("coinche") or "none",
        taker_points=taker_points,
        capot=int(capot) if capot is not None else None,
        generale=bool(clean.get("generale")),
        belote=(clean.get("belote0") or 0, clean.get("belote1") or 0),
        announcements=announcements,
        announcements_to=_override(clean.get("announcements_to") or None),
        note=clean.get("note") or None,
        taker_player=_seat(clean.get("taker_player")),
        coinche_player=_seat(clean.get("coinche_player")),
    )
    try:
        check_deal(rules, deal)
    except InvalidInput as error:
        found = FormError(_engine_field(error.path, clean), error)
        return Built(errors=(found,), points_left_out=left_out)
    return Built(deal=deal, points_left_out=left_out)


def read_fields(posted: Mapping[str, Any], rules: Rules) -> dict[str, Any]:
    """`{"clean": {name: value}}`: the form's fields of `posted` cleaned as Django's fields
    clean them (the capot or générale preselection applied first); or `{"error": {"code",
    "field"}}` for the first field that fails."""
    fields = form_fields(rules)
    data = {**posted, **preselection(posted, rules)}
    clean: dict[str, Any] = {}
    for name, field in fields.items():
        try:
            clean[name] = field.read(data, name)
        except FieldError as error:
            return {"error": {"code": error.code, "field": name}}
    return {"clean": clean}


def deal_from_form(posted: Mapping[str, Any], rules: Rules) -> dict[str, Any]:
    """The deal the form's fields describe, or the form's first error (see the module)."""
    read = read_fields(posted, rules)
    if "error" in read:
        return read
    built = build_deal(read["clean"], rules)
    if built.deal is None:
        first = built.errors[0]
        return {"error": {"code": first.code, "field": first.field}}
    return {"deal": deal_to_dict(built.deal)}


def _seat(value: str | None) -> int | None:
    """A chosen player's seat ("" or absent: not said)."""
    return int(value) if value else None


def _override(value: str | None) -> Override | None:
    if value in ("0", "1"):
        return 0 if value == "0" else 1
    return "none" if value == "none" else None


def _announcements(
    clean: Mapping[str, Any], rules: Rules
) -> tuple[tuple[Announcement, ...], tuple[Announcement, ...]] | list[FormError]:
    """The declared announcements, or an error on each top card that decides whose count and is
    missing (a missing top card that decides nothing takes the lowest possible one)."""
    if not rules.announcements:
        return ((), ())
    declared: tuple[list[Declared], list[Declared]] = ([], [])
    slots: tuple[list[int], list[int]] = ([], [])  # the form's slot of each
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
    if not clean.get("announcements_to"):  # no ruling: the top cards may decide
        contract = Trump(clean.get("trump") or "spades")
        deciding = sorted(deciding_tops(teams, contract, rules.announcements_resolution))
        if deciding:
            return [
                FormError(
                    f"ann{team}_{slots[team][i]}_high",
                    InvalidInput(f"announcements[{team}][{i}].high", "top_card_required"),
                )
                for team, i in deciding
            ]
    return with_lowest_tops(teams)


def _engine_field(path: str, clean: Mapping[str, Any]) -> str | None:
    """The form field an engine error's path names, if the form has it (every field of the
    form is in `clean`): `announcements[0][1].high` is `ann0_1_high`, `belote` the first team's
    belote."""
    found = _ANNOUNCEMENT_PATH.match(path)
    if found:
        team, slot, key = found.groups()
        name = f"ann{team}_{slot}_{key}"
        return name if name in clean else None
    name = "belote0" if path == "belote" else path
    return name if name in clean else None
