"""The organiser's desk forms (issue 15): a new concours from a ready format, a team in one line,
a pasted list, a table's paper totals. Each form only reads input; the services decide."""

import json
from typing import Any

from django import forms
from django.conf import settings
from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from scorekeeper.engine.scoring.free_text import is_invisible
from scorekeeper.engine.tournament import TournamentError, settings_from_dict
from scorekeeper.web.forms import too_large
from scorekeeper.web.validators import validate_name, validate_note, validate_text
from scorekeeper.web.words import PRESET_NAMES, reason

from .services import FORMATS, MAX_NAME, MAX_POINTS
from .words import CRITERIA

# The three ready formats, as the issue names them.
FORMAT_NAMES: "dict[str, Promise]" = {
    "belote": _("Belote: 4 parties of 12 deals, ranked by points"),
    "coinche": _("Coinche: 3 parties to 2000, ranked by wins then points"),
    "melee": _("Belote à la mêlée: 4 × 12"),
}


def settings_words(values: dict[str, Any]) -> list[str]:
    """Every setting of a format (docs/tournaments.md §1) in plain words, one line each."""
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
            else str(_("Everyone meets everyone (round robin: a fixed schedule)"))
            if values["pairing"] == "round_robin"
            else str(_("Every round drawn at random"))
        )
    lines.append(
        str(_("Ranked by: %(criteria)s"))
        % {"criteria": ", ".join(str(CRITERIA[c]) for c in values["ranking"])}
    )
    lines += final_words(values.get("final"), game)
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
    minutes = values.get("minutes")
    lines.append(
        ngettext(
            "Round clock: %(minutes)s minute per round, started by the draw",
            "Round clock: %(minutes)s minutes per round, started by the draw",
            minutes,
        )
        % {"minutes": minutes}
        if minutes
        else str(_("No round clock"))
    )
    return lines


