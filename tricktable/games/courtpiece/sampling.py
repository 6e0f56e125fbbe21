"""World sampling for the Court Piece family: a full deal consistent with what a
seat may know, for the search bots.  Deal the unseen cards over the hidden
places, then replay the public actions on it, so every public fact holds by
construction."""

from __future__ import annotations

import random
from typing import NamedTuple

from tricktable.cards import card_text, mask_of, parse_card, parse_suit
from tricktable.core.protocol import Deal
from tricktable.core.sampling import SamplingError, assign_cards
from tricktable.games.courtpiece.actions import HIDE, MASKED, SWAP
from tricktable.games.courtpiece.observation import CourtPieceObservation
from tricktable.games.courtpiece.rules import DECK, DECK_MASK, FIRST_PACKET, SUIT_MASKS, SUIT_OF, TRICKS
from tricktable.games.courtpiece.state import CourtPieceState, FamilySpec, stock_order

SAMPLING_TRIES = 20


def _played(obs: CourtPieceObservation) -> tuple[list[list[int]], list[int]]:
    """Per seat, the cards it played; per seat, the suits it showed out of (a mask)."""
    played: list[list[int]] = [[], [], [], []]
    barred = [0, 0, 0, 0]
    for plays in [t.cards for t in obs.tricks] + [obs.trick]:
        led = -1
        for seat, c in plays:
            played[seat].append(c)
            if led < 0:
                led = SUIT_OF[c]
            elif SUIT_OF[c] != led:
                barred[seat] |= SUIT_MASKS[led]
    return played, barred


class _Plan(NamedTuple):
    """What every world sampled for one observation shares: the hidden places
    (``assign_cards``' cards, capacities and allowed masks), the seats they are,
    the cards each seat played, the call to honour, the flip card and the seat's
    own hand in dealing order (None while trump is called: its last eight are drawn)."""

    others: list[int]
    unseen: list[int]
    capacities: list[int]
    allowed: list[int]
    call: tuple[int, int] | None
    played: list[list[int]]
    flip: int
    own: list[int] | None


def _plan(obs: CourtPieceObservation) -> _Plan:
    """The observation's ``_Plan``, kept for the observation last sampled for (a search
    draws all its worlds for one; read and replaced whole: threads only ever miss it)."""
    last = _LAST_PLAN[0]
    if last is not None and last[0] is obs:
        return last[1]
    me = obs.seat
    mine = list(obs.hand)
    played, barred = _played(obs)
    others = [s for s in range(4) if s != me]
    calling = not obs.all_dealt
    known = set(mine).union(*played)
    unseen = [c for c in DECK if c not in known]
    capacities = [TRICKS if calling else obs.hand_sizes[s] for s in others]
    allowed = [DECK_MASK & ~barred[s] for s in others]
    if calling:
        capacities.append(TRICKS - FIRST_PACKET)  # my own packets still to come
        allowed.append(DECK_MASK)
    call = None if obs.options.get("call_any_suit") else _call(obs)  # (a version-1 record: any suit)
    flip = obs.flip_card if obs.flip_card is not None else -1
    plan = _Plan(others, unseen, capacities, allowed, call, played, flip,
                 None if calling else _packet_order(played[me] + mine, flip))
    _LAST_PLAN[0] = (obs, plan)
    return plan


_LAST_PLAN: list[tuple[CourtPieceObservation, _Plan] | None] = [None]


