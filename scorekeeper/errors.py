"""The server error handler (urls.handler500). It never touches the database, which may be what
failed: the page is drawn from a template without the request's context (no session, no user).
A lost database connection answers 503 with Retry-After, a bug 500; both tell the visitor to try
again and that Back keeps what they typed. Only used with DEBUG off (Django shows the traceback
otherwise)."""

import sys

from django.db import InterfaceError, OperationalError
from django.http import HttpRequest, HttpResponse, HttpResponseServerError
from django.template.loader import render_to_string

RETRY_AFTER = 10  # seconds: a database restart or failover is usually over by then


def server_error(request: HttpRequest) -> HttpResponse:
    error = sys.exc_info()[1]  # the exception Django is handling
    if isinstance(error, OperationalError | InterfaceError):
        response = HttpResponse(render_to_string("503.html"), status=503)
        response["Retry-After"] = str(RETRY_AFTER)
        return response
    return HttpResponseServerError(render_to_string("500.html"))
