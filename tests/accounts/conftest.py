"""The accounts tests (sign up, log in and out, claiming a browser's matches, "this is me", the
login throttle, reset_password) use the history tests' browsers, cast and creating browser."""

from tests.history.conftest import browser, cast, owner_key

__all__ = ["browser", "cast", "owner_key"]
