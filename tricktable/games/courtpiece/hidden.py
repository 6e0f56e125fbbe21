"""Hidden Trump (Chhupa Rang) — spec ``shared/rules/court-piece.md``, "Relatives":
the caller puts a card of the chosen suit face down; until it is revealed there
is no trump.  A player who cannot follow suit may ask to see it (``reveal``); it
is shown to all, returns to the hand of the player who put it down, and the
asker must then play a trump if he has one.  Only trumps played from the reveal
on count as trumps.  Single Sar scoring.  Mendikot (``mendikot.py``) names trump
the same way.

Notation: ``hide 7S`` (put 7S face down, instead of ``call S``), ``reveal``, and
``change trump 9H`` (put 9H face down instead).  Other seats read ``hide ?`` and
``change trump ?``: the face-down card, and even its suit, are known only to the
player who put it down until the reveal.

Decisions (the spec leaves them open):

* The card is chosen from the first five cards of whoever names trump: the caller,
  or his partner after a pass.  It leaves that player's hand (he holds twelve
  cards) until the reveal.
* The player who put it down may ask too when he cannot follow (he shows it and
  takes it back).  When the face-down card is his last card, asking is all he can
  do, leading or not: so the card always comes back into play by trick 13.
* "Only trumps played from the reveal on": in the trick of the reveal, a card of
  the trump suit played *before* the reveal as a discard is a plain card; cards
  that follow the led suit rank among themselves as always (if the led suit turns
  out to be trump, following the lead is not punished).
* After the partner's timeout the dealer turns up a random stock card, as in the
  family: it is face up, so trump is open from the start (nothing to reveal).
* **Change trump**: the caller, with his first card, once, when he put the card
  down himself: he takes it back and puts a card of another suit from his 13
  face down instead (``change trump 9H``).  When his partner chose the card, he
  does not know it and cannot change it; after a flip trump is open and changes
  as in Single Sar (``change trump D``).
"""

from __future__ import annotations

import random
from typing import Any, Mapping, Sequence

from tricktable.cards import card_text, parse_card
from tricktable.core.errors import NotationError
from tricktable.core.protocol import Deal
from tricktable.core.sampling import SamplingError, assign_cards
from tricktable.games.courtpiece.rules import DECK, DECK_MASK, POWER, SUIT_MASKS, SUIT_OF
from tricktable.games.courtpiece.spec import COMMON_OPTIONS, CourtPieceSpec, _played, sample_world
from tricktable.games.courtpiece.state import CHANGE, PLAYING, CourtPieceState, SingleSarState, cards_in

REVEAL = 75
HIDE = 128  # + card
SWAP = 192  # + card: the new face-down card after "change trump"

_MASKED = {"hide": "hide ?", "change": "change trump ?"}
SAMPLING_TRIES = 20


