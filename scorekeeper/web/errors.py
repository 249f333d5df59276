"""The server error handler (urls.handler500). It never touches the database, which may be what
failed: the page is drawn from a template without the request's context (no session, no user).
A lost database connection answers 503 with Retry-After, and so does a query cancelled by
DB_STATEMENT_TIMEOUT_MS (saying it took too long), a bug 500; each tells the visitor to try
again. Only used with DEBUG off (Django shows the traceback otherwise). And the answer to a
request that gunicorn's timeout cut off (`cut_off_answers`)."""

import sys

from django.conf import settings
from django.db import InterfaceError, OperationalError
from django.http import HttpRequest, HttpResponse, HttpResponseServerError
from django.template.loader import render_to_string
from django.utils import translation
from django.utils.translation import gettext as _

QUERY_CANCELED = "57014"  # PostgreSQL's SQLSTATE when statement_timeout cancels a query
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
    if getattr(getattr(error, "__cause__", None), "sqlstate", None) == QUERY_CANCELED:
        response = HttpResponse(_page("timeout.html"), status=503)  # DB_STATEMENT_TIMEOUT_MS
        response["Retry-After"] = str(RETRY_AFTER)
        return response
    if isinstance(error, OperationalError | InterfaceError):
        response = HttpResponse(_page("503.html"), status=503)
        response["Retry-After"] = str(RETRY_AFTER)
        return response
    return HttpResponseServerError(_page("500.html"))


def cut_off_answers() -> dict[str, bytes]:
    """The whole HTTP answer to a request that ran past gunicorn's timeout, in each language:
    503 with Retry-After. gunicorn.conf.py draws them when a worker starts and its `worker_abort`
    writes the one of the request's language on the socket before the worker exits (in the
    signal handler nothing is drawn, no middleware runs, the database is not touched)."""
    answers = {}
    for code, _name in settings.LANGUAGES:
        with translation.override(code):
            body = _page("timeout.html").encode()
        head = (
            "HTTP/1.1 503 Service Unavailable\r\n"
            "Content-Type: text/html; charset=utf-8\r\n"
            f"Content-Length: {len(body)}\r\n"
            f"Content-Language: {code}\r\n"
            f"Retry-After: {RETRY_AFTER}\r\n"
            "Cache-Control: no-store\r\n"
            "X-Content-Type-Options: nosniff\r\n"
            "Content-Security-Policy: default-src 'self'; frame-ancestors 'none'\r\n"
            "Connection: close\r\n\r\n"
        )
        answers[code] = head.encode("ascii") + body
    return answers
