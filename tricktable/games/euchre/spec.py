"""Euchre as a ``GameSpec``: options, seeded dealing, the match, world sampling."""

from __future__ import annotations

import random
from typing import Any, Mapping

from tricktable.cards import mask_of
from tricktable.core.match import MatchState
from tricktable.core.memo import PerObservation
from tricktable.core.observation import Observation
from tricktable.core.protocol import Deal, GameSpec, GameState, OptionSpec
from tricktable.core.rng import SeedStream, derive_seed, shuffled
from tricktable.core.sampling import assign_cards
from tricktable.games.euchre.rules import (
    DAILY_DEALS,
    DEAL_PACKETS,
    DECK,
    DECK_MASK,
    EFFECTIVE_SUIT,
    GAME_TARGET,
    GAME_TARGETS,
    HAND_SIZE,
    NO_TRUMP,
    SUIT_CARDS,
    Outcome,
)
from tricktable.games.euchre.observation import EuchreObservation, UpCard
from tricktable.games.euchre.state import ACTIONS, DISCARD, HIDDEN_DISCARD_TEXT, EuchreState


class EuchreSpec(GameSpec):
    name = "euchre"
    title = "Euchre"
    rules_version = "euchre-1"
    deck = DECK
    actions = ACTIONS
    option_specs = (
        OptionSpec("stick_the_dealer", True, description="The dealer must name trump if all pass twice."),
        OptionSpec("farmers_hand", False, description="A hand of only nines and tens may ask for a redeal."),
        OptionSpec("game_target", GAME_TARGET, GAME_TARGETS, "Points that win a game."),
        OptionSpec("defend_alone", False,
                   description="After the maker goes alone a defender may defend alone; a lone euchre scores 4."),
        OptionSpec("dealers_partner_alone", False,
                   description="Ordering up one's partner the dealer in round 1 means going alone."),
    )

    def deal_from_seed(self, seed: str, dealer: int, options: Mapping[str, Any]) -> Deal:
        cards = shuffled(DECK, seed)
        hands: list[list[int]] = [[], [], [], []]
        for packets in DEAL_PACKETS:
            for offset, size in enumerate(packets):
                seat = (dealer + 1 + offset) % 4
                hands[seat] += cards[:size]
                cards = cards[size:]
        return Deal(dealer, tuple(tuple(h) for h in hands), tuple(cards), seed)

    def new_deal(self, deal: Deal, options: Mapping[str, Any]) -> EuchreState:
        return EuchreState(self, deal, options)

    def new_match(self, seed: str, options: Mapping[str, Any], daily: bool = False) -> "EuchreMatch":
        return EuchreMatch(self, seed, options, daily)

    def sample_world(self, obs: Observation, rng: random.Random) -> EuchreState:
        assert isinstance(obs, EuchreObservation), "a Euchre world is sampled from a Euchre observation"
        return sample_world(self, obs, rng)


class EuchreMatch(MatchState):
    """A game to the target (``game_target``, 10 points by default; daily: exactly
    8 deals); the deal passes left, and after a farmer's hand the same dealer
    deals again."""

    @property
    def target(self) -> int:
        return int(self.options.get("game_target", GAME_TARGET))

    def first_dealer(self) -> int:
        return SeedStream(derive_seed(self.seed, "first dealer")).randbelow(4)

    def deal_points(self, deal: GameState) -> list[int]:
        return deal.returns()

    def counts_as_deal(self, deal: GameState) -> bool:
        return not (isinstance(deal, EuchreState) and deal.outcome is Outcome.FARMERS_HAND)

    def next_dealer(self, deal: GameState) -> int:
        return self.dealer if not self.counts_as_deal(deal) else (self.dealer + 1) % 4

    def is_over(self) -> bool:
        if self.daily:
            return self.deals_played >= DAILY_DEALS
        return max(self.totals) >= self.target

    def match_view(self, seat: int) -> dict[str, Any]:
        team = seat % 2
        return {
            "team_points": [self.totals[0], self.totals[1]],
            "target": None if self.daily else self.target,
            "deals_total": DAILY_DEALS if self.daily else None,
            "winner_team": (0 if self.totals[0] > self.totals[1] else 1) if self.over and not self.daily else None,
            "daily_score": self.totals[team] - self.totals[1 - team],
        }


def _voids(obs: EuchreObservation, trump: int) -> list[int]:
    """Per seat, a mask of the cards that seat cannot hold (it showed out)."""
    barred = [0, 0, 0, 0]
    tricks = [t.cards for t in obs.tricks] + ([obs.trick] if obs.trick else [])
    effective = EFFECTIVE_SUIT[trump]
    for plays in tricks:
        led = effective[plays[0][1]]
        for seat, c in plays[1:]:
            if effective[c] != led:
                barred[seat] |= SUIT_CARDS[trump][led]
    return barred