def sample_world(spec: FamilySpec, obs: CourtPieceObservation, rng: random.Random) -> CourtPieceState:
    """A full deal consistent with ``obs``: deal the unseen cards over the hidden
    places, then replay the public actions on it, so every public fact holds by
    construction.  While trump is called the seat has seen only its first five
    cards, so its own last eight are hidden too.  Whoever named trump holds a
    card of that suit among his first five (``_holding_the_call``)."""
    plan = _plan(obs)
    played, flip, call = plan.played, plan.flip, plan.call
    placed = _holding_the_call(rng, plan.unseen, plan.capacities, plan.allowed, call, plan.others, played)
    hands: list[list[int]] = [[], [], [], []]
    for index, seat in enumerate(plan.others):
        hands[seat] = _packet_order(played[seat] + placed[index], flip)
    hands[obs.seat] = list(obs.hand) + placed[-1] if plan.own is None else list(plan.own)
    if call is not None:
        caller, suit = call
        hands[caller].sort(key=lambda c: SUIT_OF[c] != suit)  # a card of the called suit among his first five
    deal = Deal(obs.dealer, tuple(tuple(h) for h in hands), ())
    flip_pick = stock_order(deal).index(flip) if flip >= 0 else None
    template = _TEMPLATE[0]
    if template is not None and template[0] is obs:
        return _on_deal(template[1], template[2], deal, flip_pick)
    state = spec.new_deal(deal, obs.options, flip_pick=flip_pick, new_cards_allowed=obs.new_cards_allowed)
    _replay(state, [text for _, text in obs.actions])
    _TEMPLATE[0] = (obs, state.clone(), _gone(state))
    return state


_TEMPLATE: list[tuple[CourtPieceObservation, CourtPieceState, int] | None] = [None]
"""The observation last sampled for, its first world replayed and the cards played in
it.  Replaying the public actions writes only public facts (trump, tricks, pile, whose
turn) and takes the played cards out of the hands, whatever the hidden cards are; so
the search's further worlds for the same observation are that state on another deal
(``_on_deal``; in Hidden Trump with this deal's face-down cards, ``_on_hidden_deal``)
instead of a replay each (most of a world's cost).  One entry, read and replaced
whole: searches in several threads only ever miss it."""


def _gone(state: CourtPieceState) -> int:
    """The cards played in ``state`` (finished tricks and the current one)."""
    return mask_of([c for _, cards, _ in state.tricks for c in cards] + state.trick)


def _on_deal(replayed: CourtPieceState, gone: int, deal: Deal, flip_pick: int | None) -> CourtPieceState:
    """``replayed`` (the public actions replayed on another deal of the same
    observation; ``gone``: the cards played in it) as the same replay on ``deal``
    would leave it."""
    state = replayed.clone()
    state.deal, state.flip_pick = deal, flip_pick
    hands = deal.hands
    state.first_five = [_mask(hand[:FIRST_PACKET]) for hand in hands]
    keep = ~gone
    state.hands = [_mask(hand) & keep for hand in hands]
    return state


_BIT = tuple(1 << c for c in range(52))


def _mask(cards: tuple[int, ...]) -> int:
    """``mask_of`` for a hand of distinct cards (a sum of their bits: faster)."""
    return sum(map(_BIT.__getitem__, cards))


def _call(obs: CourtPieceObservation) -> tuple[int, int] | None:
    """(seat, suit) of the trump named with ``call``, if one was."""
    return next(((seat, parse_suit(text[5:])) for seat, text in obs.actions if text.startswith("call ")), None)


def _holding_the_call(rng: random.Random, unseen: list[int], capacities: list[int], allowed: list[int],
                      call: tuple[int, int] | None, others: list[int], played: list[list[int]]) -> list[list[int]]:
    """``assign_cards``, where the player who named trump (if another seat) must
    hold a card of that suit (court-piece.md, "Calling trump": named from his
    first five cards).  Drawn again until he does, which keeps the draw uniform
    over the worlds that agree; after ``SAMPLING_TRIES`` draws one card of the
    suit is given to him first."""
    if call is None or call[0] not in others or any(SUIT_OF[c] == call[1] for c in played[call[0]]):
        return assign_cards(rng, unseen, capacities, allowed)
    index, suit_cards = others.index(call[0]), SUIT_MASKS[call[1]]
    for _ in range(SAMPLING_TRIES):
        placed = assign_cards(rng, unseen, capacities, allowed)
        if any(suit_cards >> c & 1 for c in placed[index]):
            return placed
    choices = [c for c in unseen if (suit_cards & allowed[index]) >> c & 1]
    if not choices:
        raise SamplingError("no card of the called suit is left for the player who called it")
    given = rng.choice(choices)
    rest = [c for c in unseen if c != given]
    placed = assign_cards(rng, rest, [n - (i == index) for i, n in enumerate(capacities)], allowed)
    placed[index].append(given)
    return placed


