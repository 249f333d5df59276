"""The random source of every draw: version-stable and documented, so the same file gives the same
draw on any Python (and could be reproduced in another language).

The n-th number (n = 0, 1, 2, ...) of the source for `seed` and `round` is the first 8 bytes, read
as a big-endian unsigned integer, of the SHA-256 digest of the ASCII text
`"belote-tournament/1 <seed> <round> <n>"` (integers in decimal, e.g. `"belote-tournament/1 7 2 0"`).
`below(k)` takes numbers until one is under `2**64 - 2**64 % k` and answers it modulo `k` (no
bias). `shuffle` is Fisher–Yates from the last item down: for i = len - 1 ... 1, swap item i with
item `below(i + 1)`. Python's `random` module promises a stable sequence for `random()` only, not
for `shuffle` or `randrange`, hence this small generator.
"""

import hashlib
from collections.abc import Sequence
from typing import TypeVar

T = TypeVar("T")
SPACE = 2**64


class DrawRandom:
    def __init__(self, seed: int, round_number: int) -> None:
        self._prefix = f"belote-tournament/1 {seed} {round_number} "
        self._count = 0

    def number(self) -> int:
        """The next 64-bit number of the stream."""
        text = f"{self._prefix}{self._count}".encode("ascii")
        self._count += 1
        return int.from_bytes(hashlib.sha256(text).digest()[:8], "big")

    def below(self, k: int) -> int:
        """A uniform integer from 0 to k - 1."""
        if k < 1:
            raise ValueError("below() needs k >= 1")
        limit = SPACE - SPACE % k
        while True:
            value = self.number()
            if value < limit:
                return value % k

    def shuffle(self, items: Sequence[T]) -> list[T]:
        """A new list: `items` in a random order."""
        out = list(items)
        for i in range(len(out) - 1, 0, -1):
            j = self.below(i + 1)
            out[i], out[j] = out[j], out[i]
        return out

    def choice(self, items: Sequence[T]) -> T:
        return items[self.below(len(items))]
