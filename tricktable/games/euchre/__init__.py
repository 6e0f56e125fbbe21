"""Euchre (American partnership, stick the dealer) — ``shared/rules/euchre.md``."""

from tricktable.games.euchre.spec import SPEC, EuchreMatch, EuchreSpec
from tricktable.games.euchre.state import EuchreState

__all__ = ["SPEC", "EuchreMatch", "EuchreSpec", "EuchreState"]
