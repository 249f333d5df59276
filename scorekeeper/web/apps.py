from django.apps import AppConfig


class WebConfig(AppConfig):
    name = "scorekeeper.web"
    verbose_name = "Score keeper"
