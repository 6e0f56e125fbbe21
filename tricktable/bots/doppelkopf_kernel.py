"""Doppelkopf's card-play rules and fast playout on compact data (compiled by
``tricktable.speedups``: the search's rollouts spend most of their time here).

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
announcement each seat may make next and the cards it needs for it (whether the rules
make it is decided here, on the hand's masks: ``rules_announce``), the marriage partner, the teams and pigs each
seat knows, and at the end the game's own scoring on the state, filled in once.

``disagreements`` replays a world's card play for inference on the same tallies: both
play each card through one step (``CardPlay.play``).

A compiled kernel (mypyc, ``tricktable.speedups``) is type-checked alone, so it
imports nothing of tricktable: the game's tables arrive once through ``install``
(``bots.doppelkopf`` passes ``games.doppelkopf.rules``' own) into ``G``, a native
object (a C struct once compiled: module globals would be dictionary look-ups).  Typed
ints and lists only; the pure-Python module is the fallback and the reference.
"""

from __future__ import annotations

from typing import Final, Protocol


class Game:
    """The game's tables and faces (``install``)."""

    def __init__(self) -> None:
        self.suit: list[list[int]] = []
        """``rules.SUIT``, ``POWER``, ``HIGHER`` and ``FOLLOW``: by rank table, then face (suit)."""
        self.power: list[list[int]] = []
        self.higher: list[list[int]] = []
        self.follow: list[list[int]] = []
        self.points: list[int] = []
        self.trump = -1
        """The suit number of the trumps."""
        self.normal = -1
        """The normal game's rank table."""
        self.fox = -1
        self.queen_of_clubs = -1
        self.heart_ten = -1
        self.ace = -1
        """The ace's rank (a face's rank is ``face % 13``)."""
        self.black_aces: list[int] = []
        self.trumps: list[int] = []
        """Per rank table, the face mask of its trumps (``rules.TRUMP_MASK``) and of its top
        trumps (``tops``: the bot's "high" trumps)."""
        self.tops: list[int] = []
        self.re = -1
        """The game's action of Re (Kontra and no 90 are the next two)."""
        self.bars: list[tuple[int, int]] = []
        """The trumps and top trumps the rules need to announce Re, Kontra and no 90 (in
        that order, outside a bock deal: the rollout policy's); deeper announcements they
        never make."""
        self.copy_offset = -1
        """A card's id is its face, or its face plus this for the second copy."""
        self.face_mask = 0
        """Every face (the ids of the first copies)."""


G: Final = Game()


def install(suit: tuple[tuple[int, ...], ...], power: tuple[tuple[int, ...], ...],
            higher: tuple[tuple[int, ...], ...], follow_masks: tuple[tuple[int, ...], ...], points: tuple[int, ...],
            trump: int, normal: int, fox: int, queen_of_clubs: int, heart_ten: int, ace: int,
            black_aces: tuple[int, ...], trumps: tuple[int, ...], tops: tuple[int, ...], re: int,
            bars: tuple[tuple[int, int], ...], copy_offset: int, face_mask: int) -> None:
    """The game's rank tables (by table number, then face), card points, the suit
    number of the trumps, the normal game's table, ♦A, ♣Q, 10♥, the ace rank, the black
    aces; the bot's announcement rule: each table's trumps and top trumps (face masks),
    the action of Re and the bars (``Game.bars``); the ids of the second copies."""
    G.suit, G.power = [list(row) for row in suit], [list(row) for row in power]
    G.higher, G.follow = [list(row) for row in higher], [list(row) for row in follow_masks]
    G.points = list(points)
    G.trump, G.normal, G.fox, G.queen_of_clubs, G.heart_ten, G.ace = trump, normal, fox, queen_of_clubs, heart_ten, ace
    G.black_aces, G.trumps, G.tops, G.re, G.bars = list(black_aces), list(trumps), list(tops), re, list(bars)
    G.copy_offset, G.face_mask = copy_offset, face_mask


def held_once(ids: int) -> int:
    """The faces of which an id mask holds at least one copy."""
    return (ids | ids >> G.copy_offset) & G.face_mask


def held_twice(ids: int) -> int:
    """The faces of which an id mask holds both copies."""
    return ids & ids >> G.copy_offset & G.face_mask


