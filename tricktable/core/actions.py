"""A game's action space: the named ranges of action ints, declared in one place.

Every game declares its ``ActionSpace`` on its spec (``GameSpec.actions``); the
contract suite checks that no two ranges overlap and that every action a game
produces lies in exactly one of them.  The numbers are part of nothing stored
(records hold the text notation), but two meanings for one number would make
``action_text`` ambiguous.

>>> space = ActionSpace(ActionRange("play", 0, 52), ActionRange("pass", 64))
>>> space["pass"].start, 51 in space["play"], space.range_of(64).name
(64, True, 'pass')
>>> ActionSpace(ActionRange("a", 0, 10), ActionRange("b", 9)).overlaps()
[('a', 'b')]
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class ActionRange:
    """``size`` consecutive action ints from ``start``, all of one kind."""

    name: str
    start: int
    size: int = 1

    @property
    def stop(self) -> int:
        return self.start + self.size

    def __contains__(self, action: object) -> bool:
        return isinstance(action, int) and self.start <= action < self.stop


class ActionSpace:
    """A game's ranges, looked up by name."""

    def __init__(self, *ranges: ActionRange):
        self.ranges = ranges
        self._by_name = {r.name: r for r in ranges}

    def __getitem__(self, name: str) -> ActionRange:
        return self._by_name[name]

    def range_of(self, action: int) -> ActionRange | None:
        """The first range holding ``action`` (None when no range does)."""
        return next((r for r in self.ranges if action in r), None)

    def ranges_of(self, action: int) -> list[ActionRange]:
        return [r for r in self.ranges if action in r]

    def overlaps(self) -> list[tuple[str, str]]:
        """Pairs of ranges that share an action (empty for a sound space)."""
        ordered = sorted(self.ranges, key=lambda r: r.start)
        return [(a.name, b.name) for i, a in enumerate(ordered) for b in ordered[i + 1:] if b.start < a.stop]
