"""The random source of every draw: version-stable and documented, so the same file gives the same
draw on any Python (and could be reproduced in another language).

The source for `seed` and `round` reads the SHA-256 digests of the ASCII texts
`"belote-tournament/1 <seed> <round> <b>"` for b = 0, 1, 2, ... (integers in decimal, e.g.
`"belote-tournament/1 7 2 0"`), each cut into four 8-byte big-endian unsigned numbers: the
numbers of the stream, in that order.
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
        self._block = 0
        self._ready: list[int] = []

    def number(self) -> int:
        """The next 64-bit number of the stream."""
        if not self._ready:
            digest = hashlib.sha256(f"{self._prefix}{self._block}".encode("ascii")).digest()
            self._block += 1
            self._ready = [int.from_bytes(digest[i : i + 8], "big") for i in (24, 16, 8, 0)]
        return self._ready.pop()

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
