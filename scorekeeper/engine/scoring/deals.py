"""What the table records for one deal (docs/file-formats.md §1), and the checks the rules impose on it."""

from dataclasses import dataclass
from typing import Literal

from .announcements import Override, TeamAnnouncements, check_announcements
from .cards import TOTAL_CARD_POINTS, Trump
from .errors import InvalidInput
from .rules import Rules

Coinche = Literal["none", "coinche", "surcoinche"]
Contract = int | Literal["capot", "generale"] | None
MAX_MANUAL_SCORE = 100_000


@dataclass(frozen=True, slots=True)
class PlayedDeal:
    taker: int
    trump: Trump
    contract: Contract = None  # coinche: a bid, "capot" or "generale"; classic: None or "generale"
    coinche: Coinche = "none"
    taker_points: int | None = None  # card points with the dix de der; absent on a capot
    capot: int | None = None  # the team that won all 8 tricks
    generale: bool = False  # a single player won all 8 tricks
    belote: tuple[int, int] = (0, 0)  # belote-rebelotes per team
    announcements: TeamAnnouncements = ((), ())
    announcements_to: Override | None = None  # the table's ruling on whose announcements count
    note: str | None = None
    # Who took, and who made the coinche that stands (a defender's coinche, or a taker's
    # surcoinche), as seats 0-3; optional, for statistics only: they never change a score.
    taker_player: int | None = None
    coinche_player: int | None = None

    @property
    def defence(self) -> int:
        return 1 - self.taker


@dataclass(frozen=True, slots=True)
class PassedDeal:
    """Nobody took: scores nothing, but the deal moves on."""

    note: str | None = None


@dataclass(frozen=True, slots=True)
class ManualDeal:
    """Points typed by hand (penalty, misdeal, a ruling), taken as written."""

    scores: tuple[int, int]
    note: str | None = None


Deal = PlayedDeal | PassedDeal | ManualDeal


def contract_value(rules: Rules, deal: PlayedDeal) -> int:
    """C of docs/rules.md §4 (the bid, or the capot / générale value). Assumes a checked deal."""
    if deal.contract == "capot":
        assert rules.capot_bid is not None
        return rules.capot_bid
    if deal.contract == "generale":
        assert rules.generale_bid is not None
        return rules.generale_bid
    assert isinstance(deal.contract, int)
    return deal.contract


def _check_contract(rules: Rules, deal: PlayedDeal) -> None:
    contract = deal.contract
    if contract == "generale":
        if rules.generale_bid is None:
            raise InvalidInput("contract", "generale_bid_not_allowed")
        return
    if not rules.is_coinche:
        if contract is not None:
            raise InvalidInput("contract", "classic_has_no_bid")
        return
    if contract is None:
        raise InvalidInput("contract", "contract_required")
    if contract == "capot":
        if rules.capot_bid is None:
            raise InvalidInput("contract", "capot_bid_not_allowed")
        return
    if not isinstance(contract, int) or isinstance(contract, bool):
        raise InvalidInput("contract", "not_a_bid")
    if contract % 10:
        raise InvalidInput("contract", "bid_not_multiple_of_ten")
    if contract < rules.min_bid:
        raise InvalidInput("contract", "bid_too_low", min=rules.min_bid)
    if rules.max_bid is not None and contract > rules.max_bid:
        raise InvalidInput("contract", "bid_too_high", max=rules.max_bid)


def _check_belote(deal: PlayedDeal) -> None:
    b0, b1 = deal.belote
    if b0 < 0 or b1 < 0:
        raise InvalidInput("belote", "negative")
    if deal.trump is Trump.NO_TRUMP and b0 + b1:
        raise InvalidInput("belote", "belote_in_no_trump")
    if deal.trump is Trump.ALL_TRUMP and b0 + b1 > 4:
        raise InvalidInput("belote", "too_many_belotes_all_trump")
    if deal.trump.is_suit and b0 + b1 > 1:
        raise InvalidInput("belote", "too_many_belotes_suit")


def _check_players(deal: PlayedDeal) -> None:
    """Seats play in turn, team 0 at seats 0 and 2, team 1 at seats 1 and 3."""
    if deal.taker_player is not None:
        if deal.taker_player not in range(4):
            raise InvalidInput("taker_player", "out_of_range", min=0, max=3)
        if deal.taker_player % 2 != deal.taker:
            raise InvalidInput("taker_player", "taker_player_not_taker")
    if deal.coinche_player is not None:
        if deal.coinche_player not in range(4):
            raise InvalidInput("coinche_player", "out_of_range", min=0, max=3)
        if deal.coinche == "none":
            raise InvalidInput("coinche_player", "no_coinche")
        if deal.coinche == "coinche" and deal.coinche_player % 2 == deal.taker:
            raise InvalidInput("coinche_player", "coinche_player_not_defender")
        if deal.coinche == "surcoinche" and deal.coinche_player % 2 != deal.taker:
            raise InvalidInput("coinche_player", "surcoinche_player_not_taker")


def check_deal(rules: Rules, deal: Deal) -> None:
    """Raise InvalidInput (path relative to the deal) if the rules do not allow this deal."""
    if isinstance(deal, PassedDeal):
        return
    if isinstance(deal, ManualDeal):
        for i, score in enumerate(deal.scores):
            if not 0 <= score <= MAX_MANUAL_SCORE:
                raise InvalidInput(
                    f"manual_scores[{i}]", "out_of_range", min=0, max=MAX_MANUAL_SCORE
                )
        return
    if deal.taker not in (0, 1):
        raise InvalidInput("taker", "not_a_team")
    if not deal.trump.is_suit and not rules.sa_ta:
        raise InvalidInput("trump", "sa_ta_not_allowed")
    _check_contract(rules, deal)
    if deal.coinche != "none" and not rules.is_coinche:
        raise InvalidInput("coinche", "classic_has_no_coinche")
    _check_players(deal)
    if deal.capot not in (None, 0, 1):
        raise InvalidInput("capot", "capot_team")
    if deal.capot is None:
        if deal.taker_points is None:
            raise InvalidInput("taker_points", "taker_points_required")
        if not 0 <= deal.taker_points <= TOTAL_CARD_POINTS:
            raise InvalidInput("taker_points", "out_of_range", min=0, max=TOTAL_CARD_POINTS)
    elif deal.taker_points is not None:
        raise InvalidInput("taker_points", "points_on_capot")
    if deal.generale and deal.capot is None:
        raise InvalidInput("generale", "generale_without_capot")
    _check_belote(deal)
    has_announcements = any(deal.announcements)
    if (has_announcements or deal.announcements_to is not None) and not rules.announcements:
        path = "announcements" if has_announcements else "announcements_to"
        raise InvalidInput(path, "announcements_not_counted")
    if deal.announcements_to not in (None, 0, 1, "none"):
        raise InvalidInput("announcements_to", "announcements_to_choice")
    try:
        check_announcements(deal.announcements, deal.trump)
    except InvalidInput as error:
        raise error.under("announcements") from None
