"""Where a page's script opens its stream (`<meta name="live">` in base.html)."""

from django.conf import settings
from django.http import HttpRequest
from django.http.request import split_domain_port
from django.urls import reverse


def live(request: HttpRequest) -> dict[str, str]:
    """`/live/` on the page's own origin (production: the proxy routes it to the ASGI server);
    with LIVE_PORT (`make run`, `make hall`: no proxy), the same host on that port."""
    path = reverse("live")
    port = settings.LIVE_PORT
    if not port:
        return {"live_url": path}
    host, _ = split_domain_port(request.get_host())
    if ":" in host and not host.startswith("["):
        host = f"[{host}]"
    return {"live_url": f"http://{host}:{port}{path}"}
