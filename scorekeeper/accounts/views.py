"""Sign up, log in, log out. Signing in claims what this browser created without an account."""

from typing import Any

from axes.helpers import get_cool_off
from django.contrib import messages
from django.contrib.auth import login, logout
from django.contrib.auth.forms import AuthenticationForm
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_http_methods, require_POST

from scorekeeper.matches import access
from scorekeeper.web.throttle import client_ip, wait_minutes

from .forms import SignupForm
from .services import claim_device
from .throttle import signup_wait


def _next_url(request: HttpRequest) -> str:
    home = reverse("home")
    target = request.POST.get("next") or request.GET.get("next") or home
    safe = url_has_allowed_host_and_scheme(
        target, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    )
    return target if safe else home


def _sign_in(request: HttpRequest, user: object) -> None:
    switching = request.user.is_authenticated and request.user != user
    key = access.device_key(request)
    scored = access.remembered_tokens(request)
    # Named because axes' backend comes first in AUTHENTICATION_BACKENDS (it checks, never signs in).
    login(request, user, backend="django.contrib.auth.backends.ModelBackend")  # type: ignore[arg-type]
    if switching:
        # Another account was signed in here: what this browser did is that account's, so the
        # new one starts as a fresh browser (login() flushed the session).
        return
    request.session[access.DEVICE_KEY] = key  # the same browser after the session is renewed
    claimed = claim_device(user=request.user, device_key=key, scored_tokens=scored)  # type: ignore[arg-type]
    if claimed:
        messages.success(
            request,
            ngettext(
                "%(n)s match from this browser is now in your history.",
                "%(n)s matches from this browser are now in your history.",
                claimed,
            )
            % {"n": claimed},
        )


@require_http_methods(["GET", "HEAD", "POST"])
def signup(request: HttpRequest) -> HttpResponse:
    if request.method == "POST":
        wait = signup_wait(address=client_ip(request))
        if wait is not None:
            return _wait_page(request, seconds=wait, signup=True)
    form = SignupForm(request.POST if request.method == "POST" else None)
    if request.method == "POST" and form.is_valid():
        user = form.save()
        _sign_in(request, user)
        messages.success(request, _("Welcome, %(name)s!") % {"name": user.get_username()})
        return redirect(_next_url(request))
    return render(request, "accounts/signup.html", {"form": form, "next": _next_url(request)})


@require_http_methods(["GET", "HEAD", "POST"])
def login_view(request: HttpRequest) -> HttpResponse:
    form = AuthenticationForm(request, request.POST if request.method == "POST" else None)
    if request.method == "POST" and form.is_valid():
        _sign_in(request, form.get_user())
        return redirect(_next_url(request))
    return render(request, "accounts/login.html", {"form": form, "next": _next_url(request)})


def locked_out(
    request: HttpRequest, response: HttpResponse | None = None, credentials: Any = None
) -> HttpResponse:
    """What a login (the site's or the admin's) answers while its name or address is locked out
    (django-axes' AXES_LOCKOUT_CALLABLE): 429, how long to wait, in the visitor's language. Every
    failure restarts the wait, so it is the whole cool-off from now."""
    cool_off = get_cool_off(request)
    return _wait_page(request, seconds=int(cool_off.total_seconds()) if cool_off else 0)


def _wait_page(request: HttpRequest, *, seconds: int, signup: bool = False) -> HttpResponse:
    """The 429 page of a locked-out login or of too many sign-ups (one template, `signup`
    choosing the words): how long to wait, with Retry-After."""
    context = {"minutes": wait_minutes(seconds), "signup": signup}
    page = render(request, "accounts/locked_out.html", context, status=429)
    page["Retry-After"] = str(seconds)
    return page


@require_POST
def logout_view(request: HttpRequest) -> HttpResponse:
    logout(request)
    messages.info(request, _("You are logged out."))
    return redirect("home")
