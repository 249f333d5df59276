"""What the benchmark scripts share: timing statistics and the plain-text report."""

import os
import statistics
import sys
import uuid
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parent.parent


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    if len(ordered) == 1:
        return ordered[0]
    pos = (len(ordered) - 1) * q
    low = int(pos)
    high = min(low + 1, len(ordered) - 1)
    return ordered[low] + (ordered[high] - ordered[low]) * (pos - low)


class Samples:
    """Statistics of a measure's `samples_ms` and `queries` (fields of the dataclass using it)."""

    samples_ms: list[float]
    queries: list[int]  # query count of each captured request

    @property
    def median(self) -> float:
        return statistics.median(self.samples_ms)

    @property
    def p90(self) -> float:
        return percentile(self.samples_ms, 0.9)

    @property
    def query_text(self) -> str:
        low, high = min(self.queries), max(self.queries)
        return str(low) if low == high else f"{low}-{high}"


def print_table(headers: list[str], rows: list[list[str]], right: set[int]) -> None:
    widths = [max(len(str(r[i])) for r in [headers, *rows]) for i in range(len(headers))]

    def line(cells: list[str]) -> str:
        return "  ".join(
            str(c).rjust(w) if i in right else str(c).ljust(w)
            for i, (c, w) in enumerate(zip(cells, widths, strict=True))
        )

    print(line(headers))
    print("  ".join("-" * w for w in widths))
    for row in rows:
        print(line(row))


def print_sql(title: str, sql: list[str], limit: int = 400) -> None:
    print(f"\n{title} ({len(sql)} queries):")
    for i, text in enumerate(sql, 1):
        print(f"  {i:2}. {text if len(text) < limit else text[: limit - 3] + '...'}")


def setup_django(db_path: Path) -> None:
    """Django on a throwaway SQLite database at `db_path`, DEBUG off (as served), migrated; the
    test client's host allowed, plain static storage (no collectstatic)."""
    os.environ["DJANGO_SETTINGS_MODULE"] = "scorekeeper.settings"
    os.environ["DATABASE_URL"] = f"sqlite:///{db_path}"
    os.environ["SECRET_KEY"] = "bench-" + uuid.uuid4().hex * 2
    os.environ["DEBUG"] = "0"
    os.environ["ALLOWED_HOSTS"] = "testserver"
    os.environ.setdefault("LOG_LEVEL", "ERROR")
    if str(REPO_ROOT) not in sys.path:
        sys.path.insert(0, str(REPO_ROOT))
    from django.conf import settings

    # Plain static storage (no collectstatic: a manifest lookup costs the same dict read), an
    # empty STATIC_ROOT (WhiteNoise warns of a missing one).
    settings.STORAGES = {
        **settings.STORAGES,
        "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
    }
    static_root = db_path.parent / "staticfiles"
    static_root.mkdir(exist_ok=True)
    settings.STATIC_ROOT = static_root
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0, interactive=False)
