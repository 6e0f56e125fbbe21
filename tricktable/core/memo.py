"""What a search works out once per observation and reads for every world it samples.

>>> made = []
>>> last = PerObservation(lambda obs: made.append(obs) or len(made))
>>> view = object()
>>> last.of(view), last.of(view), len(made)
(1, 1, 1)
"""

from __future__ import annotations

from typing import Callable, Generic, TypeVar

Obs = TypeVar("Obs")
Value = TypeVar("Value")


class PerObservation(Generic[Obs, Value]):
    """The value ``make`` gives for the observation last asked about (compared by
    identity: an observation is immutable, and the entry keeps it alive).  One entry,
    read and replaced whole: searches in several threads only ever miss it."""

    def __init__(self, make: Callable[[Obs], Value]):
        self.make = make
        self.last: tuple[Obs, Value] | None = None

    def of(self, obs: Obs) -> Value:
        last = self.last
        if last is not None and last[0] is obs:
            return last[1]
        value = self.make(obs)
        self.last = (obs, value)
        return value

    def clear(self) -> None:
        self.last = None
