"""Helpers of the web tests: the creating browser's key, authors, deal inputs and deal forms as a
browser posts them."""

from typing import Any

from scorekeeper.engine.scoring import PlayedDeal, Rules, Trump, rules_from_dict
from scorekeeper.matches import services
from tests import factories

OWNER_KEY = factories.OWNER_KEY  # make_match's creating browser (tests/conftest.py)
CREATOR = services.Author(key=OWNER_KEY, label="creator")
SCORER = services.Author(key="scorer-device-key", label="scorer link")


def coinche_deal(
    taker: int = 0, contract: int = 80, points: int = 100, trump: Trump = Trump.HEARTS, **kw: Any
) -> PlayedDeal:
    return PlayedDeal(taker=taker, trump=trump, contract=contract, taker_points=points, **kw)


def belote_deal(taker: int = 0, points: int = 100, trump: Trump = Trump.SPADES) -> PlayedDeal:
    return PlayedDeal(taker=taker, trump=trump, taker_points=points)


def long_rules(preset: str = "coinche") -> Rules:
    """A preset whose target is out of reach, for matches that must not end."""
    return rules_from_dict({"preset": preset, "target": 100_000})


def deal_post(
    version: int | None,
    *,
    taker: str = "0",
    contract: str = "80",
    trump: str = "hearts",
    taker_points: str = "100",
    submission: str = "",
    **extra: str,
) -> dict[str, str]:
    """A deal form as the browser posts it (coinche rules)."""
    data = {
        "taker": taker,
        "contract": contract,
        "trump": trump,
        "coinche": "none",
        "taker_points": taker_points,
        "defence_points": "",
        "capot": "",
        "belote0": "0",
        "belote1": "0",
        "note": "",
        "version": "" if version is None else str(version),
        "submission": submission,
    }
    data.update(extra)
    return data


def new_match_post(**changes: str) -> dict[str, str]:
    """The New match form as the browser posts it: coinche, four players, Alice deals first."""
    data = {
        "preset": "coinche",
        "team0_name": "Nous",
        "team1_name": "Eux",
        "seat0": "Alice",
        "seat1": "Chloé",
        "seat2": "Bruno",
        "seat3": "David",
        "first_dealer": "0",
    }
    data.update(changes)
    return data
