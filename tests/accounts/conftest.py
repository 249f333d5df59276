"""The accounts tests (sign up, log in and out, claiming a browser's matches, "this is me", the
login throttle, reset_password) use the history tests' cast and creating browser (`browser` is
the suite's: tests/conftest.py)."""

from tests.history.conftest import cast, owner_key

__all__ = ["cast", "owner_key"]