def _replay(state: CourtPieceState, texts: list[str]) -> None:
    """Apply the public actions (every one is the seat to move's, or the referee's)."""
    for text in texts:
        state.apply_any(state.parse_action(text))


def _packet_order(cards: list[int], flip: int) -> list[int]:
    """A hand in dealing order (in place): once trump is fixed any five can have been
    the first packet, except the flip card, which came from the undealt stock (last)."""
    if flip >= 0 and flip in cards:
        cards.remove(flip)
        cards.append(flip)
    return cards


def sample_hidden_world(spec: FamilySpec, obs: CourtPieceObservation, rng: random.Random) -> CourtPieceState:
    """A full deal consistent with a Hidden Trump (or Mendikot) view.  Before a card
    is put down this is the family's sampler.  After it, the face-down card is one
    more hidden place of one card (any unseen card: the other seats do not even
    know its suit); the card first put down goes among its owner's first five;
    the asker holds none of the led suit, nor of trump if he did not trump after
    the reveal.  The public actions are then replayed with the sampled cards in
    place of ``?``, so the world agrees with the view by construction."""
    if not any(text.startswith("hide") for _, text in obs.actions):
        return sample_world(spec, obs, rng)
    for _ in range(SAMPLING_TRIES):
        sampled = _hidden_deal(obs, rng)
        if sampled is not None:
            break
    else:
        raise SamplingError("no card of another suit left for the card changed away")
    deal, first, down = sampled
    template = _TEMPLATE[0]
    if template is not None and template[0] is obs:
        return _on_hidden_deal(template[1], template[2], obs, deal, first, down)
    secrets = {MASKED["hide"]: f"hide {card_text(first)}", MASKED["change trump card"]: f"change trump {card_text(down)}"}
    state = spec.new_deal(deal, obs.options, new_cards_allowed=obs.new_cards_allowed)
    _replay(state, [secrets.get(text, text) for _, text in obs.actions])
    _TEMPLATE[0] = (obs, state.clone(), _gone(state))
    return state


def _on_hidden_deal(replayed: CourtPieceState, gone: int, obs: CourtPieceObservation, deal: Deal, first: int,
                    down: int) -> CourtPieceState:
    """``_on_deal`` for a Hidden Trump view: the card first put down and the one
    lying down now (``first``, ``down``) are this deal's too, in the hands and in
    the history of the masked actions."""
    state = _on_deal(replayed, gone, deal, None)
    if state.down >= 0:
        state.down = down
        state.hands[state.trump_by] &= ~(1 << down)
    for index, (_, text) in enumerate(obs.actions):
        if text == MASKED["hide"]:
            state.rewrite_action(index, HIDE + first)
        elif text == MASKED["change trump card"]:
            state.rewrite_action(index, SWAP + down)
    return state


class _HiddenPlan(NamedTuple):
    """``_hidden_deal``'s share of one observation: the hidden places, the cards each
    seat played (with the seat's own and its face-down card), the face-down owner and
    what is known of the card: lying down unseen by this seat, back in his hand after
    the reveal; ``first``: the card first put down when the record names it (-2: it
    was not changed, so it is the one down now; -1: any of his cards of another suit)."""

    others: list[int]
    unseen: list[int]
    capacities: list[int]
    allowed: list[int]
    hands: list[list[int]]
    owner: int
    unknown_down: bool
    back_in_hand: bool
    down: int
    first: int


