"""Doppelkopf computer players: expert rules (``heuristic``) and world-sampling search.

Reservations: a marriage with both Q♣ (but a silent solo, saying healthy, when
those queens come with a suit solo's eleven trumps and five of the top ones), poverty with three
trumps or fewer, a suit solo only with eleven trumps and five of the top ones;
otherwise healthy.  Poverty: give the trumps and the fewest points, accept with
seven trumps or more including three of the top ones, return the cheapest plain
cards; a compulsory solo the tournament list forces is the solo with the best
share of its trumps, top trumps and plain aces.  Announcements: Re or Kontra with a strong
hand (the rules file's tip: it also tells the partner our team), a stronger one for
Kontra (the Re team holds both Q♣); no 90 once our
team has announced, with a hand that holds ten trumps, six of them top ones (a
looser rule missed a quarter of its no 90s in selfplay); never the deeper ones,
and nothing at all against a solo.  Search announces only what these rules
announce (``distinct_actions``): it may hold an announcement back, never add one;
and it plays a solo only where the rules do or one trump short of their bar, and
a silent solo only where the rules do.

Card play follows the tips of the rules file: lead a black ace while the suit
may still go round once; grease (schmieren) tricks the partner surely wins with
an ace or ten, the fox included; keep the fox (A♦) away from tricks the other
team may take; win points cheaply in last seat.  A player whose team is not
public is treated as an opponent.

The rules decide from a ``Situation`` (games/doppelkopf/observation.py): in play
``Situation.of(observation)``, in search rollouts ``DoppelkopfState.situation(seat)``
on a world the search sampled itself — the same facts the seat's observation
holds (its hand, the cards played, the teams known to it), so one set of rules
plays both, and a rollout player knows no more than it would at the table.
"""

from __future__ import annotations

from collections import OrderedDict
from types import ModuleType
from typing import TYPE_CHECKING, Sequence, TypeVar

from tricktable import speedups
from tricktable.bots.inference import CardReplay, first_card, weight_for
from tricktable.bots.playout import models_options
from tricktable.bots.search import SearchGame
from tricktable.cards import ACE, CLUBS, COPY_OFFSET, SPADES, card, card_text, mask_of, parse_card, rank_of
from tricktable.errors import GameError
from tricktable.core.observation import Observation
from tricktable.core.protocol import DealState, GameState
from tricktable.games.doppelkopf import house
from tricktable.games.doppelkopf.actions import ACCEPT, ANNOUNCE_RE, DECLINE, GIVE, RETURN, triple_code
from tricktable.games.doppelkopf.observation import Phase, Situation, doppelkopf_observation, partners_of
from tricktable.games.doppelkopf.rules import (
    AD,
    FACE_MASK,
    FOLLOW,
    HIGHER,
    NORMAL,
    POINTS,
    POWER,
    QC,
    SOLO_NAMES,
    SOLO_TABLE,
    SUIT,
    TH,
    TRUMP,
    TRUMP_MASK,
    TRUMP_ORDER,
    faces_of,
)
from tricktable.games.doppelkopf.spec import SPEC
from tricktable.games.doppelkopf.state import (
    GIVING,
    OFFERING,
    PLAYING,
    RESERVING,
    RETURNING,
    SOLO_GAME,
    DoppelkopfState,
)
from tricktable.games.doppelkopf.views import known_teams, public_contract

if TYPE_CHECKING:
    from tricktable.bots import doppelkopf_kernel as kernel
else:
    kernel = speedups.load("tricktable.bots.doppelkopf_kernel")

TOP_TRUMPS = 5
"""10♥ and the four queens ranks: a "high" trump in hand strength."""
ANNOUNCE_TRUMPS = 7
ANNOUNCE_HIGH = 4
ACCEPT_TRUMPS = 7
ACCEPT_HIGH = 3
SOLO_TRUMPS = 11
SOLO_HIGH = 5
SILENT_SOLO_TRUMPS = SOLO_TRUMPS
SILENT_SOLO_HIGH = SOLO_HIGH
"""A silent solo is a diamonds solo the others do not know of: it asks for a suit solo's
hand.  At nine trumps and six top ones the rules' silent solos won 24 of 41 (search's own,
chosen over the rules' marriage, 26 of 43) where the target is 70 % (docs/strength.md)."""
NO_90_TRUMPS = 10
NO_90_HIGH = 6
BOCK_EXTRA_HIGH = 1
"""In a bock deal (a house rule: the points count twice or more) a wrong announcement costs
double: Re/Kontra and no 90 ask for one more top trump."""
KONTRA_EXTRA_HIGH = 1
"""Kontra asks for one more top trump than Re: the Re team holds both Q♣, so the same
hand is weaker on the Kontra side.  The rules in all seats (2,000 deals) won 88 % of their
Re announcements but 55 % of their Kontras; one more top trump for Kontra lifts all
announcements from 79 % to 87 % of the (fewer) ones made (docs/strength.md)."""
FULL_HAND = 12
BLACK_ACES = (card(ACE, CLUBS), card(ACE, SPADES))



