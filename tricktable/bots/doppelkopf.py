"""Doppelkopf computer players: expert rules (``heuristic``) and world-sampling search.

Reservations: a marriage with both Q♣ (but a silent solo, saying healthy, when
those queens come with nine trumps and six of the top ones), poverty with three
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
announce (``distinct_actions``): it may hold an announcement back, never add one.

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

from functools import partial
from typing import Sequence

from tricktable.bots.base import strongest_play
from tricktable.bots.playout import models_options
from tricktable.bots.search import SearchGame
from tricktable.cards import ACE, CLUBS, COPY_OFFSET, SPADES, card, card_text, parse_card, rank_of
from tricktable.core.errors import GameError
from tricktable.core.observation import Observation
from tricktable.core.protocol import GameState
from tricktable.games.doppelkopf.observation import Phase, Situation, doppelkopf_observation, partners_of
from tricktable.games.doppelkopf.rules import (
    AD,
    FACE_MASK,
    HIGHER,
    NORMAL,
    POINTS,
    POWER,
    QC,
    SOLO_NAMES,
    SOLO_TABLE,
    SUIT,
    TRUMP,
    TRUMP_MASK,
    TRUMP_ORDER,
    face_mask,
    faces_of,
)
from tricktable.games.doppelkopf.spec import SPEC
from tricktable.games.doppelkopf.state import PLAYING, DoppelkopfState
from tricktable.games.doppelkopf.views import known_teams, public_contract

TOP_TRUMPS = 5
"""10♥ and the four queens ranks: a "high" trump in hand strength."""
ANNOUNCE_TRUMPS = 7
ANNOUNCE_HIGH = 4
ACCEPT_TRUMPS = 7
ACCEPT_HIGH = 3
SOLO_TRUMPS = 11
SOLO_HIGH = 5
SILENT_SOLO_TRUMPS = 9
SILENT_SOLO_HIGH = 6
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


# -- card play ---------------------------------------------------------------------
def beats(table: int, card_face: int, best: int) -> bool:
    """Of two equal cards the first played wins, so only a higher card beats."""
    suit, best_suit = SUIT[table][card_face], SUIT[table][best]
    if suit == best_suit:
        return POWER[table][card_face] > POWER[table][best]
    return suit == TRUMP


# (seat, card) holding a trick so far: trick_winner(trump or table, trick)
trick_winner = partial(strongest_play, beats)


def is_boss(t: Situation, card_face: int) -> bool:
    """No unseen card of the same suit ranks higher (nor equal: a copy played
    earlier in the trick would win)."""
    return HIGHER[t.table][card_face] & ~t.seen_twice() == 0


def holds(t: Situation, card_face: int, after: Sequence[int]) -> bool:
    """A trick won by ``card_face`` stays ours: nobody after is an opponent, or the
    card is the boss and (for a plain card) the suit is led for the first time."""
    opponents = [s for s in after if s not in t.partners]
    if not opponents:
        return True
    if not is_boss(t, card_face):
        return False
    suit = SUIT[t.table][card_face]
    return suit == TRUMP or not t.led_suits >> suit & 1


def seats_after(t: Situation) -> list[int]:
    return [(t.seat + i) % 4 for i in range(1, 4 - len(t.trick))]


def choose_card(t: Situation, legal: Sequence[int]) -> int:
    if len(legal) == 1:
        return legal[0]
    return follow(t, legal) if t.trick else lead(t, legal)


def cheapest(t: Situation, cards: Sequence[int]) -> int:
    """Fewest points, then lowest rank; the fox last of all."""
    return min(cards, key=lambda f: (f == AD and t.table == NORMAL, POINTS[f], POWER[t.table][f]))


def follow(t: Situation, legal: Sequence[int]) -> int:
    table, power = t.table, POWER[t.table]
    win_seat, win_card = trick_winner(table, t.trick)
    after = seats_after(t)
    ours = win_seat in t.partners
    if ours and holds(t, win_card, after):
        # Grease the partner's sure trick: the most points (the fox is safe here).
        return max(legal, key=lambda f: (POINTS[f], f == AD, -power[f]))
    winners = [f for f in legal if beats(table, f, win_card)]
    if not winners or ours:
        return cheapest(t, legal)
    safe = [f for f in winners if holds(t, f, after)]
    if safe:
        return min(safe, key=lambda f: (power[f], -POINTS[f]))
    points = sum(POINTS[f] for _, f in t.trick)
    if not after or points >= 10:
        # Win it, but never with the fox unless nothing else wins.
        return min(winners, key=lambda f: (f == AD and table == NORMAL, power[f]))
    return cheapest(t, legal)


def lead(t: Situation, legal: Sequence[int]) -> int:
    table, power = t.table, POWER[t.table]
    plain = [f for f in legal if SUIT[table][f] != TRUMP]
    aces = [f for f in plain if rank_of(f) == ACE and not t.led_suits >> SUIT[table][f] & 1]
    black = [f for f in aces if f in BLACK_ACES]
    if black:
        return black[0]  # a black ace while the suit may still go round once
    if aces:
        return aces[0]
    trumps = [f for f in legal if SUIT[table][f] == TRUMP]
    bosses = [f for f in trumps if is_boss(t, f)]
    if bosses and len(trumps) >= 4:
        return max(bosses, key=lambda f: power[f])
    if plain:
        return min(plain, key=lambda f: (POINTS[f], power[f]))
    return cheapest(t, trumps)


# -- bidding and announcements ---------------------------------------------------------
def trump_count(hand: Sequence[int], table: int) -> int:
    return sum(1 for f in hand if TRUMP_MASK[table] >> f & 1)


def high_trumps(hand: Sequence[int], table: int) -> int:
    top = TRUMP_ORDER[table][:TOP_TRUMPS]
    return sum(1 for f in hand if f in top)


def reservation(hand: Sequence[int], legal: Sequence[str]) -> str:
    if "healthy" not in legal:
        return best_solo(hand, legal)  # a compulsory solo the tournament list forces ("vorgeführt")
    if "marriage" in legal:
        # Both Q♣: said healthy, they make a silent solo (alone against three).
        return "healthy" if is_silent_solo_hand(hand) else "marriage"
    # Without nines (a house rule) a hand has ten cards: a solo needs as many fewer trumps.
    solo_trumps = SOLO_TRUMPS - (FULL_HAND - len(hand))
    for k, name in enumerate(SOLO_NAMES[:4]):
        text = f"solo {name}"
        table = SOLO_TABLE[k]
        if text in legal and trump_count(hand, table) >= solo_trumps and high_trumps(hand, table) >= SOLO_HIGH:
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
    return trump_count(hand, NORMAL) >= SILENT_SOLO_TRUMPS and high_trumps(hand, NORMAL) >= SILENT_SOLO_HIGH


def should_announce(hand: Sequence[int], table: int, bock: int = 1, kontra: bool = False) -> bool:
    """A strong hand; in a bock deal (``bock``: the deal's multiplier) a surer one, and
    for Kontra too (``KONTRA_EXTRA_HIGH``)."""
    high = ANNOUNCE_HIGH + (BOCK_EXTRA_HIGH if bock > 1 else 0) + (KONTRA_EXTRA_HIGH if kontra else 0)
    return trump_count(hand, table) >= ANNOUNCE_TRUMPS and high_trumps(hand, table) >= high


def should_announce_no_90(hand: Sequence[int], table: int, bock: int = 1) -> bool:
    """Our team has announced; promise the others fewer than 90 points only with
    most of the trumps and the top ones among them (one more in a bock deal)."""
    high = NO_90_HIGH + (BOCK_EXTRA_HIGH if bock > 1 else 0)
    return trump_count(hand, table) >= NO_90_TRUMPS and high_trumps(hand, table) >= high


def against_solo(situation: Situation) -> bool:
    """A defender of a solo never announces: the soloist holds most of the trumps,
    so a defender's own trumps do not tell whether the three of them beat him (search
    announcing against solos won 3 of 13, docs/strength.md)."""
    contract = situation.contract
    return contract is not None and contract.is_solo and bool(situation.partners)


def should_accept(hand: Sequence[int]) -> bool:
    return trump_count(hand, NORMAL) >= ACCEPT_TRUMPS and high_trumps(hand, NORMAL) >= ACCEPT_HIGH


def triple_cost(text: str, table: int, giving: bool) -> tuple[float, ...]:
    """Giving: all trumps go anyway; give the fewest points.  Returning: keep
    trumps, return plain cards with the fewest points."""
    faces = [parse_card(c) for c in text.split()[1:]]
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
    table = situation.table
    if not against_solo(situation):
        if "re" in legal and should_announce(hand, table, bock):
            return "re"
        if "kontra" in legal and should_announce(hand, table, bock, kontra=True):
            return "kontra"
        if "no 90" in legal and should_announce_no_90(hand, table, bock):
            return "no 90"
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
    situation = world.situation(world.to_move)
    if situation.phase == Phase.PLAYING and legal[0] < 52:
        return choose_card(situation, list(legal))
    return world.parse_action(choose_text(situation, [world.action_text(a) for a in legal]))


def doppelkopf_state(state: GameState) -> DoppelkopfState:
    if not isinstance(state, DoppelkopfState):
        raise GameError(f"not a Doppelkopf deal: {type(state).__name__}")
    return state


def seat_value(state: GameState, seat: int) -> float:
    """A finished deal for ``seat``: his own game points (they sum to zero)."""
    return float(state.returns()[seat])


# -- fast playout (rollouts) --------------------------------------------------------
PLAYOUT_OPTIONS = frozenset({"second_heart_ten", "soloist_leads", "karlchen_only_by_winning", "poverty",
                             "ddv_scoring", "winner_doppelkopf_1"})
"""The options the fast playout follows: the state applies them all (it still takes
every card); an option it does not know (one that may change what a seat knows,
say) keeps the rollout in the real game."""


class _Knowledge:
    """Each seat's ``Situation`` parts that rarely change during a playout, kept
    between cards: its hand as faces (until it plays), its view of the contract
    (fixed once play starts) and of the teams (until a Q♣, an announcement or the
    marriage shows more)."""

    def __init__(self, world: DoppelkopfState):
        self.contracts = [public_contract(world, seat) for seat in range(4)]
        self.hands: dict[int, tuple[int, ...]] = {}
        self.partners: dict[tuple[int, ...], frozenset[int]] = {}

    def situation(self, world: DoppelkopfState, seat: int) -> Situation:
        """``world.situation(seat)`` (``build_situation``) from the kept parts."""
        hand_ids = world.hands[seat]
        hand = self.hands.get(hand_ids)
        if hand is None:
            faces = faces_of(hand_ids & FACE_MASK) + faces_of(hand_ids >> COPY_OFFSET & FACE_MASK)
            hand = self.hands[hand_ids] = tuple(sorted(faces))
        queens = world.queens_played
        evidence = (seat, world.announced, queens[0], queens[1], queens[2], queens[3], world.partner,
                    world.marriage_pending, hand_ids >> QC & 1, hand_ids >> (QC + COPY_OFFSET) & 1)
        partners = self.partners.get(evidence)
        if partners is None:
            partners = self.partners[evidence] = partners_of(seat, known_teams(world, seat))
        seen_ids = world.played | hand_ids
        twice = seen_ids & seen_ids >> COPY_OFFSET & FACE_MASK
        leader = world.leader
        trick = tuple(((leader + index) & 3, c) for index, c in enumerate(world.trick))
        return Situation(seat, Phase.PLAYING, self.contracts[seat], world.table, hand, trick,
                         face_mask(seen_ids) | twice << COPY_OFFSET, world.led_suits, partners)


def playout(state: GameState, seat: int) -> float | None:
    """Finish the card play: the state takes every action (so announcements' card
    counts, the marriage, the scoring and every option stay the game's), the rules
    choose a card from a ``Situation`` whose slow parts are kept between cards
    (``_Knowledge``); where an announcement is open the rollout policy itself
    decides, so the announcement rules are the bot's one set.  None before the play
    or under options it does not model."""
    world = doppelkopf_state(state)
    if world.phase != PLAYING or not models_options(world.spec, world.options, PLAYOUT_OPTIONS):
        return None
    knowledge = _Knowledge(world)
    while world.phase == PLAYING:
        legal = world.legal_actions()
        if len(legal) == 1:
            world.apply(legal[0])
        elif legal[0] < 52:
            world.apply(choose_card(knowledge.situation(world, world.turn), list(legal)))
        else:
            world.apply(heuristic_action(world))
    return seat_value(world, seat)


# -- search ------------------------------------------------------------------------
ANNOUNCEMENTS = frozenset({"re", "kontra", "no 90", "no 60", "no 30", "schwarz"})
NO_TRUMP_SOLO = "solo aces"
"""The ace solo (Fleischloser) has no trumps, and the rules' card play, which the
rollouts use, is made for games with trumps: rollouts overrate it (search in all
seats chose it in 10 of 118 deals and won 4; its other solos won 8 of 8)."""


def distinct_actions(obs: Observation) -> list[str]:
    """The candidates search tries: every legal action, but an announcement only
    where the rules make it (search may still hold one back), and the ace solo only
    where the rules choose it (a compulsory one).  Rollouts see the
    partner's cards and sample the others' hands without what their reservations
    and announcements say, so announcing looks better than it is: with search in
    all seats, announcements the rules would not have made won only 52 % (no 90: 44 %;
    against solos: 23 %), far below the 80 % a player respects (issue 14, docs/strength.md)."""
    legal = list(obs.legal)
    rules = heuristic_text(obs)
    if NO_TRUMP_SOLO in legal and "healthy" in legal and rules != NO_TRUMP_SOLO:
        legal.remove(NO_TRUMP_SOLO)
    if ANNOUNCEMENTS.isdisjoint(legal) or rules in ANNOUNCEMENTS:
        return legal
    return [text for text in legal if text not in ANNOUNCEMENTS]


SEARCH = SearchGame(SPEC, heuristic_action, seat_value, rules=heuristic_text, playout=playout)

ROLLOUTS_PER_MS = 0.6
"""Rollouts per millisecond of budget on the 2-core machine (a Doppelkopf rollout
plays up to 48 cards), with margin (see docs/strength.md)."""


def worlds_for(budget_ms: float, actions: int = 1) -> int:
    return max(3, int(budget_ms * ROLLOUTS_PER_MS / max(1, actions)))
