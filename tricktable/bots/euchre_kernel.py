"""Euchre's card-play rules, fast playout and open-hand solver on bitmasks (compiled by
``tricktable.speedups``: the search's rollouts spend most of their time here).

The card-play rules (``choose_card``) decide from ints: the trump, the seat, its hand,
the cards it has seen gone (played, the turned-down up-card, its own discard), the
suits each seat has shown void in, the maker, the seats sitting out and the trick so
far.  ``bots.euchre`` calls them for the bot (from its ``Table``) and ``CardPlay``
calls them card by card on its running masks (the playout, inference's replay), so
the rules are written once.

The solver (``reach``): can the makers still win ``need`` of the ``left`` tricks with
best play by all, every hand open?

Cards are in the solver's numbering for the trump (``bots.euchre.SolverCards``): each
effective suit is a block of eight bits in order of power, the trumps' block highest,
so a card beats the trick's best if its bit is higher and it follows suit or trumps.
``block_of[bit]`` is the mask of a bit's block.  Of two cards of one hand with no card
still in play between them only one is tried, and the last trick is played without a
search.  Nothing is memoised: with at most three tricks to solve, positions between
tricks recurred in about 5 % of the look-ups, and the memo cost more than it saved
(it also held up to 50,000 positions per process).

A compiled kernel (mypyc, ``tricktable.speedups``) is type-checked alone, so it imports
nothing of tricktable; the pure-Python module is the fallback and the reference.
"""

from __future__ import annotations

from typing import Sequence

EFFECTIVE: tuple[tuple[int, ...], ...] = ()
"""``rules.EFFECTIVE_SUIT``, ``POWER`` and ``SUIT_CARDS`` (by trump), the deck and the
king's rank, from ``install``."""
POWER: tuple[tuple[int, ...], ...] = ()
SUIT_CARDS: tuple[tuple[int, ...], ...] = ()
DECK_MASK = 0
KING = -1


def install(effective: tuple[tuple[int, ...], ...], power: tuple[tuple[int, ...], ...],
            suit_cards: tuple[tuple[int, ...], ...], deck_mask: int, king: int) -> None:
    """The game's tables: by trump, each card's effective suit and power and each
    suit's cards; the deck's mask; the king's rank (a card's rank is ``card % 13``)."""
    global EFFECTIVE, POWER, SUIT_CARDS, DECK_MASK, KING
    EFFECTIVE, POWER, SUIT_CARDS, DECK_MASK, KING = effective, power, suit_cards, deck_mask, king


# -- the card-play rules ------------------------------------------------------------
def beats(trump: int, card: int, best: int) -> bool:
    """Whether ``card`` beats ``best`` (the trick's best so far)."""
    effective = EFFECTIVE[trump]
    suit, best_suit = effective[card], effective[best]
    if suit == best_suit:
        return POWER[trump][card] > POWER[trump][best]
    return suit == trump


def winning_index(trump: int, cards: Sequence[int]) -> int:
    """The index of the card that holds the trick so far (a later card wins only if it
    beats the best before it)."""
    best = 0
    for index, c in enumerate(cards):
        best = index if index and beats(trump, c, cards[best]) else best
    return best


def is_boss(trump: int, unseen: int, card: int) -> bool:
    """No unseen card of the same (effective) suit is higher."""
    power = POWER[trump]
    rest = unseen & SUIT_CARDS[trump][EFFECTIVE[trump][card]]
    mine = power[card]
    while rest:
        low = rest & -rest
        if power[low.bit_length() - 1] >= mine:
            return False
        rest ^= low
    return True


def is_safe(trump: int, seat: int, unseen: int, voids: Sequence[int], card: int, after: Sequence[int]) -> bool:
    """A trick won by ``card`` stays won: it is the boss and no opponent still to
    play is known to be able to trump it."""
    if not is_boss(trump, unseen, card):
        return False
    suit = EFFECTIVE[trump][card]
    if suit == trump:
        return True
    for s in after:
        if s % 2 != seat % 2 and voids[s] >> suit & 1:
            return False
    return True


