"""The match forms, one module per topic: a new match (preset, settings, teams, players), a deal
(deal.py), a manual score, an import, the card-counting helper.

Every figure comes from the engine: a form only turns fields into engine inputs and maps the
engine's InvalidInput back onto the field it names."""

from .common import HIDDEN_ERRORS, NUMERIC, STALE_FORM, Ready
from .count import CountCardsForm, KnownChoice, KnownChoices, card_code
from .deal import DealForm, DealStamp, deal_initial
from .imports import ImportForm
from .manual import MANUAL_ERRORS, ManualDealForm
from .new_match import NONE_VALUE, SEAT, NewMatchForm, SettingRow, setting_field

__all__ = [
    "HIDDEN_ERRORS",
    "MANUAL_ERRORS",
    "NONE_VALUE",
    "NUMERIC",
    "SEAT",
    "STALE_FORM",
    "CountCardsForm",
    "DealForm",
    "DealStamp",
    "ImportForm",
    "KnownChoice",
    "KnownChoices",
    "ManualDealForm",
    "NewMatchForm",
    "Ready",
    "SettingRow",
    "card_code",
    "deal_initial",
    "setting_field",
]
