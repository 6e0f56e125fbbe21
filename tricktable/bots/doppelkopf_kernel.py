"""Doppelkopf's card-play rules and fast playout on compact data (issue 14, Speed).

The card-play rules (``choose_card``) decide from ints alone: the seat, the rank
table it plays by, the trick so far as two lists (seats, faces), the faces of
which it has seen both copies, the plain suits led in finished tricks and its
known partners as a seat mask.  ``bots.doppelkopf`` calls them for the bot (from
a ``Situation``) and the playout calls them on its own running tallies, so the
rules are written once.

``play_out`` finishes the card play of a (sampled) world: hands as face masks
(once / twice), the rules' card choice, the trick winner by the contract's rank
table (pigs and superpigs are in it) and the second 10♥ option, and for everything only the game knows
how to decide a ``Host`` (``bots.doppelkopf``) that asks the state: the
announcement a seat may make (whether the rules make it is decided here, on the
hand's masks: ``rules_announce``), the marriage partner, the teams and pigs each
seat knows, and at the end the game's own scoring on the state, filled in once.

A compiled kernel (mypyc, ``tricktable.speedups``) is type-checked alone, so it
imports nothing of tricktable: the game's tables arrive once through ``install``
(``bots.doppelkopf`` passes ``games.doppelkopf.rules``' own).  Typed ints and lists
only; the pure-Python module is the fallback and the reference.
"""

from __future__ import annotations

from typing import Protocol, Sequence

SUIT: tuple[tuple[int, ...], ...] = ()
"""``rules.SUIT``, ``POWER``, ``HIGHER``, ``FOLLOW``, ``POINTS`` and the faces and
numbers below, from ``install``."""
POWER: tuple[tuple[int, ...], ...] = ()
HIGHER: tuple[tuple[int, ...], ...] = ()
FOLLOW: tuple[tuple[int, ...], ...] = ()
POINTS: tuple[int, ...] = ()
TRUMP = NORMAL = AD = QC = TH = ACE = -1
BLACK_ACES: tuple[int, ...] = ()
TRUMPS: tuple[int, ...] = ()
"""Per rank table, the face mask of its trumps (``rules.TRUMP_MASK``) and of its top
trumps (``TOPS``: the bot's "high" trumps)."""
TOPS: tuple[int, ...] = ()
RE = -1
"""The game's action of Re (Kontra and no 90 are the next two)."""
BARS: tuple[tuple[int, int], ...] = ()
"""The trumps and top trumps the rules need to announce Re, Kontra and no 90 (in that
order, outside a bock deal: the rollout policy's); deeper announcements they never make."""


def install(suit: tuple[tuple[int, ...], ...], power: tuple[tuple[int, ...], ...],
            higher: tuple[tuple[int, ...], ...], follow_masks: tuple[tuple[int, ...], ...], points: tuple[int, ...],
            trump: int, normal: int, fox: int, queen_of_clubs: int, heart_ten: int, ace: int,
            black_aces: tuple[int, ...], trumps: tuple[int, ...], tops: tuple[int, ...], re: int,
            bars: tuple[tuple[int, int], ...]) -> None:
    """The game's rank tables (by table number, then face), card points, the suit
    number of the trumps, the normal game's table, ♦A, ♣Q, 10♥, the ace rank (a face's
    rank is ``face % 13``), the black aces; the bot's announcement rule: each table's
    trumps and top trumps (face masks), the action of Re and the bars (``BARS``)."""
    global SUIT, POWER, HIGHER, FOLLOW, POINTS, TRUMP, NORMAL, AD, QC, TH, ACE, BLACK_ACES, TRUMPS, TOPS, RE, BARS
    SUIT, POWER, HIGHER, FOLLOW, POINTS = suit, power, higher, follow_masks, points
    TRUMP, NORMAL, AD, QC, TH, ACE, BLACK_ACES = trump, normal, fox, queen_of_clubs, heart_ten, ace, black_aces
    TRUMPS, TOPS, RE, BARS = trumps, tops, re, bars