def install_tables(module: ModuleType) -> None:
    """Give a kernel module (compiled or pure) the game's own tables and faces, and the
    announcement rule's masks and bars (``announce_bar``: the rollout policy's, no bock)."""
    bars = tuple(announce_bar(kind) for kind in (RE_BAR, KONTRA_BAR, NO_90_BAR))
    module.install(SUIT, POWER, HIGHER, FOLLOW, POINTS, TRUMP, NORMAL, AD, QC, TH, ACE, BLACK_ACES,
                   TRUMP_MASK, TOP_MASK, ANNOUNCE_RE, bars, COPY_OFFSET, FACE_MASK)


# -- card play ---------------------------------------------------------------------
def choose_card(t: Situation, legal: Sequence[int]) -> int:
    """The card-play rules (``doppelkopf_kernel.choose_card``, on ints: the fast
    playout calls them on its own tallies) for a ``Situation``."""
    partners = 0
    for s in t.partners:
        partners |= 1 << s
    return kernel.choose_card(t.seat, t.table, [s for s, _ in t.trick], [f for _, f in t.trick], t.seen_twice(),
                              t.led_suits, partners, list(legal))


# -- bidding and announcements ---------------------------------------------------------
TOP_MASK: tuple[int, ...] = tuple(mask_of(order[:TOP_TRUMPS]) for order in TRUMP_ORDER)
"""Per rank table, its top trumps as a face mask."""
SUIT_SOLOS = tuple((f"solo {name}", SOLO_TABLE[k]) for k, name in enumerate(SOLO_NAMES[:4]))


def trump_count(hand: Sequence[int], table: int) -> int:
    trumps = TRUMP_MASK[table]
    return sum(trumps >> f & 1 for f in hand)


def high_trumps(hand: Sequence[int], table: int) -> int:
    top = TOP_MASK[table]
    return sum(top >> f & 1 for f in hand)


def _face_masks(hand: Sequence[int]) -> tuple[int, int]:
    """The faces of a hand held (once, twice), to count them under several tables."""
    once = twice = 0
    for f in hand:
        twice |= once & 1 << f
        once |= 1 << f
    return once, twice


def _count(masks: tuple[int, int], faces: int) -> int:
    """How many cards of a hand (``_face_masks``) are among ``faces``."""
    return (masks[0] & faces).bit_count() + (masks[1] & faces).bit_count()


def reservation(hand: Sequence[int], legal: Sequence[str]) -> str:
    return _reservation(hand, _face_masks(hand), legal)


def _reservation(hand: Sequence[int], masks: tuple[int, int], legal: Sequence[str]) -> str:
    """``reservation``, with the hand's faces held (once, twice) as masks."""
    if "healthy" not in legal:
        return best_solo(hand, legal)  # a compulsory solo the tournament list forces ("vorgeführt")
    if "marriage" in legal:
        # Both Q♣: said healthy, they make a silent solo (alone against three).
        return "healthy" if is_silent_solo_hand(hand) else "marriage"
    # Without nines (a house rule) a hand has ten cards: a solo needs as many fewer trumps.
    solo_trumps = SOLO_TRUMPS - (FULL_HAND - len(hand))
    for text, table in SUIT_SOLOS:
        if (text in legal and _count(masks, TRUMP_MASK[table]) >= solo_trumps
                and _count(masks, TOP_MASK[table]) >= SOLO_HIGH):
            return text
    if "throw in" in legal and not should_announce(hand, NORMAL):
        return "throw in"  # five nines or kings and no strong trumps: a new deal is worth more
    if "poverty" in legal:
        return "poverty"
    return "healthy"


