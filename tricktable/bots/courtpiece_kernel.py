"""The Court Piece playout kernel: the card play of a rollout on plain ints.

``play_out`` finishes the card play of a Double Sar or Single Sar deal (trump
open, nothing face down) with the family's card-play rules (``choose_lead`` and
``choose_follow`` in ``courtpiece.py``), re-expressed on 52-bit masks: a hand,
the cards gone, the voids each seat showed.  What a trick is worth and when the
deal ends are data (``rules``: the pile and its house rules, seven tricks); the
kernel writes the tricks each team counts into ``captured`` and the caller hands
them to the game's own scoring.

It is written for mypyc (``tricktable/speedups.py`` compiles it at ``make
install``): ints, lists of ints and plain functions, no imports of the game, so
the same source is the pure-Python fallback.  ``tests/bots/test_playout.py``
plays the same rollouts through it and through the real game and requires equal
values; ``tests/bots/test_speed.py`` requires the compiled and the pure module to
agree.

Cards are ``suit * 13 + rank`` (rank 12 the ace), as in ``tricktable.cards``;
the next seat in play is ``(seat + 3) % 4`` and partners sit opposite.
"""

from __future__ import annotations

from typing import Final

NO_TRUMP: Final = 4
TRICKS: Final = 13
TRICKS_TO_WIN: Final = 7

PILE: Final = 1
"""Won tricks go onto the pile; two in a row by one player capture it (Double Sar)."""
ACE_ON_ACE: Final = 2
"""House rule: a pair won with two aces does not capture."""
TRUMP_ACE_CANNOT_SEAL: Final = 4
"""House rule: a pair whose second trick the trump ace won does not capture."""
NO_PILE_ON_11_12: Final = 8
"""House rule: no pair captures with trick 11 or 12."""
SEVEN_TRICKS: Final = 16
"""The deal ends once a team counts seven tricks and the other at least one."""


def _suit_tables() -> tuple[list[int], list[int], list[int]]:
    """Lowest set bit, highest set bit and bit count of every 13-bit rank mask."""
    low, high, count = [-1] * 8192, [-1] * 8192, [0] * 8192
    for bits in range(1, 8192):
        rest = bits & (bits - 1)
        low[bits] = low[bits ^ rest] if rest else (bits.bit_length() - 1)
        high[bits] = bits.bit_length() - 1
        count[bits] = count[rest] + 1
    return low, high, count


LOW, HIGH, COUNT = _suit_tables()
ALL_RANKS: Final = 8191


def _ranks(mask: int, suit: int) -> int:
    """The 13-bit rank mask of ``suit`` in a 52-bit card mask."""
    return (mask >> (13 * suit)) & ALL_RANKS


def _above(rank: int) -> int:
    """The ranks above ``rank``, as a 13-bit mask."""
    return ALL_RANKS & ~((2 << rank) - 1)


def _count(mask: int) -> int:
    return COUNT[mask & ALL_RANKS] + COUNT[(mask >> 13) & ALL_RANKS] + COUNT[(mask >> 26) & ALL_RANKS] \
        + COUNT[(mask >> 39) & ALL_RANKS]


def _lowest(mask: int) -> int:
    """The lowest card of a non-empty mask."""
    for suit in range(4):
        ranks = _ranks(mask, suit)
        if ranks:
            return 13 * suit + LOW[ranks]
    return -1


def _is_boss(unseen: int, card: int) -> bool:
    """No unseen card of its suit ranks above it."""
    suit = card // 13
    return not _ranks(unseen, suit) & _above(card - 13 * suit)


def _throw_off(hand: int, legal: int, trump: int, unseen: int) -> int:
    """``throw_off``: the lowest plain card, from the shortest plain suit, never a
    boss if avoidable.  In a suit the bosses are its top cards, so each suit's
    candidate is its lowest card; the key is (boss, rank, length)."""
    plain = legal & ~(ALL_RANKS << (13 * trump)) if trump != NO_TRUMP else legal
    if not plain:
        plain = legal
    best, best_key = -1, 0
    for suit in range(4):
        ranks = _ranks(plain, suit)
        if not ranks:
            continue
        rank = LOW[ranks]
        card = 13 * suit + rank
        key = (1000 if _is_boss(unseen, card) else 0) + 20 * rank + COUNT[_ranks(hand, suit)]
        if best < 0 or key < best_key:
            best, best_key = card, key
    return best


def _stake_is_low(seat: int, pile: int, open_seat: int, tricks_played: int) -> bool:
    """``trick_stake(table, seat) < 1``: winning this trick is worth less than a trick."""
    if pile < 0:
        return False
    if tricks_played == TRICKS - 1 or open_seat == seat:
        return pile + 1.0 < 1
    if open_seat >= 0 and open_seat % 2 != seat % 2:
        return (pile + 1.0) / 2 < 1
    return True


