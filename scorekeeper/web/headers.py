"""What every answer of the app says of itself besides its body (settings.MIDDLEWARE), decided here
once for every view:

- **Private unless declared otherwise.** An answer whose view says nothing of caching is
  `Cache-Control: private, no-store`: no browser keeps it, so Back after logging out on a club
  computer asks the server again (and gets the login page) instead of showing the desk, a
  scoreboard with its scorer link, a share page, a match or concours file, or an account's
  lists. Every page of the app may hold a link, a token (its forms' CSRF token) or an
  account's data (the header names who is signed in), so no page is an exception. A view that
  declares its own Cache-Control keeps it: files anyone may keep (`public`: static files, the
  offline engine's files, the public page's QR code), a link's QR code image (`private`, an
  hour), the service worker and the app manifest, and the polled fragments revalidated by their
  ETag (`private, no-cache`: matches/polling.py, jobs/views.py), which a browser keeps only to
  ask whether they changed, never to show without the server's word. (The offline service
  worker keeps a match's pages with the Cache API, which stores an answer whatever it says.)
- **The server's time** (`Server-Time`: milliseconds since the epoch) on every answer, 304
  included. The round clock (static/js/clock.js) measures from it the offset between the
  server's clock and the phone's: a 304's headers replace those of the cached answer (RFC 9111
  §4.3.4), so a poll answered 304 gives htmx the cached fragment but this answer's time."""

import time
from collections.abc import Callable

from django.http import HttpRequest, HttpResponseBase
from django.utils.cache import patch_cache_control

SERVER_TIME = "Server-Time"


class ResponseHeadersMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponseBase]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponseBase:
        response = self.get_response(request)
        if "Cache-Control" not in response:
            patch_cache_control(response, private=True, no_store=True)
        response[SERVER_TIME] = str(int(time.time() * 1000))
        return response