class _Places:
    """The hidden places of one observation and what each may hold: the same for
    every world sampled for it, so worked out once (``_PLACES``)."""

    def __init__(self, obs: EuchreObservation):
        me, dealer, up = obs.seat, obs.dealer, obs.up_card
        trump = obs.trump if obs.trump is not None else NO_TRUMP
        played: list[list[int]] = [[], [], [], []]
        for plays in [t.cards for t in obs.tricks] + [obs.trick]:
            for seat, c in plays:
                played[seat].append(c)
        self.played = played
        self.mine = list(obs.hand)
        self.dealer_took_up = dealer_took_up = obs.up_card_status is UpCard.PICKED_UP
        self.my_discard = my_discard = obs.discard
        self.unknown_discard = unknown_discard = dealer_took_up and my_discard is None and any(
            t == HIDDEN_DISCARD_TEXT for _, t in obs.actions)
        seen = set(self.mine) | {up} | {c for cards in played for c in cards}
        if my_discard is not None:
            seen.add(my_discard)
        self.unseen = unseen = [c for c in DECK if c not in seen]
        self.others = others = [s for s in range(4) if s != me]
        barred = _voids(obs, trump)
        self.capacities = capacities = [obs.hand_sizes[s] for s in others] + [3]
        self.allowed = allowed = [DECK_MASK & ~barred[s] for s in others] + [DECK_MASK]
        up_in_hiding = dealer_took_up and dealer != me and up not in played[dealer]
        if unknown_discard:
            capacities.append(1)
            allowed.append(DECK_MASK)
        if up_in_hiding:
            # The up-card is in the dealer's hand or was his discard: nowhere else.
            unseen.append(up)
            up_bit = 1 << up
            for index, seat in enumerate(others):
                if seat != dealer:
                    allowed[index] &= ~up_bit
            allowed[len(others)] &= ~up_bit


_PLACES: PerObservation[EuchreObservation, _Places] = PerObservation(_Places)
"""The observation last sampled for and its ``_Places``."""


def sample_world(spec: EuchreSpec, obs: EuchreObservation, rng: random.Random) -> EuchreState:
    """A full hand consistent with ``obs``: deal the unseen cards over the hidden
    places (others' hands, the kitty, the dealer's unknown discard), then replay
    the public actions on that deal."""
    me, dealer, up = obs.seat, obs.dealer, obs.up_card
    places = _PLACES.of(obs)
    others, played = places.others, places.played
    placed = assign_cards(rng, places.unseen, places.capacities, places.allowed)

    held = {seat: placed[i] for i, seat in enumerate(others)}
    held[me] = places.mine
    kitty = placed[len(others)]
    discard = placed[-1][0] if places.unknown_discard else places.my_discard
    hands = []
    for seat in range(4):
        cards = set(held[seat]) | set(played[seat])
        if seat == dealer and places.dealer_took_up:
            if discard is not None:
                cards.add(discard)
            cards.discard(up)
        hands.append(tuple(sorted(cards)))
    if any(len(h) != HAND_SIZE for h in hands):
        raise AssertionError(f"sampled hands of sizes {[len(h) for h in hands]}")
    deal = Deal(dealer, tuple(hands), (up, *kitty))
    template = _TEMPLATE[0]
    if template is not None and template[0] is obs:
        return _on_deal(template[1], deal, discard)
    state = spec.new_deal(deal, obs.options)
    for _, text in obs.actions:
        if text == HIDDEN_DISCARD_TEXT:
            assert discard is not None  # a hidden discard was sampled above
            state.apply(DISCARD + discard)
        else:
            state.apply(state.parse_action(text))
    _TEMPLATE[0] = (obs, _Template(state.clone()))
    return state


class _Template:
    """A replayed world and what every world on another deal shares with it: the
    cards played (a mask) and where the dealer's discard stands in the history."""

    def __init__(self, replayed: EuchreState):
        self.replayed = replayed
        self.gone = mask_of([c for _, cards, _ in replayed.tricks for c in cards] + replayed.trick)
        self.discards = [i for i, action in enumerate(replayed.history) if DISCARD <= action < DISCARD + 52]


_TEMPLATE: list[tuple[EuchreObservation, _Template] | None] = [None]
"""The observation last sampled for and its first world, replayed.  Replaying the
public actions writes only public facts (bids, trump, who sits out, tricks, whose
turn); of the hidden cards it takes the played ones out of the hands, the up-card
into the dealer's and his discard out of it.  So the search's further worlds for
the same observation are that state on another deal (``_on_deal``) instead of a
replay each.  One entry, read and replaced whole: searches in several threads only
ever miss it."""


def _on_deal(template: _Template, deal: Deal, discard: int | None) -> EuchreState:
    """The template's world (the public actions replayed on another deal of the same
    observation) as the same replay on ``deal``, whose dealer discarded ``discard``
    (if he has), would leave it."""
    replayed = template.replayed
    state = replayed.clone()
    state.deal = deal
    hands = [mask_of(hand) for hand in deal.hands]
    state.dealt = tuple(hands)
    if replayed.picked_up:
        hands[deal.dealer] |= 1 << replayed.up_card
    if replayed.discard >= 0:
        assert discard is not None  # the dealer's discard was sampled (or is this seat's own)
        hands[deal.dealer] &= ~(1 << discard)
        state.discard = discard
        history = state.history
        for index in template.discards:
            history[index] = DISCARD + discard
    gone = template.gone
    state.hands = [hand & ~gone for hand in hands]
    return state


SPEC = EuchreSpec()
