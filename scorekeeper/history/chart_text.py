"""The running-totals chart in words: its text alternative (issue 12), for a screen reader and
anyone who cannot see the lines.

Two parts. `lead_story` reads the totals (pure, no words): who led after each deal, who leads at
the end and since which deal without a break, how often the lead changed hands. `running_totals_text`
says it with gettext:

- the result: "Kings won 530 to 320 after 3 deals" (finished), "Drawn at 500 all after 8 deals",
  "Kings ahead 320 to 210 after 3 deals" (still in play; no verb in the present after a name,
  which may be one player or several: issue 22), "Level at 160 all after 2 deals", "Abandoned
  after 3 deals, Kings ahead 320 to 210", "Abandoned after 3 deals, level at 160 all", "No deal
  yet." when there is none (French says "l'équipe Kings a gagné...", so that any name reads);
- then the lead, after a semicolon: "Kings led from the first deal" (never behind nor level),
  "Kings led from deal 2" (the lead was theirs from that deal on and nobody else had it before:
  the start was level), "the lead changed hands 2 times; Kings led from deal 5" (someone else
  led before), and when the end is level: "Aces last led after deal 2" (nothing when nobody ever
  led).

A change of hands is counted between two leaders, ties in between skipped: Aces, level, Kings is
one change. The leader at the end is the winner of a finished match (a winner can, rarely, have
fewer points: a team may not clinch on its belote alone), else whoever has more points; when the
winner is not ahead on points the lead part is left out, since it would contradict the result."""

from collections.abc import Sequence
from dataclasses import dataclass
from itertools import pairwise

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

Totals = tuple[int, int]


@dataclass(frozen=True)
class LeadStory:
    leaders: tuple[int | None, ...]  # after deal 1, 2, ...: the team ahead, None when level
    leader: int | None  # ahead at the end (or the winner), None when level
    since: int | None  # the deal from which `leader` was ahead at every deal, if it was at the end
    changes: int  # how many times the lead went from one team to the other
    last_led: int | None  # when level at the end: the last deal after which a team was ahead


def _ahead(totals: Totals) -> int | None:
    if totals[0] == totals[1]:
        return None
    return 0 if totals[0] > totals[1] else 1


def lead_story(totals: Sequence[Totals], *, winner: int | None = None) -> LeadStory:
    """`totals` after each deal (the start, 0–0, left out); `winner` of a finished match."""
    leaders = tuple(_ahead(t) for t in totals)
    leader = winner if winner is not None else (leaders[-1] if leaders else None)
    since = None
    if leader is not None and leaders and leaders[-1] == leader:
        since = len(leaders)
        while since > 1 and leaders[since - 2] == leader:
            since -= 1
    ahead = [team for team in leaders if team is not None]
    changes = sum(1 for before, after in pairwise(ahead) if before != after)
    last_led = None
    if leader is None:
        last_led = max(
            (deal for deal, team in enumerate(leaders, 1) if team is not None), default=None
        )
    return LeadStory(leaders, leader, since, changes, last_led)


def _result(
    names: Sequence[str],
    totals: Totals,
    count: int,
    *,
    finished: bool,
    winner: int | None,
    abandoned: bool,
) -> str:
    ahead = winner if finished and winner is not None else _ahead(totals)
    if ahead is None:
        level = {"points": totals[0], "count": count}
        if finished:
            text = ngettext(
                "Drawn at %(points)s all after %(count)s deal",
                "Drawn at %(points)s all after %(count)s deals",
                count,
            )
        elif abandoned:
            text = ngettext(
                "Abandoned after %(count)s deal, level at %(points)s all",
                "Abandoned after %(count)s deals, level at %(points)s all",
                count,
            )
        else:
            text = ngettext(
                "Level at %(points)s all after %(count)s deal",
                "Level at %(points)s all after %(count)s deals",
                count,
            )
        return text % level
    values: dict[str, object] = {
        "team": names[ahead],
        "points": totals[ahead],
        "other": totals[1 - ahead],
        "count": count,
    }
    if finished:
        text = ngettext(
            "%(team)s won %(points)s to %(other)s after %(count)s deal",
            "%(team)s won %(points)s to %(other)s after %(count)s deals",
            count,
        )
    elif abandoned:
        text = ngettext(
            "Abandoned after %(count)s deal, %(team)s ahead %(points)s to %(other)s",
            "Abandoned after %(count)s deals, %(team)s ahead %(points)s to %(other)s",
            count,
        )
    else:
        text = ngettext(
            "%(team)s ahead %(points)s to %(other)s after %(count)s deal",
            "%(team)s ahead %(points)s to %(other)s after %(count)s deals",
            count,
        )
    return text % values


def _lead(names: Sequence[str], story: LeadStory) -> str | None:
    if story.leader is None:
        if story.last_led is None:
            return None
        team = story.leaders[story.last_led - 1]
        assert team is not None
        return _("%(team)s last led after deal %(deal)s") % {
            "team": names[team],
            "deal": story.last_led,
        }
    if story.since is None:
        return None  # a winner behind on points: "led" would contradict "won"
    values = {"team": names[story.leader], "deal": story.since, "count": story.changes}
    if story.since == 1:
        return _("%(team)s led from the first deal") % values
    if not story.changes:
        return _("%(team)s led from deal %(deal)s") % values
    return (
        ngettext(
            "the lead changed hands once; %(team)s led from deal %(deal)s",
            "the lead changed hands %(count)s times; %(team)s led from deal %(deal)s",
            story.changes,
        )
        % values
    )


def running_totals_text(
    names: Sequence[str],
    totals: Sequence[Totals],
    *,
    finished: bool = False,
    winner: int | None = None,
    abandoned: bool = False,
) -> str:
    """The chart's text alternative: `totals` after each deal (without the start), the two
    teams' `names`; `winner` (0, 1, or None for a draw) once the match is `finished`."""
    if not totals:
        return _("No deal yet.")
    story = lead_story(totals, winner=winner if finished else None)
    result = _result(
        names, totals[-1], len(totals), finished=finished, winner=winner, abandoned=abandoned
    )
    lead = _lead(names, story)
    if lead is None:
        return f"{result}."
    return _("%(result)s; %(lead)s.") % {"result": result, "lead": lead}
