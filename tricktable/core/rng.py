"""Seeded randomness that is the same on every machine and Python version.

Derivation (documented because records and daily deals depend on it):

* The stream of a seed string ``s`` is the concatenation of the blocks
  ``SHA-256(utf8(s) || 0x00 || counter)`` for ``counter`` = 0, 1, 2, … as an
  8-byte big-endian integer.  The stream is read as big-endian 32-bit words.
* ``randbelow(n)`` takes words ``w`` until ``w < n * floor(2**32 / n)`` (rejection,
  so there is no modulo bias) and returns ``w % n``.
* ``shuffle`` is Fisher–Yates from the last position down: position ``i`` is
  swapped with ``randbelow(i + 1)``.
* ``derive_seed(parent, *labels)`` is the hex SHA-256 of
  ``parent`` and the labels joined by ``/`` — used for the deals of a match and for
  daily deals (there with an HMAC key on top, see the server).

Python's ``random`` is never used for anything a record depends on.

>>> shuffled(range(6), "demo") == shuffled(range(6), "demo")
True
>>> SeedStream("demo").randbelow(10) == SeedStream("demo").randbelow(10)
True
"""

from __future__ import annotations

import hashlib
import struct
from typing import Iterable, TypeVar

T = TypeVar("T")
_BLOCK_WORDS = struct.Struct(">8I")
"""A SHA-256 block as eight big-endian 32-bit words."""


class SeedStream:
    """An endless deterministic stream of random words drawn from a seed string."""

    def __init__(self, seed: str):
        self._seed = seed.encode("utf-8") + b"\x00"
        self._counter = 0
        self._words: list[int] = []

    def _refill(self) -> None:
        block = hashlib.sha256(self._seed + self._counter.to_bytes(8, "big")).digest()
        self._counter += 1
        # Reversed so pop() yields the words in stream order.
        self._words = list(_BLOCK_WORDS.unpack(block)[::-1])

    def word(self) -> int:
        if not self._words:
            self._refill()
        return self._words.pop()

    def randbelow(self, n: int) -> int:
        if not 0 < n <= 2**32:
            raise ValueError(f"randbelow needs 0 < n <= 2**32, got {n}")
        limit = n * (2**32 // n)
        while True:
            w = self.word()
            if w < limit:
                return w % n

    def shuffle(self, items: list[T]) -> None:
        # ``randbelow(i + 1)`` for each position, written out: every deal of
        # every game is a shuffle, and the calls were a third of dealing.
        words = self._words
        for i in range(len(items) - 1, 0, -1):
            n = i + 1
            limit = n * (2**32 // n)
            while True:
                if not words:
                    self._refill()
                    words = self._words
                w = words.pop()
                if w < limit:
                    break
            j = w % n
            items[i], items[j] = items[j], items[i]


def shuffled(items: Iterable[T], seed: str) -> list[T]:
    out = list(items)
    SeedStream(seed).shuffle(out)
    return out


def derive_seed(parent: str, *labels: object) -> str:
    text = "/".join([parent, *(str(label) for label in labels)])
    return hashlib.sha256(text.encode("utf-8")).hexdigest()
