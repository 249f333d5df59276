"""The paper check's hints (a tournament table's totals against its deals) as gettext
templates. Error words of both engines are in `scorekeeper/words.py`."""

from django.utils.translation import gettext, ngettext

from scorekeeper.concours import PaperCheck


def paper_warning(check: PaperCheck) -> str | None:
    """The paper check's warning ("20 missing: a belote?"), or None when the totals add up."""
    if check.ok:
        return None
    points, count = abs(check.difference), check.count
    values = {"points": points, "count": count}
    if check.difference < 0:
        if check.hint == "belote":
            text = ngettext(
                "%(points)s missing: a belote?", "%(points)s missing: %(count)s belotes?", count
            )
        elif check.hint == "capot":
            text = ngettext(
                "%(points)s missing: a capot?", "%(points)s missing: %(count)s capots?", count
            )
        elif check.hint == "announcement":
            text = gettext("%(points)s missing: an announcement?")
        elif check.hint == "deal":
            text = ngettext(
                "%(points)s missing: a deal not written down?",
                "%(points)s missing: %(count)s deals not written down?",
                count,
            )
        elif check.hint == "typo":
            text = gettext("%(points)s missing: a digit written wrong?")
        else:
            text = gettext("%(points)s missing.")
    elif check.hint == "belote":
        text = ngettext(
            "%(points)s too many: a belote not typed in?",
            "%(points)s too many: %(count)s belotes not typed in?",
            count,
        )
    elif check.hint == "capot":
        text = ngettext(
            "%(points)s too many: a capot not typed in?",
            "%(points)s too many: %(count)s capots not typed in?",
            count,
        )
    elif check.hint == "announcement":
        text = gettext("%(points)s too many: an announcement not typed in?")
    elif check.hint == "deal":
        text = ngettext(
            "%(points)s too many: a deal written twice?",
            "%(points)s too many: %(count)s deals written twice?",
            count,
        )
    elif check.hint == "typo":
        text = gettext("%(points)s too many: a digit written wrong?")
    else:
        text = gettext("%(points)s too many.")
    return str(text) % values
