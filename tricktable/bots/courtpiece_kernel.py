"""The Court Piece card play on plain ints: the rules bot's and the rollouts' one copy.

``choose_action`` is the rules' card (or reveal) for one seat from what it knows
(the rules bot, ``courtpiece.choose_card``, on a table built from its observation);
``decide`` the same for the seat to move in a state; ``play_out`` finishes the card
play of any Court Piece deal from the first lead on with those rules: second hand low, third hand high, the cheapest sure winner, never trump a
partner's trick that holds, throw off low from the shortest plain suit, the pile's
timing (``choose_lead``, ``choose_follow``); the relatives' reveal, hidden-trump
leads and throw-offs, Mendikot's tens and Be-Ranga's trump setting (the module
docstrings of ``courtpiece.py`` and ``relatives.py`` say them in words) — on 52-bit
masks: a hand, the cards gone, the voids each seat showed.  The variants are data
(``rules``): how trump is chosen (called, a card face down until a void asks, the
first void), what a trick is worth (one trick, the pile and its house rules,
Be-Ranga's wait for trump) and when the deal ends (seven tricks, or the tens after
13); the kernel writes the tricks (and tens) each team counts into ``captured``
(and ``tens``) and the caller hands them to the game's own scoring.  Calling trump
and changing it stay in Python (``courtpiece.call_action``, ``change_choice``, the
relatives' ``hide_choice`` and ``swap_choice``).

It is written for mypyc (``tricktable/speedups.py`` compiles it at ``make
install``): ints, lists of ints and plain functions, no imports of the game, so
the same source is the pure-Python fallback.  ``tests/bots/test_playout.py``
plays the same rollouts through it and through the real game, and through the
compiled and the pure module, and requires equal values; the scenario tests
(``tests/bots/test_*_scenarios.py``) pin its decisions.

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
WAIT_FOR_TRUMP: Final = 32
"""Be-Ranga's pile: no pair captures up to the trick that set trump."""
TENS: Final = 64
"""Mendikot: the tens each team takes are counted; every deal goes to 13 tricks."""
BE_RANGA_CARDS: Final = 128
"""Be-Ranga's card play (the lead and the trump-setting card while no trump is set):
up to the trump-setting trick a pair cannot capture, so nobody is "about to capture"."""
MENDIKOT_CARDS: Final = 256
"""Mendikot's card play (``mendikot_card`` and the lead of tens, ``mendikot_lead``)."""
FIRST_VOID: Final = 512
"""Be-Ranga's trump: the first card played by a player who cannot follow sets it."""
TEN: Final = 8
REVEAL: Final = -2
"""Not a card: the seat asks to see the face-down trump (Hidden Trump, Mendikot)."""


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
    """The throw-off: the lowest plain card, from the shortest plain suit, never a
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
    """Winning this trick is worth less than a trick to ``seat``'s team: in Double Sar the
    pile if it captures (the last trick, or ``seat`` won the last one), else half of it
    plus one when that breaks an opponent's streak, else a half (it only opens a pair)."""
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
    """Second, third or fourth hand: ``played`` cards are in the trick, ``win_*`` holds it.
    Never overtake or trump a partner's trick that holds, nor one the partner is about
    to capture the pile with; the cheapest sure winner (a ruff: the cheapest trump unless
    an opponent after us has shown out of the suit led); second hand low when little is
    at stake; else the highest winner of the suit or the cheapest trump; else low."""
    following = _ranks(legal, led) != 0
    team = seat % 2
    opponents_after, opponent_voids = _opponents_after(seat, played, voids)
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
    winners, suit = _winners(legal, trump, win_card)
    if not winners:
        return low
    if not opponents_after:
        return 13 * suit + LOW[winners]
    # The sure winners: bosses (the top ones of the suit) nobody after can trump; when we
    # ruff, any trump while no opponent after us has shown out of the suit led (only he
    # could overruff): the cheapest then, not the trump ace.
    bosses = winners & ~_above_or_equal_first_live(_ranks(unseen, suit))
    if not following and suit == trump and not opponent_voids >> led & 1:
        bosses = winners
    if bosses and (not trumps_out or suit == trump or not opponent_voids >> suit & 1):
        return 13 * suit + LOW[bosses]
    if partner_wins:
        return low  # do not overtake or trump the partner's trick on a guess
    if following and played == 1 and _stake_is_low(seat, pile, open_seat, tricks_played):
        return low  # second hand low when little is at stake
    return 13 * suit + (HIGH[winners] if following else LOW[winners])