class Host(Protocol):
    """What the playout asks the game (``bots.doppelkopf._Host`` on a state)."""

    def open_announcement(self, seat: int) -> int:
        """The announcement ``seat`` may make now (the game's action), or -1."""

    def announce(self, seat: int, action: int) -> None:
        """Make the open announcement ``action`` of ``seat`` (the rules make it)."""

    def partners(self, once: list[int], both: list[int]) -> list[int]:
        """Each seat's known partners as a seat mask (the hands as face masks)."""

    def tables(self) -> list[int]:
        """The rank table each seat plays by."""

    def pig_shown(self, seat: int, played: int) -> bool:
        """``played`` may show pigs or superpigs: note it; whether a table changed."""

    def marriage(self, winner: int, number: int) -> bool:
        """After trick ``number`` while a marriage is pending: whether it is decided now."""

    def finish(self, once: list[int], both: list[int], leader: int, led_suits: int) -> float:
        """Write the played cards back, score the deal and return the seat's points."""


# -- the card-play rules ------------------------------------------------------------
def beats(table: int, card_face: int, best: int) -> bool:
    """Of two equal cards the first played wins, so only a higher card beats."""
    suit, best_suit = SUIT[table][card_face], SUIT[table][best]
    if suit == best_suit:
        return POWER[table][card_face] > POWER[table][best]
    return suit == TRUMP


def winning_index(table: int, faces: Sequence[int]) -> int:
    """The index of the card that holds the trick so far (the rules' view: equal cards,
    the first wins)."""
    best = 0
    for index in range(1, len(faces)):
        if beats(table, faces[index], faces[best]):
            best = index
    return best


def is_boss(table: int, twice: int, card_face: int) -> bool:
    """No unseen card of the same suit ranks higher (nor equal: a copy played
    earlier in the trick would win); ``twice``: the faces of which both copies were seen."""
    return HIGHER[table][card_face] & ~twice == 0


def holds(table: int, twice: int, led_suits: int, partners: int, card_face: int, after: Sequence[int]) -> bool:
    """A trick won by ``card_face`` stays ours: nobody after is an opponent, or the
    card is the boss and (for a plain card) the suit is led for the first time."""
    opponents = False
    for s in after:
        if not partners >> s & 1:
            opponents = True
    if not opponents:
        return True
    if not is_boss(table, twice, card_face):
        return False
    suit = SUIT[table][card_face]
    return suit == TRUMP or not led_suits >> suit & 1


def cheapest(table: int, cards: Sequence[int]) -> int:
    """Fewest points, then lowest rank; the fox last of all (the first such card)."""
    power = POWER[table]
    normal = table == NORMAL
    best, best_key = cards[0], (1 << 20)
    for f in cards:
        key = ((1 if f == AD and normal else 0) << 16) | (POINTS[f] << 8) | power[f]
        if key < best_key:
            best, best_key = f, key
    return best


def choose_card(seat: int, table: int, trick_seats: Sequence[int], trick_faces: Sequence[int], twice: int,
                led_suits: int, partners: int, legal: Sequence[int]) -> int:
    """The rules' card (see ``bots.doppelkopf``): ``partners`` is a mask of the seats
    known to share ``seat``'s team."""
    if len(legal) == 1:
        return legal[0]
    if trick_faces:
        return follow(seat, table, trick_seats, trick_faces, twice, led_suits, partners, legal)
    return lead(table, twice, led_suits, legal)


def follow(seat: int, table: int, trick_seats: Sequence[int], trick_faces: Sequence[int], twice: int,
           led_suits: int, partners: int, legal: Sequence[int]) -> int:
    power = POWER[table]
    best = winning_index(table, trick_faces)
    win_seat, win_card = trick_seats[best], trick_faces[best]
    after = [(seat + i) % 4 for i in range(1, 4 - len(trick_faces))]
    ours = bool(partners >> win_seat & 1)
    if ours and holds(table, twice, led_suits, partners, win_card, after):
        # Grease the partner's sure trick: the most points (the fox is safe here).
        grease, grease_key = legal[0], -(1 << 20)
        for f in legal:
            key = (POINTS[f] << 16) | ((1 if f == AD else 0) << 12) | (255 - power[f])
            if key > grease_key:
                grease, grease_key = f, key
        return grease
    winners = [f for f in legal if beats(table, f, win_card)]
    if not winners or ours:
        return cheapest(table, legal)
    safe = [f for f in winners if holds(table, twice, led_suits, partners, f, after)]
    if safe:
        pick, pick_key = safe[0], 1 << 20
        for f in safe:
            key = (power[f] << 8) | (255 - POINTS[f])
            if key < pick_key:
                pick, pick_key = f, key
        return pick
    points = 0
    for f in trick_faces:
        points += POINTS[f]
    if not after or points >= 10:
        # Win it, but never with the fox unless nothing else wins.
        normal = table == NORMAL
        pick, pick_key = winners[0], 1 << 20
        for f in winners:
            key = ((1 if f == AD and normal else 0) << 8) | power[f]
            if key < pick_key:
                pick, pick_key = f, key
        return pick
    return cheapest(table, legal)


