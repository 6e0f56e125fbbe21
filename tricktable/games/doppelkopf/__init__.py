"""Doppelkopf (pagat main rules with the project's decisions) — ``shared/rules/doppelkopf.md``."""

from tricktable.games.doppelkopf.spec import SPEC, DoppelkopfMatch, DoppelkopfSpec
from tricktable.games.doppelkopf.state import DoppelkopfState

__all__ = ["SPEC", "DoppelkopfMatch", "DoppelkopfSpec", "DoppelkopfState"]