def _winners(legal: int, trump: int, win_card: int) -> tuple[int, int]:
    """The ``legal`` cards that beat ``win_card`` (all of one suit: higher ones of its
    suit, else any trump) as a rank mask, and their suit."""
    win_suit = win_card // 13
    winners = _ranks(legal, win_suit) & _above(win_card - 13 * win_suit)
    if not winners and trump != NO_TRUMP and win_suit != trump:
        return _ranks(legal, trump), trump
    return winners, win_suit


def _above_or_equal_first_live(unseen_ranks: int) -> int:
    """The ranks that are not bosses given the unseen ranks of a suit: every rank
    below the highest unseen one (a card is a boss when no unseen card is higher)."""
    if not unseen_ranks:
        return 0
    return (1 << HIGH[unseen_ranks]) - 1


def choose_lead(seat: int, hand: int, legal: int, trump: int, unseen: int, voids: list[int], pile: int,
                tricks_played: int) -> int:
    """The lead among the ``legal`` cards of ``hand``: draw trumps with the top one while
    we hold at least as many as are out (not the last trump before Double Sar's last
    trick); else a safe boss from the suit with most cards out; else low from the
    longest plain suit (short ones are kept for trumping); else the lowest trump."""
    trump_ranks = _ranks(legal, trump) if trump != NO_TRUMP else 0
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
        unseen_ranks, ranks = _ranks(unseen, suit), _ranks(legal, suit)
        if not (trumps_out and opponent_voids >> suit & 1):
            bosses[suit] = ranks & ~_above_or_equal_first_live(unseen_ranks)
        live[suit], plain[suit], length[suit] = COUNT[unseen_ranks], ranks, COUNT[_ranks(hand, suit)]
    best = _lowest_of_longest(bosses, live)
    if best < 0:
        best = _lowest_of_longest(plain, length)
    if best >= 0:
        return best
    return 13 * trump + LOW[trump_ranks]


def _tens(mask: int) -> int:
    """The tens of a card mask."""
    tens = 0
    for suit in range(4):
        tens |= mask & (1 << (13 * suit + TEN))
    return tens


def mendikot_lead(seat: int, hand: int, trump: int, unseen: int, voids: list[int]) -> int:
    """The lead's candidates in Mendikot: a ten only as a safe boss (else every card)."""
    tens = _tens(hand)
    if not tens:
        return hand
    trumps_out = trump != NO_TRUMP and _ranks(unseen, trump) != 0
    opponent_voids = voids[(seat + 1) % 4] | voids[(seat + 3) % 4]
    unsafe = 0
    for suit in range(4):
        ten = tens & (1 << (13 * suit + TEN))
        if ten and not (_is_boss(unseen, 13 * suit + TEN)
                        and (not trumps_out or suit == trump or not opponent_voids >> suit & 1)):
            unsafe |= ten
    return hand & ~unsafe or hand


