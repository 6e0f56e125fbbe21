"""Double Sar and Single Sar as ``GameSpec`` objects: options, seeded dealing in
packets, the match and world sampling.  Spec: ``shared/rules/court-piece.md``."""

from __future__ import annotations

import random
from typing import Any, ClassVar, Mapping

from tricktable.cards import parse_card
from tricktable.core.errors import RecordError
from tricktable.core.protocol import Deal, GameSpec, OptionSpec
from tricktable.core.rng import shuffled
from tricktable.core.sampling import assign_cards
from tricktable.games.courtpiece.match import CourtPieceMatch
from tricktable.games.courtpiece.pile import DoubleSarState
from tricktable.games.courtpiece.rules import (
    DECK,
    DECK_MASK,
    FIRST_PACKET,
    NEXT,
    PACKETS,
    SUIT_MASKS,
    SUIT_OF,
    TARGET_KOTS,
    TARGET_POINTS,
    TRICKS,
)
from tricktable.games.courtpiece.state import CourtPieceState, SingleSarState, stock_order

COMMON_OPTIONS = (
    OptionSpec("counting", "points", ("points", "kots"), "Count the match in points or in kots."),
    OptionSpec("target_points", TARGET_POINTS, (5, 7, 10, 11, 15, 21, 31), "Points that win a match (points mode)."),
    OptionSpec("target_kots", TARGET_KOTS, (1, 2, 3, 4, 5, 7), "Kots that win a match (kots mode)."),
    OptionSpec("new_cards", "person", ("person", "any seat", "off"),
               "Who may ask for new cards on his calling turn: the person (person_seat), any seat, nobody."),
    OptionSpec("person_seat", 0, (0, 1, 2, 3), "The seat of the person playing with computer players."),
    OptionSpec("change_trump", True, description="The caller may change trump once before the first card."),
    OptionSpec("first_game", False, description="The person's very first game: 10 s to call instead of 20 s."),
)
DAILY_OPTIONS = {"counting": "points", "new_cards": "off"}
"""What a daily game fixes (a game without a counting mode just deals the same cards)."""
PILE_HOUSE_RULES = (
    OptionSpec("ace_on_ace", False, description="Two wins in a row with two different aces do not capture."),
    OptionSpec("trump_ace_cannot_seal", False, description="The ace of trumps cannot complete a capture."),
    OptionSpec("no_pile_on_11_12", False, description="A pair completed on trick 11 or 12 does not capture."),
)


class CourtPieceSpec(GameSpec):
    """What every Court Piece game shares; a game names its state class."""

    deck = DECK
    state_class: ClassVar[type[CourtPieceState]]
    match_class: ClassVar[type[CourtPieceMatch]] = CourtPieceMatch

    def deal_from_seed(self, seed: str, dealer: int, options: Mapping[str, Any]) -> Deal:
        """Shuffle, then deal 5, 4 and 4 cards to everyone, starting with the
        caller (the dealer's right) and going counter-clockwise."""
        cards = shuffled(DECK, seed)
        hands: list[list[int]] = [[], [], [], []]
        seat, position = NEXT[dealer], 0
        for size in PACKETS:
            for _ in range(4):
                hands[seat] += cards[position:position + size]
                position += size
                seat = NEXT[seat]
        return Deal(dealer, tuple(tuple(h) for h in hands), (), seed)

    def deal_from_json(self, data: Mapping[str, Any]) -> Deal:
        deal = super().deal_from_json(data)
        if deal.seed is None and (deal.rest or any(len(h) != TRICKS for h in deal.hands)):
            raise RecordError("a Court Piece deal gives 13 cards to each player and leaves none")
        return deal

    def new_deal(self, deal: Deal, options: Mapping[str, Any], **settings: Any) -> CourtPieceState:
        """``settings``: ``flip_pick``, ``new_cards_allowed`` (see the state)."""
        return self.state_class(self, deal, options, **settings)

    def new_match(self, seed: str, options: Mapping[str, Any], daily: bool = False) -> CourtPieceMatch:
        if daily:  # the daily game counts in points and deals everyone the same cards
            names = {option.name for option in self.option_specs}
            options = {**options, **{k: v for k, v in DAILY_OPTIONS.items() if k in names}}
        return self.match_class(self, seed, options, daily)

    def sample_world(self, view: Mapping[str, Any], rng: random.Random) -> CourtPieceState:
        return sample_world(self, view, rng)


