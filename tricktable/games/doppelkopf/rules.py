"""Doppelkopf's rules as data: the deck, the rank tables of every contract, the
card points and the settlement of a deal.

Spec: ``shared/rules/doppelkopf.md``.  A card's *face* is its printed card
(``cards.face``); both copies of a face behave identically, so every table here
is indexed by face (0..51) and card sets are face masks.

Rank tables are indexed by a *table* number: ``NORMAL`` (normal game, marriage,
poverty, silent solo — identical to the diamonds solo) and ``SOLO_TABLE[k]`` for
the solo ``SOLO_NAMES[k]``.

>>> from tricktable.cards import card_text, face, parse_card
>>> [card_text(c) for c in TRUMP_ORDER[NORMAL][:3]]
['10H', 'QC', 'QS']
>>> [card_text(c) for c in TRUMP_ORDER[SOLO_TABLE[SOLO_NAMES.index("hearts")]][-3:]]
['AH', 'KH', '9H']
>>> sum(POINTS[face(c)] for c in DECK)
240
"""

from __future__ import annotations

from dataclasses import dataclass, field

from tricktable.cards import (
    ACE,
    CLUBS,
    COPY_OFFSET,
    DIAMONDS,
    HEARTS,
    JACK,
    KING,
    NINE,
    QUEEN,
    SPADES,
    TEN,
    card,
    mask_of,
    rank_of,
    suit_of,
)

SUITS = (CLUBS, DIAMONDS, HEARTS, SPADES)
RANKS = (NINE, TEN, JACK, QUEEN, KING, ACE)
FACES: tuple[int, ...] = tuple(card(rank, suit) for suit in SUITS for rank in RANKS)
DECK: tuple[int, ...] = tuple(sorted(FACES + tuple(f + COPY_OFFSET for f in FACES)))
FACE_MASK = mask_of(FACES)
DECK_MASK = mask_of(DECK)
HAND_SIZE = 12
TRICKS = 12
DEALS_PER_MATCH = 8
TOTAL_POINTS = 240

TRUMP = 4
"""The "suit" of every trump: all trumps form one suit."""

_RANK_POINTS = {ACE: 11, TEN: 10, KING: 4, QUEEN: 3, JACK: 2, NINE: 0}
POINTS: tuple[int, ...] = tuple(_RANK_POINTS.get(rank_of(c), 0) if c in FACES else 0 for c in range(52))

QC, JC, AD, TH = card(QUEEN, CLUBS), card(JACK, CLUBS), card(ACE, DIAMONDS), card(TEN, HEARTS)
"""The old woman (Re), Karlchen, the fox, the Dulle (10♥)."""

SOLO_NAMES = ("clubs", "spades", "hearts", "diamonds", "queens", "jacks", "aces")
NORMAL = 0
SOLO_TABLE = tuple(range(1, 8))
"""Solo ``k`` uses rank table ``SOLO_TABLE[k]``; table ``NORMAL`` is the normal game."""
PIGS_TABLE, SUPERPIGS_TABLE, SUPERPIG_KINGS_TABLE = 8, 9, 10
"""House rules (``games/doppelkopf/house.py``): the normal trumps with both ♦A above 10♥ (pigs),
and also both ♦9 (without nines: ♦K) above the pigs (superpigs)."""
TABLES = 11

_QUEENS = tuple(card(QUEEN, s) for s in (CLUBS, SPADES, HEARTS, DIAMONDS))
_JACKS = tuple(card(JACK, s) for s in (CLUBS, SPADES, HEARTS, DIAMONDS))
_SUIT_TRUMP_RANKS = (ACE, TEN, KING, NINE)