def mendikot_card(seat: int, hand: int, legal: int, trump: int, known: int, trick_cards: list[int], played: int,
                  win_seat: int, win_card: int, unseen: int, voids: list[int], choice: int) -> int:
    """Mendikot's tens on ``choice`` (the family's card): grease the partner's sure
    trick with a ten, fight for a trick holding a ten, never hand a ten to the
    opponents when another card will do.
    ``trump`` is the trump in force, ``known`` the one this seat knows (throw-offs)."""
    team = seat % 2
    led = trick_cards[0] // 13
    following = _ranks(legal, led) != 0
    opponents_after, opponent_voids = _opponents_after(seat, played, voids)
    trumps_out = trump != NO_TRUMP and _ranks(unseen, trump) != 0
    tens = _tens(legal)
    partner = win_seat % 2 == team
    if partner and _partner_holds(opponents_after, opponent_voids, trump, led, unseen, win_card):
        # A ten on the partner's sure winner, but never a trump on a trick he holds.
        grease = tens if led == trump else tens & ~(ALL_RANKS << (13 * trump))
        return _lowest(grease) if grease else choice
    trick_tens = False
    for i in range(played):
        trick_tens = trick_tens or trick_cards[i] % 13 == TEN
    winners, suit = _winners(legal, trump, win_card)
    if not partner and trick_tens and winners:
        sure = winners
        if opponents_after:
            sure = winners & ~_above_or_equal_first_live(_ranks(unseen, suit))
            if trumps_out and suit != trump and opponent_voids >> suit & 1:
                sure = 0
        pool = sure or winners
        plain = pool & ~(1 << TEN) or pool  # a ten last
        return 13 * suit + (LOW[plain] if sure or not following else HIGH[plain])
    if choice % 13 != TEN:
        return choice
    if _beats(trump, choice, win_card) and not partner:
        return choice
    others = legal & ~tens
    if not others:
        return choice
    if following:
        return _lowest(others)
    return _throw_off(hand, others, known, unseen)


def _partner_holds(opponents_after: bool, opponent_voids: int, trump: int, led: int, unseen: int,
                   win_card: int) -> bool:
    """The partner, known to hold the trick so far, keeps it: nobody of
    the other team after us, or a safe card (while trump is hidden a void may ask
    for it and ruff)."""
    if not opponents_after:
        return True
    if trump == NO_TRUMP and opponent_voids >> led & 1:
        return False
    win_suit = win_card // 13
    trumps_out = trump != NO_TRUMP and _ranks(unseen, trump) != 0
    return _is_boss(unseen, win_card) and (not trumps_out or win_suit == trump or not opponent_voids >> win_suit & 1)


def _opponents_after(seat: int, played: int, voids: list[int]) -> tuple[bool, int]:
    """Whether an opponent plays after ``seat`` in this trick, and the suits those opponents showed out of."""
    team = seat % 2
    after = False
    shown = 0
    s = seat
    for _ in range(3 - played):
        s = (s + 3) % 4
        if s % 2 != team:
            after = True
            shown |= voids[s]
    return after, shown


