"""Doppelkopf's action space, declared in one place (``DoppelkopfSpec.actions``).

A face 0..51 plays that card (``play QC`` is the same action whichever copy is
held).  The poverty exchange carries three faces in one number
(``GIVE``/``RETURN`` + ``triple_code``).  Notation, parsed back to the same int:
``healthy``, ``marriage``, ``poverty``, ``throw in``, ``solo clubs|spades|hearts|diamonds|queens|jacks|aces``,
``re``, ``kontra``, ``no 90``, ``no 60``, ``no 30``, ``schwarz``, ``accept``,
``decline``, ``play 10H``, ``give 9C 10D QD``, ``return AS KS 9H``.

>>> ACTIONS.range_of(ANNOUNCE_KONTRA).name, ACTIONS.range_of(RETURN + triple_code([0, 1, 2])).name
('announce', 'return')
>>> ACTIONS.overlaps()
[]
"""

from __future__ import annotations

from typing import Sequence

from tricktable.core.actions import ActionRange, ActionSpace
from tricktable.games.doppelkopf.rules import SOLO_NAMES

HEALTHY, MARRIAGE, POVERTY, THROW_IN = 200, 201, 202, 203
"""``THROW_IN``: a house rule (``games/doppelkopf/house.py``)."""
SOLO = 210
"""``SOLO + k``: the solo ``SOLO_NAMES[k]``."""
ANNOUNCE_RE, ANNOUNCE_KONTRA, NO_90, NO_60, NO_30, SCHWARZ = 220, 221, 222, 223, 224, 225
ACCEPT, DECLINE = 230, 231
TRIPLE_CODES = 1 << 18
"""Three faces of six bits each (``triple_code``)."""
GIVE, RETURN = 1 << 20, 2 << 20

ACTIONS = ActionSpace(
    ActionRange("play", 0, 52),
    ActionRange("reserve", HEALTHY, 4),
    ActionRange("solo", SOLO, len(SOLO_NAMES)),
    ActionRange("announce", ANNOUNCE_RE, SCHWARZ - ANNOUNCE_RE + 1),
    ActionRange("offer", ACCEPT, 2),
    ActionRange("give", GIVE, TRIPLE_CODES),
    ActionRange("return", RETURN, TRIPLE_CODES),
)


def triple_code(faces: Sequence[int]) -> int:
    """Three faces as one number, order-free (so notation parses back the same)."""
    a, b, c = sorted(faces)
    return (a << 12) | (b << 6) | c


def triple_faces(code: int) -> tuple[int, int, int]:
    return (code >> 12) & 63, (code >> 6) & 63, code & 63


def announcement_level(action: int) -> int:
    """0 for re/kontra, 1..4 for no 90 .. schwarz."""
    return 0 if action <= ANNOUNCE_KONTRA else action - ANNOUNCE_KONTRA