def _trump_order(table: int) -> tuple[int, ...]:
    """The trumps of a table, highest first."""
    if table >= PIGS_TABLE:
        # The one holder of both copies plays them, so raising the face raises exactly his cards.
        top = (AD,) if table == PIGS_TABLE else (card(NINE if table == SUPERPIGS_TABLE else KING, DIAMONDS), AD)
        return (*top, *(c for c in _suit_trumps(DIAMONDS) if c not in top))
    if table == NORMAL:
        return _suit_trumps(DIAMONDS)
    name = SOLO_NAMES[table - 1]
    if name == "queens":
        return _QUEENS
    if name == "jacks":
        return _JACKS
    if name == "aces":
        return ()
    return _suit_trumps(SUITS[("clubs", "diamonds", "hearts", "spades").index(name)])


def _suit_trumps(suit: int) -> tuple[int, ...]:
    """10♥, the queens, the jacks, then the trump suit's A 10 K 9 (its 10 is 10♥
    itself in a hearts solo)."""
    tail = tuple(card(r, suit) for r in _SUIT_TRUMP_RANKS if card(r, suit) != TH)
    return (TH, *_QUEENS, *_JACKS, *tail)


_PLAIN_ORDER = (ACE, TEN, KING, QUEEN, JACK, NINE)
"""Plain cards rank A 10 K Q J 9 (whichever of them are not trumps)."""

TRUMP_ORDER: tuple[tuple[int, ...], ...] = tuple(_trump_order(t) for t in range(TABLES))
TRUMP_MASK: tuple[int, ...] = tuple(mask_of(order) for order in TRUMP_ORDER)
SUIT: tuple[tuple[int, ...], ...] = tuple(
    tuple((TRUMP if TRUMP_MASK[t] >> c & 1 else suit_of(c)) if c in FACES else -1 for c in range(52))
    for t in range(TABLES)
)
"""``SUIT[table][face]``: the suit a card follows (``TRUMP`` for trumps)."""
POWER: tuple[tuple[int, ...], ...] = tuple(
    tuple(
        (100 + len(TRUMP_ORDER[t]) - TRUMP_ORDER[t].index(c)) if SUIT[t][c] == TRUMP
        else (len(_PLAIN_ORDER) - _PLAIN_ORDER.index(rank_of(c))) if c in FACES else -1
        for c in range(52)
    )
    for t in range(TABLES)
)
"""``POWER[table][face]``: higher beats lower within the led suit; trumps beat all."""
FOLLOW: tuple[tuple[int, ...], ...] = tuple(
    tuple(mask_of(c for c in FACES if SUIT[t][c] == s) for s in range(5)) for t in range(TABLES)
)
"""``FOLLOW[table][suit]``: the faces that follow ``suit`` (index ``TRUMP`` = trumps)."""
HIGHER: tuple[tuple[int, ...], ...] = tuple(
    tuple(mask_of(f for f in FACES if SUIT[t][f] == SUIT[t][c] and POWER[t][f] > POWER[t][c]) if c in FACES else 0
          for c in range(52))
    for t in range(TABLES)
)
"""``HIGHER[table][face]``: the faces of the same suit that beat it."""

# -- reservations ------------------------------------------------------------------
HEALTHY_RANK, MARRIAGE_RANK, POVERTY_RANK, THROW_IN_RANK, SOLO_RANK = 0, 1, 2, 3, 4
"""Precedence of reservations: solo > throwing in (a house rule) > poverty > marriage > healthy."""
POVERTY_MAX_TRUMPS = 3

# -- announcements -------------------------------------------------------------------
ANNOUNCE_NAMES = ("re/kontra", "no 90", "no 60", "no 30", "schwarz")
MIN_CARDS = (11, 10, 9, 8, 7)
"""Cards a player must still hold to make announcement level 0..4."""
TARGETS = (None, 151, 181, 211, None)
"""Card points a team needs after announcing level 1..3 (schwarz: every trick)."""
MARKS = (90, 60, 30, 0)
"""The losers' marks for no 90, no 60, no 30 and schwarz (schwarz: no trick)."""
ONE_TRICK = -1
"""``team_target`` of a team told schwarz: it wins with one trick."""
RE, KONTRA = 0, 1
TEAM_NAMES = ("re", "kontra")


