"""English dates without the month-first US order: "1 Mar 2025" reads the same in London,
Brussels and New York (Django's own "en" formats are American: 03/01/2025)."""

DATE_FORMAT = "j M Y"
SHORT_DATE_FORMAT = "j M Y"
DATETIME_FORMAT = "j M Y, H:i"
SHORT_DATETIME_FORMAT = "j M Y, H:i"
TIME_FORMAT = "H:i"
FIRST_DAY_OF_WEEK = 1  # Monday