def should_reveal(seat: int, hider: int, trick_cards: list[int], played: int, win_seat: int, win_card: int,
                  unseen: int, voids: list[int]) -> bool:
    """Void while trump is hidden, ask to see it?  Not when the partner holds the trick;
    at once when trump is our suit (the hider's side); the hider's opponents whenever
    the trick is not their side's (a trump of theirs may win it; asking only for a
    rich trick, a ten or the callers' seventh, lost 0.09 a deal in Hidden Trump and
    0.04 in Mendikot: docs/strength.md)."""
    team = seat % 2
    if win_seat % 2 == team:
        after, shown = _opponents_after(seat, played, voids)
        if _partner_holds(after, shown, NO_TRUMP, trick_cards[0] // 13, unseen, win_card):
            return False
    if hider % 2 == team:
        return True  # our suit: a void is a ruff
    return win_seat % 2 != team  # theirs: a trump of ours may still win the trick


def hidden_lead(seat: int, hand: int, known: int, unseen: int, voids: list[int], mendikot: bool) -> int:
    """The lead while trump is hidden: not into a suit an
    opponent showed out of (he may ask for trump and ruff) unless nothing else is
    left; in Mendikot a ten only as a boss; the hider leads knowing his suit."""
    opponent_voids = voids[(seat + 1) % 4] | voids[(seat + 3) % 4]
    options = 0
    for suit in range(4):
        if not opponent_voids >> suit & 1:
            options |= hand & (ALL_RANKS << (13 * suit))
    if not options:
        options = hand
    if mendikot:
        options = mendikot_lead(seat, options, NO_TRUMP, unseen, voids)
    return choose_lead(seat, hand, options, known, unseen, voids, -1, 0)


def ruff_after_reveal(seat: int, hand: int, legal: int, trump: int, led: int, played: int, unseen: int,
                      voids: list[int]) -> int:
    """After asking for the reveal: the cheapest trump, the highest when an opponent after us showed out."""
    trumps = _ranks(legal, trump)
    if not trumps:
        return _throw_off(hand, legal, trump, unseen)
    _, shown = _opponents_after(seat, played, voids)
    return 13 * trump + (HIGH[trumps] if shown >> led & 1 else LOW[trumps])


HONOURS: Final = (0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 2, 4, 6)
"""Twice an honour's points by rank: jack 0.5, queen 1, king 2, ace 3."""
LENGTH: Final = 6
"""Twice a card's points for the length of its suit (3)."""


def twice_suit_points(hand: int, suit: int) -> int:
    """Twice a suit's worth as trump in ``hand`` (the calling rules' ``suit_points``):
    3 points a card and the honours (``HONOURS``); 0 for ``NO_TRUMP``."""
    ranks = _ranks(hand, suit)
    points = LENGTH * COUNT[ranks]
    for rank in range(9, 13):
        if ranks >> rank & 1:
            points += HONOURS[rank]
    return points


def set_trump_card(hand: int, legal: int) -> int:
    """Be-Ranga, void while no trump is set (the card sets trump): the lowest card of the
    suit we are longest and strongest in (``twice_suit_points``, first suit on a tie)."""
    best, best_points = -1, -1
    for suit in range(4):
        if not _ranks(legal, suit):
            continue
        points = twice_suit_points(hand, suit)
        if points > best_points:
            best, best_points = suit, points
    return 13 * best + LOW[_ranks(legal, best)]


def beranga_lead(seat: int, hand: int, unseen: int, voids: list[int], pile: int, tricks_played: int) -> int:
    """Be-Ranga's lead while no trump is set: a boss if we hold one, else the lowest
    card of our shortest suit (to be the one who shows out first and names trump)."""
    bosses = 0
    for suit in range(4):
        ranks = _ranks(hand, suit)
        bosses |= (ranks & ~_above_or_equal_first_live(_ranks(unseen, suit))) << (13 * suit)
    if bosses:
        return choose_lead(seat, hand, bosses, NO_TRUMP, unseen, voids, pile, tricks_played)
    best, best_key = -1, 0
    for suit in range(4):
        ranks = _ranks(hand, suit)
        if ranks:
            key = 20 * COUNT[ranks] + LOW[ranks]
            if best < 0 or key < best_key:
                best, best_key = 13 * suit + LOW[ranks], key
    return best


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
             tricks_played: int, captured: list[int], tens: list[int], pile: int, open_seat: int, open_card: int,
             trump_trick: int, down: int, hider: int, must_trump: bool, trumps_from: int, rules: int) -> None:
    """Play the deal to its end from ``trick`` (the cards of the current trick,
    led by ``leader``) after ``tricks_played`` tricks.  ``gone`` holds every card
    played (this trick's too), ``voids[seat]`` bit ``suit`` a suit the seat showed
    out of.  ``hands``, ``voids`` and ``captured`` (tricks counted per team) are
    updated in place, and ``tens`` with ``TENS``; ``pile``/``open_*`` are the
    pile's state (``PILE`` rules), ``trump_trick`` the trick that set trump.
    ``down`` is the card ``hider`` put face down (-1: none; trump is hidden until
    a void asks), ``must_trump`` the asker's duty to trump, ``trumps_from`` the
    first card of this trick whose trumps count (the trick of a reveal)."""
    play = CardPlay(hands, trump, leader, trick, gone, voids, tricks_played, pile, open_seat, open_card,
                    trump_trick, down, hider, must_trump, trumps_from, rules)
    while True:
        action = play.rules_action()
        if action == REVEAL:
            play.reveal()
            continue
        winner = play.play(action)
        if winner < 0:
            continue
        team = winner % 2
        captured[team] = captured[team] + play.taken  # (on ints: see ``CardPlay.play``)
        if rules & TENS:
            cards = play.cards  # the finished trick's, until the next lead
            tens[team] = tens[team] + ((cards[0] % 13 == TEN) + (cards[1] % 13 == TEN) + (cards[2] % 13 == TEN)
                                       + (cards[3] % 13 == TEN))
        a, b = captured[0], captured[1]
        if play.tricks_played == TRICKS or (rules & SEVEN_TRICKS and ((a >= TRICKS_TO_WIN and b > 0)
                                                                       or (b >= TRICKS_TO_WIN and a > 0))):
            return