def lead(table: int, twice: int, led_suits: int, legal: Sequence[int]) -> int:
    suits, power = SUIT[table], POWER[table]
    plain = [f for f in legal if suits[f] != TRUMP]
    first_ace = -1
    for f in plain:
        if f % 13 == ACE and not led_suits >> suits[f] & 1:
            if f in BLACK_ACES:
                return f  # a black ace while the suit may still go round once
            if first_ace < 0:
                first_ace = f
    if first_ace >= 0:
        return first_ace
    trumps = [f for f in legal if suits[f] == TRUMP]
    if len(trumps) >= 4:
        top = -1
        for f in trumps:
            if is_boss(table, twice, f) and (top < 0 or power[f] > power[top]):
                top = f
        if top >= 0:
            return top
    if plain:
        pick, pick_key = plain[0], 1 << 20
        for f in plain:
            key = (POINTS[f] << 8) | power[f]
            if key < pick_key:
                pick, pick_key = f, key
        return pick
    return cheapest(table, trumps)


def rules_announce(action: int, once: int, both: int, table: int, partners: int, solo: bool) -> bool:
    """Whether the rules make the open announcement ``action`` (``bots.doppelkopf.announcement``
    outside a bock deal) with the faces held ``once`` and ``both`` (twice), by the seat's
    rank table; ``partners``: its known partners (a seat mask); ``solo``: the deal is a
    solo (whose defenders never announce)."""
    kind = action - RE
    if kind < 0 or kind >= len(BARS) or (solo and partners != 0):
        return False
    trumps_mask, tops_mask = TRUMPS[table], TOPS[table]
    trumps = (once & trumps_mask).bit_count() + (both & trumps_mask).bit_count()
    tops = (once & tops_mask).bit_count() + (both & tops_mask).bit_count()
    need_trumps, need_tops = BARS[kind]
    return trumps >= need_trumps and tops >= need_tops


# -- the playout -------------------------------------------------------------------
def trick_winner(suits: Sequence[int], power: Sequence[int], cards: Sequence[int], second_ten: bool) -> int:
    """The index of the card that wins a full trick (``DoppelkopfState.trick_winner``):
    the highest trump, else the highest of the led suit; of two equal cards the first,
    but with ``second_ten`` (the option, where 10♥ is trump, not in the last trick) the
    second 10♥ beats the first."""
    led = suits[cards[0]]
    best, best_index = -1, 0
    for index in range(len(cards)):
        c = cards[index]
        s = suits[c]
        if s == TRUMP or s == led:
            p = power[c]
            if p > best or (p == best and second_ten and c == TH):
                best, best_index = p, index
    return best_index


def faces(mask: int) -> list[int]:
    """The faces of a face mask in order (a loop on native ints once compiled)."""
    found = []
    while mask:
        low = mask & -mask
        found.append(low.bit_length() - 1)
        mask ^= low
    return found


