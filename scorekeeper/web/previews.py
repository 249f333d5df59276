"""Link previews (issue 45): what a chat app shows when a result's link is pasted in it. A page
that has one gives its Open Graph and Twitter card tags (templates/partials/preview_tags.html)
a `Preview`: a title, a one-line summary and the address of an image of the result, a PNG of
1200 × 630 drawn here with Pillow (`card_png`) from plain lines of text (`Card`): what the page
shows everyone already, never anything private.

The image's address carries the version of what it shows (`?v=`) and its language (`?lang=`):
its answer is cached for good by browsers, chat apps and proxies (`immutable`), and an address
of an older version is sent on to the current one (without `?v=`: the current one, kept five
minutes). Drawing costs about 50 ms of CPU, so each process keeps the last CARDS_KEPT images it
drew (by page, version and language: a copy can never be stale, its version is in its key;
about 25 KB each), and a card's text is bounded (the title two lines, the summary two, at
most CARD_ROWS rows, each cut to its width).

A chat app's crawler sends no language: a shared address may say it (`?lang=fr`,
`asked_language`), the desk's Share link does."""

import io
import threading
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache, wraps
from pathlib import Path
from typing import Concatenate

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.utils import translation
from PIL import Image, ImageDraw, ImageFont

WIDTH, HEIGHT = 1200, 630
CARD_ROWS = 5
CARDS_KEPT = 64
MARGIN = 60
# Debian's fonts-dejavu-core (wide coverage: accents, œ, ♠♥★); without it Pillow's own font.
FONT_DIRS = (Path("/usr/share/fonts/truetype/dejavu"), Path("/usr/share/fonts/dejavu"))
BACKGROUND = "#14532d"  # the app's green (theme-color)
INK = "#ffffff"
MUTED = "#bbf7d0"
LINE = "#2f6f45"
IMMUTABLE = "public, max-age=31536000, immutable"
SHORT = "public, max-age=300"
type Font = ImageFont.FreeTypeFont | ImageFont.ImageFont


@dataclass(frozen=True)
class Card:
    """What an image shows, as text: its title (the concours, the two teams), the summary
    line, the rows of a ranking or a score (rank or mark, name, figure), the site's name."""

    title: str
    summary: str
    rows: tuple[tuple[str, str, str], ...] = ()
    site: str = ""


@dataclass(frozen=True)
class Preview:
    """A page's preview tags: its title and summary, its own address and its image's (both
    absolute), the image's text for those who cannot see it."""

    title: str
    summary: str
    url: str
    image: str
    image_alt: str
    width: int = WIDTH
    height: int = HEIGHT


def asked_language(request: HttpRequest) -> str | None:
    """The language a shared address asks for (`?lang=fr`), when the site has it."""
    wanted = request.GET.get("lang", "")
    return wanted if wanted in dict(settings.LANGUAGES) else None


def speaks_asked_language[**P](
    view: Callable[Concatenate[HttpRequest, P], HttpResponse],
) -> Callable[Concatenate[HttpRequest, P], HttpResponse]:
    """A page (or image) in the language its address asks for (`?lang=`), else the visitor's:
    a shared link shows in the language it was shared in, to a chat app's crawler too."""

    @wraps(view)
    def wrapped(request: HttpRequest, *args: P.args, **kwargs: P.kwargs) -> HttpResponse:
        language = asked_language(request)
        if language is None:
            return view(request, *args, **kwargs)
        with translation.override(language):
            request.LANGUAGE_CODE = language
            response = view(request, *args, **kwargs)
            response["Content-Language"] = language
        return response

    return wrapped  # type: ignore[return-value]  # functools.wraps' _Wrapped is the same call


@cache
def _font(size: int, bold: bool) -> Font:
    name = "DejaVuSans-Bold.ttf" if bold else "DejaVuSans.ttf"
    for folder in FONT_DIRS:
        if (folder / name).is_file():
            return ImageFont.truetype(str(folder / name), size)
    return ImageFont.load_default(size)


def _width(draw: ImageDraw.ImageDraw, text: str, font: Font) -> float:
    return draw.textlength(text, font=font)


def fit(
    draw: ImageDraw.ImageDraw,
    text: str,
    font: Font,
    width: float,
) -> str:
    """`text` cut to `width` pixels, an ellipsis where it was cut."""
    text = " ".join(text.split())
    if _width(draw, text, font) <= width:
        return text
    low, high = 0, len(text)
    while low < high:  # the longest start that fits with its ellipsis
        middle = (low + high + 1) // 2
        if _width(draw, text[:middle].rstrip() + "…", font) <= width:
            low = middle
        else:
            high = middle - 1
    return text[:low].rstrip() + "…"