def best_solo(hand: Sequence[int], legal: Sequence[str]) -> str:
    """The solo this hand plays best: its share of the solo's trumps (its own
    counted twice against half of all of them: 9 of a suit solo's 26 trumps are
    fewer than 7 of the 8 queens), the top ones among them, and the aces that are
    no trumps (sure first-round winners)."""
    def strength(k: int) -> int:
        table = SOLO_TABLE[k]
        plain_aces = sum(1 for f in hand if rank_of(f) == ACE and not TRUMP_MASK[table] >> f & 1)
        return 2 * trump_count(hand, table) - len(TRUMP_ORDER[table]) + high_trumps(hand, table) + plain_aces

    solos = [k for k, name in enumerate(SOLO_NAMES) if f"solo {name}" in legal]
    return f"solo {SOLO_NAMES[max(solos, key=strength)]}"


def is_silent_solo_hand(hand: Sequence[int]) -> bool:
    # Without nines (a house rule) a hand has ten cards: as many fewer trumps, as for a suit solo.
    trumps = SILENT_SOLO_TRUMPS - (FULL_HAND - len(hand))
    return trump_count(hand, NORMAL) >= trumps and high_trumps(hand, NORMAL) >= SILENT_SOLO_HIGH


RE_BAR, KONTRA_BAR, NO_90_BAR = range(3)
"""The announcements the rules make, in the order of their actions (``announce_bar``)."""


def announce_bar(kind: int, bock: int = 1) -> tuple[int, int]:
    """The trumps and top trumps the rules need for announcement ``kind``: a strong hand
    for Re, a stronger one for Kontra (``KONTRA_EXTRA_HIGH``), most of the trumps for no
    90; in a bock deal (``bock``: the deal's multiplier) one more top trump.  The fast
    playout's kernel has these bars without bock (``install_tables``)."""
    extra = BOCK_EXTRA_HIGH if bock > 1 else 0
    if kind == NO_90_BAR:
        return NO_90_TRUMPS, NO_90_HIGH + extra
    return ANNOUNCE_TRUMPS, ANNOUNCE_HIGH + extra + (KONTRA_EXTRA_HIGH if kind == KONTRA_BAR else 0)


def _meets(hand: Sequence[int], table: int, bar: tuple[int, int]) -> bool:
    return trump_count(hand, table) >= bar[0] and high_trumps(hand, table) >= bar[1]


def should_announce(hand: Sequence[int], table: int, bock: int = 1, kontra: bool = False) -> bool:
    """A strong hand (``announce_bar``)."""
    return _meets(hand, table, announce_bar(KONTRA_BAR if kontra else RE_BAR, bock))


def should_announce_no_90(hand: Sequence[int], table: int, bock: int = 1) -> bool:
    """Our team has announced; promise the others fewer than 90 points only with
    most of the trumps and the top ones among them (``announce_bar``)."""
    return _meets(hand, table, announce_bar(NO_90_BAR, bock))


install_tables(kernel)


def against_solo(situation: Situation) -> bool:
    """A defender of a solo never announces: the soloist holds most of the trumps,
    so a defender's own trumps do not tell whether the three of them beat him (search
    announcing against solos won 3 of 13, docs/strength.md)."""
    contract = situation.contract
    return contract is not None and contract.is_solo and bool(situation.partners)


def should_accept(hand: Sequence[int]) -> bool:
    return trump_count(hand, NORMAL) >= ACCEPT_TRUMPS and high_trumps(hand, NORMAL) >= ACCEPT_HIGH


def announcement(situation: Situation, legal: Sequence[str], bock: int = 1) -> str | None:
    """The announcement the rules make among the ``legal`` texts, or None (in play;
    the fast playout asks this too, with the one open announcement as ``legal``)."""
    if against_solo(situation):
        return None
    hand, table = situation.hand, situation.table
    if "re" in legal and should_announce(hand, table, bock):
        return "re"
    if "kontra" in legal and should_announce(hand, table, bock, kontra=True):
        return "kontra"
    if "no 90" in legal and should_announce_no_90(hand, table, bock):
        return "no 90"
    return None


def triple_cost(text: str, table: int, giving: bool) -> tuple[float, ...]:
    """Giving: all trumps go anyway; give the fewest points.  Returning: keep
    trumps, return plain cards with the fewest points."""
    return faces_cost([parse_card(c) for c in text.split()[1:]], table, giving)


