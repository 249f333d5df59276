"""htmx requests, for the views of every app (django-htmx's middleware sets `request.htmx`).
A project-level module: it imports nothing of the project, so any app may import it."""

from django.http import HttpRequest
from django_htmx.middleware import HtmxDetails


def wants_partial(request: HttpRequest) -> bool:
    """An htmx request for a fragment. A history restore (the back button after htmx's cache
    lost the page) asks for the whole page, so it gets the whole page."""
    htmx: HtmxDetails | None = getattr(request, "htmx", None)
    return htmx is not None and bool(htmx) and not htmx.history_restore_request
