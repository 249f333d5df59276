"""Topics as pages name them: signed, so that a stream follows only what a page it was given
showed (the signature is the capability: the stream server reads no session and no token), and
the event ids that carry the versions a page holds."""

from django.core import signing

SALT = "scorekeeper.live"
MAX_TOPICS = 4  # a page follows one or two; more is not a page of ours
KINDS = frozenset("mctrj")


def sign(topic: str) -> str:
    """`m12` -> `m12:<signature>` (the page's `data-live`)."""
    return signing.Signer(salt=SALT).sign(topic)


def unsign(value: str) -> str | None:
    """The topic of a signed value, or None for one not signed here (or not a topic)."""
    try:
        topic = signing.Signer(salt=SALT).unsign(value)
    except signing.BadSignature:
        return None
    return topic if split(topic) is not None else None


def split(topic: str) -> tuple[str, int] | None:
    """`m12` -> ("m", 12); None for anything else."""
    kind, number = topic[:1], topic[1:]
    if kind not in KINDS or not number.isdecimal() or len(number) > 18:
        return None
    return kind, int(number)


def format_id(versions: dict[str, str]) -> str:
    """An event's id: every version the page now holds (`m12=57 r7=ab12`), so a reconnect's
    Last-Event-ID says them all."""
    return " ".join(f"{topic}={version}" for topic, version in sorted(versions.items()))


def parse_versions(values: list[str]) -> dict[str, str]:
    """What a page holds, from a Last-Event-ID or the `v` parameters (`m12=57`); bad parts left
    out (an unknown version is only sent again)."""
    held: dict[str, str] = {}
    for value in values:
        for part in value.split()[: MAX_TOPICS * 2]:
            topic, _, version = part.partition("=")
            if split(topic) is not None and len(version) <= 80:
                held[topic] = version
    return held
