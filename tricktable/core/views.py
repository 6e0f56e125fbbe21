"""What a deal state keeps for its views: the (actor, text) pairs each seat was shown
and the finished tricks, extended at the next view by what happened since.

The server observes after every step, and spelling the whole history every time was
most of the cost of a view (Court Piece, Doppelkopf).  A text depends on the action,
its actor and the seat, and perhaps on facts of the deal that can still change (in
Doppelkopf, the reservation that plays): such texts are kept with those facts and
spelled anew when they differ.  The history only grows, except where a sampled world
writes its own hidden actions into it; such a world calls ``forget_seen``.

What is kept is tuples, replaced and never changed in place, so a clone shares them
by copying the two fields (a clone that goes another way replaces its own)."""

from __future__ import annotations

from abc import abstractmethod
from typing import Any, Generic, Hashable, Iterator, Mapping, Sequence, TypeVar

from tricktable.core.protocol import Deal, DealState, GameSpec
from tricktable.core.step import FinishedTrick

SeenActions = tuple[tuple[int, str], ...]
"""(actor, text) of a deal's actions as one seat reads them."""
KeptActions = tuple[tuple[Hashable, SeenActions] | None, ...]
"""Per seat: the facts its texts were spelled under and the texts, or None."""
NOTHING_SEEN: KeptActions = (None, None, None, None)

TrickView = TypeVar("TrickView", bound=FinishedTrick)


class ViewKeepingState(DealState, Generic[TrickView]):
    """A deal state that keeps its views' texts and finished tricks (see the module
    docstring).  A game says how it spells actions (``_spell_seen``), what a finished
    trick looks like in a view (``_trick_view``) and, if its texts depend on facts
    that can change, which (``_seen_facts``); its ``clone`` copies ``_seen`` and
    ``_seen_tricks`` as they are."""

    tricks: Sequence[Any]
    """The finished tricks as the game records them, in order."""
    trick: Sequence[int]
    """The cards of the trick being played (empty between tricks)."""
    _seen: KeptActions
    _seen_tricks: tuple[TrickView, ...]

    def __init__(self, spec: GameSpec, deal: Deal, options: Mapping[str, Any]):
        super().__init__(spec, deal, options)
        self.forget_seen()

    def forget_seen(self) -> None:
        """Spell every view anew from the history (it was rewritten: a sampled world
        put its own hidden actions in)."""
        self._seen = NOTHING_SEEN
        self._seen_tricks = ()

    def seen_actions(self, seat: int) -> SeenActions:
        """The deal's actions as ``seat`` reads them: what was kept for it, extended
        by the actions taken since, while the facts its texts depend on are the same."""
        facts = self._seen_facts()
        kept = self._seen[seat]
        texts = kept[1] if kept is not None and kept[0] == facts else ()
        known = len(texts)
        history = self._history
        if known == len(history):
            return texts
        texts += self._spell_seen(seat, facts, zip(self._actors[known:], history[known:]))
        seen = self._seen
        self._seen = seen[:seat] + ((facts, texts),) + seen[seat + 1:]
        return texts

    def seen_tricks(self) -> tuple[TrickView, ...]:
        """The finished tricks as every seat sees them, kept like ``seen_actions``
        (a finished trick never changes)."""
        kept = self._seen_tricks
        if len(kept) < len(self.tricks):
            trick_view = self._trick_view
            kept += tuple(trick_view(trick) for trick in self.tricks[len(kept):])
            self._seen_tricks = kept
        return kept

    def _seen_last(self, seat: int) -> str:
        return self.seen_actions(seat)[-1][1]

    def _completed_by_last(self) -> TrickView | None:
        # Only a card completes a trick, and it leaves the table empty as it does.
        if self.trick or not self.tricks or self._history[-1] not in self.spec.actions["play"]:
            return None
        return self.seen_tricks()[-1]

    def _seen_facts(self) -> Hashable:
        """The facts of the deal every text depends on besides its action, actor and
        seat (compared with ``==``); none by default."""
        return None

    @abstractmethod
    def _spell_seen(self, seat: int, facts: Any, taken: Iterator[tuple[int, int]]) -> SeenActions:
        """The (actor, text) of each (actor, action) ``taken`` as ``seat`` reads it
        under ``facts`` (``_seen_facts``)."""

    @abstractmethod
    def _trick_view(self, trick: Any) -> TrickView:
        """A finished trick (an item of ``tricks``) as the views show it."""
