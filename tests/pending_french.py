"""French entries not yet merged into django.po: each part of issue 10 writes its translations to
`scorekeeper/locale/fr/LC_MESSAGES/pending-<part>.po` and the lead merges them. Until then this
fixture helper adds them to Django's French catalogue for the tests that render French pages; once
the file is merged and removed, it does nothing (the entries are in django.mo)."""

import ast
import re
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from django.conf import settings
from django.utils import translation
from django.utils.translation import trans_real

ENTRY = re.compile(
    r'^msgid (".*")\n(?:msgid_plural (".*")\n)?((?:msgstr(?:\[\d\])? ".*"\n)+)', re.MULTILINE
)


def pending_path(part: str) -> Path:
    return Path(settings.BASE_DIR) / "scorekeeper/locale/fr/LC_MESSAGES" / f"pending-{part}.po"


def read_pending(part: str) -> dict[str | tuple[str, int], str]:
    """The entries of pending-<part>.po as gettext keeps them (plural forms under (msgid, n))."""
    path = pending_path(part)
    if not path.exists():
        return {}
    catalog: dict[str | tuple[str, int], str] = {}
    for found in ENTRY.finditer(path.read_text(encoding="utf-8")):
        msgid = ast.literal_eval(found[1])
        strings = re.findall(r'^msgstr(?:\[(\d)\])? (".*")$', found[3], re.MULTILINE)
        for index, text in strings:
            key: str | tuple[str, int] = (msgid, int(index)) if index else msgid
            catalog[key] = ast.literal_eval(text)
    return catalog


@contextmanager
def french_with_pending(part: str) -> Iterator[None]:
    """Django's French catalogue with this part's pending entries, for the `with` block."""
    entries = read_pending(part)
    french = trans_real.translation("fr")
    catalog = french._catalog  # type: ignore[attr-defined]
    saved = (list(catalog._catalogs), list(catalog._plurals))
    if entries:
        catalog._catalogs.insert(0, entries)
        catalog._plurals.insert(0, french.plural)
    try:
        with translation.override("fr"):
            yield
    finally:
        catalog._catalogs[:], catalog._plurals[:] = saved