def choose_follow(seat: int, hand: int, legal: int, trump: int, led: int, win_seat: int, win_card: int,
                  played: int, unseen: int, voids: list[int], pile: int, open_seat: int,
                  tricks_played: int) -> int:
    """``choose_follow`` on masks: ``played`` cards are in the trick, ``win_*`` holds it."""
    following = _ranks(legal, led) != 0
    team = seat % 2
    opponents_after = False
    opponent_voids = 0  # suits some opponent still to play has shown out of
    s = seat
    for _ in range(3 - played):
        s = (s + 3) % 4
        if s % 2 != team:
            opponents_after = True
            opponent_voids |= voids[s]
    partner_wins = win_seat % 2 == team
    trumps_out = trump != NO_TRUMP and _ranks(unseen, trump) != 0
    if following:
        low = 13 * led + LOW[_ranks(legal, led)]
    else:
        low = _throw_off(hand, legal, trump, unseen)
    if partner_wins:
        if not opponents_after:
            return low
        win_suit = win_card // 13
        if _is_boss(unseen, win_card) and (not trumps_out or win_suit == trump or not opponent_voids >> win_suit & 1):
            return low  # never overtake or trump a partner's trick that holds
        if open_seat == win_seat:
            return low  # the partner is about to capture the pile: leave it to him
    win_suit = win_card // 13
    winners = _ranks(legal, win_suit) & _above(win_card - 13 * win_suit)
    suit = win_suit
    if not winners and trump != NO_TRUMP and win_suit != trump:
        winners, suit = _ranks(legal, trump), trump
    if not winners:
        return low
    if not opponents_after:
        return 13 * suit + LOW[winners]
    # The sure winners: bosses (the top ones of the suit) nobody after can trump.
    bosses = winners & ~_above_or_equal_first_live(_ranks(unseen, suit))
    if bosses and (not trumps_out or suit == trump or not opponent_voids >> suit & 1):
        return 13 * suit + LOW[bosses]
    if partner_wins:
        return low  # do not overtake or trump the partner's trick on a guess
    if following and played == 1 and _stake_is_low(seat, pile, open_seat, tricks_played):
        return low  # second hand low when little is at stake
    return 13 * suit + (HIGH[winners] if following else LOW[winners])


def _above_or_equal_first_live(unseen_ranks: int) -> int:
    """The ranks that are not bosses given the unseen ranks of a suit: every rank
    below the highest unseen one (a card is a boss when no unseen card is higher)."""
    if not unseen_ranks:
        return 0
    return (1 << HIGH[unseen_ranks]) - 1


def choose_lead(seat: int, hand: int, trump: int, unseen: int, voids: list[int], pile: int,
                tricks_played: int) -> int:
    """``choose_lead`` on masks (the hand is the legal cards)."""
    trump_ranks = _ranks(hand, trump) if trump != NO_TRUMP else 0
    trumps_out = COUNT[_ranks(unseen, trump)] if trump != NO_TRUMP else 0
    opponent_voids = voids[(seat + 1) % 4] | voids[(seat + 3) % 4]
    if trump_ranks and trumps_out and COUNT[trump_ranks] >= trumps_out:
        top = HIGH[trump_ranks]
        last_trick_ahead = pile >= 0 and tricks_played == TRICKS - 2
        if not _ranks(unseen, trump) & _above(top) and not (last_trick_ahead and COUNT[trump_ranks] == 1):
            return 13 * trump + top  # draw the opponents' trumps while we hold the most
    bosses, live = [0, 0, 0, 0], [0, 0, 0, 0]  # the safe bosses: most unseen cards of the suit first, then the lowest
    plain, length = [0, 0, 0, 0], [0, 0, 0, 0]  # else low from the longest plain suit (keep short ones to ruff)
    for suit in range(4):
        if suit == trump:
            continue
        unseen_ranks, ranks = _ranks(unseen, suit), _ranks(hand, suit)
        if not (trumps_out and opponent_voids >> suit & 1):
            bosses[suit] = ranks & ~_above_or_equal_first_live(unseen_ranks)
        live[suit], plain[suit], length[suit] = COUNT[unseen_ranks], ranks, COUNT[ranks]
    best = _lowest_of_longest(bosses, live)
    if best < 0:
        best = _lowest_of_longest(plain, length)
    if best >= 0:
        return best
    return 13 * trump + LOW[trump_ranks]


def _lowest_of_longest(candidates: list[int], lengths: list[int]) -> int:
    """The lowest candidate (rank masks per suit) of the suit with the greatest
    ``lengths``, then the lowest rank, then the lowest suit; -1 if none."""
    best, best_key = -1, 0
    for suit in range(4):
        ranks = candidates[suit]
        if ranks:
            key = -20 * lengths[suit] + LOW[ranks]
            if best < 0 or key < best_key:
                best, best_key = 13 * suit + LOW[ranks], key
    return best