def final_words(final: dict[str, Any] | None, game: str) -> list[str]:
    """The final bracket's settings (docs/tournaments.md §7) in plain words (none: no line)."""
    if not final:
        return []
    lines = [
        str(_("Then the best %(size)s of the standings play a knockout bracket"))
        % {"size": final["size"]}
    ]
    if final.get("third_place"):
        lines.append(str(_("The semi-final losers play for third place")))
    if final.get("consolation"):
        lines.append(str(_("The first-round losers play a consolation bracket")))
    partie = final.get("partie")
    if partie:
        name = str(PRESET_NAMES.get(partie["preset"], partie["preset"]))
        deals, target = partie.get("deals_limit"), partie.get("target")
        if deals and target:
            text = _("Each bracket table: %(game)s, %(deals)s deals or %(target)s points")
        elif deals:
            text = _("Each bracket table: %(game)s, %(deals)s deals")
        else:
            text = _("Each bracket table: %(game)s, to %(target)s points")
        lines.append(str(text) % {"game": name, "deals": deals, "target": target})
    lines.append(
        str(_("A bracket table always has a winner: on equal totals the better seed goes through"))
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
        if (
            not colon
            or not rank.strip().isdecimal()
            or int(rank) < 1
            or not prize.strip()
            or is_invisible(prize)
        ):
            raise forms.ValidationError(
                _("Line %(line)s: write a rank, a colon and the prize, e.g. “1: a ham”."),
                code="prize_line",
                params={"line": index},
            )
        prizes[int(rank)] = prize.strip()[:200]
    return prizes


# The ranking's criteria: six selects, each offering all ten criteria (words.CRITERIA, docs/
# tournaments.md §3). Six is more than a club's ranking uses (`lots` never ties, so nothing after
# it counts); a ranking of more than six (an imported file's) shows its first six here.
RANKS = 6
RANK_LABELS: "list[Any]" = [
    _("Ranked first by"),
    _("then by"),
    _("then by"),
    _("then by"),
    _("then by"),
    _("then by"),
]


# Where an engine's error at a settings path shows, most specific prefix first.
ERROR_FIELDS = (
    ("partie.deals_limit", "deals_limit"),
    ("partie", "target"),
    ("bye.points", "bye_points"),
    ("ranking", "rank1"),
    ("prizes", "prizes"),
    ("final.partie.deals_limit", "final_deals_limit"),
    ("final.partie", "final_target"),
    ("final.consolation", "final_consolation"),
    ("final", "final_size"),
)


class SettingsForm(forms.Form):
    """Every setting of docs/tournaments.md §1 but the seed, in plain words: filled from
    a format's values (`initial_from`), read back as the engine's `settings` object (`values`),
    checked by the engine (`settings_from_dict`), whose refusal is put on its field."""

    mode = forms.ChoiceField(
        label=_("Who registers"),
        widget=forms.RadioSelect,
        choices=[
            ("teams", _("Teams formed in advance")),
            ("melee", _("Players register alone and get a new partner every round")),
        ],
    )
    rounds = forms.IntegerField(label=_("Rounds"), min_value=1, max_value=20)
    game = forms.ChoiceField(label=_("Each table plays"), choices=list(PRESET_NAMES.items()))
    deals_limit = forms.IntegerField(
        label=_("Deals per partie"),
        required=False,
        min_value=1,
        max_value=1000,
        help_text=_("Empty: no limit (the partie ends at its points to reach)."),
    )
    target = forms.IntegerField(
        label=_("Points to reach"),
        required=False,
        min_value=1,
        max_value=MAX_POINTS,
        help_text=_("Empty: none (the partie ends after its deals)."),
    )
    pairing = forms.ChoiceField(
        label=_("The draw (teams formed in advance)"),
        widget=forms.RadioSelect,
        choices=[
            ("swiss", _("Round 1 drawn at random, later rounds by standing")),
            ("random", _("Every round drawn at random")),
            ("round_robin", _("Everyone meets everyone (round robin: a fixed schedule)")),
        ],
    )
    final_size = forms.ChoiceField(
        label=_("Final bracket after the rounds (teams formed in advance)"),
        widget=forms.RadioSelect,
        required=False,
        choices=[
            ("", _("No final bracket: the standings are the ranking")),
            ("4", _("The best 4 play a knockout bracket")),
            ("8", _("The best 8 play a knockout bracket")),
            ("16", _("The best 16 play a knockout bracket")),
        ],
    )
    final_third_place = forms.BooleanField(
        label=_("The semi-final losers play for third place"), required=False
    )
    final_consolation = forms.BooleanField(
        label=_("The first-round losers play a consolation bracket (8 or 16)"), required=False
    )
    final_game = forms.ChoiceField(
        label=_("Each bracket table plays"),
        required=False,
        choices=[("", _("as the rounds")), *PRESET_NAMES.items()],
    )
    final_deals_limit = forms.IntegerField(
        label=_("Deals per bracket partie"), required=False, min_value=1, max_value=1000
    )
    final_target = forms.IntegerField(
        label=_("Points to reach in the bracket"),
        required=False,
        min_value=1,
        max_value=MAX_POINTS,
        help_text=_("Only when the bracket plays other rules than the rounds."),
    )
    bye = forms.ChoiceField(
        label=_("A team without a table gets"),
        widget=forms.RadioSelect,
        choices=[
            ("average", _("the round's average points")),
            ("fixed", _("a fixed number of points")),
        ],
    )
    bye_points = forms.IntegerField(
        label=_("Points for a team without a table"),
        required=False,
        min_value=0,
        max_value=MAX_POINTS,
        help_text=_("Only with a fixed number of points."),
    )
    bye_win = forms.BooleanField(label=_("and it counts as a win"), required=False)
    minutes = forms.IntegerField(
        label=_("Round clock: minutes per round"),
        required=False,
        min_value=1,
        max_value=600,
        help_text=_(
            "Empty: no clock. Otherwise the clock starts when a round is drawn, on the "
            "projector and the table phones."
        ),
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        choices = [("", _("(none)")), *CRITERIA.items()]
        for index in range(RANKS):
            self.fields[f"rank{index + 1}"] = forms.ChoiceField(
                label=RANK_LABELS[index], choices=choices, required=index == 0
            )

    @staticmethod
    def initial_from(values: dict[str, Any]) -> dict[str, Any]:
        """The form's initial data from a format's (or a concours's) settings."""
        partie, bye = values["partie"], values.get("bye", {})
        points = bye.get("points", "average")
        initial = {
            "mode": values.get("mode", "teams"),
            "rounds": values.get("rounds", 4),
            "game": partie["preset"],
            "deals_limit": partie.get("deals_limit"),
            "target": partie.get("target"),
            "pairing": values.get("pairing", "swiss"),
            "bye": "average" if points == "average" else "fixed",
            "bye_points": None if points == "average" else points,
            "bye_win": bool(bye.get("win", False)),
            "minutes": values.get("minutes"),
        }
        final = values.get("final") or {}
        final_partie = final.get("partie") or {}
        initial.update(
            final_size=str(final["size"]) if final else "",
            final_third_place=bool(final.get("third_place", False)),
            final_consolation=bool(final.get("consolation", False)),
            final_game=final_partie.get("preset", ""),
            final_deals_limit=final_partie.get("deals_limit"),
            final_target=final_partie.get("target"),
        )
        for index, criterion in enumerate(values.get("ranking", [])[:RANKS]):
            initial[f"rank{index + 1}"] = criterion
        return initial

    def clean(self) -> dict[str, Any]:
        data: dict[str, Any] = super().clean() or {}
        if any(name in self.errors for name in SettingsForm.base_fields) or any(
            f"rank{index + 1}" in self.errors for index in range(RANKS)
        ):
            return data
        if data["bye"] == "fixed" and data.get("bye_points") is None:
            self.add_error("bye_points", _("Type the points a team without a table gets."))
        seen: set[str] = set()
        for index in range(RANKS):
            criterion = data.get(f"rank{index + 1}")
            if criterion and criterion in seen:
                self.add_error(f"rank{index + 1}", _("Each criterion once."))
            seen.add(criterion or "")
        if "bye_points" in self.errors or any(
            f"rank{index + 1}" in self.errors for index in range(RANKS)
        ):
            return data
        try:
            settings_from_dict({**self.values(), "seed": 0})
        except TournamentError as error:
            self.add_error(self.field_of(error.path), reason(error.code, **error.params))
        return data

    @staticmethod
    def field_of(path: str) -> str | None:
        """The field an engine's error path names (None: the whole form): the first prefix of
        ERROR_FIELDS that the path starts with, else a setting named as its field."""
        for prefix, field in ERROR_FIELDS:
            if path.startswith(prefix):
                return field
        return path if path in ("rounds", "mode", "pairing", "place", "minutes") else None

    def values(self) -> dict[str, Any]:
        """The engine's `settings` object (without the seed) from the cleaned data."""
        data = self.cleaned_data
        partie: dict[str, Any] = {
            "preset": data["game"],
            "deals_limit": data.get("deals_limit"),
            "target": data.get("target"),
        }
        ranking = [data[f"rank{i + 1}"] for i in range(RANKS) if data.get(f"rank{i + 1}")]
        points = "average" if data["bye"] == "average" else data.get("bye_points")
        values: dict[str, Any] = {
            "mode": data["mode"],
            "rounds": data["rounds"],
            "partie": partie,
            "pairing": data["pairing"],
            "ranking": ranking,
            "bye": {"points": points, "win": bool(data.get("bye_win"))},
        }
        if data.get("minutes") is not None:  # the round clock (docs/concours.md)
            values["minutes"] = data["minutes"]
        if data.get("final_size"):
            final: dict[str, Any] = {"size": int(data["final_size"])}
            if data.get("final_game"):
                final["partie"] = {
                    "preset": data["final_game"],
                    "deals_limit": data.get("final_deals_limit"),
                    "target": data.get("final_target"),
                }
            final["consolation"] = bool(data.get("final_consolation"))
            final["third_place"] = bool(data.get("final_third_place"))
            values["final"] = final
        return values


class ConcoursForm(SettingsForm):
    """A concours's name, date, place and prizes, and its settings (the settings page)."""

    name = forms.CharField(label=_("Name"), max_length=100, validators=[validate_name])
    date = forms.DateField(
        label=_("Date"), required=False, widget=forms.DateInput(attrs={"type": "date"})
    )
    place = forms.CharField(
        label=_("Place"), max_length=100, required=False, validators=[validate_text]
    )
    prizes = forms.CharField(
        label=_("Prizes"),
        required=False,
        validators=[validate_note],  # several lines; each prize then a line of text
        widget=forms.Textarea(attrs={"rows": 3}),
        help_text=_("One a line: the rank, a colon, the prize (“1: a ham”)."),
    )

    def clean_prizes(self) -> dict[int, str]:
        return read_prizes(self.cleaned_data["prizes"])

    def lock_settings(self) -> None:
        """Round 1 is drawn: the settings are shown, not changed (what is posted is ignored), but
        the round clock's minutes, which change no result."""
        for name in self.fields:
            if name not in ("name", "date", "place", "prizes", "minutes"):
                self.fields[name].disabled = True


class NewConcoursForm(ConcoursForm):
    """A new concours: a ready format (`preset`), whose values fill the settings (`start`: the
    format they were filled from, see `settings_data`)."""

    preset = forms.ChoiceField(
        label=_("Format"), choices=[(key, FORMAT_NAMES[key]) for key in FORMATS]
    )
    start = forms.ChoiceField(
        choices=[(key, key) for key in FORMATS], required=False, widget=forms.HiddenInput
    )


def form_data(values: dict[str, Any]) -> dict[str, str]:
    """A format's settings as posted data (the strings a browser sends)."""
    out: dict[str, str] = {}
    for key, value in SettingsForm.initial_from(values).items():
        if value is None or value is False:
            continue
        out[key] = "on" if value is True else str(value)
    return out


def settings_data(data: "Any") -> "Any":
    """The new concours's posted data with its settings made whole: when the settings were not
    posted (a client that only picks a format), or were left as filled from one format while
    another was picked (no script refilled them), they are the picked format's."""
    preset = data.get("preset")
    if preset not in FORMATS:
        return data
    start = data.get("start")
    if "rounds" in data and start in FORMATS:
        posted = SettingsForm(data, initial=SettingsForm.initial_from(FORMATS[start]))
        if start == preset or posted.has_changed():
            return data
    elif "rounds" in data:
        return data
    merged = data.copy()
    for key in SettingsForm().fields:
        merged.pop(key, None)
    for key, value in form_data(FORMATS[preset]).items():
        merged[key] = value
    merged["start"] = preset
    return merged


class TeamForm(forms.Form):
    """A team in one line (à la mêlée, a player: the name alone)."""

    name = forms.CharField(
        label=_("Team"),
        max_length=MAX_NAME,
        validators=[validate_name],
        widget=forms.TextInput(attrs={"list": "past-teams", "autocomplete": "off"}),
    )
    player1 = forms.CharField(
        label=_("Player 1"),
        max_length=MAX_NAME,
        required=False,
        validators=[validate_name],
        widget=forms.TextInput(attrs={"list": "past-players", "autocomplete": "off"}),
    )
    player2 = forms.CharField(
        label=_("Player 2"),
        max_length=MAX_NAME,
        required=False,
        validators=[validate_name],
        widget=forms.TextInput(attrs={"list": "past-players", "autocomplete": "off"}),
    )


class PasteForm(forms.Form):
    text = forms.CharField(
        label=_("The list"),
        validators=[validate_note],  # a team a line, parts split by ";", a tab or commas
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
    """A table's totals (paper, or a correction): each labelled with its side's name."""

    points0 = forms.IntegerField(label=_("Points, side 1"), min_value=0, max_value=MAX_POINTS)
    points1 = forms.IntegerField(label=_("Points, side 2"), min_value=0, max_value=MAX_POINTS)
    belotes = forms.IntegerField(label=_("Belotes"), min_value=0, max_value=99, required=False)
    capots = forms.IntegerField(label=_("Capots"), min_value=0, max_value=99, required=False)

    def __init__(self, *args: Any, sides: "list[str] | None" = None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.sides = sides or []
        for index, name in enumerate(self.sides[:2]):
            if name:
                self.fields[f"points{index}"].label = _("%(team)s: points") % {"team": name}


class ImportForm(forms.Form):
    """A `belote-tournament/1` file to import as a new concours: its size
    (settings.TOURNAMENT_FILE_MAX_BYTES) and that it is JSON are checked here, at once; the
    import's job reads the rest and says what is wrong."""

    file = forms.FileField(label=_("Concours file (.json)"))

    def clean_file(self) -> bytes:
        upload = self.cleaned_data["file"]
        if upload.size > settings.TOURNAMENT_FILE_MAX_BYTES:
            raise too_large(settings.TOURNAMENT_FILE_MAX_BYTES)
        data: bytes = upload.read(settings.TOURNAMENT_FILE_MAX_BYTES + 1)
        if len(data) > settings.TOURNAMENT_FILE_MAX_BYTES:  # the declared size may lie
            raise too_large(settings.TOURNAMENT_FILE_MAX_BYTES)
        try:
            json.loads(data)
        except UnicodeDecodeError:
            raise _not_imported("json_not_utf8") from None
        except json.JSONDecodeError as error:
            raise _not_imported("json_invalid", line=error.lineno, column=error.colno) from None
        except RecursionError:
            raise _not_imported("json_too_deep") from None
        except ValueError:  # e.g. a number too long to read
            raise _not_imported("json_unreadable") from None
        return data


def _not_imported(code: str, **params: Any) -> forms.ValidationError:
    """The file is not JSON: the engine's words for it, as the import would say them."""
    return forms.ValidationError(
        _("Nothing was imported: %(reason)s") % {"reason": reason(code, **params)}
    )