def wrap(
    draw: ImageDraw.ImageDraw,
    text: str,
    font: Font,
    width: float,
    lines: int,
) -> list[str]:
    """`text` on at most `lines` lines of `width` pixels, cut on words; the last one cut with
    an ellipsis when the text goes on."""
    words = " ".join(text.split()).split(" ")
    out: list[str] = []
    current = ""
    for index, word in enumerate(words):
        attempt = f"{current} {word}".strip()
        if _width(draw, attempt, font) <= width or not current:
            current = attempt
            continue
        out.append(current)
        current = word
        if len(out) == lines - 1:
            current = " ".join(words[index:])
            break
    out.append(current)
    return [fit(draw, line, font, width) for line in out[:lines]]


def draw_card(card: Card) -> bytes:
    """The card as a PNG of WIDTH × HEIGHT: white on the app's green, large enough to read in
    a chat's preview on a phone (shown about 300 pixels wide)."""
    image = Image.new("RGB", (WIDTH, HEIGHT), BACKGROUND)
    draw = ImageDraw.Draw(image)
    inner = WIDTH - 2 * MARGIN
    y = 36
    if card.site:
        draw.text(
            (MARGIN, y),
            fit(draw, card.site, _font(30, False), inner),
            font=_font(30, False),
            fill=MUTED,
        )
        y += 52
    title_size = 62 if len(card.title) < 40 else 54
    title_font = _font(title_size, True)
    for line in wrap(draw, card.title, title_font, inner, 2):
        draw.text((MARGIN, y), line, font=title_font, fill=INK)
        y += int(title_size * 1.2)
    y += 6
    summary_font = _font(36, False)
    for line in wrap(draw, card.summary, summary_font, inner, 2):
        draw.text((MARGIN, y), line, font=summary_font, fill=MUTED)
        y += 46
    y += 14
    size = 72 if len(card.rows) <= 2 else 40  # a score's two lines: big, as on the scoreboard
    row_font = _font(size, False)
    rank_font = _font(size, True)
    row_height = int(size * 1.55)
    for rank, name, figure in card.rows[:CARD_ROWS]:
        if y + row_height > HEIGHT - 20:
            break
        draw.line((MARGIN, y, WIDTH - MARGIN, y), fill=LINE, width=2)
        top = y + size // 4
        draw.text((MARGIN, top), fit(draw, rank, rank_font, 90), font=rank_font, fill=INK)
        figure_text = fit(draw, figure, rank_font, 300)
        figure_width = _width(draw, figure_text, rank_font)
        draw.text((WIDTH - MARGIN - figure_width, top), figure_text, font=rank_font, fill=INK)
        room = WIDTH - MARGIN - figure_width - 30 - (MARGIN + 100)
        draw.text((MARGIN + 100, top), fit(draw, name, row_font, room), font=row_font, fill=INK)
        y += row_height
    buffer = io.BytesIO()
    # 32 colours (two inks, their antialiasing on one green): a third of the full-colour PNG's
    # bytes (about 25 KB), the same picture.
    image.quantize(colors=32).save(buffer, "PNG")
    return buffer.getvalue()


class _Kept:
    """The last CARDS_KEPT images drawn by this process, by key (page, version, language)."""

    def __init__(self, size: int) -> None:
        self.size = size
        self.images: OrderedDict[tuple[str, ...], bytes] = OrderedDict()
        self.lock = threading.Lock()

    def get(self, key: tuple[str, ...], draw: Callable[[], bytes]) -> bytes:
        with self.lock:
            if key in self.images:
                self.images.move_to_end(key)
                return self.images[key]
        png = draw()
        with self.lock:
            self.images[key] = png
            while len(self.images) > self.size:
                self.images.popitem(last=False)
        return png


KEPT = _Kept(CARDS_KEPT)


def card_png(key: tuple[str, ...], card: Callable[[], Card]) -> bytes:
    """The image of `key` (kept, or drawn from `card()`)."""
    return KEPT.get(key, lambda: draw_card(card()))


def image_response(png: bytes, *, for_good: bool = True) -> HttpResponse:
    """A card's answer: cached for good when its address names its version, else (the address
    without `?v=`: whatever is current) for a few minutes."""
    response = HttpResponse(png, content_type="image/png")
    response["Cache-Control"] = IMMUTABLE if for_good else SHORT
    response["Content-Length"] = str(len(png))
    return response
