"""The outbox's answers are JSON, also when Django refuses the request's body itself: a body over
DATA_UPLOAD_MAX_MEMORY_SIZE or with more fields than DATA_UPLOAD_MAX_NUMBER_FIELDS raises as the
body is first read, which is in CsrfViewMiddleware, before any view (Django then answers its
HTML 400 page, which the phone's script cannot read). Placed before CsrfViewMiddleware
(settings.MIDDLEWARE), `OutboxBodyMiddleware` reads the outbox's body first and answers such a
body with the outbox's refusal `too_big` (matches/words.py). Every other page keeps Django's
answer."""

from collections.abc import Callable
from typing import Any

from django.core.exceptions import RequestDataTooBig, TooManyFieldsSent
from django.http import HttpRequest, HttpResponse, HttpResponseBase, JsonResponse

from .words import said

OUTBOX = "matches:outbox"


class OutboxBodyMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponseBase]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponseBase:
        return self.get_response(request)

    def process_view(
        self, request: HttpRequest, view: Callable[..., Any], args: Any, kwargs: Any
    ) -> HttpResponse | None:
        found = request.resolver_match
        if request.method != "POST" or found is None or found.view_name != OUTBOX:
            return None
        try:
            request.POST  # noqa: B018 (read here, before the CSRF check reads it)
        except (RequestDataTooBig, TooManyFieldsSent):
            refused = said("too_big")
            return JsonResponse(refused.as_json(), status=refused.status)
        return None