class Observer(Protocol):
    """What a card play asks the game as the cards fall (``Host`` and ``ReplayHost``)."""

    def partners(self, once: list[int], both: list[int]) -> list[int]:
        """Each seat's known partners as a seat mask (the hands as face masks)."""

    def tables(self) -> list[int]:
        """The rank table each seat plays by."""

    def pig_shown(self, seat: int, played: int) -> bool:
        """``played`` may show pigs or superpigs: note it; whether a table changed."""

    def marriage(self, winner: int, number: int) -> bool:
        """After trick ``number`` while a marriage is pending: whether it is decided now."""

    def chances(self) -> list[int]:
        """Per seat, the announcement its team may make next (the game's action, or -1)
        and the cards the seat must still hold for it: two ints a seat.  They change
        only with an announcement or the marriage's decision."""


class Host(Observer, Protocol):
    """What the playout asks the game (``bots.doppelkopf._Host`` on a state)."""

    def announce(self, seat: int, action: int) -> None:
        """Make the open announcement ``action`` of ``seat`` (the rules make it)."""

    def finish(self, once: list[int], both: list[int], leader: int, led_suits: int) -> float:
        """Write the played cards back, score the deal and return the seat's points."""


class ReplayHost(Observer, Protocol):
    """What the replay asks the game (``bots.doppelkopf._ReplayHost`` on the replay's state)."""

    def apply_announcement(self, seat: int, turn: int, action: int) -> bool:
        """Apply an announcement of the history by ``seat`` (``turn`` to move); False
        where the game refuses it."""


# -- the card-play rules ------------------------------------------------------------
# They read the seat's rank table as its rows (``suits``, ``power``, ``higher``: a face's
# suit, rank and the faces of its suit that beat it), fetched once per decision.
def beats(suits: list[int], power: list[int], card_face: int, best: int) -> bool:
    """Of two equal cards the first played wins, so only a higher card beats."""
    suit, best_suit = suits[card_face], suits[best]
    if suit == best_suit:
        return power[card_face] > power[best]
    return suit == G.trump


def winning_index(suits: list[int], power: list[int], faces: list[int]) -> int:
    """The index of the card that holds the trick so far (the rules' view: equal cards,
    the first wins)."""
    best = 0
    for index in range(1, len(faces)):
        if beats(suits, power, faces[index], faces[best]):
            best = index
    return best


def is_boss(higher: list[int], twice: int, card_face: int) -> bool:
    """No unseen card of the same suit ranks higher (nor equal: a copy played
    earlier in the trick would win); ``twice``: the faces of which both copies were seen."""
    return higher[card_face] & ~twice == 0


def holds(suits: list[int], higher: list[int], twice: int, led_suits: int, opponents_after: bool,
          card_face: int) -> bool:
    """A trick won by ``card_face`` stays ours: nobody after is an opponent, or the
    card is the boss and (for a plain card) the suit is led for the first time."""
    if not opponents_after:
        return True
    if not is_boss(higher, twice, card_face):
        return False
    suit = suits[card_face]
    return suit == G.trump or not led_suits >> suit & 1


def cheapest(table: int, cards: list[int]) -> int:
    """Fewest points, then lowest rank; the fox last of all (the first such card)."""
    power, points, fox = G.power[table], G.points, G.fox
    normal = table == G.normal
    best, best_key = cards[0], (1 << 20)
    for f in cards:
        key = ((1 if f == fox and normal else 0) << 16) | (points[f] << 8) | power[f]
        if key < best_key:
            best, best_key = f, key
    return best


def choose_card(seat: int, table: int, trick_seats: list[int], trick_faces: list[int], twice: int,
                led_suits: int, partners: int, legal: list[int]) -> int:
    """The rules' card (see ``bots.doppelkopf``): ``partners`` is a mask of the seats
    known to share ``seat``'s team."""
    if len(legal) == 1:
        return legal[0]
    if trick_faces:
        return follow(seat, table, trick_seats, trick_faces, twice, led_suits, partners, legal)
    return lead(table, twice, led_suits, legal)


