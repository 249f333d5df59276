"""`{% live "m" match.pk match.version %}`: the attributes of a live element (web/live): its
signed topic, which static/js/live.js follows, and the version it shows."""

from django import template
from django.utils.html import format_html
from django.utils.safestring import SafeString

from scorekeeper.web.live.topics import sign

register = template.Library()


@register.simple_tag
def live(kind: str, pk: int, version: object) -> SafeString:
    return format_html(' data-live="{}" data-live-v="{}"', sign(f"{kind}{pk}"), version)