def _faces_table(first_suit: int) -> tuple[tuple[int, ...], ...]:
    """Faces of two suits, indexed by their 6 + 6 rank bits (9..A)."""
    return tuple(
        tuple(card(NINE + b % 6, first_suit + b // 6) for b in range(12) if key >> b & 1) for key in range(4096)
    )


_LOW_FACES, _HIGH_FACES = _faces_table(CLUBS), _faces_table(HEARTS)


def faces_of(mask: int) -> tuple[int, ...]:
    """The faces in a face mask, in id order — a table lookup (hot: every legal list)."""
    return (_LOW_FACES[(mask >> 7 & 63) | (mask >> 14 & 4032)]
            + _HIGH_FACES[(mask >> 33 & 63) | (mask >> 40 & 4032)])


def face_mask(id_mask: int) -> int:
    """The faces present in a mask of card ids (either copy)."""
    return (id_mask | id_mask >> COPY_OFFSET) & FACE_MASK


# -- settlement ------------------------------------------------------------------------
@dataclass
class DealFacts:
    """What the settlement of a finished deal depends on (per team: ``RE``, ``KONTRA``)."""

    team_of: tuple[int, ...]
    lone: bool  # a solo of any kind (silent solo and lone marriage included)
    card_points: tuple[int, int]
    tricks: tuple[int, int]
    levels: tuple[int, int]  # highest announcement level per team, -1 for none
    extras: tuple[list[tuple[str, str]], list[tuple[str, str]]] = field(default_factory=lambda: ([], []))
    """Per team, the extra points it scored as (key, text), one entry per point."""
    told_wins: bool = True
    """A team told no 90 (…) that announced no more than Re/Kontra wins by reaching 90 (…):
    rules doppelkopf-2; ``False`` replays doppelkopf-1 records."""


@dataclass
class Settlement:
    winner: int | None  # RE, KONTRA, or None when nobody wins
    lines: list[tuple[str, str, int, int]]  # (key, text, points, team)
    value: int  # for the winners (for Re when nobody wins)
    seat_points: list[int]


def team_target(team: int, levels: tuple[int, int], told_wins: bool = True) -> int | None:
    """The card points a team must reach; ``None`` means every trick (schwarz) and
    ``ONE_TRICK`` one trick.

    A team that announced no 90 (60, 30, schwarz) needs 151 (181, 211, every trick).
    A team that announced only Re/Kontra or nothing, told no 90 (60, 30, schwarz) by
    the other, needs 90 (60, 30, one trick) — spec "Announcements", corrected in
    rules doppelkopf-2; ``told_wins=False`` is doppelkopf-1, where it needed 120/121."""
    level, other = levels[team], levels[1 - team]
    if level >= 1:
        return TARGETS[level]
    if told_wins and other >= 1:
        return ONE_TRICK if other == 4 else MARKS[other - 1]
    kontra_only = levels[KONTRA] >= 0 and levels[RE] < 0
    if team == RE:
        return 120 if kontra_only else 121
    return 121 if kontra_only else 120


def made_target(team: int, facts: DealFacts) -> bool:
    target = team_target(team, facts.levels, facts.told_wins)
    if target is None:  # every trick: the other team took none (12 tricks, or 10 without nines)
        return facts.tricks[1 - team] == 0
    if target == ONE_TRICK:
        return facts.tricks[team] >= 1
    return facts.card_points[team] >= target


def deal_winner(facts: DealFacts) -> int | None:
    """The team that reached its target (the two targets always add up to more
    than 240 points, or ask for every trick against one, so at most one does).
    Nobody reaches it only when both announced no 90 or more (spec
    "Announcements"); under doppelkopf-1 also when one of them had announced only
    Re/Kontra, which is why the old rule is kept apart below."""
    made = [made_target(t, facts) for t in (RE, KONTRA)]
    if facts.told_wins:
        return RE if made[RE] else KONTRA if made[KONTRA] else None
    announced = [facts.levels[t] >= 0 for t in (RE, KONTRA)]
    if announced[RE] and announced[KONTRA]:
        return RE if made[RE] else KONTRA if made[KONTRA] else None
    if announced[KONTRA]:
        return KONTRA if made[KONTRA] else RE
    return RE if made[RE] else KONTRA


def winner_lines(winner: int, facts: DealFacts) -> list[tuple[str, str, int]]:
    """The game points of the winning team, line by line (spec "Scoring")."""
    loser = 1 - winner
    lines = [("won", f"{TEAM_NAMES[winner].capitalize()} won", 1)]
    if winner == KONTRA and not facts.lone:
        lines.append(("against_the_old", "Gegen die Alten (Kontra won)", 1))
    if facts.levels[RE] >= 0:
        lines.append(("re_announced", "Re announced", 2))
    if facts.levels[KONTRA] >= 0:
        lines.append(("kontra_announced", "Kontra announced", 2))
    for level, mark, under, announced, missed in _LEVEL_LINES:
        fell = facts.tricks[loser] == 0 if level == 4 else facts.card_points[loser] < mark
        if fell:
            lines.append(under)
        if facts.levels[winner] >= level:
            lines.append(announced)
        if facts.levels[loser] >= level and not _reached_level(loser, level, facts):
            lines.append(missed)
    return lines


def _fell_text(level: int, mark: int) -> str:
    return "Losers took no trick (schwarz)" if level == 4 else f"Losers under {mark}"


def _level_lines(level: int, mark: int) -> tuple[int, int, tuple[str, str, int], tuple[str, str, int],
                                                 tuple[str, str, int]]:
    name = ANNOUNCE_NAMES[level]
    key = name.replace(" ", "_")
    return (level, mark, (f"under_{key}", _fell_text(level, mark), 1),
            (f"announced_{key}", f"{name} announced by the winners", 1),
            (f"missed_{key}", f"{name} announced by the losers and missed", 2))


_LEVEL_LINES = tuple(_level_lines(index + 1, mark) for index, mark in enumerate(MARKS))
"""Per level no 90 .. schwarz: the level, the losers' mark and ``winner_lines``' three lines
(written once: every settlement reads them)."""


def _reached_level(team: int, level: int, facts: DealFacts) -> bool:
    target = TARGETS[level]
    if target is None:  # schwarz: every trick
        return facts.tricks[1 - team] == 0
    return facts.card_points[team] >= target


def settle(facts: DealFacts) -> Settlement:
    """Winner, breakdown lines and per-seat game points of a finished deal.

    Extras are netted (spec decision): the winners' value is their points plus
    their extras minus the losers' extras; with no winner only extras count."""
    winner = deal_winner(facts)
    lines: list[tuple[str, str, int, int]] = []
    if winner is not None:
        lines += [(key, text, points, winner) for key, text, points in winner_lines(winner, facts)]
    if not facts.lone:
        for team in (RE, KONTRA):
            lines += [(key, text, 1, team) for key, text in facts.extras[team]]
    return settlement_of(winner, lines, facts.team_of)


def settlement_of(winner: int | None, lines: list[tuple[str, str, int, int]], team_of: tuple[int, ...]) -> Settlement:
    """The deal value (the lines netted for the winners, for Re when nobody won) and
    each seat's game points: a team member wins or loses the value, a lone player
    three times it (the three others once)."""
    side = RE if winner is None else winner
    value = sum(points if team == side else -points for _, _, points, team in lines)
    seat_points = [0, 0, 0, 0]
    sizes = [team_of.count(RE), team_of.count(KONTRA)]
    for seat, team in enumerate(team_of):
        sign = 1 if team == side else -1
        seat_points[seat] = sign * value * (3 if sizes[team] == 1 else 1)
    return Settlement(winner, lines, value, seat_points)
