"""Absolute addresses: the one place that turns a path of the app into a link someone else
opens (a QR code, a printed table sheet, a share link, a club's invitation).

With `settings.PUBLIC_BASE_URL` set (`manage.py hall` sets it to the laptop's LAN address,
docs/hall.md), every such link starts with it, whatever address the page was asked on: an
organiser browsing the desk on 127.0.0.1 prints sheets that the hall's phones can open. Unset,
the request's own scheme and host (Host is checked against ALLOWED_HOSTS)."""

from django.conf import settings
from django.http import HttpRequest


def absolute_url(request: HttpRequest, path: str) -> str:
    """`path` (an absolute path, as `reverse` gives) as a full address people can open."""
    base: str = settings.PUBLIC_BASE_URL
    if base:
        return base + path
    return request.build_absolute_uri(path)
