"""Accounts on a phone: the sign-up and log-in forms refuse bad input clearly, and `next` never
sends anyone to another site."""

import re

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import Page, expect
from pytest_django.live_server_helper import LiveServer

from .conftest import NewPhone, Shot, layout_problems, page_errors

pytestmark = [
    pytest.mark.browser,
    pytest.mark.django_db(transaction=True),
    pytest.mark.filterwarnings("ignore:No directory at"),
]

PASSWORD = "Dix-de-der-2024"


def check_screen(page: Page, shot: Shot, step: str) -> None:
    shot(page, step)
    problems = layout_problems(page)
    assert not problems, f"{step}: " + "; ".join(problems)
    assert page_errors(page) == [], step


def test_sign_up_errors_then_log_in(phone: Page, live_server: LiveServer, shot: Shot) -> None:
    page = phone
    url = live_server.url
    User.objects.create_user("taken", password=PASSWORD)

    page.goto(f"{url}/")
    page.get_by_role("link", name="Log in").click()
    page.locator("main").get_by_role("link", name="Sign up").click()  # (the top bar has one too)
    expect(page.get_by_role("heading", name="Sign up")).to_be_visible()
    page.locator("input[name=username]").fill("taken")
    page.locator("input[name=password1]").fill(PASSWORD)
    page.locator("input[name=password2]").fill(PASSWORD + "!")
    page.get_by_role("button", name="Create my account").click()
    errors = page.locator(".field.has-error .error")
    expect(errors).to_have_count(2)
    expect(errors.nth(0)).to_contain_text("A user with that username already exists.")
    expect(errors.nth(1)).to_contain_text("The two password fields didn’t match.")
    expect(page.locator("input[name=username]")).to_have_value("taken")  # kept, to correct it
    check_screen(page, shot, "01-sign-up-errors")
    assert User.objects.count() == 1

    page.locator("input[name=username]").fill("alex")
    page.locator("input[name=password1]").fill("12345678")
    page.locator("input[name=password2]").fill("12345678")
    # The corrected name no longer looks wrong, and its greyed message keeps its place, so the
    # save button does not move under the finger as the last field loses focus.
    expect(page.locator(".field.was-error input[name=username]")).not_to_have_attribute(
        "aria-invalid", "true"
    )
    page.get_by_role("button", name="Create my account").click()
    expect(page.locator(".field.has-error .error").first).to_contain_text("too common")
    check_screen(page, shot, "02-sign-up-weak-password")

    page.locator("input[name=password1]").fill(PASSWORD)
    page.locator("input[name=password2]").fill(PASSWORD)
    page.get_by_role("button", name="Create my account").click()
    page.wait_for_url(f"{url}/")  # `next` was the home page the Log in link came from
    expect(page.locator(".messages")).to_contain_text("Welcome, alex!")
    expect(page.locator(".messages")).not_to_contain_text("from this browser")  # nothing to claim
    check_screen(page, shot, "03-signed-up")

    page.get_by_role("button", name="Log out").click()
    expect(page.locator(".messages")).to_contain_text("You are logged out.")
    # A `next` pointing to another site is ignored: back to this site's home page.
    page.goto(f"{url}/accounts/login/?next=https://example.com/steal")
    page.get_by_label("Username").fill("alex")
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Log in").click()
    page.wait_for_url(re.compile(rf"^{re.escape(url)}/$"))
    expect(page.get_by_role("button", name="Log out")).to_be_visible()
    check_screen(page, shot, "04-logged-in")


@pytest.mark.parametrize("language", ["en", "fr"])
def test_the_signed_out_top_bar_is_one_row_with_sign_up_and_concours(
    new_phone: NewPhone, live_server: LiveServer, shot: Shot, language: str
) -> None:
    """Issue 22: signed out, the top bar offers Sign up and Concours too, still one row of 44 px
    targets on a 360 px phone, in English and in French."""
    page = new_phone(locale="fr-FR" if language == "fr" else "en-GB")
    page.goto(f"{live_server.url}/history/")
    words = {
        "en": ["Belote score", "My matches", "Concours", "Log in", "Sign up"],
        "fr": ["Score belote", "Mes parties", "Concours", "Connexion", "S’inscrire"],
    }[language]
    bar = page.locator(".topbar")
    for name in words:
        expect(bar.get_by_role("link", name=name, exact=True)).to_be_visible()
    targets = bar.locator("a").all()
    assert len(targets) == 5
    boxes = [target.bounding_box() for target in targets]
    assert all(box and box["width"] >= 44 and box["height"] >= 44 for box in boxes), boxes
    assert len({round(box["y"]) for box in boxes if box}) == 1, boxes  # one row
    box = bar.bounding_box()
    assert box and box["height"] < 50 and box["width"] <= 360
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    check_screen(page, shot, f"top-bar-signed-out-{language}")


def test_my_matches_sign_up_link_is_a_fingertip_high(
    phone: Page, live_server: LiveServer, shot: Shot
) -> None:
    """Issue 22: the "Sign up" link in My matches' first line was 18 px high."""
    phone.goto(f"{live_server.url}/history/")
    signup = phone.locator("main").get_by_role("link", name="Sign up")
    box = signup.bounding_box()
    assert box and box["height"] >= 44 and box["width"] >= 44, box
    check_screen(phone, shot, "my-matches-signed-out")