def follow(seat: int, table: int, trick_seats: list[int], trick_faces: list[int], twice: int,
           led_suits: int, partners: int, legal: list[int]) -> int:
    suits, power, higher, points, fox = G.suit[table], G.power[table], G.higher[table], G.points, G.fox
    best = winning_index(suits, power, trick_faces)
    win_seat, win_card = trick_seats[best], trick_faces[best]
    after = 3 - len(trick_faces)  # seats still to play after this one
    opponents_after = False
    for i in range(1, after + 1):
        if not partners >> ((seat + i) % 4) & 1:
            opponents_after = True
    ours = bool(partners >> win_seat & 1)
    if ours and holds(suits, higher, twice, led_suits, opponents_after, win_card):
        # Grease the partner's sure trick: the most points (the fox is safe here).
        grease, grease_key = legal[0], -(1 << 20)
        for f in legal:
            key = (points[f] << 16) | ((1 if f == fox else 0) << 12) | (255 - power[f])
            if key > grease_key:
                grease, grease_key = f, key
        return grease
    winners = [f for f in legal if beats(suits, power, f, win_card)]
    if not winners or ours:
        return cheapest(table, legal)
    safe = [f for f in winners if holds(suits, higher, twice, led_suits, opponents_after, f)]
    if safe:
        pick, pick_key = safe[0], 1 << 20
        for f in safe:
            key = (power[f] << 8) | (255 - points[f])
            if key < pick_key:
                pick, pick_key = f, key
        return pick
    won = 0
    for f in trick_faces:
        won += points[f]
    if not after or won >= 10:
        # Win it, but never with the fox unless nothing else wins.
        normal = table == G.normal
        pick, pick_key = winners[0], 1 << 20
        for f in winners:
            key = ((1 if f == fox and normal else 0) << 8) | power[f]
            if key < pick_key:
                pick, pick_key = f, key
        return pick
    return cheapest(table, legal)


def lead(table: int, twice: int, led_suits: int, legal: list[int]) -> int:
    suits, power, higher, points, trump = G.suit[table], G.power[table], G.higher[table], G.points, G.trump
    plain = [f for f in legal if suits[f] != trump]
    first_ace = -1
    for f in plain:
        if f % 13 == G.ace and not led_suits >> suits[f] & 1:
            if f in G.black_aces:
                return f  # a black ace while the suit may still go round once
            if first_ace < 0:
                first_ace = f
    if first_ace >= 0:
        return first_ace
    trumps = [f for f in legal if suits[f] == trump]
    if len(trumps) >= 4:
        top = -1
        for f in trumps:
            if is_boss(higher, twice, f) and (top < 0 or power[f] > power[top]):
                top = f
        if top >= 0:
            return top
    if plain:
        pick, pick_key = plain[0], 1 << 20
        for f in plain:
            key = (points[f] << 8) | power[f]
            if key < pick_key:
                pick, pick_key = f, key
        return pick
    return cheapest(table, trumps)


def rules_announce(action: int, once: int, both: int, table: int, partners: int, solo: bool) -> bool:
    """Whether the rules make the open announcement ``action`` (``bots.doppelkopf.announcement``
    outside a bock deal) with the faces held ``once`` and ``both`` (twice), by the seat's
    rank table; ``partners``: its known partners (a seat mask); ``solo``: the deal is a
    solo (whose defenders never announce)."""
    kind = action - G.re
    if kind < 0 or kind >= len(G.bars) or (solo and partners != 0):
        return False
    trumps_mask, tops_mask = G.trumps[table], G.tops[table]
    trumps = (once & trumps_mask).bit_count() + (both & trumps_mask).bit_count()
    tops = (once & tops_mask).bit_count() + (both & tops_mask).bit_count()
    need_trumps, need_tops = G.bars[kind]
    return trumps >= need_trumps and tops >= need_tops


# -- the card play on running tallies -------------------------------------------------
def trick_winner(suits: list[int], power: list[int], cards: list[int], second_ten: bool) -> int:
    """The index of the card that wins a full trick (``DoppelkopfState.trick_winner``):
    the highest trump, else the highest of the led suit; of two equal cards the first,
    but with ``second_ten`` (the option, where 10♥ is trump, not in the last trick) the
    second 10♥ beats the first."""
    led, trump, heart_ten = suits[cards[0]], G.trump, G.heart_ten
    best, best_index = -1, 0
    for index in range(len(cards)):
        c = cards[index]
        s = suits[c]
        if s == trump or s == led:
            p = power[c]
            if p > best or (p == best and second_ten and c == heart_ten):
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


PLAYED, REOPENED, OVER = 0, 1, 2
"""What a card changed (``CardPlay.play``): nothing more; a pig shown or the marriage
decided (the seats' announcement chances are open again); the deal's last trick."""


