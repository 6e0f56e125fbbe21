"""The Court Piece games as compositions of small rule objects, in the spirit of
scalachess's variants: one state class (``state.py``) and, per game, how trump
is chosen (``trump.py``), what a won trick is worth (``tricks.py``) and how the
deal is decided (``scoring.py``).  Adding a relative means composing the parts
here (and writing a new part only for a rule that none has)."""

from __future__ import annotations

from dataclasses import dataclass

from tricktable.games.courtpiece.scoring import Scoring, SevenTricks, Tens
from tricktable.games.courtpiece.tricks import Pile, SingleTricks, TrickValue
from tricktable.games.courtpiece.trump import Called, FirstVoid, HiddenCard, TrumpChoice


@dataclass(frozen=True)
class Variant:
    """One game's rules: the parts the state consults."""

    trump: TrumpChoice
    tricks: TrickValue
    scoring: Scoring

    @property
    def has_pile(self) -> bool:
        """Won tricks go onto the pile (its facts are public)."""
        return isinstance(self.tricks, Pile)


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
