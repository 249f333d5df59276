"""Imports only run downward: views → services → models → engine (docs/architecture.md).

Each module of `scorekeeper/` is read with `ast` (nothing is imported) and given a layer from its
name; a module may import its own layer or a lower one, never a higher one. The engines import no
Django and nothing of the project but the scoring engine; nothing but a `urls` module imports a
view; no app imports `scorekeeper.web`'s pages; the project-level helpers import no app."""

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "scorekeeper"

ENGINES = ("scorekeeper.scoring", "scorekeeper.concours")
# Project-level modules any app may import: they import no app.
HELPERS = (
    "scorekeeper.folding",
    "scorekeeper.gc_pause",
    "scorekeeper.htmx",
    "scorekeeper.paging",
    "scorekeeper.qr",
    "scorekeeper.spreadsheet",
    "scorekeeper.validators",
    "scorekeeper.words",
)

# The layer of a module, from its last name(s): 0 engine, 1 models, 2 services and selectors
# (reads and writes, access decisions), 3 the edge (views, forms, template tags, commands...).
MODELS = {"models", "migrations"}
SERVICES = {
    "services",
    "selectors",
    "access",
    "undo",
    "board",
    "polling",
    "exports",
    "throttle",
    "sessions",
    "charts",
    "chart_text",
    "texts",
    "command_io",
    "public_selectors",  # a club's public pages' reads (clubs)
    "hooks",  # the matches app's extension point for the app holding some matches
    "tasks",  # the jobs app's task (django.tasks): runs a job in the worker
    "jobs",  # an app's kinds of background job: run one, word its result (settings.JOB_KINDS)
}
EDGE = {
    "views",
    "urls",
    "public_views",  # a concours's public pages (tournaments)
    "print_views",  # a concours's printed pages (tournaments)
    "public_urls",
    "record_views",  # a concours's files, import and deletion (tournaments)
    "table_views",  # a concours table's phone (tournaments)
    "middleware",  # a concours table's phone sent on to its table link (tournaments)
    "match_hooks",  # a concours's side of matches.hooks: glue to its services and pages
    "forms",
    "templatetags",
    "management",
    "admin",
    "fragments",
    "widgets",
    "apps",
}
NAMES = {0: "engine", 1: "models", 2: "services", 3: "views"}


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def layer(module: str) -> int | None:
    """None: a module outside the layers (settings, urls of the site, the error handler...)."""
    if module.startswith(ENGINES) or module in HELPERS:
        return 0
    if module.startswith("scorekeeper.formats"):  # Django's number and date formats
        return None
    parts = module.split(".")
    if len(parts) < 3:
        return None
    names = set(parts[2:])
    for rank, kinds in ((3, EDGE), (1, MODELS), (2, SERVICES)):
        if names & kinds:
            return rank
    return None


