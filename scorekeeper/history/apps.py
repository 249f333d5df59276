from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class HistoryConfig(AppConfig):
    name = "scorekeeper.history"
    verbose_name = _("History and statistics")