def lowest(trump: int, cards: Sequence[int]) -> int:
    """The first card of the lowest power."""
    power = POWER[trump]
    best = cards[0]
    for c in cards:
        if power[c] < power[best]:
            best = c
    return best


def highest(trump: int, cards: Sequence[int]) -> int:
    """The first card of the highest power."""
    power = POWER[trump]
    best = cards[0]
    for c in cards:
        if power[c] > power[best]:
            best = c
    return best


def throw_off(trump: int, hand: int, unseen: int, cards: Sequence[int]) -> int:
    """The card that costs least: the lowest non-trump, preferring one that leaves
    a void; a trump only when nothing else is left."""
    effective, power, suit_cards = EFFECTIVE[trump], POWER[trump], SUIT_CARDS[trump]
    plain = [c for c in cards if effective[c] != trump]
    if not plain:
        return lowest(trump, cards)
    best, best_key = plain[0], 1 << 30
    for c in plain:
        length = (hand & suit_cards[effective[c]]).bit_count()
        key = (1 << 20 if is_boss(trump, unseen, c) else 0) | power[c] << 8 | length
        if key < best_key:
            best, best_key = c, key
    return best


def seats_after(seat: int, out: int, played: int) -> list[int]:
    """Seats still to play to the trick after ``seat`` (``played`` cards are in it)."""
    active = 4 - ((out & 1) + (out >> 1 & 1) + (out >> 2 & 1) + (out >> 3 & 1))
    seats: list[int] = []
    s = seat
    while played + 1 + len(seats) < active:
        s = (s + 1) % 4
        if not out >> s & 1:
            seats.append(s)
    return seats


def choose_card(trump: int, seat: int, hand: int, gone: int, voids: Sequence[int], maker: int, out: int,
                trick_seats: Sequence[int], trick_cards: Sequence[int], legal: Sequence[int]) -> int:
    """The rules' card for ``seat`` (``gone``: the cards it saw leave play)."""
    if len(legal) == 1:
        return legal[0]
    unseen = DECK_MASK & ~gone & ~hand
    if not trick_cards:
        return choose_lead(trump, seat, hand, unseen, maker, legal)
    return choose_follow(trump, seat, hand, unseen, voids, out, trick_seats, trick_cards, legal)


def choose_follow(trump: int, seat: int, hand: int, unseen: int, voids: Sequence[int], out: int,
                  trick_seats: Sequence[int], trick_cards: Sequence[int], legal: Sequence[int]) -> int:
    effective = EFFECTIVE[trump]
    led = effective[trick_cards[0]]
    following = effective[legal[0]] == led
    best = winning_index(trump, trick_cards)
    win_seat, win_card = trick_seats[best], trick_cards[best]
    after = seats_after(seat, out, len(trick_cards))
    opponents_after = False
    for s in after:
        if s % 2 != seat % 2:
            opponents_after = True
    team = seat % 2
    if win_seat % 2 == team:
        # Never overtake or trump a partner's trick that an opponent cannot beat
        # any more; still do not trump it when it is merely likely to hold.
        if not opponents_after or is_safe(trump, seat, unseen, voids, win_card, after) or not following:
            return lowest(trump, legal) if following else throw_off(trump, hand, unseen, legal)
    winners = [c for c in legal if beats(trump, c, win_card)]
    if not winners:
        return lowest(trump, legal) if following else throw_off(trump, hand, unseen, legal)
    if not opponents_after:
        return lowest(trump, winners)  # cheapest winning card
    sure = [c for c in winners if is_safe(trump, seat, unseen, voids, c, after)]
    if sure:
        return lowest(trump, sure)
    if following and win_seat % 2 == team:
        return lowest(trump, legal)  # partner leads the trick: second hand low
    if following and len(trick_cards) == 1 and led != trump:
        # Second hand low, unless our card may well hold (ace or king).
        high = highest(trump, winners)
        return high if high % 13 >= KING else lowest(trump, legal)
    return lowest(trump, winners)