class HiddenTrumpState(SingleSarState):
    """One deal of Hidden Trump; ``trump`` stays ``NO_TRUMP`` until the reveal."""

    def __init__(self, *args: Any, **kwargs: Any):
        self.down = -1  # the card lying face down, -1 when there is none
        self.revealed = -1  # the card shown at the reveal
        self.revealed_by = -1  # who asked to see it
        self.revealed_trick = 0  # the number of the trick it was shown in
        self.reveal_pos = 0  # in the trick of the reveal: the first position whose trumps count
        super().__init__(*args, **kwargs)

    # -- calling -----------------------------------------------------------------
    def _calls(self) -> list[int]:
        return [HIDE + c for c in cards_in(self.first_five[self.turn])]

    def _decide(self, action: int) -> None:
        if HIDE <= action < HIDE + 52:
            self.down, self.trump_by = action - HIDE, self.turn
            self.hands[self.turn] ^= 1 << self.down
            self._start_play()
        elif action == REVEAL:
            self._reveal()
        elif SWAP <= action < SWAP + 52:
            hider = self.trump_by
            self.hands[hider] ^= (1 << self.down) | (1 << action - SWAP)
            self.down, self.changed_trump = action - SWAP, True
        else:
            super()._decide(action)

    def _reveal(self) -> None:
        """The face-down card is shown to all and goes back to its owner's hand;
        the asker must trump with his next card if he can."""
        self.trump = SUIT_OF[self.down]
        self.hands[self.trump_by] |= 1 << self.down
        self.revealed, self.down = self.down, -1
        self.revealed_by = self.turn
        self.revealed_trick, self.reveal_pos = len(self.tricks) + 1, len(self.trick)

    # -- play ----------------------------------------------------------------------
    def legal_actions(self) -> Sequence[int]:
        if self.phase != PLAYING:
            return super().legal_actions()
        actions = cards_in(self._playable())
        if self.down >= 0 and self._may_ask():
            actions += (REVEAL,)
        if not self.trick and self._may_change_trump():
            actions += self._changes()
        return actions

    def _may_ask(self) -> bool:
        """Asking needs a void in the led suit; an empty hand (the face-down card
        is the last one left) must ask even when leading."""
        hand = self.hands[self.turn]
        if not hand:
            return True
        return bool(self.trick) and not hand & SUIT_MASKS[SUIT_OF[self.trick[0]]]

    def _may_change_trump(self) -> bool:
        if self.down >= 0 and self.trump_by != self.caller:
            return False  # the partner's card: the caller does not know it
        return super()._may_change_trump()

    def _changes(self) -> tuple[int, ...]:
        if self.down < 0:  # open trump after a flip: as in Single Sar
            return tuple(CHANGE + s for s in range(4) if s != self.trump)
        others = self.hands[self.caller] & ~SUIT_MASKS[SUIT_OF[self.down]]
        return tuple(SWAP + c for c in cards_in(others))

    def _playable(self) -> int:
        # The asker's next card is always the action right after the reveal.
        if self._history[-1] == REVEAL:
            trumps = self.hands[self.turn] & SUIT_MASKS[self.trump]
            if trumps:
                return trumps
        return SingleSarState._playable(self)  # the family's rule (a direct call: the hottest path)

    def _why_not_playable(self, card: int) -> str:
        if self._history[-1] == REVEAL and self.hands[self.turn] >> card & 1:
            return "you asked to see trump: you must play a trump"
        return super()._why_not_playable(card)

    def _winning_index(self, trick: list[int]) -> int:
        if not self.reveal_pos:
            return SingleSarState._winning_index(self, trick)
        # The trick of the reveal: discards of the trump suit made before it are plain.
        led, power, first = SUIT_OF[trick[0]], POWER[self.trump], self.reveal_pos
        best, index = -1, 0
        for i, c in enumerate(trick):
            suit = SUIT_OF[c]
            if (suit == led or (suit == self.trump and i >= first)) and power[c] > best:
                best, index = power[c], i
        return index

    def _take_trick(self, winner: int, card: int) -> None:
        self.reveal_pos = 0
        super()._take_trick(winner, card)

    # -- notation and views ----------------------------------------------------------
    def action_text(self, action: int) -> str:
        if HIDE <= action < HIDE + 52:
            return f"hide {card_text(action - HIDE)}"
        if SWAP <= action < SWAP + 52:
            return f"change trump {card_text(action - SWAP)}"
        if action == REVEAL:
            return "reveal"
        return super().action_text(action)

    def parse_action(self, text: str) -> int:
        words = " ".join(text.lower().split())
        if words == "reveal":
            return REVEAL
        verb, _, rest = words.partition(" ")
        if verb == "hide" and rest:
            return HIDE + parse_card(rest)
        if words.startswith("change trump "):
            try:
                return SWAP + parse_card(words[len("change trump "):])
            except NotationError:
                pass  # a suit: the open-trump change after a flip
        return super().parse_action(text)

    def _seen_text(self, seat: int, actor: int, action: int) -> str:
        if seat != actor and (HIDE <= action < HIDE + 52 or SWAP <= action < SWAP + 52):
            return _MASKED[self.action_text(action).split()[0]]
        return self.action_text(action)

    def view(self, seat: int) -> dict[str, Any]:
        """Adds the face-down card for the player who put it down only, and the
        reveal (card, asker, trick number) for everyone once it happened."""
        view = super().view(seat)
        view.update({
            "trump_hidden": self.down >= 0,
            "hidden_card": card_text(self.down) if self.down >= 0 and seat == self.trump_by else None,
            "revealed_card": card_text(self.revealed) if self.revealed >= 0 else None,
            "revealed_by": self.revealed_by if self.revealed >= 0 else None,
            "revealed_trick": self.revealed_trick or None,
        })
        return view


class HiddenTrumpSpec(CourtPieceSpec):
    name = "hidden-trump"
    title = "Hidden Trump"
    rules_version = "hidden-trump-1"
    option_specs = COMMON_OPTIONS
    state_class = HiddenTrumpState

    def sample_world(self, view: Mapping[str, Any], rng: random.Random) -> HiddenTrumpState:
        return sample_hidden_world(self, view, rng)