def play_out(host: Host, table: int, once: list[int], both: list[int], played_once: int, played_both: int,
             counts: list[int], queens: list[int], won_points: list[int], won_tricks: list[int],
             tricks: list[tuple[int, tuple[int, ...], int, int]], trick: list[int], leader: int, turn: int,
             led_suits: int, total: int, pig_faces: tuple[int, int], second_heart_ten: bool, solo: bool) -> float:
    """Finish the card play by the rules and return ``host.finish``'s value.  Per seat:
    the faces held (``once``) and held twice (``both``), cards left (``counts``), ♣Q
    played (``queens``), points and tricks won; the faces played at least once and
    twice; the finished ``tricks`` as (leader, faces, winner, points) and the current
    ``trick``'s faces (all updated in place); ``total`` tricks in the deal;
    ``pig_faces``: the faces that may show pigs or superpigs ((-1, -1) without);
    ``second_heart_ten``: the option (spec "House rules"); ``solo``: the deal is a solo."""
    suits, power, follow_masks = SUIT[table], POWER[table], FOLLOW[table]
    second_ten = second_heart_ten and suits[TH] == TRUMP
    trick_faces = list(trick)
    trick_seats = [(leader + i) & 3 for i in range(len(trick_faces))]
    partners = host.partners(once, both)
    tables = host.tables()
    # Seats that cannot make an announcement the rules make (Re/Kontra, no 90) until the
    # next announcement, marriage decision or pig shown: card counts only fall, levels only
    # rise, and a hand the rules did not announce with only loses trumps (their bars are
    # counts of trumps and top trumps under the seat's rank table).
    silent = 0
    while True:
        hand_once, hand_both = once[turn], both[turn]
        if not silent >> turn & 1:
            offered = host.open_announcement(turn)
            if offered >= 0 and rules_announce(offered, hand_once, hand_both, tables[turn], partners[turn], solo):
                host.announce(turn, offered)
                partners = host.partners(once, both)
                silent = 0
                continue
            silent |= 1 << turn
        playable = hand_once
        if trick_faces:
            following = hand_once & follow_masks[suits[trick_faces[0]]]
            if following:
                playable = following
        if playable & (playable - 1):
            twice = played_both | hand_both | (played_once & hand_once)
            played = choose_card(turn, tables[turn], trick_seats, trick_faces, twice, led_suits, partners[turn],
                                 faces(playable))
        else:
            played = playable.bit_length() - 1
        bit = 1 << played
        if hand_both & bit:
            both[turn] = hand_both ^ bit
        else:
            once[turn] = hand_once ^ bit
        played_both |= bit & played_once
        played_once |= bit
        counts[turn] -= 1
        trick_faces.append(played)
        trick_seats.append(turn)
        evidence = False
        if played == QC:
            queens[turn] += 1
            evidence = True
        if (played == pig_faces[0] or played == pig_faces[1]) and host.pig_shown(turn, played):
            tables = host.tables()
            silent = 0
        if len(trick_faces) < 4:
            turn = (turn + 1) & 3
            if evidence:
                partners = host.partners(once, both)
            continue
        number = len(tricks) + 1
        cards = (trick_faces[0], trick_faces[1], trick_faces[2], trick_faces[3])
        winner = (leader + trick_winner(suits, power, cards, second_ten and number != total)) & 3
        points = POINTS[cards[0]] + POINTS[cards[1]] + POINTS[cards[2]] + POINTS[cards[3]]
        tricks.append((leader, cards, winner, points))
        led = suits[cards[0]]
        if led != TRUMP:
            led_suits |= 1 << led
        won_points[winner] += points
        won_tricks[winner] += 1
        trick_faces = []
        trick_seats = []
        leader = turn = winner
        if number == total:
            break
        if number <= 3 and host.marriage(winner, number):
            evidence = True
            silent = 0
        if evidence:
            partners = host.partners(once, both)
    return host.finish(once, both, leader, led_suits)


# -- inference: the card play of a sampled world, replayed on face masks -------------
class ReplayHost(Protocol):
    """What the replay asks the game (``bots.doppelkopf._ReplayHost`` on the replay's state)."""

    def open_announcement(self, seat: int) -> int:
        """As ``Host.open_announcement``."""

    def apply_announcement(self, seat: int, turn: int, action: int) -> bool:
        """Apply an announcement of the history by ``seat`` (``turn`` to move); False
        where the game refuses it."""

    def partners(self, once: list[int], both: list[int]) -> list[int]:
        """As ``Host.partners``."""

    def tables(self) -> list[int]:
        """As ``Host.tables``."""

    def pig_shown(self, seat: int, played: int) -> bool:
        """As ``Host.pig_shown``."""

    def marriage(self, winner: int, number: int) -> bool:
        """As ``Host.marriage``."""


