"""A played deal: its form, built for the match's rules (DealForm), its hidden stamp alone
(DealStamp), and a saved deal as the form's initial values (deal_initial)."""

import re
import uuid
from collections.abc import Sequence
from itertools import product
from typing import TYPE_CHECKING, Any, cast

from django import forms
from django.utils.translation import gettext_lazy as _

from scorekeeper.engine.scoring import (
    Announcement,
    InvalidInput,
    Kind,
    PlayedDeal,
    Rank,
    Rules,
    Trump,
    check_deal,
)
from scorekeeper.engine.scoring.announcements import (
    Declared,
    Override,
    deciding_tops,
    with_lowest_tops,
)
from scorekeeper.web.validators import validate_note
from scorekeeper.web.words import TRUMP_LABELS, describe, french_terms, rank_label, reason

from ..widgets import ChipSelect

if TYPE_CHECKING:
    from django_stubs_ext import StrOrPromise
from .common import HIDDEN_ERRORS, NUMERIC, Ready

ANNOUNCEMENT_SLOTS = 3  # per team; more than three declarations in one hand does not happen


def _kind_choices() -> list[tuple[str, Any]]:
    choices: list[tuple[str, Any]] = [("", "—")]
    choices += [(k.value, k.value) for k in (Kind.TIERCE, Kind.QUARTE, Kind.QUINTE)]
    choices += [(f"carre_{r}", _("carré of %(rank)s") % {"rank": rank_label(r)}) for r in
                ("J", "9", "A", "10", "K", "Q")]  # fmt: skip
    return choices


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
    # stands (app.js keeps it as it preselects; the server does it for a browser without it),
    # and card points typed over it take it back (app.js blanks it while a capot chosen by hand
    # sits over typed points: they are left out, as for any capot).
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
        self.capot_taken_back = False  # card points typed over a bid's preselected capot
        self._choose_teams_and_trumps()
        self.fields["taker_player"] = self._player_field(_("Who took"))
        if rules.is_coinche:
            self._add_coinche_bids()
        elif rules.generale_bid is not None:
            self.fields["generale_bid"] = forms.BooleanField(
                label=_("The takers announced a générale"),
                required=False,
                widget=forms.CheckboxInput,
            )
        self._add_belotes()
        if rules.announcements:
            self._add_announcements()
        if not self.is_bound and "submission" not in self.initial:
            self.initial["submission"] = uuid.uuid4().hex
        if self.is_bound:
            self._preselect()
        # In the page's order (deal_fields.html), for the error summary and the preview's list.
        self.order_fields(
            [*PAGE_ORDER, *(name for name in self.fields if name.startswith("ann")), "note"]
        )

    def _choose_teams_and_trumps(self) -> None:
        """The choices of the fields every deal has: the takers, the trumps the rules allow,
        and the capot."""
        teams = [("0", self.team_names[0]), ("1", self.team_names[1])]
        cast(forms.ChoiceField, self.fields["taker"]).choices = Ready(teams)
        trumps = [t for t in Trump if t.is_suit or self.rules.sa_ta]
        cast(forms.ChoiceField, self.fields["trump"]).choices = Ready(
            (t.value, french_terms(TRUMP_LABELS[t.value])) for t in trumps
        )
        cast(forms.ChoiceField, self.fields["capot"]).choices = Ready([("", _("No")), *teams])

    def _player_field(self, label: "StrOrPromise") -> forms.ChoiceField:
        """Who took (or who coinched): optional, one tap among the four players, a team's two
        together; the page's CSS shows only the two who can have done it (see app.css)."""
        players: list[tuple[str, Any]] = [("", _("Not said"))]
        players += [(str(seat), self.seat_names[seat]) for seat in (0, 2, 1, 3)]
        return forms.ChoiceField(
            label=label, choices=Ready(players), required=False, initial="", widget=ChipSelect
        )

    def _add_coinche_bids(self) -> None:
        """A coinche deal's contract (the bids the rules allow), its coinche and who made it."""
        rules = self.rules
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
        self.fields["coinche_player"] = self._player_field(_("Who coinched or surcoinched"))

    def _add_belotes(self) -> None:
        """Each team's belotes: one, or up to four with all-trumps and no-trumps deals."""
        most = 4 if self.rules.sa_ta else 1
        for team in (0, 1):
            self.fields[f"belote{team}"] = forms.TypedChoiceField(
                label=_("Belote (%(team)s)") % {"team": self.team_names[team]},
                choices=Ready((str(n), str(n)) for n in range(most + 1)),
                coerce=int,
                initial="0",
                widget=ChipSelect,
            )

    def _add_announcements(self) -> None:
        """ANNOUNCEMENT_SLOTS announcements per team (kind, top card, in trump), and whose
        count."""
        ranks = Ready([("", "–")] + [(r.value, rank_label(r.value)) for r in Rank])
        kinds = Ready(_kind_choices())  # once for the six slots
        for team, slot in product((0, 1), range(ANNOUNCEMENT_SLOTS)):
            prefix = f"ann{team}_{slot}"
            self.fields[f"{prefix}_kind"] = forms.ChoiceField(
                label=_("Announcement"), choices=kinds, required=False, widget=forms.Select
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
                    ("0", self.team_names[0]),
                    ("1", self.team_names[1]),
                    ("none", _("nobody's")),
                ]
            ),
            widget=forms.Select,
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
        only what the table left open: typed card points or the defence's capot stand. The
        preselection stands while no card points are typed: points typed over it (its takers'
        capot still chosen) say the bid failed, by them, and take it back (issue 41)."""
        key = self._bid_key(self.data)
        if not key:
            return
        typed = self.data.get("taker_points") or self.data.get("defence_points")
        taker = key.rsplit(":", 1)[1]
        capot = self.data.get("capot") or ""
        if self.data.get("preselected") == key:
            if typed and capot == taker:
                data = cast(Any, self.data).copy()  # a QueryDict's copy is mutable
                data["capot"] = ""
                data.pop("generale", None)  # no générale without a capot
                self.data = data
                self.capot_taken_back = True
            return
        if typed:
            return  # the bid failed, and the points say by how much
        if capot not in ("", taker):
            return  # the defence's capot
        data = cast(Any, self.data).copy()
        data["capot"] = taker
        if key.startswith("generale"):
            data["generale"] = "on"
        data["preselected"] = key
        self.data = data

    @property
    def bid_failed_on_points(self) -> bool:
        """A capot or générale bid with card points typed and no capot chosen: it failed, and
        the points score it (deal_fields.html says so beside them; app.js as they are typed)."""
        source = self.data if self.is_bound else self.initial
        points = (source.get("taker_points"), source.get("defence_points"))
        typed = any(value not in (None, "") for value in points)
        return typed and not source.get("capot") and bool(self._bid_key(source))

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
