"""The Court Piece family — ``shared/rules/court-piece.md``: Double Sar (the pile)
and Single Sar on one core (``state.py``), ready for its relatives."""

from tricktable.games.courtpiece.match import CourtPieceMatch
from tricktable.games.courtpiece.pile import DoubleSarState
from tricktable.games.courtpiece.spec import DOUBLE_SAR, SINGLE_SAR, CourtPieceSpec, DoubleSarSpec, SingleSarSpec
from tricktable.games.courtpiece.state import CourtPieceState, SingleSarState

__all__ = ["DOUBLE_SAR", "SINGLE_SAR", "CourtPieceMatch", "CourtPieceSpec", "CourtPieceState",
           "DoubleSarSpec", "DoubleSarState", "SingleSarSpec", "SingleSarState"]
