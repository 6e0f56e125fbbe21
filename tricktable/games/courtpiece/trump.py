"""How a Court Piece game chooses trump: one small rule object per way, composed
into a variant (``variants.py``).  The state (``state.py``) asks its trump choice
for the calling actions, the extra actions in play, what a seat sees of an
action, and what to do with the actions it owns; the choice writes the state's
trump fields and nothing else.

* ``Called`` — Double Sar and Single Sar: the caller names a suit he holds among
  his first five cards (or passes once to his partner, who names one of his own
  first five likewise); the family's timeouts and flip;
  change trump to another open suit with the caller's first card.
* ``HiddenCard`` — Hidden Trump and Mendikot (spec "Relatives"): a card of the
  chosen suit goes face down; until it is revealed there is no trump.
* ``FirstVoid`` — Be-Ranga: no calling; the first card played by a player who
  cannot follow makes its suit trump.

Hidden Trump's decisions (the spec leaves them open):

* The card is chosen from the first five cards of whoever names trump: the caller,
  or his partner after a pass.  It leaves that player's hand (he holds twelve
  cards) until the reveal.
* A player who cannot follow may ask to see it (``reveal``); it is shown to all,
  returns to the hand of the player who put it down, and the asker must then play
  a trump if he has one.  The player who put it down may ask too when he cannot
  follow.  When the face-down card is his last card, asking is all he can do,
  leading or not: so the card always comes back into play by trick 13.
* "Only trumps played from the reveal on": in the trick of the reveal, a card of
  the trump suit played *before* the reveal as a discard is a plain card; cards
  that follow the led suit rank among themselves as always.
* After the partner's timeout the dealer turns up a random stock card, as in the
  family: it is face up, so trump is open from the start (nothing to reveal).
* **Change trump**: the caller, with his first card, once, when he put the card
  down himself: he takes it back and puts a card of another suit from his 13
  face down instead (``change trump 9H``).  When his partner chose the card, he
  does not know it and cannot change it; after a flip trump is open and changes
  as in Single Sar (``change trump D``).  Other seats read ``hide ?`` and
  ``change trump ?``: even the suit is known only to the player who put it down.

Be-Ranga's decisions: the first card of a void player already counts as a trump;
**new cards** as in the family (from the deal until the person's own first card);
no change trump.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from tricktable.games.courtpiece.actions import CALL, CHANGE, HIDE, REVEAL, SWAP, masked_text
from tricktable.games.courtpiece.observation import CourtPieceObservation, HiddenFacts, VoidFacts
from tricktable.games.courtpiece.rules import SUIT_MASKS, SUIT_OF
from tricktable.games.courtpiece.sampling import sample_hidden_world, sample_world
from tricktable.games.courtpiece.state import CourtPieceState, FamilySpec, TrumpChoice, TrumpTable, cards_in


def _open_changes(state: TrumpTable) -> tuple[int, ...]:
    return tuple(CHANGE + s for s in range(4) if s != state.trump)


@dataclass(frozen=True)
class Called(TrumpChoice):
    """The caller (or his partner) names a suit; it is trump, face up."""

    can_change: bool = True

    def calls(self, state: TrumpTable) -> list[int]:
        """A suit the seat holds among its first five cards (any suit in records of
        the first rules versions: legacy option ``call_any_suit``)."""
        if state.options.get("call_any_suit"):
            return [CALL + s for s in range(4)]
        five = state.first_five[state.turn]
        return [CALL + s for s in range(4) if five & SUIT_MASKS[s]]

    def decide(self, state: TrumpTable, action: int) -> None:
        state.trump, state.trump_by = action - CALL, state.turn
        state.start_play()

    def play_actions(self, state: TrumpTable) -> tuple[int, ...]:
        if state.trick or not state.may_change_trump():
            return ()
        return _open_changes(state)

    def may_change(self, state: TrumpTable) -> bool:
        return self.can_change

    def sample_world(self, spec: FamilySpec, obs: CourtPieceObservation, rng: random.Random) -> CourtPieceState:
        return sample_world(spec, obs, rng)


@dataclass(frozen=True)
class HiddenCard(TrumpChoice):
    """A card of the chosen suit lies face down; no trump until someone asks."""

    can_change: bool = True
    face_down = True

    def calls(self, state: TrumpTable) -> list[int]:
        return [HIDE + c for c in cards_in(state.first_five[state.turn])]

    def decide(self, state: TrumpTable, action: int) -> None:
        if action == REVEAL:
            self._reveal(state)
        elif action >= SWAP:  # take the card back, put one of another suit down
            state.hands[state.trump_by] ^= (1 << state.down) | (1 << action - SWAP)
            state.down, state.changed_trump = action - SWAP, True
        else:  # hide
            state.down, state.trump_by = action - HIDE, state.turn
            state.hands[state.turn] ^= 1 << state.down
            state.start_play()

    @staticmethod
    def _reveal(state: TrumpTable) -> None:
        """The face-down card is shown to all and goes back to its owner's hand;
        the asker must trump with his next card if he can, and only trumps from
        his card on count in this trick."""
        state.trump = SUIT_OF[state.down]
        state.hands[state.trump_by] |= 1 << state.down
        state.revealed, state.down = state.down, -1
        state.revealed_by = state.turn
        state.revealed_trick, state.trumps_from = len(state.tricks) + 1, len(state.trick)
        state.must_trump = True

    def play_actions(self, state: TrumpTable) -> tuple[int, ...]:
        extra: tuple[int, ...] = (REVEAL,) if state.down >= 0 and self._may_ask(state) else ()
        if not state.trick and state.may_change_trump():
            extra += self._changes(state)
        return extra

    @staticmethod
    def _may_ask(state: TrumpTable) -> bool:
        """Asking needs a void in the led suit; an empty hand (the face-down card
        is the last one left) must ask even when leading."""
        hand = state.hands[state.turn]
        if not hand:
            return True
        return bool(state.trick) and not hand & SUIT_MASKS[SUIT_OF[state.trick[0]]]

    def may_change(self, state: TrumpTable) -> bool:
        # The partner's card: the caller does not know it.
        return self.can_change and not (state.down >= 0 and state.trump_by != state.caller)

    @staticmethod
    def _changes(state: TrumpTable) -> tuple[int, ...]:
        if state.down < 0:  # open trump after a flip: as in Single Sar
            return _open_changes(state)
        others = state.hands[state.caller] & ~SUIT_MASKS[SUIT_OF[state.down]]
        return tuple(SWAP + c for c in cards_in(others))

    def seen_text(self, state: TrumpTable, seat: int, actor: int, action: int) -> str:
        masked = masked_text(action) if seat != actor else None
        return masked if masked is not None else state.action_text(action)

    def facts(self, state: TrumpTable, seat: int) -> HiddenFacts:
        """The face-down card for the player who put it down only, and the reveal
        (card, asker, trick number) for everyone once it happened."""
        down, revealed = state.down, state.revealed
        return HiddenFacts(
            trump_hidden=down >= 0,
            hidden_card=down if down >= 0 and seat == state.trump_by else None,
            revealed_card=revealed if revealed >= 0 else None,
            revealed_by=state.revealed_by if revealed >= 0 else None,
            revealed_trick=state.revealed_trick or None,
        )

    def sample_world(self, spec: FamilySpec, obs: CourtPieceObservation, rng: random.Random) -> CourtPieceState:
        return sample_hidden_world(spec, obs, rng)


@dataclass(frozen=True)
class FirstVoid(TrumpChoice):
    """Be-Ranga: everyone holds 13 cards and the caller's seat leads at once; the
    first void player's card sets trump (``trump_trick`` is that trick's number)."""

    calls_trump = False

    def on_card(self, state: TrumpTable, card: int, seat: int) -> None:
        if SUIT_OF[card] != SUIT_OF[state.trick[0]]:
            state.trump, state.trump_by, state.trump_trick = SUIT_OF[card], seat, len(state.tricks) + 1

    def facts(self, state: TrumpTable, seat: int) -> VoidFacts:
        return VoidFacts(state.trump_trick or None)

    def sample_world(self, spec: FamilySpec, obs: CourtPieceObservation, rng: random.Random) -> CourtPieceState:
        return sample_world(spec, obs, rng)