class CardPlay:
    """One deal's card play on masks, action by action, from a state's trick on: the
    hands, the cards gone, the voids shown, the trick so far (``cards``: the finished
    trick's until the next lead) and who holds it, the trump and the card face down,
    the pile.  ``play_out`` plays the rules' actions with it, ``disagreements``
    replays a history's (one step for both).  ``hands`` and ``voids`` are updated in
    place; the pile is kept only under ``PILE`` rules (-1 otherwise, as the rules see
    it), and what the last finished trick gives its winner's team is ``taken``."""

    def __init__(self, hands: list[int], trump: int, leader: int, trick: list[int], gone: int, voids: list[int],
                 tricks_played: int, pile: int, open_seat: int, open_card: int, trump_trick: int, down: int,
                 hider: int, must_trump: bool, trumps_from: int, rules: int) -> None:
        has_pile = rules & PILE != 0
        self.hands, self.trump, self.leader, self.gone, self.voids = hands, trump, leader, gone, voids
        self.tricks_played, self.trump_trick, self.rules = tricks_played, trump_trick, rules
        self.pile, self.open_seat = (pile, open_seat) if has_pile else (-1, -1)
        self.open_card = open_card
        self.down, self.hider, self.must_trump, self.trumps_from = down, hider, must_trump, trumps_from
        self.played = len(trick)
        self.seat = (leader + 3 * self.played) % 4
        self.cards = list(trick) + [0] * (4 - self.played)
        self.win_seat, self.win_card, self.led = _trick_so_far(self.cards, self.played, leader, trump, trumps_from)
        self.taken = 0

    def rules_action(self) -> int:
        """The rules' action for the seat to move: a card, or ``REVEAL``."""
        seat = self.seat
        return _action(seat, self.hands[seat], self.trump, self.cards, self.played, self.leader, self.led,
                       self.gone, self.voids, self.pile, self.open_seat, self.tricks_played, self.trump_trick,
                       self.down, self.hider, self.must_trump, self.rules)

    def may_reveal(self) -> bool:
        """Whether the seat to move may ask to see the card face down."""
        return _may_reveal(self.hands[self.seat], self.down, self.played, self.led)

    def reveal(self) -> None:
        """The seat to move asks: the card face down is shown and goes back to its
        owner, its suit is trump, and the asker must trump."""
        hands, down = self.hands, self.down
        self.trump = down // 13
        hands[self.hider] = hands[self.hider] | (1 << down)
        self.down, self.must_trump, self.trumps_from = -1, True, self.played

    def playable(self) -> int:
        """The cards the seat to move may play."""
        return _playable(self.hands[self.seat], self.trump, self.led, self.played, self.must_trump)

    def play(self, card: int) -> int:
        """The seat to move plays ``card``; the winner of the trick it completes (who
        leads next), -1 while the trick goes on."""
        seat, played, hands = self.seat, self.played, self.hands
        self.must_trump = False
        hands[seat] = hands[seat] ^ (1 << card)  # not ^=: mypyc does an item's augmented assignment on objects
        self.gone |= 1 << card
        if played == 0:
            self.led, self.win_seat, self.win_card = card // 13, seat, card
        else:
            led = self.led
            if card // 13 != led:
                voids = self.voids
                voids[seat] = voids[seat] | (1 << led)
                if self.trump == NO_TRUMP and self.rules & FIRST_VOID:
                    self.trump, self.trump_trick = card // 13, self.tricks_played + 1  # Be-Ranga: this card sets trump
            if _beats(self.trump, card, self.win_card):
                self.win_seat, self.win_card = seat, card
        self.cards[played] = card
        if played < 3:
            self.played, self.seat = played + 1, (seat + 3) % 4
            return -1
        winner = self.win_seat
        self.tricks_played += 1
        self.trumps_from = 0
        self.taken = self._count_trick()
        self.played, self.seat, self.leader, self.led = 0, winner, winner, -1
        return winner

    def _count_trick(self) -> int:
        """What the trick just won counts for its winner's team (one trick, or the pile
        it captures), and the pile's state after it."""
        if not self.rules & PILE:
            return 1
        pile, number, win_seat, win_card = self.pile + 1, self.tricks_played, self.win_seat, self.win_card
        if number == TRICKS:
            self.pile = 0
            return pile
        if self.open_seat != win_seat:
            self.pile, self.open_seat, self.open_card = pile, win_seat, win_card
            return 0
        if _capture_blocked(self.rules, self.trump, self.open_card, win_card, number, self.trump_trick):
            self.pile, self.open_card = pile, win_card
            return 0
        self.pile, self.open_seat, self.open_card = 0, -1, -1
        return pile