class CardPlay:
    """The running tallies of a card play and the step that plays one card, for the
    playout and the replay alike.  Per seat the faces held (``once``) and held twice
    (``both``, from the hands as id masks), cards left (``counts``), ♣Q played
    (``queens``), points and tricks won; the faces played at least once and twice (from
    the ids ``played``); the finished ``tricks`` as (leader, faces, winner, points) and the
    trick in progress (seats, faces); each seat's rank table and known partners (a seat
    mask), from the ``host``.  The lists given are updated in place (the host reads the
    counts and queens), but the hands."""

    def __init__(self, host: Observer, table: int, hands: list[int], played: int, counts: list[int],
                 queens: list[int], won_points: list[int],
                 won_tricks: list[int], tricks: list[tuple[int, tuple[int, ...], int, int]], trick: list[int],
                 leader: int, turn: int, led_suits: int, total: int, pig_faces: tuple[int, int],
                 second_heart_ten: bool) -> None:
        self.host = host
        self.suits, self.power, self.follow = G.suit[table], G.power[table], G.follow[table]
        self.second_ten = second_heart_ten and self.suits[G.heart_ten] == G.trump
        self.once = [held_once(ids) for ids in hands]
        self.both = [held_twice(ids) for ids in hands]
        self.played_once, self.played_both = held_once(played), held_twice(played)
        self.counts, self.queens, self.won_points, self.won_tricks = counts, queens, won_points, won_tricks
        self.tricks = tricks
        self.trick_faces = list(trick)
        self.trick_seats = [(leader + i) & 3 for i in range(len(trick))]
        self.leader, self.turn, self.led_suits, self.total = leader, turn, led_suits, total
        self.pig, self.superpig = pig_faces
        self.partners = host.partners(self.once, self.both)
        self.tables = host.tables()
        self.chances = host.chances()

    def learn(self) -> None:
        """After an announcement: the teams each seat knows and the next announcements."""
        self.partners = self.host.partners(self.once, self.both)
        self.chances = self.host.chances()

    def open_announcement(self, seat: int) -> int:
        """The announcement ``seat`` may make now (the game's action), or -1."""
        chances = self.chances
        action = chances[2 * seat]
        return action if self.counts[seat] >= chances[2 * seat + 1] else -1

    def playable(self) -> int:
        """The faces the seat to move may play (a face mask)."""
        hand = self.once[self.turn]
        if self.trick_faces:
            following = hand & self.follow[self.suits[self.trick_faces[0]]]
            if following:
                return following
        return hand

    def rules_card(self, playable: int) -> int:
        """The rules' card for the seat to move among the faces ``playable`` (two or more)."""
        turn = self.turn
        twice = self.played_both | self.both[turn] | (self.played_once & self.once[turn])
        return choose_card(turn, self.tables[turn], self.trick_seats, self.trick_faces, twice, self.led_suits,
                           self.partners[turn], faces(playable))

    def play(self, card: int) -> int:
        """The seat to move plays ``card`` (one it may play); ``PLAYED``, ``REOPENED`` or ``OVER``."""
        turn, host = self.turn, self.host
        bit = 1 << card
        hand_both = self.both[turn]
        if hand_both & bit:
            self.both[turn] = hand_both ^ bit
        else:
            self.once[turn] ^= bit
        self.played_both |= bit & self.played_once
        self.played_once |= bit
        self.counts[turn] -= 1
        trick_faces = self.trick_faces
        trick_faces.append(card)
        self.trick_seats.append(turn)
        evidence = False
        changed = PLAYED
        if card == G.queen_of_clubs:
            self.queens[turn] += 1
            evidence = True
        if (card == self.pig or card == self.superpig) and host.pig_shown(turn, card):
            self.tables = host.tables()
            changed = REOPENED
        if len(trick_faces) < 4:
            self.turn = (turn + 1) & 3
        else:
            number = len(self.tricks) + 1
            suits, points = self.suits, G.points
            winner = (self.leader + trick_winner(suits, self.power, trick_faces,
                                                 self.second_ten and number != self.total)) & 3
            cards = (trick_faces[0], trick_faces[1], trick_faces[2], trick_faces[3])
            won = points[cards[0]] + points[cards[1]] + points[cards[2]] + points[cards[3]]
            self.tricks.append((self.leader, cards, winner, won))
            led = suits[cards[0]]
            if led != G.trump:
                self.led_suits |= 1 << led
            self.won_points[winner] += won
            self.won_tricks[winner] += 1
            self.trick_faces = []
            self.trick_seats = []
            self.leader = self.turn = winner
            if number == self.total:
                return OVER
            if number <= 3 and host.marriage(winner, number):
                evidence = True
                changed = REOPENED
                self.chances = host.chances()
        if evidence:
            self.partners = host.partners(self.once, self.both)
        return changed