def _beats(trump: int, card: int, best: int) -> bool:
    if card // 13 == best // 13:
        return card > best
    return card // 13 == trump


def play_out(hands: list[int], trump: int, leader: int, trick: list[int], gone: int, voids: list[int],
             tricks_played: int, captured: list[int], pile: int, open_seat: int, open_card: int,
             rules: int) -> None:
    """Play the deal to its end from ``trick`` (the cards of the current trick,
    led by ``leader``) after ``tricks_played`` tricks.  ``gone`` holds every card
    played (this trick's too), ``voids[seat]`` bit ``suit`` a suit the seat showed
    out of.  ``hands``, ``voids`` and ``captured`` (tricks counted per team) are
    updated in place; ``pile``/``open_*`` are the pile's state (``PILE`` rules)."""
    has_pile = rules & PILE != 0
    played = len(trick)
    seat = (leader + 3 * played) % 4
    cards = [0, 0, 0, 0]
    win_seat = win_card = led = -1
    for i in range(played):
        cards[i] = trick[i]
        if i == 0 or _beats(trump, trick[i], win_card):
            win_seat, win_card = (leader + 3 * i) % 4, trick[i]
    if played:
        led = cards[0] // 13
    while True:
        hand = hands[seat]
        if played:
            legal = hand & (ALL_RANKS << (13 * led)) or hand
        else:
            legal = hand
        if not legal & (legal - 1):
            card = _lowest(legal)
        else:
            unseen = ~gone & ~hand & ((1 << 52) - 1)
            if played:
                card = choose_follow(seat, hand, legal, trump, led, win_seat, win_card, played, unseen, voids,
                                     pile if has_pile else -1, open_seat if has_pile else -1, tricks_played)
            else:
                card = choose_lead(seat, hand, trump, unseen, voids, pile if has_pile else -1, tricks_played)
        hands[seat] = hand ^ (1 << card)
        gone |= 1 << card
        if played == 0:
            led, win_seat, win_card = card // 13, seat, card
        else:
            if card // 13 != led:
                voids[seat] |= 1 << led
            if _beats(trump, card, win_card):
                win_seat, win_card = seat, card
        cards[played] = card
        played += 1
        if played < 4:
            seat = (seat + 3) % 4
            continue
        tricks_played += 1
        if not has_pile:
            captured[win_seat % 2] += 1
        else:
            pile += 1
            if tricks_played == TRICKS:
                captured[win_seat % 2] += pile
                pile = 0
            elif open_seat != win_seat:
                open_seat, open_card = win_seat, win_card
            elif _capture_blocked(rules, trump, open_card, win_card, tricks_played):
                open_card = win_card
            else:
                captured[win_seat % 2] += pile
                pile, open_seat, open_card = 0, -1, -1
        a, b = captured[0], captured[1]
        if tricks_played == TRICKS or (rules & SEVEN_TRICKS and ((a >= TRICKS_TO_WIN and b > 0)
                                                                  or (b >= TRICKS_TO_WIN and a > 0))):
            return
        played, seat, led = 0, win_seat, -1


def _capture_blocked(rules: int, trump: int, first: int, second: int, number: int) -> bool:
    """The Double Sar house rules that keep a pair from capturing (``Pile._capture_blocked``)."""
    if rules & ACE_ON_ACE and first % 13 == 12 and second % 13 == 12:
        return True
    if rules & TRUMP_ACE_CANNOT_SEAL and trump != NO_TRUMP and second == 13 * trump + 12:
        return True
    return rules & NO_PILE_ON_11_12 != 0 and number in (11, 12)


def play_deal(hands: list[int], trump: int, leader: int, trick: list[int],
              tricks: list[tuple[int, tuple[int, ...], int]], captured: list[int], pile: int, open_seat: int,
              open_card: int, rules: int) -> None:
    """``play_out`` from a state's own lists: ``tricks`` are its finished tricks
    (leader, cards, winner), from which the cards gone and the voids are tallied."""
    gone = 0
    voids = [0, 0, 0, 0]
    for first, cards, _ in tricks:
        gone |= _note_trick(voids, first, list(cards))
    if trick:
        gone |= _note_trick(voids, leader, trick)
    play_out(hands, trump, leader, list(trick), gone, voids, len(tricks), captured, pile, open_seat, open_card,
             rules)


def _note_trick(voids: list[int], leader: int, cards: list[int]) -> int:
    """Mark the seats that did not follow the led suit; the trick's cards as a mask."""
    led = cards[0] // 13
    mask = 0
    seat = leader
    for card in cards:
        mask |= 1 << card
        if card // 13 != led:
            voids[seat] |= 1 << led
        seat = (seat + 3) % 4
    return mask