class DoubleSarSpec(CourtPieceSpec):
    name = "double-sar"
    title = "Double Sar"
    rules_version = "double-sar-1"
    option_specs = COMMON_OPTIONS + PILE_HOUSE_RULES
    presets = {"all house rules": {rule.name: True for rule in PILE_HOUSE_RULES}}
    state_class = DoubleSarState


class SingleSarSpec(CourtPieceSpec):
    name = "single-sar"
    title = "Single Sar"
    rules_version = "single-sar-1"
    option_specs = COMMON_OPTIONS
    state_class = SingleSarState


# -- world sampling ----------------------------------------------------------------
def _played(view: Mapping[str, Any]) -> tuple[list[list[int]], list[int]]:
    """Per seat, the cards it played; per seat, the suits it showed out of (a mask)."""
    played: list[list[int]] = [[], [], [], []]
    barred = [0, 0, 0, 0]
    for plays in [t["cards"] for t in view["tricks"]] + [view["trick"]]:
        led = -1
        for seat, text in plays:
            c = parse_card(text)
            played[seat].append(c)
            if led < 0:
                led = SUIT_OF[c]
            elif SUIT_OF[c] != led:
                barred[seat] |= SUIT_MASKS[led]
    return played, barred


def sample_world(spec: CourtPieceSpec, view: Mapping[str, Any], rng: random.Random) -> CourtPieceState:
    """A full deal consistent with ``view``: deal the unseen cards over the hidden
    places, then replay the public actions on it, so every public fact holds by
    construction.  While trump is called the seat has seen only its first five
    cards, so its own last eight are hidden too."""
    me, dealer = view["seat"], view["dealer"]
    mine = [parse_card(t) for t in view["hand"]]
    played, barred = _played(view)
    others = [s for s in range(4) if s != me]
    calling = not view["all_dealt"]
    known = set(mine).union(*played)
    unseen = [c for c in DECK if c not in known]
    capacities = [TRICKS if calling else view["hand_sizes"][s] for s in others]
    allowed = [DECK_MASK & ~barred[s] for s in others]
    if calling:
        capacities.append(TRICKS - FIRST_PACKET)  # my own packets still to come
        allowed.append(DECK_MASK)
    placed = assign_cards(rng, unseen, capacities, allowed)
    flip = parse_card(view["flip_card"]) if view["flip_card"] else -1
    hands: list[list[int]] = [[], [], [], []]
    for index, seat in enumerate(others):
        hands[seat] = _packet_order(played[seat] + placed[index], flip)
    hands[me] = mine + placed[-1] if calling else _packet_order(played[me] + mine, flip)
    deal = Deal(dealer, tuple(tuple(h) for h in hands), ())
    flip_pick = stock_order(deal).index(flip) if flip >= 0 else None
    state = spec.new_deal(deal, view["options"], flip_pick=flip_pick, new_cards_allowed=view["new_cards_allowed"])
    for _, text in view["actions"]:
        state.apply_any(state.parse_action(text))
    return state


def _packet_order(cards: list[int], flip: int) -> list[int]:
    """A hand in dealing order: once trump is fixed any five can have been the first
    packet, except the flip card, which came from the undealt stock."""
    return sorted(cards, key=lambda c: c == flip)


DOUBLE_SAR = DoubleSarSpec()
SINGLE_SAR = SingleSarSpec()