def faces_cost(faces: Sequence[int], table: int, giving: bool) -> tuple[float, ...]:
    """``triple_cost`` of three faces."""
    trumps = sum(1 for f in faces if TRUMP_MASK[table] >> f & 1)
    points = sum(POINTS[f] for f in faces)
    return (points,) if giving else (trumps, points)


def choose_text(situation: Situation, legal: Sequence[str], bock: int = 1) -> str:
    """The rules' choice among the ``legal`` texts (``bock``: the deal's bock multiplier)."""
    phase = situation.phase
    hand = situation.hand
    if phase == Phase.RESERVATIONS:
        return reservation(hand, legal)
    if phase == Phase.GIVING:
        return min(legal, key=lambda text: triple_cost(text, NORMAL, True))
    if phase == Phase.OFFERING:
        return "accept" if should_accept(hand) else "decline"
    if phase == Phase.RETURNING:
        return min(legal, key=lambda text: triple_cost(text, NORMAL, False))
    announced = announcement(situation, legal, bock)
    if announced is not None:
        return announced
    plays = [parse_card(text.split()[1]) for text in legal if text.startswith("play ")]
    return "play " + card_text(choose_card(situation, plays))


def heuristic_text(obs: Observation) -> str:
    """The expert rules on a seat's observation."""
    legal = obs.legal
    if len(legal) == 1:
        return legal[0]
    bock = int(obs.match.extra.get("bock", 1)) if obs.match else 1
    return choose_text(Situation.of(doppelkopf_observation(obs)), legal, bock)


def heuristic_action(state: GameState) -> int:
    """The rollout policy: the same rules for the seat to move in a sampled world,
    from what that seat knows there (``DoppelkopfState.situation``)."""
    world = doppelkopf_state(state)
    legal = world.legal_actions()
    if len(legal) == 1:
        return legal[0]
    phase = world.phase
    if phase == GIVING or phase == RETURNING:
        return cheapest_exchange(world.hands[world.to_move], phase == GIVING)
    if phase == RESERVING or phase == OFFERING:
        # The rules read only the hand here (``choose_text``): no ``Situation`` to build.
        ids = world.hands[world.to_move]
        low, high = ids & FACE_MASK, ids >> COPY_OFFSET & FACE_MASK
        hand = faces_of(low) + faces_of(high)
        if phase == OFFERING:
            return ACCEPT if should_accept(hand) else DECLINE
        return world.parse_action(_reservation(hand, (low | high, low & high), _texts(world, legal)))
    situation = world.situation(world.to_move)
    if situation.phase == Phase.PLAYING and legal[0] < 52:
        return choose_card(situation, list(legal))
    return world.parse_action(choose_text(situation, [world.action_text(a) for a in legal]))


def cheapest_exchange(hand: int, giving: bool) -> int:
    """The rules' poverty cards (``choose_text``: the legal triple of the least
    ``triple_cost``, the first in the state's order of actions on a tie) from a hand (id
    mask), without listing the triples (a taker has up to 455).  Giving, every trump goes:
    the trumps and the plain cards of the fewest points; returning, the cards of the
    fewest trumps, then points.  The cost is a sum over the cards, so a triple costs the
    least exactly when its cards' costs are the three least; among such triples, each
    cost's smallest faces make the smallest code, the first action."""
    held = faces_of(hand & FACE_MASK) + faces_of(hand >> COPY_OFFSET & FACE_MASK)
    trumps = TRUMP_MASK[NORMAL]
    if giving:
        kept = [f for f in held if trumps >> f & 1]
        plain = sorted((POINTS[f], f) for f in held if not trumps >> f & 1)
        return GIVE + triple_code(kept + [f for _, f in plain[:3 - len(kept)]])
    cheapest = sorted((trumps >> f & 1, POINTS[f], f) for f in held)[:3]
    return RETURN + triple_code([f for _, _, f in cheapest])


_TEXTS: dict[tuple[int, ...], list[str]] = {}
"""The texts of the reservation lists met (a few per option set: the state's text of an
action does not depend on the deal)."""


def _texts(world: DoppelkopfState, legal: Sequence[int]) -> list[str]:
    key = tuple(legal)
    texts = _TEXTS.get(key)
    if texts is None:
        texts = _TEXTS[key] = [world.action_text(a) for a in legal]
    return texts


