"""The site's URLs plus views that fail on purpose, for the error page tests."""

from django.core.exceptions import PermissionDenied
from django.db import InterfaceError, OperationalError
from django.http import HttpRequest, HttpResponse
from django.urls import path

from scorekeeper.urls import handler500
from scorekeeper.urls import urlpatterns as site_urls

__all__ = ["handler500", "urlpatterns"]


def broken(request: HttpRequest) -> HttpResponse:
    raise ValueError("a bug")


def database_down(request: HttpRequest) -> HttpResponse:
    raise OperationalError("server closed the connection unexpectedly")


def connection_gone(request: HttpRequest) -> HttpResponse:
    raise InterfaceError("connection already closed")


def forbidden(request: HttpRequest) -> HttpResponse:
    raise PermissionDenied


urlpatterns = [
    path("boom/", broken),
    path("boom/database/", database_down),
    path("boom/connection/", connection_gone),
    path("boom/forbidden/", forbidden),
    *site_urls,
]