def disagreements(host: ReplayHost, table: int, once: list[int], both: list[int], played_once: int,
                  played_both: int, counts: list[int], queens: list[int], trick: list[int], leader: int, turn: int,
                  tricks_done: int, led_suits: int, total: int, pig_faces: tuple[int, int], second_heart_ten: bool,
                  solo: bool, actions: list[int], actors: list[int], me: int, limit: int) -> list[int] | None:
    """Replay the history ``actions`` (by ``actors``: cards, and announcements in turn
    or out of turn) from a state given as ``play_out``'s arguments, and return the
    indices at which the seat to move, another than ``me``, with a choice (two cards,
    or a card and an announcement) did not take the rules' action: the announcement
    where the rules make it (Re/Kontra, no 90), else the rules' card (exactly what
    ``bots.inference`` counts with the rules policy), at most ``limit`` of them (-1:
    all; the caller's weight is at its floor with that many).  ``counts`` and ``queens`` are
    updated in place (the host reads them, and the host's state follows the replay).
    The replay stops at an action the game would refuse; None, with nothing changed,
    if an action is neither a card nor an announcement."""
    for action in actions:
        if not 0 <= action < 52 and not RE <= action <= RE + 5:
            return None  # before anything is written: the caller replays it all through the game
    suits, power, follow_masks = SUIT[table], POWER[table], FOLLOW[table]
    second_ten = second_heart_ten and suits[TH] == TRUMP
    once, both = list(once), list(both)
    trick_faces = list(trick)
    trick_seats = [(leader + i) & 3 for i in range(len(trick_faces))]
    partners = host.partners(once, both)
    tables = host.tables()
    # Seats whose open announcement the rules declined, until the next announcement, marriage
    # decision or pig shown (as ``play_out``'s silent seats: the rules' bars are counts of
    # trumps and top trumps, and a hand only loses cards; a defender of a solo never announces).
    declined = 0
    differ: list[int] = []
    for index in range(len(actions)):
        action, seat = actions[index], actors[index]
        card = 0 <= action < 52
        hand_once, hand_both = once[turn], both[turn]
        playable = hand_once
        if trick_faces:
            following = hand_once & follow_masks[suits[trick_faces[0]]]
            if following:
                playable = following
        bit = 1 << action if card else 0
        if card and (seat != turn or not playable & bit):
            return differ  # the game refuses it: the reference replay stops here
        if seat == turn:
            offered = host.open_announcement(turn)
            if not card and action != offered:
                return differ
            if seat != me and (offered >= 0 or playable & (playable - 1)):
                asked = offered >= 0 and not declined >> turn & 1
                announces = asked and rules_announce(offered, hand_once, hand_both, tables[turn], partners[turn], solo)
                if offered >= 0 and not announces:
                    declined |= 1 << turn
                if announces == card:
                    differ.append(index)
                    if len(differ) == limit:
                        return differ  # enough to bring the weight to its floor
                elif card and playable & (playable - 1):
                    twice = played_both | hand_both | (played_once & hand_once)
                    if choose_card(turn, tables[turn], trick_seats, trick_faces, twice, led_suits, partners[turn],
                                   faces(playable)) != action:
                        differ.append(index)
                        if len(differ) == limit:
                            return differ  # enough to bring the weight to its floor
        if not card:
            if not host.apply_announcement(seat, turn, action):
                return differ
            partners = host.partners(once, both)
            declined = 0
            continue
        if hand_both & bit:
            both[turn] = hand_both ^ bit
        else:
            once[turn] = hand_once ^ bit
        played_both |= bit & played_once
        played_once |= bit
        counts[turn] -= 1
        trick_faces.append(action)
        trick_seats.append(turn)
        evidence = False
        if action == QC:
            queens[turn] += 1
            evidence = True
        if (action == pig_faces[0] or action == pig_faces[1]) and host.pig_shown(turn, action):
            tables = host.tables()
            declined = 0
        if len(trick_faces) == 4:
            tricks_done += 1
            cards = (trick_faces[0], trick_faces[1], trick_faces[2], trick_faces[3])
            winner = (leader + trick_winner(suits, power, cards, second_ten and tricks_done != total)) & 3
            if suits[cards[0]] != TRUMP:
                led_suits |= 1 << suits[cards[0]]
            trick_faces = []
            trick_seats = []
            leader = turn = winner
            if tricks_done <= 3 and host.marriage(winner, tricks_done):
                evidence = True
                declined = 0
        else:
            turn = (turn + 1) & 3
        if evidence:
            partners = host.partners(once, both)
    return differ
