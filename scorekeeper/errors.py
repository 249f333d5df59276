"""The server error handler (urls.handler500). It never touches the database, which may be what
failed: the page is drawn from a template without the request's context (no session, no user).
A lost database connection answers 503 with Retry-After, a bug 500; both tell the visitor to try
again and that Back keeps what they typed. Only used with DEBUG off (Django shows the traceback
otherwise)."""

import sys

from django.db import InterfaceError, OperationalError
from django.http import HttpRequest, HttpResponse, HttpResponseServerError
from django.template.loader import render_to_string
from django.utils.translation import gettext as _

RETRY_AFTER = 10  # seconds: a database restart or failover is usually over by then


def _page(template: str) -> str:
    """The error page, or, if even that cannot be drawn (a missing static files manifest, a
    broken template), the same words in bare HTML: an error handler must never fail itself."""
    try:
        return render_to_string(template)
    except Exception:  # anything: the visitor still gets words, not gunicorn's bare 500
        title = _("Try again in a moment")
        text = _(
            "If you were sending a form, go Back in your browser: what you typed is still "
            "there, send it again."
        )
        return f"<!doctype html><title>{title}</title><h1>{title}</h1><p>{text}</p>"


def server_error(request: HttpRequest) -> HttpResponse:
    error = sys.exc_info()[1]  # the exception Django is handling
    if isinstance(error, OperationalError | InterfaceError):
        response = HttpResponse(_page("503.html"), status=503)
        response["Retry-After"] = str(RETRY_AFTER)
        return response
    return HttpResponseServerError(_page("500.html"))
