"""The organiser's desk forms (issue 15): a new concours from a ready format, a team in one line,
a pasted list, a table's paper totals. Each form only reads input; the services decide."""

from typing import Any

from django import forms
from django.conf import settings
from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from scorekeeper.web.forms import too_large
from scorekeeper.words import PRESET_NAMES

from .services import FORMATS, MAX_NAME, MAX_POINTS

# The three ready formats, as the issue names them.
FORMAT_NAMES: "dict[str, Promise]" = {
    "belote": _("Belote: 4 parties of 12 deals, ranked by points"),
    "coinche": _("Coinche: 3 parties to 2000, ranked by wins then points"),
    "melee": _("Belote à la mêlée: 4 × 12"),
}

CRITERIA: "dict[str, Promise]" = {
    "points": _("points"),
    "wins": _("wins"),
    "difference": _("difference"),
    "best_partie": _("best partie"),
    "opponents_wins": _("opponents' wins"),
    "conceded": _("fewest points conceded"),
}


def settings_words(values: dict[str, Any]) -> list[str]:
    """Every setting of a format (TOURNAMENTS.md §1) in plain words, one line each."""
    partie = values["partie"]
    lines = [
        str(_("Teams formed in advance"))
        if values["mode"] == "teams"
        else str(_("Players register alone and get a new partner every round")),
        ngettext("%(count)s round", "%(count)s rounds", values["rounds"])
        % {"count": values["rounds"]},
    ]
    game = str(PRESET_NAMES.get(partie["preset"], partie["preset"]))
    if partie.get("deals_limit") and partie.get("target"):
        lines.append(
            str(_("Each table: %(game)s, %(deals)s deals or %(target)s points"))
            % {"game": game, "deals": partie["deals_limit"], "target": partie["target"]}
        )
    elif partie.get("deals_limit"):
        lines.append(
            str(_("Each table: %(game)s, %(deals)s deals"))
            % {"game": game, "deals": partie["deals_limit"]}
        )
    else:
        lines.append(
            str(_("Each table: %(game)s, to %(target)s points"))
            % {"game": game, "target": partie["target"]}
        )
    if values["mode"] == "teams":
        lines.append(
            str(_("Round 1 drawn at random, later rounds by standing"))
            if values["pairing"] == "swiss"
            else str(_("Every round drawn at random"))
        )
    lines.append(
        str(_("Ranked by: %(criteria)s"))
        % {"criteria": ", ".join(str(CRITERIA[c]) for c in values["ranking"])}
    )
    bye = values["bye"]
    points = (
        str(_("the round's average points"))
        if bye["points"] == "average"
        else str(_("%(points)s points")) % {"points": bye["points"]}
    )
    lines.append(
        str(_("A team without a table gets %(points)s and a win")) % {"points": points}
        if bye["win"]
        else str(_("A team without a table gets %(points)s, no win")) % {"points": points}
    )
    return lines


def read_prizes(text: str) -> dict[int, str]:
    """Prize lines "1: a ham" → {1: "a ham"}; forms.ValidationError naming a bad line."""
    prizes: dict[int, str] = {}
    for index, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        if not line:
            continue
        rank, colon, prize = line.partition(":")
        if not colon or not rank.strip().isdigit() or int(rank) < 1 or not prize.strip():
            raise forms.ValidationError(
                _("Line %(line)s: write a rank, a colon and the prize, e.g. “1: a ham”."),
                code="prize_line",
                params={"line": index},
            )
        prizes[int(rank)] = prize.strip()[:200]
    return prizes


class NewConcoursForm(forms.Form):
    preset = forms.ChoiceField(
        label=_("Format"), choices=[(key, FORMAT_NAMES[key]) for key in FORMATS]
    )
    name = forms.CharField(label=_("Name"), max_length=100)
    date = forms.DateField(
        label=_("Date"), required=False, widget=forms.DateInput(attrs={"type": "date"})
    )
    place = forms.CharField(label=_("Place"), max_length=100, required=False)
    prizes = forms.CharField(
        label=_("Prizes"),
        required=False,
        widget=forms.Textarea(attrs={"rows": 3}),
        help_text=_("One a line: the rank, a colon, the prize (“1: a ham”)."),
    )

    def clean_prizes(self) -> dict[int, str]:
        return read_prizes(self.cleaned_data["prizes"])


class TeamForm(forms.Form):
    """A team in one line (à la mêlée, a player: the name alone)."""

    name = forms.CharField(
        label=_("Team"),
        max_length=MAX_NAME,
        widget=forms.TextInput(attrs={"list": "past-teams", "autocomplete": "off"}),
    )
    player1 = forms.CharField(
        label=_("Player 1"),
        max_length=MAX_NAME,
        required=False,
        widget=forms.TextInput(attrs={"list": "past-players", "autocomplete": "off"}),
    )
    player2 = forms.CharField(
        label=_("Player 2"),
        max_length=MAX_NAME,
        required=False,
        widget=forms.TextInput(attrs={"list": "past-players", "autocomplete": "off"}),
    )


class PasteForm(forms.Form):
    text = forms.CharField(
        label=_("The list"),
        widget=forms.Textarea(attrs={"rows": 5}),
        help_text=_("One team a line: “Team; Player 1; Player 2” (or a tab, or commas)."),
    )


class CsvForm(forms.Form):
    """A CSV file of entrants (the view reads it, bounded; the service reads its rows and names
    every bad line)."""

    file = forms.FileField(
        label=_("CSV file"),
        allow_empty_file=True,  # the service says it holds no entrant
        help_text=_(
            "Columns: team, player 1, player 2 (a header line is optional), separated by “;” or “,”."
        ),
        widget=forms.ClearableFileInput(attrs={"accept": ".csv,.txt,text/csv,text/plain"}),
    )


class PaperForm(forms.Form):
    points0 = forms.IntegerField(label=_("Points, side 1"), min_value=0, max_value=MAX_POINTS)
    points1 = forms.IntegerField(label=_("Points, side 2"), min_value=0, max_value=MAX_POINTS)
    belotes = forms.IntegerField(label=_("Belotes"), min_value=0, max_value=99, required=False)
    capots = forms.IntegerField(label=_("Capots"), min_value=0, max_value=99, required=False)


class ImportForm(forms.Form):
    """A `belote-tournament/1` file to import as a new concours: only its size is checked here
    (settings.TOURNAMENT_FILE_MAX_BYTES); the service reads it and says what is wrong."""

    file = forms.FileField(label=_("Concours file (.json)"))

    def clean_file(self) -> bytes:
        upload = self.cleaned_data["file"]
        if upload.size > settings.TOURNAMENT_FILE_MAX_BYTES:
            raise too_large(settings.TOURNAMENT_FILE_MAX_BYTES)
        data: bytes = upload.read(settings.TOURNAMENT_FILE_MAX_BYTES + 1)
        if len(data) > settings.TOURNAMENT_FILE_MAX_BYTES:  # the declared size may lie
            raise too_large(settings.TOURNAMENT_FILE_MAX_BYTES)
        return data
