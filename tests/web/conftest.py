"""The project-wide tests (error pages, headers, sessions, limits) drive matches as the matches
tests do: the same browsers and snapshot."""

from tests.matches.conftest import other_client, owner_client, snapshot

__all__ = ["other_client", "owner_client", "snapshot"]