def choose_lead(trump: int, seat: int, hand: int, unseen: int, maker: int, legal: Sequence[int]) -> int:
    effective, power, suit_cards = EFFECTIVE[trump], POWER[trump], SUIT_CARDS[trump]
    trumps = [c for c in legal if effective[c] == trump]
    plain = [c for c in legal if effective[c] != trump]
    makers = maker % 2 == seat % 2
    trumps_out = (unseen & suit_cards[trump]).bit_count()
    bosses = [c for c in plain if is_boss(trump, unseen, c)]
    if trumps and trumps_out:
        top = highest(trump, trumps)
        if makers and is_boss(trump, unseen, top) and (maker == seat or len(trumps) >= 2):
            return top  # pull the opponents' trumps with the top trump
        if makers and maker == seat and len(trumps) >= 3:
            return lowest(trump, trumps)
        if makers and maker != seat and not bosses:
            return top if is_boss(trump, unseen, top) else lowest(trump, trumps)  # lead trump to the maker
    if bosses:
        # A plain ace is best cashed in the suit the fewest may have trumped.
        pick, pick_key = bosses[0], 1 << 30
        for c in bosses:
            key = (64 - (unseen & suit_cards[effective[c]]).bit_count()) << 8 | power[c]
            if key < pick_key:
                pick, pick_key = c, key
        return pick
    if not plain:
        top = highest(trump, trumps)
        return top if is_boss(trump, unseen, top) else lowest(trump, trumps)
    # Nothing sure: lead low from the shortest plain suit to make a void.
    pick, pick_key = plain[0], 1 << 30
    for c in plain:
        key = (hand & suit_cards[effective[c]]).bit_count() << 8 | power[c]
        if key < pick_key:
            pick, pick_key = c, key
    return pick


# -- the bidding rules on masks ----------------------------------------------------------
LADDER_SUMS: list[dict[int, float]] = []
"""By trump: the trumps' points of every set of trumps (by its mask), each trump's points,
the trumps from the right bower down; by suit its ace and its king, by trump the other
suits' aces (masks); the points of a void, an off ace and a king it guards; the
thresholds (``bots.euchre``'s, from ``install_bidding``)."""
TRUMP_POINTS: list[dict[int, float]] = []
TRUMP_LADDER: list[list[int]] = []
SUIT_ACES: list[int] = []
SUIT_KINGS: list[int] = []
PLAIN_ACES: list[int] = []
VOID_POINTS = OFF_ACE_POINTS = GUARDED_KING_POINTS = 0.0
ORDER_THRESHOLD = CALL_THRESHOLD = ALONE_THRESHOLD = DEFEND_ALONE_THRESHOLD = 0.0


def install_bidding(ladder_sums: list[dict[int, float]], trump_points: list[dict[int, float]],
                    trump_ladder: list[list[int]], suit_aces: list[int], suit_kings: list[int],
                    plain_aces: list[int], points: list[float], thresholds: list[float]) -> None:
    """The bidding rules' tables (see ``LADDER_SUMS``); ``points``: a void's, an off
    ace's, a guarded king's; ``thresholds``: to order up, to name a suit, to go alone, to
    defend alone."""
    global LADDER_SUMS, TRUMP_POINTS, TRUMP_LADDER, SUIT_ACES, SUIT_KINGS, PLAIN_ACES
    global VOID_POINTS, OFF_ACE_POINTS, GUARDED_KING_POINTS
    global ORDER_THRESHOLD, CALL_THRESHOLD, ALONE_THRESHOLD, DEFEND_ALONE_THRESHOLD
    LADDER_SUMS, TRUMP_POINTS, TRUMP_LADDER = ladder_sums, trump_points, trump_ladder
    SUIT_ACES, SUIT_KINGS, PLAIN_ACES = suit_aces, suit_kings, plain_aces
    VOID_POINTS, OFF_ACE_POINTS, GUARDED_KING_POINTS = points[0], points[1], points[2]
    ORDER_THRESHOLD, CALL_THRESHOLD, ALONE_THRESHOLD, DEFEND_ALONE_THRESHOLD = (
        thresholds[0], thresholds[1], thresholds[2], thresholds[3])


