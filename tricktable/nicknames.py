"""Nicknames on the daily leaderboard: what is accepted, and when two names are
the same name.

Two nicknames are the same when their *skeletons* are equal: the text is
NFKC-normalized and case-folded, then every character is replaced by the
prototype of its Unicode confusable class (UTS #39 ``confusables.txt``, as
shipped by the ``confusable_homoglyphs`` package), repeated until nothing
changes.  So ``Alice``, ``ALICE``, ``Аlice`` (Cyrillic А) and ``Ａlice``
(full-width) share one skeleton, and so do ``rn`` and ``m``.

>>> skeleton("Alice") == skeleton("ALICE") == skeleton("\\u0410lice") == skeleton("\\uff21lice")
True
>>> skeleton("modern") == skeleton("rnodern")
True
>>> clean_nickname("  Anna   Maria ")
'Anna Maria'
"""

from __future__ import annotations

import unicodedata
from functools import lru_cache

from confusable_homoglyphs import categories, confusables
from confusable_homoglyphs.utils import load

MAX_VISIBLE = 20
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
    visible = sum(1 for char in name if unicodedata.category(char)[0] != "M")
    if not 1 <= visible <= MAX_VISIBLE:
        raise NicknameError(f"a nickname has 1 to {MAX_VISIBLE} visible characters")
    previous = ""
    for char in name:
        kind = unicodedata.category(char)
        if kind[0] not in "LMN" and char not in ALLOWED_PUNCTUATION:
            raise NicknameError(f"a nickname cannot contain {unicodedata.name(char, repr(char))}")
        if kind[0] == "M" and not (previous and unicodedata.category(previous)[0] in "LM"):
            raise NicknameError("a nickname's accents and vowel signs must follow a letter")
        previous = char
    if not any(unicodedata.category(char)[0] in "LN" for char in name):
        raise NicknameError("a nickname needs at least one letter or digit")
    scripts = categories.unique_aliases(name) - set(NEUTRAL_SCRIPTS)
    if len(scripts) > 1 and not scripts <= WRITTEN_TOGETHER:
        raise NicknameError(f"a nickname uses one script, not a mix ({', '.join(sorted(scripts)).lower()})")
    return name


def skeleton(name: str) -> str:
    """The form two names that look alike share (see the module text)."""
    text = unicodedata.normalize("NFKC", name).casefold()
    for _round in range(4):  # a prototype may case-fold to another class; settle
        mapped = unicodedata.normalize("NFKC", "".join(_prototypes().get(c, c) for c in text)).casefold()
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


__all__ = ["NicknameError", "clean_nickname", "skeleton", "MAX_VISIBLE"]
