"""Issue 22: a sequence whose top card the table left at "–" (it decided nothing) is kept as not
said: scored with the lowest top it can have, as before, but never named ("tierce", not
"tierce 9"). The match file says it with `"high_said": false`, read strictly."""

import pytest

from scorekeeper.engine.scoring import (
    PRESETS,
    Announcement,
    InvalidInput,
    Kind,
    PlayedDeal,
    Rank,
    Trump,
    deal_to_dict,
    parse_deal,
    score_deal,
)
from scorekeeper.engine.scoring.announcements import Declared, with_lowest_tops
from scorekeeper.engine.scoring.breakdown import line_from_data, line_to_data

UNSAID = Announcement(Kind.TIERCE, Rank.NINE, said=False)


def test_a_top_card_left_out_is_the_lowest_and_not_said() -> None:
    teams = with_lowest_tops(((Declared(Kind.TIERCE, None), Declared(Kind.QUARTE, Rank.ACE)), ()))
    assert teams[0] == (UNSAID, Announcement(Kind.QUARTE, Rank.ACE))
    assert teams[0][1].said


def test_the_match_file_keeps_it() -> None:
    deal = PlayedDeal(0, Trump.HEARTS, 80, taker_points=100, announcements=((UNSAID,), ()))
    data = deal_to_dict(deal)
    assert data["announcements"] == [[{"kind": "tierce", "high": "9", "high_said": False}], []]
    assert parse_deal(data) == deal
    said = PlayedDeal(0, Trump.HEARTS, 80, taker_points=100,
                      announcements=((Announcement(Kind.TIERCE, Rank.NINE),), ()))  # fmt: skip
    assert "high_said" not in str(deal_to_dict(said))  # older files read as before
    # Scored exactly as the same tierce said to the 9.
    assert (
        score_deal(PRESETS["coinche"], deal).scores == score_deal(PRESETS["coinche"], said).scores
    )


@pytest.mark.parametrize(
    ("item", "path", "code"),
    [
        ({"kind": "tierce", "high": "9", "high_said": "no"}, "high_said", "not_boolean"),
        ({"kind": "tierce", "high": "K", "high_said": False}, "high", "unsaid_top_not_lowest"),
        ({"kind": "carre", "high": "J", "high_said": False}, "high_said", "carre_rank_said"),
    ],
)
def test_the_key_is_read_strictly(item: dict[str, object], path: str, code: str) -> None:
    data = {"taker": 0, "contract": 80, "trump": "hearts", "taker_points": 100,
            "announcements": [[item], []]}  # fmt: skip
    with pytest.raises(InvalidInput) as error:
        parse_deal(data)
    assert error.value.code == code
    assert error.value.path.endswith(path), error.value.path


def test_a_breakdown_line_keeps_it() -> None:
    deal = PlayedDeal(0, Trump.HEARTS, 80, taker_points=100, announcements=((UNSAID,), ()))
    lines = score_deal(PRESETS["coinche"], deal).breakdown
    for line in lines:
        assert line_from_data(line_to_data(line)) == line
    assert any(UNSAID in getattr(line, "items", ()) for line in lines)
