"""Django's makemessages, told the project's other name for gettext: `gettext_now` (web/words.py
imports `gettext` under it beside `gettext_lazy as _`, for the words it needs at once). Without
it xgettext misses those messages, marks them obsolete in the catalogue and `--no-obsolete`
drops their French.

    .venv/bin/python manage.py makemessages -l fr --no-obsolete"""

from django.core.management.commands.makemessages import Command as MakeMessagesCommand

KEYWORDS = ("--keyword=gettext_now",)


class Command(MakeMessagesCommand):
    xgettext_options = [*MakeMessagesCommand.xgettext_options, *KEYWORDS]  # noqa: RUF012 (Django's own is a list)