def doppelkopf_state(state: GameState) -> DoppelkopfState:
    if not isinstance(state, DoppelkopfState):
        raise GameError(f"not a Doppelkopf deal: {type(state).__name__}")
    return state


def seat_value(state: GameState, seat: int) -> float:
    """A finished deal for ``seat``: his own game points (they sum to zero)."""
    return float(state.returns()[seat])


# -- fast playout (rollouts) --------------------------------------------------------
PLAYOUT_OPTIONS = frozenset({"second_heart_ten", "soloist_leads", "karlchen_only_by_winning", "poverty",
                             "ddv_scoring", "winner_doppelkopf_1", "schweinchen", "superschweinchen",
                             "throwing_in", "bock", "without_nines", "tournament_list"})
"""The options the fast playout follows: the trick winner, announcements, marriage and
scoring are the state's own, pigs and superpigs are in its rank table (and each seat
plays by the table it knows, ``house.known_table``); throwing in, bock rounds and the
tournament list change nothing once the cards are played.  An option it does not know
(one that may change what a seat knows, say) keeps the rollout in the real game."""


KNOWN_PARTNERS_LIMIT = 1024
_KNOWN_PARTNERS: OrderedDict[tuple[object, ...], tuple[list[int], bool]] = OrderedDict()
"""Each seat's known partners (seat masks) and whether every team is public, by the
evidence ``views.known_teams`` reads: rollouts meet the same few again and again (479
in 1,500 decisions of the normal level; 1,024 keep 99.95 % hits, as many as no bound)."""


SEAT_POINTS_LIMIT = 8192
_SEAT_POINTS: OrderedDict[tuple[object, ...], list[int]] = OrderedDict()
"""Each seat's game points by everything the settlement reads (``DealFacts`` and the
scoring option; of the extras their keys, whose texts only name the trick): rollouts
end in the same few settlements again and again.  The 8,192 most recently used, some
4 MB: 84 % hits in 1,500 decisions of the normal level, against 88 % for 50,000
entries cleared when full (about 23 MB, which a thinking process reached some 25
minutes into a soak); a miss costs about 20 µs."""


_Kept = TypeVar("_Kept")


def _recall(memo: OrderedDict[tuple[object, ...], _Kept], key: tuple[object, ...]) -> _Kept | None:
    """A memo's entry (None: none), now its most recently used."""
    found = memo.get(key)
    if found is not None:
        memo.move_to_end(key)
    return found


def _remember(memo: OrderedDict[tuple[object, ...], _Kept], key: tuple[object, ...], value: _Kept,
              limit: int) -> _Kept:
    """``value`` kept under a new ``key``; at ``limit`` entries the least recently used
    goes first."""
    if len(memo) >= limit:
        memo.popitem(last=False)
    memo[key] = value
    return value