def _hidden_plan(obs: CourtPieceObservation) -> _HiddenPlan:
    """The observation's ``_HiddenPlan``, kept for the observation last sampled for."""
    last = _LAST_HIDDEN_PLAN[0]
    if last is not None and last[0] is obs:
        return last[1]
    hidden = obs.hidden
    assert hidden is not None and obs.trump_by is not None  # a card was put down
    me, owner = obs.seat, obs.trump_by
    played, barred = _played(obs)
    revealed = hidden.revealed_card if hidden.revealed_card is not None else -1
    if revealed >= 0:
        _bar_askers(obs, barred, SUIT_OF[revealed])
    mine = list(obs.hand)
    mine_down = [hidden.hidden_card] if hidden.hidden_card is not None else []
    back_in_hand = revealed >= 0 and owner != me and revealed not in played[owner]
    unknown_down = hidden.trump_hidden and owner != me
    known = set(mine + mine_down + ([revealed] if revealed >= 0 else [])).union(*played)
    others = [s for s in range(4) if s != me]
    capacities = [obs.hand_sizes[s] - (s == owner and back_in_hand) for s in others]
    allowed = [DECK_MASK & ~barred[s] for s in others]
    if unknown_down:
        capacities.append(1)
        allowed.append(DECK_MASK)
    hands = [list(played[s]) for s in range(4)]
    hands[me] += mine + mine_down
    plan = _HiddenPlan(others, [c for c in DECK if c not in known], capacities, allowed, hands, owner, unknown_down,
                       back_in_hand, mine_down[0] if mine_down else revealed, _named_first(obs))
    _LAST_HIDDEN_PLAN[0] = (obs, plan)
    return plan


_LAST_HIDDEN_PLAN: list[tuple[CourtPieceObservation, _HiddenPlan] | None] = [None]


def _hidden_deal(obs: CourtPieceObservation, rng: random.Random) -> tuple[Deal, int, int] | None:
    """One draw of the hidden cards, the card first put face down and the one lying
    down now (or revealed); ``None`` when the draw leaves the owner no card of
    another suit to have changed away from (the caller then draws again)."""
    plan = _hidden_plan(obs)
    owner = plan.owner
    placed = assign_cards(rng, plan.unseen, plan.capacities, plan.allowed)
    hands = [list(h) for h in plan.hands]
    for index, seat in enumerate(plan.others):
        hands[seat] += placed[index]
    down = placed[-1][0] if plan.unknown_down else plan.down
    if owner != obs.seat:
        hands[owner] += [down] if plan.unknown_down or plan.back_in_hand else []
    first = _first_down(plan.first, hands[owner], down, rng)
    if first < 0:
        return None
    hands[owner].remove(first)
    hands[owner].insert(0, first)  # it was chosen from the first five
    return Deal(obs.dealer, tuple(tuple(h) for h in hands), ()), first, down


def _named_first(obs: CourtPieceObservation) -> int:
    """What the record says of the card first put face down: -2 when trump was never
    changed (it is the one down now), the card when this seat's record shows it, -1
    when it is hidden (any of the owner's cards of another suit)."""
    texts = [t for _, t in obs.actions]
    if not any(t.startswith("change trump") for t in texts):
        return -2
    hide = next(t for t in texts if t.startswith("hide"))
    return -1 if hide == MASKED["hide"] else parse_card(hide.split()[1])


def _first_down(named: int, cards: list[int], down: int, rng: random.Random) -> int:
    """The card first put face down: the current one, unless it was changed (after
    a ``hide`` every ``change trump`` is a change of card); then the owner's own
    record names it, or it is any of his cards of another suit (``_named_first``)."""
    if named == -2:
        return down
    if named >= 0:
        return named
    choices = [c for c in cards if SUIT_OF[c] != SUIT_OF[down]]
    return rng.choice(choices) if choices else -1


def _bar_askers(obs: CourtPieceObservation, barred: list[int], trump: int) -> None:
    """Asking shows a void in the led suit (even before the asker's card is
    seen); a non-trump card after ``reveal`` shows that the asker had no trump."""
    actions = obs.actions
    plays: list[int] = []
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
