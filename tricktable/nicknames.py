"""Nicknames on the daily leaderboard: what is accepted, and when two names are
the same name.

Two nicknames are the same when either of their two keys is equal.  The
*skeleton* is UTS #39's (NFD, every character replaced by the prototype of its
confusable class from ``confusables.txt`` as shipped by the
``confusable_homoglyphs`` package, NFD again), then case folding, repeated
until nothing changes: look-alikes are mapped *before* case folding, as UTS
#39 does, since folding first turns ``I`` into ``i`` and so misses that ``I``
looks like ``l``.  Mapping first in turn misses that ``ALICE`` is ``Alice``
(its ``I`` became an ``l``), so the *case skeleton* folds first.  So
``Alice``, ``ALICE``, ``Аlice`` (Cyrillic А) and ``Ａlice`` (full-width) are
one name, and so are ``rn`` and ``m``, ``Lil`` and ``LiI``, Latin ``ABE`` and
Greek ``ΑΒΕ``.

>>> same = lambda a, b: any(x == y for x, y in zip(skeletons(a), skeletons(b)))
>>> same("Alice", "ALICE") and same("Alice", "\\u0410lice") and same("Alice", "\\uff21lice")
True
>>> same("modern", "rnodern") and same("Lil", "LiI") and same("ABE", "\\u0391\\u0392\\u0395")
True
>>> same("Lil", "Lin")
False
>>> clean_nickname("  Anna   Maria ")
'Anna Maria'

Invisible characters are refused outright (``DEFAULT_IGNORABLE``): a name with
a variation selector looks exactly like the name without it.
"""

from __future__ import annotations

import unicodedata
from functools import lru_cache

from confusable_homoglyphs import categories, confusables
from confusable_homoglyphs.utils import load

MAX_VISIBLE = 20
MAX_CODE_POINTS = 64
"""The stored nickname's column holds this many code points (``VARCHAR(64)``):
20 visible characters may carry their marks, never more than this."""
MAX_SKELETON = 200
"""The skeleton's column: a prototype may be several characters long."""
MAX_MARKS_PER_LETTER = 3
"""Combining marks after one letter (in NFD): Vietnamese stacks two, Hindi a
nukta, a vowel sign and a nasal sign; a tower of accents is a trick."""
DEFAULT_IGNORABLE = (
    (0x00AD, 0x00AD), (0x034F, 0x034F), (0x061C, 0x061C), (0x115F, 0x1160), (0x17B4, 0x17B5),
    (0x180B, 0x180F), (0x200B, 0x200F), (0x202A, 0x202E), (0x2060, 0x206F), (0x3164, 0x3164),
    (0xFE00, 0xFE0F), (0xFEFF, 0xFEFF), (0xFFA0, 0xFFA0), (0xFFF0, 0xFFF8), (0x1BCA0, 0x1BCA3),
    (0x1D173, 0x1D17A), (0xE0000, 0xE0FFF),
)
"""Unicode's ``Default_Ignorable_Code_Point`` ranges (DerivedCoreProperties.txt):
characters that show nothing, e.g. the variation selectors U+FE0E/U+FE0F, the
combining grapheme joiner U+034F and the zero-width characters U+200B-U+200D.
Python's ``unicodedata`` does not expose the property."""
ALLOWED_PUNCTUATION = " _-."
# Scripts that are written together (Japanese); every other mix of two
# scripts in one name is refused as a look-alike risk.
WRITTEN_TOGETHER = {"HAN", "HIRAGANA", "KATAKANA"}
NEUTRAL_SCRIPTS = ["COMMON", "INHERITED"]
_DIRECTION_MARKS = str.maketrans("", "", "\u200e\u200f")


class NicknameError(ValueError):
    """Why a nickname is refused (the message is shown to the person)."""