def imports(path: Path, module: str | None = None) -> list[str]:
    """The modules a file imports (relative imports resolved; `module`: the file's name in the
    project, found from its path by default)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    module = module or module_name(path)
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    found: list[str] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found += [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")
                anchor = anchor[: len(anchor) - (node.level - 1)]
                base = ".".join(anchor + ([base] if base else []))
            # `from . import views` imports a module: name it.
            found += [f"{base}.{alias.name}" for alias in node.names] + [base]
    return found


def project_files() -> list[Path]:
    return sorted(p for p in PACKAGE.rglob("*.py") if "migrations" not in p.parts)


def test_the_layers_are_known() -> None:
    """Every app module has a layer, so a new one cannot slip past the check unnoticed."""
    unknown = [
        module_name(p)
        for p in project_files()
        if layer(module_name(p)) is None
        and module_name(p).count(".") >= 2
        and not module_name(p).endswith("__init__")
        and p.name != "__init__.py"
        and not module_name(p).startswith("scorekeeper.formats")  # Django's number formats
    ]
    assert unknown == []


@pytest.mark.parametrize("path", project_files(), ids=module_name)
def test_imports_only_run_downward(path: Path) -> None:
    module = module_name(path)
    own = layer(module)
    if own is None:
        return
    upward = []
    for name in imports(path):
        if not name.startswith("scorekeeper."):
            continue
        other = layer(name)
        if other is not None and other > own:
            upward.append(f"{module} ({NAMES[own]}) imports {name} ({NAMES[other]})")
    assert upward == []


@pytest.mark.parametrize(
    "path", [p for p in project_files() if module_name(p).startswith(ENGINES)], ids=module_name
)
def test_the_engines_import_no_django_and_no_app(path: Path) -> None:
    bad = [
        name
        for name in imports(path)
        if name.split(".")[0] in {"django", "django_htmx"}
        or (
            name.startswith("scorekeeper")
            and not name.startswith(ENGINES)
            and name != "scorekeeper"
        )
    ]
    if module_name(path).startswith("scorekeeper.scoring"):
        bad += [name for name in imports(path) if name.startswith("scorekeeper.concours")]
    assert bad == []


@pytest.mark.parametrize("path", project_files(), ids=module_name)
def test_only_urls_import_views(path: Path) -> None:
    module = module_name(path)
    if module.endswith(".urls") or module == "scorekeeper.urls":
        return
    views = [
        name
        for name in imports(path)
        if name.startswith("scorekeeper.") and name.endswith(".views")
    ]
    assert views == []


@pytest.mark.parametrize(
    "path",
    [
        p
        for p in project_files()
        if module_name(p) in HELPERS or module_name(p) == "scorekeeper.htmx"
    ],
    ids=module_name,
)
def test_project_helpers_import_no_app(path: Path) -> None:
    apps = [
        name
        for name in imports(path)
        if name.startswith("scorekeeper.") and not name.startswith(ENGINES)
    ]
    assert apps == []


def test_no_app_imports_the_site_pages() -> None:
    """`web` holds what is site-wide; its pages (home) sit on top of the apps, so an app never
    imports `scorekeeper.web.views`; it may use the site's plumbing (rate limits, form renderer)."""
    found = [
        f"{module_name(p)} imports {name}"
        for p in project_files()
        if not module_name(p).startswith("scorekeeper.web")
        for name in imports(p)
        if name.startswith(("scorekeeper.web.views", "scorekeeper.web.urls"))
    ]
    assert found == []


def upward_imports(path: Path, module: str) -> list[str]:
    own = layer(module)
    return [
        name
        for name in imports(path, module)
        if own is not None and (layer(name) or 0) > own and name.startswith("scorekeeper.")
    ]


def test_the_check_finds_an_upward_import(tmp_path: Path) -> None:
    """The check itself: a model importing a service or a view, and the engine importing Django."""
    fake = tmp_path / "models.py"
    fake.write_text("from .services import record_deal\nfrom scorekeeper.matches import views\n")
    found = upward_imports(fake, "scorekeeper.matches.models")
    assert "scorekeeper.matches.services.record_deal" in found
    assert "scorekeeper.matches.views" in found
    engine = tmp_path / "rules.py"
    engine.write_text("from django.utils.translation import gettext\n")
    assert "django.utils.translation" in imports(engine, "scorekeeper.scoring.rules")
    assert upward_imports(PACKAGE / "matches" / "models.py", "scorekeeper.matches.models") == []


APPS = ("accounts", "clubs", "history", "jobs", "matches", "tournaments", "web")


def app_of(module: str) -> str | None:
    parts = module.split(".")
    return parts[1] if len(parts) > 1 and parts[1] in APPS else None


def app_imports() -> dict[str, set[str]]:
    """Which apps each app imports (any of its modules, migrations left out)."""
    graph: dict[str, set[str]] = {app: set() for app in APPS}
    for path in project_files():
        source = app_of(module_name(path))
        if source is None:
            continue
        for name in imports(path):
            target = app_of(name) if name.startswith("scorekeeper.") else None
            if target is not None and target != source:
                graph[source].add(target)
    return graph


def test_no_cycle_between_apps() -> None:
    """Apps import each other one way only: web (site-wide: rate limits, sessions, the forms'
    plumbing) under matches, matches under accounts and history."""
    graph = app_imports()
    visiting: list[str] = []
    done: set[str] = set()

    def visit(app: str) -> None:
        assert app not in visiting, " → ".join([*visiting[visiting.index(app) :], app])
        if app in done:
            return
        visiting.append(app)
        for other in sorted(graph[app]):
            visit(other)
        visiting.pop()
        done.add(app)

    for app in APPS:
        visit(app)


def test_web_imports_no_app() -> None:
    assert app_imports()["web"] == set()


def test_jobs_imports_no_app() -> None:
    """The jobs app runs other apps' kinds of job, named by settings.JOB_KINDS, and knows the
    browser through settings.JOB_BROWSER_KEY: it imports none of them (they import it)."""
    assert app_imports()["jobs"] == set()