def card_points(trump: int, c: int) -> float:
    return TRUMP_POINTS[trump].get(c, 0.0)


def hand_points(hand: int, trump: int) -> float:
    """A hand's strength with ``trump`` (``bots.euchre``'s module docstring): the
    trumps' points, then for each other suit in order a void (with two trumps or
    more), an ace and a king guarded by it (``tests/bots/test_euchre_bidding.py``
    compares it with the card-by-card sum on every hand)."""
    suit_cards = SUIT_CARDS[trump]
    trumps_held = hand & suit_cards[trump]
    points = LADDER_SUMS[trump][trumps_held]
    two_trumps = trumps_held & (trumps_held - 1) != 0
    for suit in range(4):
        if suit == trump:
            continue
        in_suit = hand & suit_cards[suit]
        if not in_suit and two_trumps:
            points += VOID_POINTS
        if in_suit & SUIT_ACES[suit]:
            points += OFF_ACE_POINTS
            if in_suit & SUIT_KINGS[suit]:
                points += GUARDED_KING_POINTS
    return points


def best_discard(hand: int, trump: int) -> int:
    """The dealer's discard: a singleton plain non-ace (to make a void), else the
    lowest plain card, else the lowest trump.  A plain suit's cheapest card is its
    lowest (card ids rise with the rank), and of equally cheap ones the first suit's
    goes (the test compares it with the card-by-card choice on every hand)."""
    suit_cards = SUIT_CARDS[trump]
    if not hand & ~suit_cards[trump]:
        return lowest(trump, cards(hand))
    best, best_cost = -1, 0
    for suit in range(4):
        in_suit = hand & suit_cards[suit] if suit != trump else 0
        if in_suit:
            low = (in_suit & -in_suit).bit_length() - 1
            rank = low % 13
            cost = (32 if rank == KING + 1 else 0) | (16 if in_suit & (in_suit - 1) else 0) | rank  # ace, not single
            if best < 0 or cost < best_cost:
                best, best_cost = low, cost
    return best


def dealer_points(hand: int, up: int) -> float:
    """The dealer's strength with the up-card picked up and his discard made."""
    trump = up // 13
    full = hand | 1 << up
    return hand_points(full & ~(1 << best_discard(full, trump)), trump)


def order_points(hand: int, up: int, seat: int, dealer: int) -> float:
    """Strength of ordering the up-card, counting who gets it."""
    trump = up // 13
    if seat == dealer:
        return dealer_points(hand, up)
    up_value = card_points(trump, up)
    own = hand_points(hand, trump)
    return own + 0.5 * up_value if (dealer - seat) % 4 == 2 else own - 0.5 * up_value


