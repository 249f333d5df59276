"""The site's URL routes as the resolver holds them (the privacy, CSP and token tests walk them,
so a new page is covered as soon as it exists), and the strict Content-Security-Policy check
of an HTML page."""

from collections.abc import Iterator
from dataclasses import dataclass

from django.urls import URLPattern, URLResolver, get_resolver


@dataclass(frozen=True)
class Route:
    name: str  # "namespace:name"
    pattern: str  # the whole route, e.g. "score/<slug:token>/deal/<int:seq>/"
    view: URLPattern

    @property
    def module(self) -> str:
        return str(self.view.callback.__module__)


def _walk(resolver: URLResolver, prefix: str, namespace: str | None) -> Iterator[Route]:
    for item in resolver.url_patterns:
        if isinstance(item, URLResolver):
            if item.namespace == "admin":
                continue  # Django's own, for staff only
            inner = ":".join(n for n in (namespace, item.namespace) if n) or None
            yield from _walk(item, prefix + str(item.pattern), inner)
        elif isinstance(item, URLPattern):
            name = f"{namespace}:{item.name}" if namespace else str(item.name)
            yield Route(name, prefix + str(item.pattern), item)


def site_routes() -> list[Route]:
    """Every route of the site, Django's admin aside."""
    return list(_walk(get_resolver(), "", None))


def assert_strict_csp(policy: str, html: str, where: object) -> None:
    """The strict policy, and nothing inline (script, style, handler) for it to block."""
    assert "script-src 'self'" in policy and "default-src 'self'" in policy, where
    assert "unsafe-inline" not in policy and "unsafe-eval" not in policy, where
    assert "<script>" not in html and " style=" not in html, where
    assert " onclick=" not in html and "javascript:" not in html, where
    assert not any(f" on{event}=" in html for event in ("load", "change", "submit", "input")), where
    assert "<style" not in html, where
    for tag in html.split("<script")[1:]:
        assert " src=" in tag.split(">", 1)[0], (where, tag[:80])
