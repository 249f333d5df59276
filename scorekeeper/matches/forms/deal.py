"""A played deal: its form, built for the match's rules (DealForm), its hidden stamp alone
(DealStamp), and a saved deal as the form's initial values (deal_initial)."""

import uuid
from collections.abc import Sequence
from itertools import product
from typing import TYPE_CHECKING, Any, cast

from django import forms
from django.core.validators import RegexValidator
from django.utils.translation import gettext_lazy as _

from scorekeeper.engine.scoring import Kind, PlayedDeal, Rank, Rules, Trump
from scorekeeper.engine.scoring.cards import TOTAL_CARD_POINTS
from scorekeeper.engine.scoring.form_reading import (
    ANNOUNCEMENT_SLOTS,
    PAGE_ORDER,
    SUBMISSION,
    SUBMISSION_LENGTH,
    TAKEN_BACK,
    VERSION_MAX,
    FormError,
    bid_failed_on_points,
    build_deal,
    missing_points,
    preselection,
)
from scorekeeper.web.validators import validate_note
from scorekeeper.web.words import TRUMP_LABELS, describe, french_terms, rank_label

from ..widgets import ChipSelect

if TYPE_CHECKING:
    from django_stubs_ext import StrOrPromise
from .common import HIDDEN_ERRORS, NUMERIC, Ready


def _kind_choices() -> list[tuple[str, Any]]:
    choices: list[tuple[str, Any]] = [("", "—")]
    choices += [(k.value, k.value) for k in (Kind.TIERCE, Kind.QUARTE, Kind.QUINTE)]
    choices += [(f"carre_{r}", _("carré of %(rank)s") % {"rank": rank_label(r)}) for r in
                ("J", "9", "A", "10", "K", "Q")]  # fmt: skip
    return choices


class DealStamp(forms.Form):
    """A deal form's hidden stamp alone: the match's version and a one-time submission id. A new
    deal's page renders its inputs from a memo (fragments.py) and builds only this for each
    request, not the whole DealForm (a sixth of the deal cycle's CPU)."""

    # A deal's card points, the engine's: the page is drawn with this form or DealForm, and its
    # script fills one team's points from the other's with it (deal_form.html's data-card-points).
    total_card_points = TOTAL_CARD_POINTS

    # The limits are form_reading's, which the outbox (views/outbox.py) and the in-browser
    # reading apply too: an altered stamp is refused, never read as "no check".
    version = forms.IntegerField(
        widget=forms.HiddenInput,
        required=False,
        min_value=0,
        max_value=VERSION_MAX,
        error_messages=HIDDEN_ERRORS,
    )
    submission = forms.CharField(
        widget=forms.HiddenInput,
        required=False,
        max_length=SUBMISSION_LENGTH,
        validators=[RegexValidator(SUBMISSION)],
        error_messages=HIDDEN_ERRORS,
    )

    def __init__(self, *args: Any, required: bool = False, **kwargs: Any) -> None:
        """`required`: both must be there (the outbox, whose phone always sends them: a change
        without them would skip the conflict check or could be saved twice)."""
        super().__init__(*args, **kwargs)
        for field in self.fields.values():
            field.required = required
        if not self.is_bound and "submission" not in self.initial:
            self.initial["submission"] = uuid.uuid4().hex


class DealForm(forms.Form):
    """One played deal. Built for a match's rules: only the choices those rules allow appear."""

    total_card_points = DealStamp.total_card_points  # deal_form.html's data-card-points

    taker = forms.ChoiceField(label=_("Takers"), widget=ChipSelect)
    trump = forms.ChoiceField(label=_("Trump"), widget=ChipSelect)
    taker_points = forms.IntegerField(
        label=_("Takers' card points"),
        required=False,
        min_value=0,
        max_value=TOTAL_CARD_POINTS,
        widget=forms.NumberInput(attrs=NUMERIC),
    )
    defence_points = forms.IntegerField(
        label=_("Defence's card points"),
        required=False,
        min_value=0,
        max_value=TOTAL_CARD_POINTS,
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

    def _preselect(self) -> None:
        """A capot or générale bid preselects what makes it (form_reading.preselection: once
        per bid and takers, only what the table left open), and card points typed over it take
        it back: the bid failed by them (issue 41)."""
        chosen = preselection(self.data, self.rules)
        if chosen:
            data = cast(Any, self.data).copy()  # a QueryDict's copy is mutable
            for name, value in chosen.items():
                data[name] = value
            self.data = data
            self.capot_taken_back = chosen == TAKEN_BACK

    @property
    def bid_failed_on_points(self) -> bool:
        """A capot or générale bid with card points typed and no capot chosen: it failed, and
        the points score it (deal_fields.html says so beside them; app.js as they are typed)."""
        return bid_failed_on_points(self.data if self.is_bound else self.initial, self.rules)

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

    def clean(self) -> dict[str, Any]:
        """Django's fields cleaned, then the deal built from them by the one builder the
        in-browser reading runs too (form_reading.build_deal): its errors marked here in
        web/words.py's words, with their codes."""
        data = super().clean() or {}
        self._require_points(data)
        if self.errors:
            return data
        built = build_deal(data, self.rules)
        self.points_left_out = built.points_left_out
        for error in built.errors:
            self.add_form_error(error)
        self.deal = built.deal
        return data

    def _require_points(self, data: dict[str, Any]) -> None:
        """No card points and no capot: said with the other missing fields on the first Save
        (the builder, which says it too, only sees a form whose fields are all valid)."""
        fields = ("taker_points", "defence_points", "capot")
        if any(name in self.errors for name in fields):
            return
        missing = missing_points(data)
        if missing is not None:
            self.add_form_error(missing)

    def add_form_error(self, error: FormError) -> None:
        """An error of the builder (or of the engine, by the field its path names) on its
        field, in web/words.py's words, with its code."""
        message = describe(error.reason)
        self.add_error(error.field, forms.ValidationError(message, code=error.code))


def deal_initial(deal: PlayedDeal) -> dict[str, Any]:
    """Form values for an existing deal (to edit it)."""
    initial: dict[str, Any] = {
        "taker": str(deal.taker),
        "trump": deal.trump.value,
        "taker_points": deal.taker_points,
        "defence_points": None
        if deal.taker_points is None
        else TOTAL_CARD_POINTS - deal.taker_points,
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