# -- world sampling ----------------------------------------------------------------
def sample_hidden_world(spec: CourtPieceSpec, view: Mapping[str, Any], rng: random.Random) -> CourtPieceState:
    """A full deal consistent with a Hidden Trump (or Mendikot) view.  Before a card
    is put down this is the family's sampler.  After it, the face-down card is one
    more hidden place of one card (any unseen card: the other seats do not even
    know its suit); the card first put down goes among its owner's first five;
    the asker holds none of the led suit, nor of trump if he did not trump after
    the reveal.  The public actions are then replayed with the sampled cards in
    place of ``?``, so the world agrees with the view by construction."""
    if not any(text.startswith("hide") for _, text in view["actions"]):
        return sample_world(spec, view, rng)
    for _ in range(SAMPLING_TRIES):
        sampled = _hidden_deal(view, rng)
        if sampled is not None:
            break
    else:
        raise SamplingError("no card of another suit left for the card changed away")
    deal, texts = sampled
    state = spec.new_deal(deal, view["options"], new_cards_allowed=view["new_cards_allowed"])
    for text in texts:
        state.apply_any(state.parse_action(text))
    return state


def _hidden_deal(view: Mapping[str, Any], rng: random.Random) -> tuple[Deal, list[str]] | None:
    """One draw of the hidden cards; ``None`` when the draw leaves the owner no card
    of another suit to have changed away from (the caller then draws again)."""
    me, owner = view["seat"], view["trump_by"]
    played, barred = _played(view)
    revealed = parse_card(view["revealed_card"]) if view["revealed_card"] else -1
    if revealed >= 0:
        _bar_askers(view, barred, SUIT_OF[revealed])
    mine = [parse_card(t) for t in view["hand"]]
    mine_down = [parse_card(view["hidden_card"])] if view["hidden_card"] else []
    back_in_hand = revealed >= 0 and owner != me and revealed not in played[owner]
    unknown_down = view["trump_hidden"] and owner != me
    known = set(mine + mine_down + ([revealed] if revealed >= 0 else [])).union(*played)
    others = [s for s in range(4) if s != me]
    capacities = [view["hand_sizes"][s] - (s == owner and back_in_hand) for s in others]
    allowed = [DECK_MASK & ~barred[s] for s in others]
    if unknown_down:
        capacities.append(1)
        allowed.append(DECK_MASK)
    placed = assign_cards(rng, [c for c in DECK if c not in known], capacities, allowed)
    hands = [list(played[s]) for s in range(4)]
    hands[me] += mine + mine_down
    for index, seat in enumerate(others):
        hands[seat] += placed[index]
    down = placed[-1][0] if unknown_down else (mine_down[0] if mine_down else revealed)
    if owner != me:
        hands[owner] += [down] if unknown_down or back_in_hand else []
    first = _first_down(view, hands[owner], down, rng)
    if first < 0:
        return None
    hands[owner].remove(first)
    hands[owner].insert(0, first)  # it was chosen from the first five
    texts = [{"hide ?": f"hide {card_text(first)}", "change trump ?": f"change trump {card_text(down)}"}.get(t, t)
             for _, t in view["actions"]]
    return Deal(view["dealer"], tuple(tuple(h) for h in hands), ()), texts


def _first_down(view: Mapping[str, Any], cards: list[int], down: int, rng: random.Random) -> int:
    """The card first put face down: the current one, unless it was changed (after
    a ``hide`` every ``change trump`` is a change of card); then the owner's own
    record names it, or it is any of his cards of another suit."""
    texts = [t for _, t in view["actions"]]
    if not any(t.startswith("change trump") for t in texts):
        return down
    hide = next(t for t in texts if t.startswith("hide"))
    if hide != _MASKED["hide"]:
        return parse_card(hide.split()[1])
    choices = [c for c in cards if SUIT_OF[c] != SUIT_OF[down]]
    return rng.choice(choices) if choices else -1


def _bar_askers(view: Mapping[str, Any], barred: list[int], trump: int) -> None:
    """Asking shows a void in the led suit (even before the asker's card is
    seen); a non-trump card after ``reveal`` shows that the asker had no trump."""
    actions, plays = view["actions"], []
    for index, (asker, text) in enumerate(actions):
        if text.startswith("play "):
            plays = [] if len(plays) == 4 else plays
            plays.append(parse_card(text.split()[1]))
        if text != "reveal":
            continue
        if 0 < len(plays) < 4:
            barred[asker] |= SUIT_MASKS[SUIT_OF[plays[0]]]
        card = next((t for seat, t in actions[index + 1:] if seat == asker), None)
        if card is not None and SUIT_OF[parse_card(card.split()[1])] != trump:
            barred[asker] |= SUIT_MASKS[trump]


HIDDEN_TRUMP = HiddenTrumpSpec()
