"""Forms: a new match (preset, settings, teams, players), a deal, a manual score, an import.

Every figure comes from the engine: a form only turns fields into engine inputs and maps the
engine's InvalidInput back onto the field it names."""

import re
import uuid
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import product
from typing import Any, cast

from django import forms
from django.conf import settings
from django.utils.choices import BaseChoiceIterator
from django.utils.translation import gettext_lazy as _

from scorekeeper.engine.scoring import (
    CARD_VALUES,
    DECK,
    PRESETS,
    SETTINGS,
    Announcement,
    Card,
    InvalidInput,
    Kind,
    PlayedDeal,
    Rank,
    Rules,
    Suit,
    Trump,
    check_deal,
    count_points,
    load_match,
    rules_from_dict,
)
from scorekeeper.engine.scoring.announcements import (
    Declared,
    Override,
    deciding_tops,
    with_lowest_tops,
)
from scorekeeper.engine.scoring.cards import TOTAL_CARD_POINTS, card_table
from scorekeeper.engine.scoring.deals import ManualDeal
from scorekeeper.engine.scoring.matchfile import MatchFile
from scorekeeper.engine.scoring.rules import Setting
from scorekeeper.web.forms import too_large
from scorekeeper.web.validators import validate_name, validate_note, validate_text
from scorekeeper.web.words import (
    CHOICE_LABELS,
    PRESET_NAMES,
    SETTING_HELP,
    SETTING_LABELS,
    TRUMP_LABELS,
    describe,
    explain,
    french_terms,
    rank_label,
    reason,
    setting_value,
)

from .services.imports import MAX_DEALS, check_importable, deals_in
from .widgets import ChipSelect

ANNOUNCEMENT_SLOTS = 3  # per team; more than three declarations in one hand does not happen
NONE_VALUE = 0  # typed in a nullable number setting, it means "none"
# Number inputs: every phone shows its digit keypad, and no browser offers old values.
NUMERIC = {"inputmode": "numeric", "autocomplete": "off"}


def _kind_choices() -> list[tuple[str, Any]]:
    choices: list[tuple[str, Any]] = [("", "—")]
    choices += [(k.value, k.value) for k in (Kind.TIERCE, Kind.QUARTE, Kind.QUINTE)]
    choices += [(f"carre_{r}", _("carré of %(rank)s") % {"rank": rank_label(r)}) for r in
                ("J", "9", "A", "10", "K", "Q")]  # fmt: skip
    return choices


# Names and notes: what a match file takes (engine/scoring/free_text.py), said as a form says it
# (scorekeeper/web/validators.py).
SEAT: dict[str, Any] = {"max_length": 60, "required": False, "validators": [validate_name]}


# The hidden fields of the deal and manual forms are never typed: an error there means the page
# was altered or is broken, so it is said in words rather than as a field nobody can see.
STALE_FORM = _("This form was altered outside the app: go back to the scoreboard and try again.")
HIDDEN_ERRORS = {"invalid": STALE_FORM, "max_length": STALE_FORM}


# New match ------------------------------------------------------------------------------------


def setting_field(spec: Setting) -> forms.Field:
    label = SETTING_LABELS[spec.name]
    if spec.kind == "bool":
        return forms.TypedChoiceField(
            label=label,
            required=False,
            choices=[("", _("as the preset")), ("on", _("yes")), ("off", _("no"))],
        )
    if spec.kind == "choice":  # radios: a long choice shows whole at 360 px (a select cuts it)
        return forms.ChoiceField(
            label=label,
            required=False,
            choices=[("", _("as the preset"))] + [(c, CHOICE_LABELS[c]) for c in spec.choices],
            help_text=SETTING_HELP.get(spec.name, ""),
            widget=forms.RadioSelect,
        )
    if spec.kind == "multipliers":
        return forms.CharField(
            label=label,
            required=False,
            max_length=20,
            help_text=_("e.g. 2, 4"),
            validators=[validate_text],
        )
    help_text = _("0 for none") if spec.nullable else ""
    return forms.IntegerField(
        label=label,
        required=False,
        min_value=0 if spec.nullable else spec.minimum,
        max_value=spec.maximum,
        help_text=help_text,
        widget=forms.NumberInput(attrs=NUMERIC),
    )