def should_order(hand: int, up: int, seat: int, dealer: int, alone: bool) -> bool:
    """``alone``: ordering up means going alone (the dealer partner sits out and
    does not pick up), so only a hand that can go alone orders.  The first seat (left of
    the dealer) passes a hand at least as strong in "next", the suit of the up-card's
    colour: round 2 opens with him, and ordering up hands the other side's dealer a
    trump (both bowers, for instance, are both bowers in next too; docs/strength.md)."""
    if alone:
        return should_go_alone(hand, up // 13, seat, dealer, up)
    points = order_points(hand, up, seat, dealer)
    if (seat - dealer) % 4 == 1 and hand_points(hand, 3 - up // 13) >= points:  # 3 - suit: its colour's other suit
        return False
    return points >= ORDER_THRESHOLD


def best_call(hand: int, turned_down: int) -> tuple[int, float]:
    """The strongest suit to name and its points (of equally strong ones the first)."""
    best, best_points = -1, 0.0
    for suit in range(4):
        if suit != turned_down:
            points = hand_points(hand, suit)
            if best < 0 or points > best_points:
                best, best_points = suit, points
    return best, best_points


def call_choice(hand: int, turned_down: int, forced: bool) -> int:
    """The suit to name in round 2, or -1 to pass."""
    suit, points = best_call(hand, turned_down)
    return suit if forced or points >= CALL_THRESHOLD else -1


def alone_tricks(hand: int, trump: int, out_of_play: int) -> float:
    """Tricks a hand takes on its own: the unbroken top trumps surely (a trump
    known to be out of play, ``out_of_play``, does not break the run), other
    trumps and plain aces probably."""
    run = 0
    for c in TRUMP_LADDER[trump]:
        if out_of_play >> c & 1:
            continue
        if not hand >> c & 1:
            break
        run += 1
    trumps = (hand & SUIT_CARDS[trump][trump]).bit_count()
    aces = (hand & PLAIN_ACES[trump]).bit_count()
    return run + 0.7 * (trumps - run) + 0.8 * aces


def should_go_alone(hand: int, trump: int, seat: int, dealer: int, up: int) -> bool:
    """``up`` is the up-card when it was ordered up, else -1 (the dealer, if it is
    this seat, will hold it; when the partner deals, it goes out of play with him)."""
    out_of_play = 0
    if up >= 0 and seat == dealer:
        full = hand | 1 << up
        hand = full & ~(1 << best_discard(full, trump))
    elif up >= 0 and (dealer - seat) % 4 == 2:
        out_of_play = 1 << up
    return alone_tricks(hand, trump, out_of_play) >= ALONE_THRESHOLD


def should_defend_alone(hand: int, trump: int) -> bool:
    """Option "defend alone": a defender against a lone maker defends alone with
    about three tricks of his own (``DEFEND_ALONE_THRESHOLD``)."""
    return alone_tricks(hand, trump, 0) >= DEFEND_ALONE_THRESHOLD


# -- the card play on masks ----------------------------------------------------------
def cards(mask: int) -> list[int]:
    """The cards of a mask in order."""
    return [c for c in range(mask.bit_length()) if mask >> c & 1]


class CardPlay:
    """The card play of a hand on masks, card by card: the hands, the cards everybody
    saw leave play (``public``; the dealer also saw his discard, ``dealer_only``), the
    suits each seat showed out of, the trick so far, whose turn it is, the makers'
    tricks and the tricks done.  The playout plays the rules' cards with it, inference
    replays a history's cards with it (one step for both)."""

    def __init__(self, trump: int, maker: int, out: int, dealer: int, hands: list[int], public: int,
                 dealer_only: int, turn: int, following: list[int]):
        self.trump, self.maker, self.out, self.dealer = trump, maker, out, dealer
        self.hands, self.public, self.dealer_only, self.turn = hands, public, dealer_only, turn
        self.following = following
        self.voids = [0, 0, 0, 0]
        self.trick_seats: list[int] = []
        self.trick_cards: list[int] = []
        self.won = 0
        self.done = 0
        self.active = 4 - ((out & 1) + (out >> 1 & 1) + (out >> 2 & 1) + (out >> 3 & 1))
        self.makers = maker % 2

    def playable(self) -> int:
        """The cards the seat to move may play (follow suit if it can)."""
        hand = self.hands[self.turn]
        if not self.trick_cards:
            return hand
        following = hand & SUIT_CARDS[self.trump][EFFECTIVE[self.trump][self.trick_cards[0]]]
        return following if following else hand

    def rules_card(self, playable: int) -> int:
        """The rules' card among ``playable`` (two or more) on what the seat to move saw."""
        turn = self.turn
        gone = self.public | self.dealer_only if turn == self.dealer else self.public
        return choose_card(self.trump, turn, self.hands[turn], gone, self.voids, self.maker, self.out,
                           self.trick_seats, self.trick_cards, cards(playable))

    def play(self, c: int) -> None:
        """The seat to move plays ``c``; a full trick goes to its winner, who leads next."""
        turn, trick_cards = self.turn, self.trick_cards
        effective = EFFECTIVE[self.trump]
        self.hands[turn] &= ~(1 << c)
        self.public |= 1 << c
        if trick_cards and effective[c] != effective[trick_cards[0]]:
            self.voids[turn] |= 1 << effective[trick_cards[0]]
        self.trick_seats.append(turn)
        trick_cards.append(c)
        if len(trick_cards) < self.active:
            self.turn = self.following[turn]
            return
        self.turn = self.trick_seats[winning_index(self.trump, trick_cards)]
        if self.turn % 2 == self.makers:
            self.won += 1
        self.done += 1
        self.trick_seats.clear()
        trick_cards.clear()

    def play_out(self, until: int) -> None:
        """Play the rules' cards until ``until`` tricks are done."""
        while self.done < until:
            playable = self.playable()
            self.play(self.rules_card(playable) if playable & (playable - 1) else playable.bit_length() - 1)


def finish(trump: int, maker: int, out: int, dealer: int, hands: list[int], public: int, dealer_only: int,
           leader: int, played: list[int], until: int, following: list[int], numbering: list[int],
           block_of: list[int]) -> int:
    """The makers' tricks at the end of a hand whose cards ``played`` so far (from the
    first lead, by ``leader``) are replayed on ``hands`` (the hands now: a card played
    is out already), then played by the rules until ``until`` tricks are done, then
    solved (``makers_tricks``).  ``public``, ``dealer_only``: as ``CardPlay``'s before
    the first lead."""
    play = CardPlay(trump, maker, out, dealer, hands, public, dealer_only, leader, following)
    for c in played:
        play.play(c)
    play.play_out(until)
    return makers_tricks(play, numbering, block_of)


# -- the solver ------------------------------------------------------------------------

TRUMP_BLOCK = 0xFF << 24
"""The solver's bits of the trumps."""

def solver_bits(hand: int, bits: list[int]) -> int:
    """A hand (card ids) in the solver's numbering (``bits[card]``)."""
    found = 0
    for c in range(hand.bit_length()):
        if hand >> c & 1:
            found |= 1 << bits[c]
    return found


def reach(hands: list[int], turn: int, need: int, left: int, played: int, led: int, win_seat: int, win_bit: int,
          makers: int, out: int, following: list[int], block_of: list[int]) -> bool:
    """Whether the makers (team ``makers``: seats of that parity) win ``need`` of the
    ``left`` tricks from here: ``hands`` in solver bits, ``turn`` to play the
    ``played``-th card of the trick (0: to lead) whose led block is ``led`` and best card
    ``win_bit`` (of ``win_seat``); ``out``: the seats sitting out, ``following[seat]``:
    the next seat that plays."""
    active = 4 - ((out & 1) + (out >> 1 & 1) + (out >> 2 & 1) + (out >> 3 & 1))
    if not played:
        return _lead(hands, turn, need, left, makers, active, following, block_of)
    return _play(hands, turn, need, left, played, led, win_seat, win_bit, makers, active, following, block_of)


def makers_tricks(play: CardPlay, numbering: list[int], block_of: list[int]) -> int:
    """The makers' tricks at the end of the hand with best play by all from ``play``'s
    position (every hand open); ``numbering``: the solver's bit of each card id for the
    trump, ``block_of``: each bit's block.  Only the thresholds of the score table
    matter, 3 tricks and all 5, and the score is monotone in the makers' tricks, so two
    searches at most give the answer."""
    hands = [solver_bits(hand, numbering) for hand in play.hands]
    won, left = play.won, 5 - play.done
    final = won
    if won < 3 and won + left >= 3:
        final = 3 if _reach_from(play, hands, 3 - won, left, numbering, block_of) else won
    if 3 <= max(final, won) and won + left == 5 and (won >= 3 or final == 3):
        final = 5 if _reach_from(play, hands, 5 - won, left, numbering, block_of) else max(final, 3)
    return final


def _reach_from(play: CardPlay, hands: list[int], need: int, left: int, numbering: list[int],
                block_of: list[int]) -> bool:
    """``reach`` from ``play``'s position (``hands`` in solver bits), the trick so far included."""
    following, trick_cards = play.following, play.trick_cards
    if not trick_cards:
        return reach(hands, play.turn, need, left, 0, -1, -1, -1, play.makers, play.out, following, block_of)
    best = winning_index(play.trump, trick_cards)
    return reach(hands, play.turn, need, left, len(trick_cards), block_of[numbering[trick_cards[0]]],
                 play.trick_seats[best], numbering[trick_cards[best]], play.makers, play.out, following, block_of)


def _lead(hands: list[int], turn: int, need: int, left: int, makers: int, active: int, following: list[int],
          block_of: list[int]) -> bool:
    if need <= 0:
        return True
    if need > left:
        return False
    if left == 1:
        return _last_trick(hands, turn, active, following, block_of) % 2 == makers
    return _play(hands, turn, need, left, 0, -1, -1, -1, makers, active, following, block_of)


def _last_trick(hands: list[int], turn: int, active: int, following: list[int], block_of: list[int]) -> int:
    """The seat that wins the last trick, ``turn`` to lead (every hand holds one card:
    no search)."""
    win_seat, win_bit = turn, hands[turn].bit_length() - 1
    seat = turn
    for _ in range(active - 1):
        seat = following[seat]
        b = hands[seat].bit_length() - 1
        if b > win_bit and (block_of[b] == block_of[win_bit] or block_of[b] == TRUMP_BLOCK):
            win_seat, win_bit = seat, b
    return win_seat


def _play(hands: list[int], turn: int, need: int, left: int, played: int, led: int, win_seat: int, win_bit: int,
          makers: int, active: int, following: list[int], block_of: list[int]) -> bool:
    hand = hands[turn]
    playable = hand & led if played else hand
    if not playable:
        playable = hand
    in_play = hands[0] | hands[1] | hands[2] | hands[3]
    if win_bit >= 0:
        in_play |= 1 << win_bit
    maximizing = turn % 2 == makers
    last = played + 1 == active
    nxt = following[turn]
    above = -1  # the card tried before, when of the same block
    while playable:
        b = playable.bit_length() - 1
        playable ^= 1 << b
        if above >= 0 and block_of[above] == block_of[b] and not in_play & ((1 << above) - (2 << b)):
            above = b
            continue  # next in power to the card tried before: the same play
        above = b
        if not played:
            new_led, new_seat, new_bit = block_of[b], turn, b
        elif b > win_bit and (block_of[b] == block_of[win_bit] or block_of[b] == TRUMP_BLOCK):
            new_led, new_seat, new_bit = led, turn, b
        else:
            new_led, new_seat, new_bit = led, win_seat, win_bit
        hands[turn] = hand & ~(1 << b)
        if last:
            gained = 1 if new_seat % 2 == makers else 0
            value = _lead(hands, new_seat, need - gained, left - 1, makers, active, following, block_of)
        else:
            value = _play(hands, nxt, need, left, played + 1, new_led, new_seat, new_bit, makers, active, following,
                          block_of)
        hands[turn] = hand
        if value == maximizing:
            return value
    return not maximizing


# -- inference: the card play of a sampled world, replayed on masks ------------------
def disagreements(trump: int, maker: int, out: int, dealer: int, hands: list[int], public: int, dealer_only: int,
                  turn: int, actions: list[int], me: int, following: list[int], limit: int) -> list[int] | None:
    """Replay ``actions`` (the cards played, from the first lead; ``CardPlay``'s
    arguments at that point) and return the indices of ``actions`` at which another
    seat than ``me`` with more than one playable card did not play the rules' card
    (``choose_card`` on what it saw: exactly what ``bots.inference`` counts with the
    rules policy), at most ``limit`` of them (-1: all; the caller's weight is at its
    floor with that many).  The replay stops at a card that is not playable there (the
    reference replay raises there); None for an action that is not a card."""
    play = CardPlay(trump, maker, out, dealer, list(hands), public, dealer_only, turn, following)
    differ: list[int] = []
    for index in range(len(actions)):
        c = actions[index]
        if not 0 <= c < 52:
            return None
        playable = play.playable()
        if not playable >> c & 1:
            return differ
        if play.turn != me and playable & (playable - 1) and play.rules_card(playable) != c:
            differ.append(index)
            if len(differ) == limit:
                return differ  # enough to bring the weight to its floor
        play.play(c)
    return differ