def clean_nickname(text: str) -> str:
    """The nickname as stored (NFKC, runs of spaces made one, trimmed), or
    ``NicknameError``: 1 to 20 visible characters; letters, marks, digits,
    space and ``_ - .``; a mark only after a letter; at least one letter or
    digit; one script (or Japanese's mix)."""
    name = " ".join(unicodedata.normalize("NFKC", text).split())
    for char in name:
        if is_default_ignorable(char):
            raise NicknameError(f"a nickname cannot contain the invisible {unicodedata.name(char, f'U+{ord(char):04X}')}")
    visible = sum(1 for char in name if unicodedata.category(char)[0] != "M")
    if not 1 <= visible <= MAX_VISIBLE:
        raise NicknameError(f"a nickname has 1 to {MAX_VISIBLE} visible characters")
    if len(name) > MAX_CODE_POINTS:
        raise NicknameError(f"a nickname has at most {MAX_CODE_POINTS} characters with its accents and signs")
    previous = ""
    for char in name:
        kind = unicodedata.category(char)
        if kind[0] not in "LMN" and char not in ALLOWED_PUNCTUATION:
            raise NicknameError(f"a nickname cannot contain {unicodedata.name(char, repr(char))}")
        if kind[0] == "M" and not (previous and unicodedata.category(previous)[0] in "LM"):
            raise NicknameError("a nickname's accents and vowel signs must follow a letter")
        previous = char
    if _most_marks_on_a_letter(name) > MAX_MARKS_PER_LETTER:
        raise NicknameError(f"a letter of a nickname carries at most {MAX_MARKS_PER_LETTER} accents or signs")
    if not any(unicodedata.category(char)[0] in "LN" for char in name):
        raise NicknameError("a nickname needs at least one letter or digit")
    scripts = categories.unique_aliases(name) - set(NEUTRAL_SCRIPTS)
    if len(scripts) > 1 and not scripts <= WRITTEN_TOGETHER:
        raise NicknameError(f"a nickname uses one script, not a mix ({', '.join(sorted(scripts)).lower()})")
    if max(len(key) for key in skeletons(name)) > MAX_SKELETON:
        raise NicknameError("that nickname is too long")
    return name


def is_default_ignorable(char: str) -> bool:
    code = ord(char)
    return any(low <= code <= high for low, high in DEFAULT_IGNORABLE)


def _most_marks_on_a_letter(name: str) -> int:
    most = run = 0
    for char in unicodedata.normalize("NFD", name):
        run = run + 1 if unicodedata.category(char)[0] == "M" else 0
        most = max(most, run)
    return most


def skeletons(name: str) -> tuple[str, str]:
    """Both keys of a name (``skeleton``, ``case_skeleton``): the store keeps each unique."""
    return skeleton(name), case_skeleton(name)


def case_skeleton(name: str) -> str:
    """The skeleton of the case-folded name: equal for names that differ in case only."""
    return skeleton(name.casefold())


def skeleton(name: str) -> str:
    """The form two names that look alike share (see the module text)."""
    text = name
    for _round in range(4):  # a prototype may case-fold into another class; settle
        nfd = unicodedata.normalize("NFD", text)
        mapped = unicodedata.normalize("NFD", "".join(_prototypes().get(c, c) for c in nfd)).casefold()
        if mapped == text:
            break
        text = mapped
    return text


@lru_cache(maxsize=1)
def _prototypes() -> dict[str, str]:
    """Character → prototype of its confusable class.

    The package stores each ``confusables.txt`` line both ways, so every class
    is a star: the prototype is linked to all its members and a member only
    to the prototype.  A class of two members has no visible centre; the
    smaller string then stands for both (any fixed choice keeps equal names
    equal)."""
    links = {key: [item["c"].translate(_DIRECTION_MARKS) for item in value]
             for key, value in load("confusables.json").items()}
    out: dict[str, str] = {}
    for char, linked in links.items():
        if len(linked) != 1:
            continue  # a prototype: maps to itself
        other = linked[0]
        if other in links and len(links[other]) == 1:
            out[char] = min(char, other)
        else:
            out[char] = other
    return out


def looks_dangerous(name: str) -> bool:
    """Whether the package flags ``name`` as a mixed-script look-alike."""
    return bool(confusables.is_dangerous(name))


__all__ = ["NicknameError", "case_skeleton", "clean_nickname", "skeleton", "skeletons", "MAX_CODE_POINTS", "MAX_SKELETON", "MAX_VISIBLE"]