def _trick_so_far(cards: list[int], played: int, leader: int, trump: int, trumps_from: int) -> tuple[int, int, int]:
    """The seat and card winning the first ``played`` ``cards`` of a trick led by
    ``leader``, and the suit led (-1 each before the lead); trumps count from the
    card ``trumps_from`` on (the card after a reveal)."""
    win_seat = win_card = led = -1
    for i in range(played):
        card = cards[i]
        if i == 0:
            win_seat, win_card, led = leader, card, card // 13
        elif (card // 13 == led or (card // 13 == trump and i >= trumps_from)) and _beats(trump, card, win_card):
            win_seat, win_card = (leader + 3 * i) % 4, card
    return win_seat, win_card, led


def _action(seat: int, hand: int, trump: int, cards: list[int], played: int, leader: int, led: int, gone: int,
            voids: list[int], pile: int, open_seat: int, tricks_played: int, trump_trick: int, down: int,
            hider: int, must_trump: bool, rules: int) -> int:
    """The rules' action for ``seat``, to move with ``hand``: a card, or ``REVEAL``."""
    if must_trump and _ranks(hand, trump):
        legal = hand & (ALL_RANKS << (13 * trump))
    elif played:
        legal = hand & (ALL_RANKS << (13 * led)) or hand
    else:
        legal = hand
    may_reveal = _may_reveal(hand, down, played, led)
    return _among(seat, hand, legal, may_reveal, trump, cards, played, leader, gone, voids, pile, open_seat,
                  tricks_played, trump_trick, down, hider, must_trump, rules)


def _may_reveal(hand: int, down: int, played: int, led: int) -> bool:
    """A card lies face down and the seat to move cannot follow (or holds nothing)."""
    return down >= 0 and (not hand or (played > 0 and not _ranks(hand, led)))


def choose_action(seat: int, hand: int, legal: int, may_reveal: bool, trump: int, leader: int, trick: list[int],
                  gone: int, voids: list[int], pile: int, open_seat: int, tricks_played: int, trump_trick: int,
                  down: int, hider: int, must_trump: bool, rules: int) -> int:
    """The rules' action for ``seat`` among the ``legal`` cards (a mask) and, with
    ``may_reveal``, ``REVEAL``: a card, or ``REVEAL``.  Everything is what that seat
    knows: its hand, the trick so far (led by ``leader``), the cards gone (this trick's
    too) and the voids shown, the pile (-1: none), the trump in force (``NO_TRUMP``
    while hidden or unset) and ``down``: the card lying face down when the seat put it
    there (``hider``), any card >= 0 while one lies down unseen, -1 when none does.
    The rules bot's card play on an observation (``courtpiece.choose_card``)."""
    played = len(trick)
    cards = list(trick) + [0] * (4 - played)
    return _among(seat, hand, legal, may_reveal, trump, cards, played, leader, gone, voids, pile, open_seat,
                  tricks_played, trump_trick, down, hider, must_trump, rules)


def _among(seat: int, hand: int, legal: int, may_reveal: bool, trump: int, cards: list[int], played: int,
           leader: int, gone: int, voids: list[int], pile: int, open_seat: int, tricks_played: int, trump_trick: int,
           down: int, hider: int, must_trump: bool, rules: int) -> int:
    if not legal or (not legal & (legal - 1) and not may_reveal):
        return _lowest(legal) if legal else REVEAL
    return _choose(seat, hand, legal, trump, cards, played, leader, gone, voids, pile, open_seat, tricks_played,
                   trump_trick, down, hider, must_trump, may_reveal, rules)


def _choose(seat: int, hand: int, legal: int, trump: int, cards: list[int], played: int, leader: int, gone: int,
            voids: list[int], pile: int, open_seat: int, tricks_played: int, trump_trick: int, down: int, hider: int,
            must_trump: bool, may_reveal: bool, rules: int) -> int:
    """The rules' action for ``seat`` (a card, or ``REVEAL``) among two or more."""
    mendikot = rules & MENDIKOT_CARDS != 0
    unseen = ~gone & ~hand & ((1 << 52) - 1)
    if rules & BE_RANGA_CARDS and (trump == NO_TRUMP or tricks_played + 1 <= trump_trick):
        open_seat = -1  # no pair captures yet: nobody is about to capture
    if not played:
        if down >= 0:
            return hidden_lead(seat, hand, down // 13 if seat == hider else NO_TRUMP, unseen, voids, mendikot)
        if trump == NO_TRUMP and rules & BE_RANGA_CARDS:
            return beranga_lead(seat, hand, unseen, voids, pile, tricks_played)
        if mendikot:
            return choose_lead(seat, hand, mendikot_lead(seat, hand, trump, unseen, voids), trump, unseen, voids,
                               pile, tricks_played)
        return choose_lead(seat, hand, legal, trump, unseen, voids, pile, tricks_played)
    led = cards[0] // 13
    win_seat, win_card = leader, cards[0]  # the trick's holder as the rules see it (with today's trump)
    for i in range(1, played):
        if _beats(trump, cards[i], win_card):
            win_seat, win_card = (leader + 3 * i) % 4, cards[i]
    if may_reveal:
        if should_reveal(seat, hider, cards, played, win_seat, win_card, unseen, voids):
            return REVEAL
        if not legal & (legal - 1):
            return _lowest(legal)
    if must_trump:
        return ruff_after_reveal(seat, hand, legal, trump, led, played, unseen, voids)
    following = _ranks(legal, led) != 0
    known = down // 13 if down >= 0 and seat == hider else trump
    if not following and trump == NO_TRUMP:
        if rules & BE_RANGA_CARDS:
            return set_trump_card(hand, legal)
        choice = _throw_off(hand, legal, known, unseen)  # nothing wins by throwing off while trump is hidden
    else:
        choice = choose_follow(seat, hand, legal, trump, led, win_seat, win_card, played, unseen, voids, pile,
                               open_seat, tricks_played)
    if mendikot:
        return mendikot_card(seat, hand, legal, trump, known, cards, played, win_seat, win_card, unseen, voids,
                             choice)
    return choice


def _capture_blocked(rules: int, trump: int, first: int, second: int, number: int, trump_trick: int) -> bool:
    """What keeps a pair from capturing (``Pile._capture_blocked``): Be-Ranga's wait
    for trump, the Double Sar house rules."""
    if rules & WAIT_FOR_TRUMP and (not trump_trick or number <= trump_trick):
        return True
    if rules & ACE_ON_ACE and first % 13 == 12 and second % 13 == 12:
        return True
    if rules & TRUMP_ACE_CANNOT_SEAL and trump != NO_TRUMP and second == 13 * trump + 12:
        return True
    return rules & NO_PILE_ON_11_12 != 0 and number in (11, 12)


def decide(hands: list[int], trump: int, leader: int, trick: list[int],
           tricks: list[tuple[int, tuple[int, ...], int]], pile: int, open_seat: int,
           trump_trick: int, down: int, hider: int, must_trump: bool, rules: int) -> int:
    """The rules' action for the seat to move in a state (``play_deal``'s arguments but
    the counts: the rules do not look at them): a card, or ``REVEAL``."""
    voids = [0, 0, 0, 0]
    gone = _tally(voids, leader, trick, tricks)
    played = len(trick)
    cards = list(trick) + [0] * (4 - played)
    return _action((leader + 3 * played) % 4, hands[(leader + 3 * played) % 4], trump, cards, played, leader,
                   trick[0] // 13 if played else -1, gone, voids, pile if rules & PILE else -1,
                   open_seat if rules & PILE else -1, len(tricks), trump_trick, down, hider, must_trump, rules)


def _tally(voids: list[int], leader: int, trick: list[int], tricks: list[tuple[int, tuple[int, ...], int]]) -> int:
    """The cards gone in ``tricks`` and ``trick``, and (into ``voids``) who showed out of what."""
    gone = 0
    for first, cards, _ in tricks:
        gone |= _note_trick(voids, first, list(cards))
    if trick:
        gone |= _note_trick(voids, leader, trick)
    return gone


def play_deal(hands: list[int], trump: int, leader: int, trick: list[int],
              tricks: list[tuple[int, tuple[int, ...], int]], captured: list[int], tens: list[int], pile: int,
              open_seat: int, open_card: int, trump_trick: int, down: int, hider: int, must_trump: bool,
              trumps_from: int, rules: int) -> None:
    """``play_out`` from a state's own lists: ``tricks`` are its finished tricks
    (leader, cards, winner), from which the cards gone and the voids are tallied."""
    voids = [0, 0, 0, 0]
    gone = _tally(voids, leader, trick, tricks)
    play_out(hands, trump, leader, list(trick), gone, voids, len(tricks), captured, tens, pile, open_seat,
             open_card, trump_trick, down, hider, must_trump, trumps_from, rules)


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


# -- inference: the card play of a sampled world, replayed on masks ------------------
def disagreements(hands: list[int], trump: int, leader: int, trick: list[int],
                  tricks: list[tuple[int, tuple[int, ...], int]], pile: int, open_seat: int, open_card: int,
                  trump_trick: int, down: int, hider: int, must_trump: bool, trumps_from: int, rules: int,
                  actions: list[int], reveal: int, me: int, limit: int) -> list[int] | None:
    """Replay ``actions`` (the cards played, and ``reveal``: the game's own code of
    asking to see trump) from a state given as ``play_deal``'s arguments but the counts
    (the rules do not look at them), and return
    the indices of ``actions`` at which another seat than ``me`` did not take the
    rules' action (``decide`` there: exactly what ``bots.inference`` counts with the
    rules policy; a forced card always agrees), at most ``limit`` of them (-1: all; the
    caller's weight is at its floor with that many).  The replay stops at an action that is
    not legal there (the reference replay raises there); None for an action that is
    neither a card nor ``reveal`` (the caller replays those through the game)."""
    voids = [0, 0, 0, 0]
    gone = _tally(voids, leader, trick, tricks)
    play = CardPlay(list(hands), trump, leader, trick, gone, voids, len(tricks), pile, open_seat, open_card,
                    trump_trick, down, hider, must_trump, trumps_from, rules)
    differ: list[int] = []
    for index in range(len(actions)):
        action = actions[index]
        if action == reveal:
            action = REVEAL
        elif not 0 <= action < 52:
            return None
        if play.seat != me and play.rules_action() != action:
            differ.append(index)
            if len(differ) == limit:
                return differ  # enough to bring the weight to its floor
        if action == REVEAL:
            if not play.may_reveal():
                return differ  # not offered here: the reference replay stops
            play.reveal()
        elif play.playable() >> action & 1:
            play.play(action)
        else:
            return differ
    return differ


def _playable(hand: int, trump: int, led: int, played: int, must_trump: bool) -> int:
    """The cards ``hand`` may play (``CourtPieceState._playable``)."""
    if must_trump and _ranks(hand, trump):
        return hand & (ALL_RANKS << (13 * trump))
    if played:
        return hand & (ALL_RANKS << (13 * led)) or hand
    return hand