def play_out(host: Host, table: int, hands: list[int], played: int, counts: list[int], queens: list[int],
             won_points: list[int], won_tricks: list[int], tricks: list[tuple[int, tuple[int, ...], int, int]],
             trick: list[int], leader: int, turn: int, led_suits: int, total: int, pig_faces: tuple[int, int],
             second_heart_ten: bool, solo: bool) -> float:
    """Finish the card play by the rules and return ``host.finish``'s value: the tallies as
    ``CardPlay`` takes them (updated in place, but the hands), the current ``trick``'s faces, ``total``
    tricks in the deal; ``pig_faces``: the faces that may show pigs or superpigs ((-1, -1)
    without); ``second_heart_ten``: the option (spec "House rules"); ``solo``: the deal is
    a solo."""
    play = CardPlay(host, table, hands, played, counts, queens, won_points, won_tricks, tricks, trick, leader, turn,
                    led_suits, total, pig_faces, second_heart_ten)
    once, both = play.once, play.both
    # Seats that cannot make an announcement the rules make (Re/Kontra, no 90) until the
    # next announcement, marriage decision or pig shown: card counts only fall, levels only
    # rise, and a hand the rules did not announce with only loses trumps (their bars are
    # counts of trumps and top trumps under the seat's rank table).
    silent = 0
    while True:
        turn = play.turn
        if not silent >> turn & 1:
            offered = play.open_announcement(turn)
            if offered >= 0 and rules_announce(offered, once[turn], both[turn], play.tables[turn],
                                               play.partners[turn], solo):
                host.announce(turn, offered)
                play.learn()
                silent = 0
                continue
            silent |= 1 << turn
        playable = play.playable()
        changed = play.play(play.rules_card(playable) if playable & (playable - 1) else playable.bit_length() - 1)
        if changed == OVER:
            return host.finish(once, both, play.leader, play.led_suits)
        if changed == REOPENED:
            silent = 0


# -- inference: the card play of a sampled world, replayed on face masks -------------
def disagreements(host: ReplayHost, table: int, hands: list[int], played: int, counts: list[int],
                  queens: list[int], won_points: list[int], won_tricks: list[int],
                  tricks: list[tuple[int, tuple[int, ...], int, int]], trick: list[int], leader: int, turn: int,
                  led_suits: int, total: int, pig_faces: tuple[int, int], second_heart_ten: bool, solo: bool,
                  actions: list[int], actors: list[int], me: int, limit: int) -> list[int] | None:
    """Replay the history ``actions`` (by ``actors``: cards, and announcements in turn
    or out of turn) from a state given as ``play_out``'s arguments, and return the
    indices at which the seat to move, another than ``me``, with a choice (two cards,
    or a card and an announcement) did not take the rules' action: the announcement
    where the rules make it (Re/Kontra, no 90), else the rules' card (exactly what
    ``bots.inference`` counts with the rules policy), at most ``limit`` of them (-1:
    all; the caller's weight is at its floor with that many).  The tallies are updated
    in place but the hands (the host reads the counts and queens, and the host's state
    follows the replay).  The replay stops at an action the game would refuse; None,
    with nothing changed, if an action is neither a card nor an announcement."""
    re = G.re
    for action in actions:
        if not 0 <= action < 52 and not re <= action <= re + 5:
            return None  # before anything is written: the caller replays it all through the game
    play = CardPlay(host, table, hands, played, counts, queens, won_points, won_tricks, tricks, trick, leader, turn,
                    led_suits, total, pig_faces, second_heart_ten)
    once, both = play.once, play.both
    # Seats whose open announcement the rules declined, until the next announcement, marriage
    # decision or pig shown (as ``play_out``'s silent seats: the rules' bars are counts of
    # trumps and top trumps, and a hand only loses cards; a defender of a solo never announces).
    declined = 0
    differ: list[int] = []
    for index in range(len(actions)):
        action, seat = actions[index], actors[index]
        card = 0 <= action < 52
        turn = play.turn
        playable = play.playable()
        if card and (seat != turn or not playable >> action & 1):
            return differ  # the game refuses it: the reference replay stops here
        if seat == turn:
            offered = play.open_announcement(turn)
            if not card and action != offered:
                return differ
            if seat != me and (offered >= 0 or playable & (playable - 1)):
                asked = offered >= 0 and not declined >> turn & 1
                announces = asked and rules_announce(offered, once[turn], both[turn], play.tables[turn],
                                                     play.partners[turn], solo)
                if offered >= 0 and not announces:
                    declined |= 1 << turn
                if announces == card or (card and playable & (playable - 1) and play.rules_card(playable) != action):
                    differ.append(index)
                    if len(differ) == limit:
                        return differ  # enough to bring the weight to its floor
        if not card:
            if not host.apply_announcement(seat, turn, action):
                return differ
            play.learn()
            declined = 0
        elif play.play(action) == REOPENED:
            declined = 0
    return differ