@dataclass(frozen=True)
class SettingRow:
    field: forms.BoundField
    preset_values: list[tuple[str, str]]  # (preset name, its value in words)


def _preset_value(spec: Setting, value: object) -> str:
    return setting_value(spec.kind, value)


class NewMatchForm(forms.Form):
    preset = forms.ChoiceField(
        label=_("Rules"),
        choices=[(name, PRESET_NAMES[name]) for name in PRESETS],
        initial="coinche",
        widget=forms.RadioSelect,
    )
    team0_name = forms.CharField(
        label=_("Team 1"), max_length=60, initial=_("Us"), validators=[validate_name]
    )
    team1_name = forms.CharField(
        label=_("Team 2"), max_length=60, initial=_("Them"), validators=[validate_name]
    )
    seat0 = forms.CharField(**SEAT, label=_("Team 1, player 1"))
    seat1 = forms.CharField(**SEAT, label=_("Team 2, player 1"))
    seat2 = forms.CharField(**SEAT, label=_("Team 1, player 2"))
    seat3 = forms.CharField(**SEAT, label=_("Team 2, player 2"))
    first_dealer = forms.ChoiceField(
        label=_("First dealer"),
        choices=[
            ("random", _("Draw at random")),
            ("0", _("Team 1, player 1")),
            ("1", _("Team 2, player 1")),
            ("2", _("Team 1, player 2")),
            ("3", _("Team 2, player 2")),
        ],
        initial="random",
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        for spec in SETTINGS:
            self.fields[spec.name] = setting_field(spec)
        for seat in range(4):  # suggest the names this browser already knows
            self.fields[f"seat{seat}"].widget.attrs.update(list="known-players", autocomplete="off")
        self.rules: Rules | None = None

    def _settings_of(self, games: tuple[str, ...]) -> list[SettingRow]:
        """Each setting's field with what every preset of its games sets it to (the page shows
        the value of the preset picked, with CSS only)."""
        return [
            SettingRow(
                self[spec.name],
                [
                    (name, _preset_value(spec, getattr(rules, spec.name)))
                    for name, rules in PRESETS.items()
                    if rules.game in spec.games
                ],
            )
            for spec in SETTINGS
            if spec.games == games
        ]

    def has_setting_errors(self) -> bool:
        """Whether a rule setting is wrong (the folded settings then open by themselves)."""
        return any(spec.name in self.errors for spec in SETTINGS)

    def coinche_setting_fields(self) -> list[SettingRow]:
        return self._settings_of(("coinche",))

    def belote_setting_fields(self) -> list[SettingRow]:
        return self._settings_of(("belote",))

    def common_setting_fields(self) -> list[SettingRow]:
        return self._settings_of(("coinche", "belote"))

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        self.clean_seats()
        preset = data.get("preset")
        if not preset:
            return data
        game = PRESETS[preset].game
        overrides: dict[str, object] = {"preset": preset}
        for spec in SETTINGS:
            raw = data.get(spec.name)
            if raw in (None, ""):
                continue
            if game not in spec.games:
                continue  # a setting of the other game: it does not apply, so it is ignored
            value: object = raw
            if spec.kind == "bool":
                value = raw == "on"
            elif spec.kind == "multipliers":
                parts = [p for p in re.split(r"[,\s;/x×]+", str(raw)) if p]
                if len(parts) != 2 or not all(p.isdecimal() for p in parts):
                    self.add_error(spec.name, _("Two whole numbers, e.g. 2, 4."))
                    continue
                value = [int(parts[0]), int(parts[1])]
            elif spec.nullable and raw == NONE_VALUE:
                value = None
            overrides[spec.name] = value
        try:
            self.rules = rules_from_dict(overrides)
        except InvalidInput as error:
            field = error.path if error.path in self.fields else None
            self.add_error(field, describe(error))
        return data

    def clean_seats(self) -> None:
        """Four different people: one name in two seats would be one player twice."""
        seen: set[str] = set()
        for seat in range(4):
            name = " ".join((self.cleaned_data.get(f"seat{seat}") or "").split())
            if name and name.casefold() in seen:
                self.add_error(f"seat{seat}", _("This name is already at the table."))
            seen.add(name.casefold())

    def players(self) -> list[str | None]:
        return [self.cleaned_data.get(f"seat{i}") or None for i in range(4)]

    def first_dealer_value(self) -> int | None:
        value = self.cleaned_data["first_dealer"]
        return None if value == "random" else int(value)


# Deals ----------------------------------------------------------------------------------------


class Ready(BaseChoiceIterator):
    """Choices already in Django's normal form, (value, label) pairs, handed to a field and its
    widget as they are. A plain list is normalised again for the field and once more for the
    widget, each time a form is built: 800 calls per deal cycle, 5 % of the server's CPU."""

    def __init__(self, pairs: Any) -> None:
        self.pairs: list[tuple[str, Any]] = list(pairs)

    def __iter__(self) -> Any:
        return iter(self.pairs)

    def __len__(self) -> int:
        return len(self.pairs)


# The deal form's fields as templates/matches/deal_fields.html shows them, before the
# announcements and the note.
PAGE_ORDER = (
    *("taker", "taker_player", "contract", "trump", "coinche", "coinche_player", "generale_bid"),
    *("taker_points", "defence_points", "capot", "generale", "belote0", "belote1"),
)


class DealStamp(forms.Form):
    """A deal form's hidden stamp alone: the match's version and a one-time submission id. A new
    deal's page renders its inputs from a memo (fragments.py) and builds only this for each
    request, not the whole DealForm (a sixth of the deal cycle's CPU)."""

    version = forms.IntegerField(
        widget=forms.HiddenInput, required=False, error_messages=HIDDEN_ERRORS
    )
    submission = forms.CharField(
        widget=forms.HiddenInput, required=False, max_length=64, error_messages=HIDDEN_ERRORS
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        if not self.is_bound and "submission" not in self.initial:
            self.initial["submission"] = uuid.uuid4().hex


class DealForm(forms.Form):
    """One played deal. Built for a match's rules: only the choices those rules allow appear."""

    taker = forms.ChoiceField(label=_("Takers"), widget=ChipSelect)
    trump = forms.ChoiceField(label=_("Trump"), widget=ChipSelect)
    taker_points = forms.IntegerField(
        label=_("Takers' card points"),
        required=False,
        min_value=0,
        max_value=162,
        widget=forms.NumberInput(attrs=NUMERIC),
    )
    defence_points = forms.IntegerField(
        label=_("Defence's card points"),
        required=False,
        min_value=0,
        max_value=162,
        widget=forms.NumberInput(attrs=NUMERIC),
    )
    capot = forms.ChoiceField(label=_("Capot (every trick)"), required=False, widget=ChipSelect)
    generale = forms.BooleanField(
        label=_("Générale: one player won every trick"),
        required=False,
        widget=forms.CheckboxInput,
    )
    note = forms.CharField(
        label=_("Note"),
        required=False,
        max_length=1000,
        validators=[validate_note],
        widget=forms.TextInput,
    )
    # The capot or générale bid (and its takers) whose defaults were last preselected, as
    # "generale:0": a preselection is made once per bid, so what the table changes after it
    # stands (app.js keeps it as it preselects; the server does it for a browser without it).
    preselected = forms.CharField(
        widget=forms.HiddenInput, required=False, max_length=20, error_messages=HIDDEN_ERRORS
    )
    version = DealStamp.base_fields["version"]
    submission = DealStamp.base_fields["submission"]

    def __init__(
        self,
        *args: Any,
        rules: Rules,
        team_names: tuple[str, str],
        seat_names: Sequence[str] | None = None,
        **kwargs: Any,
    ):
        super().__init__(*args, **kwargs)
        self.rules = rules
        self.team_names = team_names
        # Match.seat_name: a player's name, or the team and its rank ("Us (2)") for a blank seat.
        self.seat_names = tuple(
            seat_names or [f"{team_names[seat % 2]} ({seat // 2 + 1})" for seat in range(4)]
        )
        self.deal: PlayedDeal | None = None
        self.points_left_out: int | None = None  # card points typed, then a capot chosen
        teams = [("0", team_names[0]), ("1", team_names[1])]
        cast(forms.ChoiceField, self.fields["taker"]).choices = Ready(teams)
        # Who took (and who coinched): optional, one tap among the four players, a team's two
        # together; the page's CSS shows only the two who can have done it (see app.css).
        players: list[tuple[str, Any]] = [("", _("Not said"))]
        players += [(str(seat), self.seat_names[seat]) for seat in (0, 2, 1, 3)]
        self.fields["taker_player"] = forms.ChoiceField(
            label=_("Who took"),
            choices=Ready(players),
            required=False,
            initial="",
            widget=ChipSelect,
        )
        trumps = [t for t in Trump if t.is_suit or rules.sa_ta]
        cast(forms.ChoiceField, self.fields["trump"]).choices = Ready(
            (t.value, french_terms(TRUMP_LABELS[t.value])) for t in trumps
        )
        cast(forms.ChoiceField, self.fields["capot"]).choices = Ready([("", _("No")), *teams])
        if rules.is_coinche:
            contracts: list[tuple[str, Any]] = [(str(b), str(b)) for b in rules.bid_values()]
            if rules.capot_bid is not None:
                contracts.append(("capot", french_terms(_("Capot"))))
            if rules.generale_bid is not None:
                contracts.append(("generale", french_terms(_("Générale"))))
            self.fields["contract"] = forms.ChoiceField(
                label=_("Contract"), choices=Ready(contracts), widget=ChipSelect
            )
            self.fields["coinche"] = forms.ChoiceField(
                label=_("Coinche"),
                choices=Ready(
                    [
                        ("none", _("No")),
                        # lang="fr" on English pages: the labels are safe markup.
                        ("coinche", french_terms(_("Coinché"))),
                        ("surcoinche", french_terms(_("Surcoinché"))),
                    ]
                ),
                initial="none",
                widget=ChipSelect,
            )
            self.fields["coinche_player"] = forms.ChoiceField(
                label=_("Who coinched or surcoinched"),
                choices=Ready(players),
                required=False,
                initial="",
                widget=ChipSelect,
            )
        elif rules.generale_bid is not None:
            self.fields["generale_bid"] = forms.BooleanField(
                label=_("The takers announced a générale"),
                required=False,
                widget=forms.CheckboxInput,
            )
        most = 4 if rules.sa_ta else 1
        for team in (0, 1):
            self.fields[f"belote{team}"] = forms.TypedChoiceField(
                label=_("Belote (%(team)s)") % {"team": team_names[team]},
                choices=Ready((str(n), str(n)) for n in range(most + 1)),
                coerce=int,
                initial="0",
                widget=ChipSelect,
            )
        if rules.announcements:
            ranks = Ready([("", "–")] + [(r.value, rank_label(r.value)) for r in Rank])
            kinds = Ready(_kind_choices())  # once for the six slots
            for team, slot in product((0, 1), range(ANNOUNCEMENT_SLOTS)):
                prefix = f"ann{team}_{slot}"
                self.fields[f"{prefix}_kind"] = forms.ChoiceField(
                    label=_("Announcement"),
                    choices=kinds,
                    required=False,
                    widget=forms.Select,
                )
                self.fields[f"{prefix}_high"] = forms.ChoiceField(
                    label=_("Top card"), choices=ranks, required=False, widget=forms.Select
                )
                self.fields[f"{prefix}_trump"] = forms.BooleanField(
                    label=_("in trump"), required=False, widget=forms.CheckboxInput
                )
            self.fields["announcements_to"] = forms.ChoiceField(
                label=_("Whose announcements count"),
                required=False,
                choices=Ready(
                    [
                        ("", _("by the rules")),
                        ("0", team_names[0]),
                        ("1", team_names[1]),
                        ("none", _("nobody's")),
                    ]
                ),
                widget=forms.Select,
            )
        if not self.is_bound and "submission" not in self.initial:
            self.initial["submission"] = uuid.uuid4().hex
        if self.is_bound:
            self._preselect()
        # In the page's order (deal_fields.html), for the error summary and the preview's list.
        self.order_fields(
            [*PAGE_ORDER, *(name for name in self.fields if name.startswith("ann")), "note"]
        )

    def _bid_key(self, data: Any) -> str:
        """ "capot:1", "generale:0": the capot or générale bid of `data` and its takers; "" for
        any other contract, or before the takers are chosen."""
        taker = data.get("taker")
        if taker not in ("0", "1"):
            return ""
        if self.rules.is_coinche:
            contract = data.get("contract")
            bid = contract if contract in ("capot", "generale") else ""
        else:
            bid = "generale" if "generale_bid" in self.fields and data.get("generale_bid") else ""
        return f"{bid}:{taker}" if bid else ""

    def _preselect(self) -> None:
        """A capot or générale bid preselects what makes it: the takers' capot and, for a
        générale, "one player won every trick". Once per bid and takers (`preselected`), and
        only what the table left open: typed card points or the defence's capot stand."""
        key = self._bid_key(self.data)
        if not key or self.data.get("preselected") == key:
            return
        if self.data.get("taker_points") or self.data.get("defence_points"):
            return  # the bid failed, and the points say by how much
        taker = key.rsplit(":", 1)[1]
        capot = self.data.get("capot") or ""
        if capot not in ("", taker):
            return  # the defence's capot
        data = cast(Any, self.data).copy()  # a QueryDict's copy is mutable
        data["capot"] = taker
        if key.startswith("generale"):
            data["generale"] = "on"
        data["preselected"] = key
        self.data = data

    @property
    def generale_unticked(self) -> bool:
        """A générale bid scored as failed only because "one player won every trick" is not
        ticked: the takers won every trick (the preview then says what is missing)."""
        deal = self.deal
        return bool(
            deal is not None
            and deal.contract == "generale"
            and deal.capot == deal.taker
            and not deal.generale
        )

    # Groups for the template.
    def announcement_rows(self) -> list[list[tuple[forms.BoundField, ...]]]:
        """Per team, the (kind, top card, trump) inputs of each announcement slot; a list so
        the template can index it by team."""
        if not self.rules.announcements:
            return [[], []]
        return [
            [
                (self[f"ann{t}_{s}_kind"], self[f"ann{t}_{s}_high"], self[f"ann{t}_{s}_trump"])
                for s in range(ANNOUNCEMENT_SLOTS)
            ]
            for t in (0, 1)
        ]

    def belote_fields(self) -> list[forms.BoundField]:
        return [self["belote0"], self["belote1"]]

    def has_announcement_input(self) -> bool:
        """Whether the announcements section holds anything (typed, or the deal being edited)."""
        source = self.data if self.is_bound else self.initial
        return any(source.get(name) for name in self.fields if name.startswith("ann"))

    def _announcements(self) -> tuple[tuple[Announcement, ...], tuple[Announcement, ...]] | None:
        """The declared announcements; None (with an error on each) when top cards that decide
        are missing. A missing top card that decides nothing takes the lowest possible one."""
        if not self.rules.announcements:
            return ((), ())
        declared: tuple[list[Declared], list[Declared]] = ([], [])
        slots: tuple[list[int], list[int]] = ([], [])  # the form's slot of each
        for team, slot in product((0, 1), range(ANNOUNCEMENT_SLOTS)):
            kind = self.cleaned_data.get(f"ann{team}_{slot}_kind")
            if not kind:
                continue
            high = self.cleaned_data.get(f"ann{team}_{slot}_high") or None
            trump = bool(self.cleaned_data.get(f"ann{team}_{slot}_trump"))
            if kind.startswith("carre_"):
                item = Declared(Kind.CARRE, Rank(kind.removeprefix("carre_")))
            else:
                item = Declared(Kind(kind), Rank(high) if high else None, trump)
            declared[team].append(item)
            slots[team].append(slot)
        teams = (tuple(declared[0]), tuple(declared[1]))
        if not self.cleaned_data.get("announcements_to"):  # no ruling: the top cards may decide
            contract = Trump(self.cleaned_data.get("trump") or "spades")
            deciding = deciding_tops(teams, contract, self.rules.announcements_resolution)
            for team, i in sorted(deciding):
                self.add_error(
                    f"ann{team}_{slots[team][i]}_high",
                    _("Give the top card: it decides whose announcements count."),
                )
            if deciding:
                return None
        return with_lowest_tops(teams)

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        self._require_points(data)
        if self.errors:
            return data
        taker_points = data.get("taker_points")
        defence_points = data.get("defence_points")
        capot = data.get("capot") or None
        if capot is None:
            if taker_points is None and defence_points is not None:
                taker_points = 162 - defence_points
            elif (
                taker_points is not None
                and defence_points is not None
                and taker_points + defence_points != 162
            ):
                self.add_error("defence_points", _("The two teams' card points add up to 162."))
                return data
        else:
            # A capot's card points are fixed by the rules: points typed are left out, and said.
            self.points_left_out = taker_points if taker_points is not None else defence_points
            taker_points = None
        announcements = self._announcements()
        if announcements is None:
            return data
        contract: Any = None
        if self.rules.is_coinche:
            raw = data["contract"]
            contract = int(raw) if raw.isdecimal() else raw
        elif data.get("generale_bid"):
            contract = "generale"
        to = data.get("announcements_to") or None
        deal = PlayedDeal(
            taker=int(data["taker"]),
            trump=Trump(data["trump"]),
            contract=contract,
            coinche=data.get("coinche") or "none",
            taker_points=taker_points,
            capot=int(capot) if capot is not None else None,
            generale=bool(data.get("generale")),
            belote=(data.get("belote0") or 0, data.get("belote1") or 0),
            announcements=announcements,
            announcements_to=cast(Override | None, int(to) if to in ("0", "1") else to),
            note=data.get("note") or None,
            taker_player=_seat(data.get("taker_player")),
            coinche_player=_seat(data.get("coinche_player")),
        )
        try:
            check_deal(self.rules, deal)
        except InvalidInput as error:
            self.add_engine_error(error)
            return data
        self.deal = deal
        return data

    def _require_points(self, data: dict[str, Any]) -> None:
        """No card points and no capot: said with the other missing fields on the first Save
        (the engine, which says it too, only sees a form whose fields are all valid)."""
        fields = ("taker_points", "defence_points", "capot")
        if any(name in self.errors for name in fields) or data.get("capot"):
            return
        if data.get("taker_points") is None and data.get("defence_points") is None:
            message = reason("taker_points_required")
            self.add_error("taker_points", forms.ValidationError(message, code="required"))

    def add_engine_error(self, error: InvalidInput) -> None:
        message = describe(error)
        path = error.path
        found = re.match(r"announcements\[(\d)\]\[(\d)\]\.(\w+)", path)
        if found:
            team, slot, key = found.groups()
            field = f"ann{team}_{slot}_{key}"
            self.add_error(field if field in self.fields else None, message)
            return
        name = "belote0" if path == "belote" else path
        self.add_error(name if name in self.fields else None, message)


def _seat(value: str | None) -> int | None:
    """A chosen player's seat ("" or absent: not said)."""
    return int(value) if value else None


def deal_initial(deal: PlayedDeal) -> dict[str, Any]:
    """Form values for an existing deal (to edit it)."""
    initial: dict[str, Any] = {
        "taker": str(deal.taker),
        "trump": deal.trump.value,
        "taker_points": deal.taker_points,
        "defence_points": None if deal.taker_points is None else 162 - deal.taker_points,
        "capot": "" if deal.capot is None else str(deal.capot),
        "generale": deal.generale,
        "belote0": str(deal.belote[0]),
        "belote1": str(deal.belote[1]),
        "note": deal.note or "",
        "coinche": deal.coinche,
        "announcements_to": "" if deal.announcements_to is None else str(deal.announcements_to),
        "taker_player": "" if deal.taker_player is None else str(deal.taker_player),
        "coinche_player": "" if deal.coinche_player is None else str(deal.coinche_player),
    }
    if deal.contract == "generale":
        initial["generale_bid"] = True
    if deal.contract in ("capot", "generale"):  # preselected already: the deal says it all
        initial["preselected"] = f"{deal.contract}:{deal.taker}"
    if deal.contract is not None:
        initial["contract"] = str(deal.contract)
    for team, items in enumerate(deal.announcements):
        for slot, item in enumerate(items[:ANNOUNCEMENT_SLOTS]):
            prefix = f"ann{team}_{slot}"
            if item.is_carre:
                initial[f"{prefix}_kind"] = f"carre_{item.high.value}"
            else:
                initial[f"{prefix}_kind"] = item.kind.value
                initial[f"{prefix}_high"] = item.high.value if item.said else ""
                initial[f"{prefix}_trump"] = item.trump
    return initial


MANUAL_ERRORS = {
    "min_value": _("Points cannot be negative: give a penalty as points to the other team."),
    "max_value": _("At most 100,000 points."),
}


class ManualDealForm(forms.Form):
    """Points for each team, typed into empty fields: a blank one counts 0, both 0 is refused."""

    score0 = forms.IntegerField(
        min_value=0,
        max_value=100_000,
        required=False,
        error_messages=MANUAL_ERRORS,
        widget=forms.NumberInput(attrs=NUMERIC),
    )
    score1 = forms.IntegerField(
        min_value=0,
        max_value=100_000,
        required=False,
        error_messages=MANUAL_ERRORS,
        widget=forms.NumberInput(attrs=NUMERIC),
    )
    note = forms.CharField(
        label=_("Why (penalty, misdeal, ruling...)"),
        max_length=1000,
        required=False,
        validators=[validate_note],
    )
    version = forms.IntegerField(
        widget=forms.HiddenInput, required=False, error_messages=HIDDEN_ERRORS
    )
    submission = forms.CharField(
        widget=forms.HiddenInput, required=False, max_length=64, error_messages=HIDDEN_ERRORS
    )

    def __init__(self, *args: Any, team_names: tuple[str, str], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["score0"].label = team_names[0]
        self.fields["score1"].label = team_names[1]
        if not self.is_bound:
            self.initial.setdefault("submission", uuid.uuid4().hex)

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        for name in ("score0", "score1"):
            if name in data and data[name] is None:
                data[name] = 0  # left blank
        if data.get("score0") == 0 and data.get("score1") == 0:
            raise forms.ValidationError(
                _("Nothing to record: enter the points of at least one team."), code="nothing"
            )
        return data

    def to_deal(self) -> ManualDeal:
        data = self.cleaned_data
        return ManualDeal((data["score0"], data["score1"]), data.get("note") or None)


class ImportForm(forms.Form):
    """A match file: read and checked whole (a MatchFile), but one of more than
    IMPORT_INLINE_DEALS deals is only counted (JSON read, no scoring) and kept as its bytes, for a
    background job (matches/jobs.py) to check and import."""

    file = forms.FileField(label=_("Match file (.json)"))

    def clean_file(self) -> MatchFile | bytes:
        upload = self.cleaned_data["file"]
        if upload.size > settings.MATCH_FILE_MAX_BYTES:
            raise too_large(settings.MATCH_FILE_MAX_BYTES)
        data: bytes = upload.read()
        try:
            if (deals := deals_in(data)) > settings.IMPORT_INLINE_DEALS:
                if deals > MAX_DEALS:
                    raise InvalidInput("deals", "too_many_deals", max=MAX_DEALS)
                return data
            return check_importable(load_match(data))
        except InvalidInput as error:
            raise forms.ValidationError(
                _("This match file cannot be imported: %(reason)s") % {"reason": explain(error)}
            ) from None


class KnownChoice(forms.ChoiceField):
    """A choice that is never refused: a value it does not know (a stale or forged link) is
    taken as none, and the form's default applies."""

    def to_python(self, value: Any) -> str:
        text = super().to_python(value)
        return text if self.valid_value(text) else ""


class KnownChoices(forms.MultipleChoiceField):
    """Several choices; values it does not know are left out."""

    def to_python(self, value: Any) -> list[str]:
        return [text for text in super().to_python(value) if self.valid_value(text)]


def card_code(card: Card) -> str:
    """A card as the helper's URLs name it: "J-hearts"."""
    return f"{card.rank.value}-{card.suit.value}"


class CountCardsForm(forms.Form):
    """The card-counting helper's taps (a link's query, or htmx's POST as they change): the
    trump, the cards a team won, the last trick, and which team won them. Nothing is refused;
    `takers` (the deal form's, "0", "1" or None) is the team the total goes to by default."""

    trump = KnownChoice(required=False)
    card = KnownChoices(required=False)
    last_trick = forms.BooleanField(required=False)
    won_by = KnownChoice(choices=[("0", "0"), ("1", "1")], required=False)

    def __init__(self, data: Any, *, rules: Rules, takers: str | None) -> None:
        super().__init__(data)
        self.trumps = [t for t in Trump if t.is_suit or rules.sa_ta]
        cast(KnownChoice, self.fields["trump"]).choices = [(t.value, t.value) for t in self.trumps]
        codes = [(card_code(card), card_code(card)) for card in DECK]
        cast(KnownChoices, self.fields["card"]).choices = codes
        self.takers = takers
        self.full_clean()  # never refused: see the fields

    @property
    def trump_value(self) -> Trump:
        chosen = self.cleaned_data.get("trump")
        return Trump(chosen) if chosen else Trump.SPADES

    @property
    def picked(self) -> set[str]:
        return set(self.cleaned_data.get("card") or [])

    @property
    def cards(self) -> list[Card]:
        return [card for card in DECK if card_code(card) in self.picked]

    @property
    def with_last_trick(self) -> bool:
        return bool(self.cleaned_data.get("last_trick"))

    @property
    def total(self) -> int:
        return count_points(self.cards, self.trump_value, last_trick=self.with_last_trick)

    @property
    def won_by_team(self) -> str:
        """ "0" or "1": the team these cards went to (the takers when none is chosen)."""
        return self.cleaned_data.get("won_by") or self.takers or "0"

    def points(self, taker: str) -> tuple[int, int]:
        """The takers' and the defence's card points once the counted cards go to their team:
        the total (162 at most) to that team, the rest to the other."""
        counted = min(self.total, TOTAL_CARD_POINTS)
        takers_points = counted if self.won_by_team == taker else TOTAL_CARD_POINTS - counted
        return takers_points, TOTAL_CARD_POINTS - takers_points

    def suits(self) -> list[tuple[Suit, list[tuple[Card, str, int]]]]:
        """Each suit's cards, with their code and their value under the trump chosen."""
        trump = self.trump_value
        return [
            (
                suit,
                [
                    (card, card_code(card), CARD_VALUES[card_table(suit, trump)][card.rank])
                    for card in DECK
                    if card.suit == suit
                ],
            )
            for suit in Suit
        ]