class _Host:
    """What the playout kernel asks the game, answered by the (sampled) state itself."""

    def __init__(self, world: DoppelkopfState, seat: int):
        self.world, self.seat = world, seat
        self.fixed: list[int] | None = None  # the partners, once every team is public

    def partners(self, once: list[int], both: list[int]) -> list[int]:
        if self.fixed is not None:
            return self.fixed
        world = self.world
        # Every fact ``known_teams`` reads (in play), the seats' own queens among them.
        evidence = (world.contract, *world.team, world.partner, world.marriage_pending, world.declarer,
                    *world.queens_played, world.announced, (once[0] >> QC & 1) + (both[0] >> QC & 1),
                    (once[1] >> QC & 1) + (both[1] >> QC & 1), (once[2] >> QC & 1) + (both[2] >> QC & 1),
                    (once[3] >> QC & 1) + (both[3] >> QC & 1))
        known = _recall(_KNOWN_PARTNERS, evidence)
        if known is None:
            world.hands = [_ids(once[s], both[s]) for s in range(4)]
            masks, complete = [], True
            for seat in range(4):
                teams = known_teams(world, seat)
                masks.append(sum(1 << s for s in partners_of(seat, teams)))
                complete = complete and None not in teams
            known = _remember(_KNOWN_PARTNERS, evidence, (masks, complete), KNOWN_PARTNERS_LIMIT)
        if known[1]:  # every seat knows every team (a solo, a decided marriage...): nothing more to learn
            self.fixed = known[0]
        return known[0]

    def chances(self) -> list[int]:
        return self.world.announcement_chances()

    def announce(self, seat: int, action: int) -> None:
        """The rollout policy's announcement (the kernel's ``rules_announce``), made."""
        world = self.world
        world.turn = seat
        world.apply(action)  # the state checks and records it

    def tables(self) -> list[int]:
        world = self.world
        if world.pigs < 0:
            return [world.table] * 4
        return [house.known_table(world, seat, _contract_table(world, seat)) for seat in range(4)]

    def pig_shown(self, seat: int, played: int) -> bool:
        world = self.world
        shown = world.pigs_shown, world.superpigs_shown
        house.note_play(world, seat, played)
        return (world.pigs_shown, world.superpigs_shown) != shown

    def marriage(self, winner: int, number: int) -> bool:
        world = self.world
        if not world.marriage_pending:
            return False
        world.decide_marriage(winner, number)
        return not world.marriage_pending

    def finish(self, once: list[int], both: list[int], leader: int, led_suits: int) -> float:
        """The seat's game points, by the state's own settlement (``_SEAT_POINTS``)."""
        world = self.world
        world.hands = [0, 0, 0, 0]
        world.trick = []
        world.led_suits = led_suits
        world.leader = world.turn = leader
        facts = world.facts()
        key = (facts.team_of, facts.lone, facts.card_points, facts.tricks, facts.levels, facts.told_wins,
               tuple(key for key, _ in facts.extras[0]), tuple(key for key, _ in facts.extras[1]),
               world.options["ddv_scoring"])
        points = _recall(_SEAT_POINTS, key)
        if points is None:
            world.score(facts)
            points = _remember(_SEAT_POINTS, key, world.returns(), SEAT_POINTS_LIMIT)
        return float(points[self.seat])


def _ids(once: int, both: int) -> int:
    """An id mask holding these faces (``both``: both copies)."""
    return once | both << COPY_OFFSET


def _pig_faces(world: DoppelkopfState) -> tuple[int, int]:
    """The faces that may show pigs or superpigs, as the kernel takes them."""
    return (AD, house.superpig_face(world.options)) if world.pigs >= 0 else (-1, -1)


def _contract_table(world: DoppelkopfState, seat: int) -> int:
    contract = public_contract(world, seat)
    return contract.table if contract is not None else NORMAL


def playout(state: GameState, seat: int) -> float | None:
    """Finish the card play on compact data (``doppelkopf_kernel.play_out``): the rules'
    card choice on running tallies; the trick winner, announcements, marriage, teams,
    pigs and the scoring are the state's own (``_Host``); where an announcement is open
    the rules decide as the rollout policy does (``announcement``, on the hand's masks in
    the kernel: ``announce_bar``).  None before the play or under options it does not model."""
    world = doppelkopf_state(state)
    if world.phase != PLAYING or not models_options(world.spec, world.options, PLAYOUT_OPTIONS):
        return None
    return kernel.play_out(_Host(world, seat), world.table, world.hands, world.played, world.counts,
                           world.queens_played, world.won_points, world.won_tricks, world.tricks, world.trick,
                           world.leader, world.turn, world.led_suits, world.tricks_total, _pig_faces(world),
                           bool(world.options["second_heart_ten"]), world.contract == SOLO_GAME)


# -- inference: the card play replayed in the kernel ------------------------------------
class _ReplayHost(_Host):
    """What the kernel's replay of a world's card play asks the game, answered by the
    reference replay's state at the first card (``doppelkopf_kernel.ReplayHost``)."""

    def apply_announcement(self, seat: int, turn: int, action: int) -> bool:
        world = self.world
        world.turn = turn
        try:
            world.apply_for(seat, action)
        except GameError:
            return False
        return True


