"""The Court Piece games as compositions of small rule objects, in the spirit of
scalachess's variants: one state class (``state.py``) and, per game, how trump
is chosen (``trump.py``), what a won trick is worth (``tricks.py``) and how the
deal is decided (``scoring.py``).  Adding a relative means composing the parts
here (and writing a new part only for a rule that none has)."""

from __future__ import annotations

from tricktable.games.courtpiece.scoring import SevenTricks, Tens
from tricktable.games.courtpiece.state import Variant as Variant  # declared beside the state that consults it
from tricktable.games.courtpiece.tricks import Pile, SingleTricks
from tricktable.games.courtpiece.trump import Called, FirstVoid, HiddenCard


BE_RANGA_TEXTS = {
    "callers_won": "The first leader's team won the deal",
    "others_won": "The dealing team won the deal",
    "callers_kot": "Kot: the first leader's team took all 13 tricks",
    "goon_kot": "Goon kot: the dealing team took all 13 tricks",
}
"""Be-Ranga has no caller: the player to the dealer's right leads the first trick
and his team takes the callers' place in the score table and the dealer rotation."""

DOUBLE_SAR = Variant(Called(), Pile(), SevenTricks())
SINGLE_SAR = Variant(Called(), SingleTricks(), SevenTricks())
HIDDEN_TRUMP = Variant(HiddenCard(), SingleTricks(), SevenTricks())
BE_RANGA = Variant(FirstVoid(), Pile(wait_for_trump=True),
                   SevenTricks(texts={**SevenTricks().texts, **BE_RANGA_TEXTS}))
MENDIKOT = Variant(HiddenCard(can_change=False), SingleTricks(), Tens())
"""Mendikot names trump by Hidden Trump's card, with the family's calling (pass
once, timeouts, the flip); no change trump (the spec offers it in Single Sar,
Double Sar and Hidden Trump only)."""
