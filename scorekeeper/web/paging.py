"""Long lists cut into pages (issue 23): a page number read from the address, the slice shown,
and the links of `templates/partials/pager.html` (plain links that keep the rest of the address;
with htmx, the list alone is swapped). A project-level module: it imports nothing of the
project, so any app may use it.

A page number is `?<param>=N` (each list of a page has its own parameter): anything but 1 to 6
decimal digits is page 1, a number past the last page is the last page; never an error."""

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from urllib.parse import urlencode

from django.http import HttpRequest

PER_PAGE = 50
MAX_DIGITS = 6


def page_number(request: HttpRequest, param: str = "page") -> int:
    """The page asked for by `?<param>=`: a whole number from 1; anything else is page 1."""
    value = request.GET.get(param, "")
    if value.isascii() and value.isdecimal() and len(value) <= MAX_DIGITS:
        return max(int(value), 1)
    return 1


def page_of(index: int, per_page: int = PER_PAGE) -> int:
    """The page (from 1) holding the item at 0-based `index`."""
    return index // per_page + 1


@dataclass(frozen=True)
class Page[T]:
    """The items of page `number` of `pages`, of `total` items in all; `param` names its page
    number in the address, `query` the rest of the address (without it), for the links."""

    items: Sequence[T]
    number: int
    pages: int
    total: int
    per_page: int
    param: str
    query: tuple[tuple[str, str], ...]

    @property
    def first(self) -> int:
        """The position (from 1) of the page's first item."""
        return (self.number - 1) * self.per_page + 1 if self.total else 0

    @property
    def last(self) -> int:
        return self.first + len(self.items) - 1 if self.items else 0

    @property
    def has_other_pages(self) -> bool:
        return self.pages > 1

    @property
    def previous_url(self) -> str:
        return self.url(self.number - 1) if self.number > 1 else ""

    @property
    def next_url(self) -> str:
        return self.url(self.number + 1) if self.number < self.pages else ""

    @property
    def first_url(self) -> str:
        return self.url(1) if self.number > 2 else ""

    @property
    def last_url(self) -> str:
        return self.url(self.pages) if self.number < self.pages - 1 else ""

    def url(self, number: int) -> str:
        """The address's query for page `number` of this list (the other parameters kept)."""
        pairs = list(self.query)
        if number > 1:
            pairs.append((self.param, str(number)))
        return "?" + urlencode(pairs) if pairs else "?"

    def with_items[U](self, items: Sequence[U]) -> "Page[U]":
        """The same page holding `items` (the page's items made into rows)."""
        return Page(
            items, self.number, self.pages, self.total, self.per_page, self.param, self.query
        )

    def __iter__(self) -> Iterator[T]:
        return iter(self.items)

    def __len__(self) -> int:
        return len(self.items)


def paginate[T](
    items: Sequence[T],
    request: HttpRequest,
    *,
    param: str = "page",
    per_page: int = PER_PAGE,
    total: int | None = None,
) -> Page[T]:
    """The page of `items` asked for by `?<param>=` (see `page_number`). `total`: the number of
    items when counted already (a query set is then only sliced: one query for the page)."""
    if total is None:
        total = len(items)
    pages = max(-(-total // per_page), 1)
    number = min(page_number(request, param), pages)
    start = (number - 1) * per_page
    query = tuple(
        (key, value) for key, values in request.GET.lists() if key != param for value in values
    )
    shown = list(items[start : start + per_page])
    return Page(shown, number, pages, total, per_page, param, query)