def card_disagreements(state: DealState, world: DealState, me: int, limit: int) -> list[int] | None:
    """The history positions from ``state`` (the first card) on at which another seat
    than ``me`` did not take the rules' action (at most ``limit``; ``kernel.disagreements``: the cards on
    face masks, the announcements, teams, pigs and marriage asked of ``state``, which
    the replay then leaves behind); None under options the kernel does not follow."""
    replay = doppelkopf_state(state)
    if replay.phase != PLAYING or not models_options(replay.spec, replay.options, PLAYOUT_OPTIONS):
        return None
    start = len(replay.history)
    differ = kernel.disagreements(_ReplayHost(replay, me), replay.table, replay.hands, replay.played, replay.counts,
                                  replay.queens_played, replay.won_points, replay.won_tricks, replay.tricks,
                                  replay.trick, replay.leader, replay.turn, replay.led_suits, replay.tricks_total,
                                  _pig_faces(replay), bool(replay.options["second_heart_ten"]),
                                  replay.contract == SOLO_GAME, world.history[start:], world.actors[start:], me,
                                  limit)
    return None if differ is None else [start + i for i in differ]


CARDS = CardReplay(first_card, card_disagreements)  # reservations, poverty and earlier announcements: the reference
"""Doppelkopf's card play (and the announcements in it) for inference, in the kernel."""


# -- search ------------------------------------------------------------------------
ANNOUNCEMENTS = frozenset({"re", "kontra", "no 90", "no 60", "no 30", "schwarz"})


def near_solo(hand: Sequence[int], text: str) -> bool:
    """A solo search may weigh though the rules do not choose it: a suit solo one
    trump short of the rules' bar.  Left to weigh every solo, search in all seats
    played one in 15 % of deals and won 13 of 23 (ace solos, which have no trumps and
    which the rollouts' card play overrates: 4 of 10); its suit solos with ten trumps
    and five top ones won 4 of 4 (docs/strength.md)."""
    k = SOLO_NAMES.index(text[len("solo "):])
    if k >= 4:
        return False  # queens, jacks, aces: only where the rules choose them
    table = SOLO_TABLE[k]
    short = SOLO_TRUMPS - 1 - (FULL_HAND - len(hand))
    return trump_count(hand, table) >= short and high_trumps(hand, table) >= SOLO_HIGH


def distinct_actions(obs: Observation) -> list[str]:
    """The candidates search tries: every legal action, but an announcement only
    where the rules make it (search may still hold one back), a solo only where
    the rules choose it or it is ``near_solo``, and a silent solo (healthy with both Q♣)
    only where the rules choose it (search's own silent solos won 26 of 43).  Rollouts see the
    partner's cards and sample the others' hands without what their reservations
    and announcements say, so announcing looks better than it is: with search in
    all seats, announcements the rules would not have made won only 52 % (no 90: 44 %;
    against solos: 23 %), far below the 80 % a player respects (docs/strength.md)."""
    legal = list(obs.legal)
    rules = heuristic_text(obs)
    if "healthy" in legal:  # a voluntary reservation (a compulsory solo keeps every solo)
        hand = Situation.of(doppelkopf_observation(obs)).hand
        legal = [text for text in legal if not text.startswith("solo ") or text == rules or near_solo(hand, text)]
        if "marriage" in legal and rules != "healthy":
            legal.remove("healthy")  # both Q♣: healthy is a silent solo
    if ANNOUNCEMENTS.isdisjoint(legal) or rules in ANNOUNCEMENTS:
        return legal
    return [text for text in legal if text not in ANNOUNCEMENTS]


SEARCH = SearchGame(SPEC, heuristic_action, seat_value, weight=weight_for(heuristic_action, cards=CARDS),
                    rules=heuristic_text,
                    playout=playout)

ROLLOUTS_PER_MS = 6.0
"""Rollouts per millisecond of budget on the 2-core machine (a Doppelkopf rollout
plays up to 48 cards), with margin: the hard level (250 ms, inference) uses 107 ms CPU
p50, 209 ms p95 (an earlier search at 2.0: 119 / 208 ms; timing of 4 deals, 168
decisions, no hard stop, loaded machine); see docs/strength.md."""
ROLLOUTS_PER_MS_WITHOUT_INFERENCE = 11.0
"""The same without inference's weight (the ``search-noinfer`` bot, the normal level):
the 50 ms budget uses 24.7 ms CPU p50, 45.8 ms p95 (at 9.0: 19.2 / 34.6 ms)."""


def worlds_for(budget_ms: float, actions: int = 1, inference: bool = True) -> int:
    rate = ROLLOUTS_PER_MS if inference else ROLLOUTS_PER_MS_WITHOUT_INFERENCE
    return max(3, int(budget_ms * rate / max(1, actions)))
