"""Reading a game's action notation: fixed words, and verbs followed by cards or
a suit, case and spacing ignored.  Each game declares one ``Notation``.

>>> from tricktable.cards import parse_card
>>> notation = Notation("Test", {"pass": 100}, {"play": parse_card}, "pass, play QS")
>>> notation.parse("  PASS "), notation.parse("play qs") == parse_card("QS")
(100, True)
>>> notation.parse("jump")
Traceback (most recent call last):
...
tricktable.errors.NotationError: 'jump' is not a Test action (try: pass, play QS)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Mapping

from tricktable.errors import NotationError


@dataclass(frozen=True)
class Notation:
    """``words`` map whole texts to actions; ``verbs`` map a leading verb (one or
    more words) to the parser of the rest.  ``examples`` go into the error."""

    title: str
    words: Mapping[str, int]
    verbs: Mapping[str, Callable[[str], int]]
    examples: str

    def parse(self, text: str) -> int:
        words = " ".join(text.lower().split())
        if words in self.words:
            return self.words[words]
        for verb in sorted(self.verbs, key=len, reverse=True):  # "change trump" before "change"
            if words.startswith(verb + " ") and len(words) > len(verb) + 1:
                return self.verbs[verb](words[len(verb) + 1:])
        raise NotationError(f"{text!r} is not a {self.title} action (try: {self.examples})")
