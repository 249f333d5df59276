"""The pure rules engine for belote and coinche: plain dataclasses and functions, no Django.

Everything in the app that scores goes through here (forms, previews, imports, concours).
"""

from .announcements import Announcement, Kind
from .breakdown import Formula, Line, Note, Term
from .cards import CARD_VALUES, DECK, Card, Rank, Suit, Trump, card_value, count_points
from .deal_scoring import DealScore, round_score, score_deal
from .deals import Deal, ManualDeal, PassedDeal, PlayedDeal, check_deal
from .errors import InvalidInput, Param
from .match_scoring import MatchDeal, MatchResult, score_match
from .matchfile import (
    MatchFile,
    Team,
    deal_to_dict,
    decode_json,
    dump_match,
    load_match,
    load_scored_match,
    parse_deal,
    parse_match,
    result_to_dict,
)
from .rules import PRESETS, SETTINGS, Rules, get_preset, rules_from_dict

__all__ = [
    "CARD_VALUES",
    "DECK",
    "PRESETS",
    "SETTINGS",
    "Announcement",
    "Card",
    "Deal",
    "DealScore",
    "Formula",
    "InvalidInput",
    "Kind",
    "Line",
    "ManualDeal",
    "MatchDeal",
    "MatchFile",
    "MatchResult",
    "Note",
    "Param",
    "PassedDeal",
    "PlayedDeal",
    "Rank",
    "Rules",
    "Suit",
    "Team",
    "Term",
    "Trump",
    "card_value",
    "check_deal",
    "count_points",
    "deal_to_dict",
    "decode_json",
    "dump_match",
    "get_preset",
    "load_match",
    "load_scored_match",
    "parse_deal",
    "parse_match",
    "result_to_dict",
    "round_score",
    "rules_from_dict",
    "score_deal",
    "score_match",
]
