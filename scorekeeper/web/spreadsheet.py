"""CSV cells a spreadsheet opens safely: one rule for every CSV the app writes (a match's deals,
a concours's standings, a season's ranking)."""

FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def safe_cell(value: object) -> object:
    """A text cell a spreadsheet would run as a formula (a team name "=HYPERLINK(...)", a note
    "@SUM(...)", "-x", a leading tab or carriage return) gets a leading single quote, as OWASP
    advises against CSV injection, and is shown as typed. Numbers are written from ints, so they
    stay numbers, negative ones too."""
    if isinstance(value, str) and value.startswith(FORMULA_STARTS):
        return "'" + value
    return value


class Echo:
    """A file whose write returns what it is given: csv.writer(Echo()).writerow(...) is the row's
    text, for a streamed response."""

    def write(self, value: str) -> str:
        return value
