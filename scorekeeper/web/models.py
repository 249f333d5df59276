"""Rate limits shared by every worker and app server (see throttle.py)."""

from django.db import models


class RateLimit(models.Model):
    """What one key (an action and who does it: `import:ip:203.0.113.7`) has used of its limit in
    the current window; the row is deleted once the window is over."""

    key = models.CharField(max_length=200, unique=True)
    count = models.PositiveBigIntegerField(default=0)
    window_start = models.DateTimeField()
    expires_at = models.DateTimeField(db_index=True)  # window_start + the window

    def __str__(self) -> str:
        return f"{self.key}: {self.count} until {self.expires_at:%Y-%m-%d %H:%M:%S}"


class LiveChange(models.Model):
    """One change a live page may follow (`web/live`), on SQLite only: the database's triggers
    append a row with its topic (`m12`: match 12) in the transaction of the change, and each
    process that holds streams reads the rows after the last one it saw, a few times a second,
    whichever process wrote them. The triggers keep the latest 1,000. (On PostgreSQL the same
    triggers send NOTIFY instead and the table stays empty.)"""

    topic = models.CharField(max_length=24)

    def __str__(self) -> str:
        return f"{self.pk}: {self.topic}"
