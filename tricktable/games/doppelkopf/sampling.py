"""World sampling for Doppelkopf: a full deal consistent with one seat's obs.

The unseen cards are spread over the hidden places (the other hands, and the
three poverty cards while nobody has taken them) with ``assign_cards``, under
every public constraint: voids shown in play, team evidence (an announced
Kontra player never held Q♣, an announced Re player did), the marriage
player's two Q♣, the poverty rules as this seat saw the exchange (the poor
hand kept no trump; giver and taker know the cards that moved).  The deal the
cards came from is rebuilt and the public action list is **replayed** on it —
a hidden "Vorbehalt" becomes a reservation that hand could make and that loses
to the revealed one — so a sampled world is consistent by construction; a draw
that does not replay is drawn again.
"""

from __future__ import annotations

import random
from collections import Counter
from itertools import combinations
from typing import Any, Mapping, Protocol, Sequence

from tricktable.cards import COPY_OFFSET, KING, NINE, mask_of, rank_of
from tricktable.errors import GameError
from tricktable.core.memo import PerObservation
from tricktable.core.protocol import Deal
from tricktable.core.sampling import SamplingError, assign_cards
from tricktable.games.doppelkopf.actions import ANNOUNCE_RE, GIVE, HEALTHY, MARRIAGE, POVERTY, RETURN, THROW_IN, triple_code
from tricktable.games.doppelkopf import house
from tricktable.games.doppelkopf import state as st
from tricktable.games.doppelkopf.tournament import TournamentDeal
from tricktable.games.doppelkopf.observation import Contract, DoppelkopfObservation, Phase, Poverty, Team
from tricktable.games.doppelkopf.rules import (
    AD,
    FACE_MASK,
    FOLLOW,
    NORMAL,
    POVERTY_MAX_TRUMPS,
    QC,
    SOLO_TABLE,
    SUIT,
    TRUMP_MASK,
)


class DealMaker(Protocol):
    """What the sampling needs of the spec (``spec.DoppelkopfSpec``): a deal's state."""

    def new_deal(self, deal: Deal, options: Mapping[str, Any],
                 tournament: TournamentDeal | None = None) -> st.DoppelkopfState: ...


TRIES = 300
NORMAL_TRUMPS = TRUMP_MASK[NORMAL]


Places = list[list[int]]
"""Per seat, a list of faces."""
Rooms = dict[int, "int | None"]
"""Per seat, how many normal trumps its hidden cards may hold (``None``: any number)."""


class _Redraw(GameError):
    """This draw cannot be replayed; draw again."""


def _poverty(obs: DoppelkopfObservation) -> Poverty:
    if obs.poverty is None:
        raise _Redraw("no poverty in this deal")
    return obs.poverty


def _declarer(obs: DoppelkopfObservation) -> int:
    if obs.declarer is None:
        raise _Redraw("no declarer in this deal")
    return obs.declarer


def _normal_trumps(faces: list[int]) -> int:
    return sum(NORMAL_TRUMPS >> f & 1 for f in faces)


def sample_world(spec: DealMaker, obs: DoppelkopfObservation, rng: random.Random) -> st.DoppelkopfState:
    for _ in range(TRIES):
        try:
            return _attempt(spec, obs, rng)
        except (_Redraw, SamplingError, GameError):
            continue
    raise SamplingError("no deal consistent with this obs was found")


class _Problem:
    """Hidden places of one draw: per place a capacity, an allowed face mask,
    and the seat it belongs to (``None``: the poverty cards nobody holds)."""

    def __init__(self) -> None:
        self.owners: list[int | None] = []
        self.capacities: list[int] = []
        self.allowed: list[int] = []

        self.splits: list[tuple[int, int]] = []  # (index of a trump part, its most trumps)

    def add(self, owner: int | None, capacity: int, allowed: int) -> None:
        if capacity < 0:
            raise _Redraw("negative capacity")
        self.owners.append(owner)
        self.capacities.append(capacity)
        self.allowed.append(allowed)

    def add_poor(self, owner: int, capacity: int, allowed: int, room: int) -> None:
        """A hand with at most ``room`` normal trumps: a trump part and a plain
        part, whose sizes ``assign`` chooses."""
        if room < 0:
            raise _Redraw("too many trumps for a poor hand")
        self.splits.append((len(self.owners), min(room, capacity)))
        self.add(owner, 0, allowed & NORMAL_TRUMPS)
        self.add(owner, capacity, allowed & ~NORMAL_TRUMPS)

    def assign(self, rng: random.Random, ids: list[int]) -> list[list[int]]:
        """Place the cards, trying the sizes of the trump parts in random order."""
        allowed_ids = [mask | mask << COPY_OFFSET for mask in self.allowed]
        choices = [list(range(room + 1)) for _, room in self.splits]
        for sizes in _random_combinations(rng, choices, 12):
            capacities = list(self.capacities)
            for (index, _), size in zip(self.splits, sizes):
                capacities[index], capacities[index + 1] = size, capacities[index + 1] - size
            try:
                return assign_cards(rng, ids, capacities, allowed_ids)
            except SamplingError:
                continue
        raise _Redraw("no split of the poor hand fits")


def _random_combinations(rng: random.Random, choices: list[list[int]], limit: int) -> list[tuple[int, ...]]:
    combos: list[tuple[int, ...]] = [()]
    for options in choices:
        combos = [(*combo, o) for combo in combos for o in options]
    rng.shuffle(combos)
    return combos[:limit]


class _Public:
    """What the observation alone says about where the unseen cards may be: the same
    for every draw of one observation, so worked out once (``_PUBLIC``)."""

    def __init__(self, obs: DoppelkopfObservation):
        me, contract = obs.seat, obs.contract
        self.options = obs.options
        self.mine = [c % COPY_OFFSET for c in obs.hand]
        self.played = _played(obs)
        self.forced: list[list[int]] = [[], [], [], []]  # cards a hidden hand must hold
        self.allowed = [FACE_MASK & ~barred for barred in _voids(obs, obs.table)]
        self.not_void = list(self.allowed)
        self.known: Counter[int] = Counter()  # cards this seat knows lie face down
        self.limbo: list[int] | None = None
        if contract == Contract.NORMAL:
            _team_evidence(obs, self.played, self.forced, self.allowed)
        elif contract == Contract.MARRIAGE and obs.declarer is not None and obs.declarer != me:
            self.forced[obs.declarer] += [QC] * (2 - self.played[obs.declarer].count(QC))
        if obs.poverty is not None:
            self.limbo = _poverty_constraints(obs, self.played, self.forced, self.allowed, self.known)
        _pig_evidence(obs, self.played, self.forced, self.allowed)
        self.rooms = {seat: _poor_trump_room(obs, seat) for seat in range(4)}
        self.seen = self.mine + list(self.known.elements())
        self.losers = _hidden_losers(obs)
        self.unseen: list[int] | None = None  # the unseen cards once known for every draw


_PUBLIC: PerObservation[DoppelkopfObservation, _Public] = PerObservation(_Public)
"""The observation last sampled for and its ``_Public``."""


class _Constraints:
    """Everything public about where the unseen cards may be, for one draw: the
    observation's (``_Public``) and a random explanation of each hidden losing
    reservation."""

    def __init__(self, obs: DoppelkopfObservation, rng: random.Random):
        me, public = obs.seat, _PUBLIC.of(obs)
        self.public = public
        self.options, self.mine, self.played, self.known, self.limbo = (
            public.options, public.mine, public.played, public.known, public.limbo)
        self.forced = [list(cards) for cards in public.forced]
        self.allowed = list(public.allowed)
        self.rooms = dict(public.rooms)
        for seat in public.losers:
            _explain_loser(obs, seat, public.seen, self.played, self.forced, self.allowed, self.rooms, rng)
        not_void = public.not_void
        for seat in range(4):
            if seat != me and any(not not_void[seat] >> f & 1 for f in self.forced[seat]):
                raise _Redraw("a card this seat must hold is one it showed out of")

    def unseen(self) -> list[int]:
        """The cards left to place, as ids (a face's copies get distinct ids)."""
        public = self.public
        if public.unseen is not None:
            return public.unseen
        left = Counter({f: 2 for f in house.deck_faces(self.options)})
        left.subtract(self.mine)
        for seat in range(4):
            left.subtract(self.played[seat])
            left.subtract(self.forced[seat])
        left.subtract(self.known)
        if any(n < 0 for n in left.values()):
            raise _Redraw("more copies placed than exist")
        unseen = [f + COPY_OFFSET * k for f, n in left.items() for k in range(n)]
        if not public.losers:
            public.unseen = unseen  # no draw changes the forced cards
        return unseen


def _attempt(spec: DealMaker, obs: DoppelkopfObservation, rng: random.Random) -> st.DoppelkopfState:
    me = obs.seat
    facts = _Constraints(obs, rng)
    problem = _Problem()
    for seat in range(4):
        if seat != me:
            _add_seat(problem, obs, seat, facts.forced[seat], facts.allowed[seat], facts.rooms[seat])
    if facts.limbo is None and obs.poverty is not None and _limbo_hidden(obs):
        problem.add(None, 3, FACE_MASK)
    placed = problem.assign(rng, facts.unseen())
    current: list[list[int]] = [list(facts.forced[s]) for s in range(4)]
    current[me] = list(facts.mine)
    hidden_limbo: list[int] = []
    for owner, cards in zip(problem.owners, placed):
        target = hidden_limbo if owner is None else current[owner]
        target += [c % COPY_OFFSET for c in cards]
    dealt = _dealt(obs, current, facts.played, facts.limbo or hidden_limbo, rng)
    template = _TEMPLATE[0]
    replayed = template is not None and template[0] is obs
    world = (_on_deal(template[1], template[2], obs, dealt, rng) if template is not None and replayed
             else _replay(spec, obs, rng, dealt))
    if house.known_pigs(world, me) != (obs.pigs, obs.superpigs):
        # e.g. a ♦9 played without showing superpigs, in a world where pigs are held
        raise _Redraw("this draw shows the seat other pigs")
    if not replayed and world.phase != st.DONE:
        _TEMPLATE[0] = (obs, world.clone(), _plays(world))
    return world


def _played(obs: DoppelkopfObservation) -> list[list[int]]:
    played: list[list[int]] = [[], [], [], []]
    for trick in [t.cards for t in obs.tricks] + [obs.trick]:
        for seat, face in trick:
            played[seat].append(face)
    return played


def _voids(obs: DoppelkopfObservation, table: int) -> list[int]:
    """Per seat, the faces it cannot hold: it did not follow a led suit."""
    barred = [0, 0, 0, 0]
    suit = SUIT[table]
    for trick in [t.cards for t in obs.tricks] + ([obs.trick] if obs.trick else []):
        led = suit[trick[0][1]]
        for seat, face in trick[1:]:
            if suit[face] != led:
                barred[seat] |= FOLLOW[table][led]
    return barred


def _team_evidence(obs: DoppelkopfObservation, played: list[list[int]], forced: list[list[int]],
                   allowed: list[int]) -> None:
    """A looks-normal game: a known Kontra player never held Q♣; a known Re
    player who has not played his Q♣ still holds one."""
    for seat, team in enumerate(obs.teams):
        if seat == obs.seat or team is None:
            continue
        if team == Team.KONTRA:
            allowed[seat] &= ~(1 << QC)
        elif QC not in played[seat]:
            forced[seat].append(QC)


def _pig_evidence(obs: DoppelkopfObservation, played: Places, forced: Places, allowed: list[int]) -> None:
    """House rules: shown pigs (superpigs) are still held by their holder; a ♦A played
    without showing pigs tells that its player did not hold both (whoever else may)."""
    if not obs.options["schweinchen"] or obs.contract is None or obs.contract.table not in house.PIG_CONTRACT_TABLES:
        return
    for holder, pig in ((obs.pigs, AD), (obs.superpigs, house.superpig_face(obs.options))):
        if holder is not None and holder != obs.seat:
            forced[holder] += [pig] * (2 - played[holder].count(pig))
    for seat in range(4):
        if seat != obs.seat and seat != obs.pigs and AD in played[seat]:
            allowed[seat] &= ~(1 << AD)


def _limbo_hidden(obs: DoppelkopfObservation) -> bool:
    """The three poverty cards lie face down between giver and taker, unknown to this seat."""
    info = _poverty(obs)
    return info.taker is None and info.given is None and obs.phase != Phase.GIVING


def _poverty_constraints(obs: DoppelkopfObservation, played: Places, forced: Places, allowed: list[int],
                         known: Counter[int]) -> list[int] | None:
    """Constraints of the exchange as this seat saw it; returns the face-down
    cards when this seat knows them and nobody holds them yet."""
    me, info = obs.seat, _poverty(obs)
    giver, taker = info.player, info.taker
    given = list(info.given or ())
    returned = list(info.returned or ())
    phase = obs.phase
    if phase == Phase.GIVING:
        return None  # the poor hand is still whole: ≤ 3 trumps (see _add_seat)
    if me == giver:
        if taker is None:
            known.update(given)  # face down on the table
            return given
        if not returned:
            forced[taker] += given  # the taker holds them while choosing what to return
        else:
            forced[taker] += list((Counter(given) - Counter(returned) - Counter(played[taker])).elements())
        return None
    if me == taker:
        # The poor player kept no trump: his cards other than the returned ones are plain.
        allowed[giver] &= ~NORMAL_TRUMPS
        if returned:
            forced[giver] += list((Counter(returned) - Counter(played[giver])).elements())
        return None
    if phase in (Phase.OFFERING, Phase.RETURNING) or (
        phase == Phase.DONE and not obs.tricks
    ):
        allowed[giver] &= ~NORMAL_TRUMPS  # all his trumps went into the three cards
    return None


def _hidden_losers(obs: DoppelkopfObservation) -> list[int]:
    """Seats whose reservation lost and stays hidden, which a solo cannot
    explain (it would not have lost): they had a poverty or a marriage hand."""
    winner = obs.declarer
    if obs.contract in (None, Contract.NORMAL, Contract.SILENT_SOLO) or winner is None:
        return []
    order = [(obs.dealer + k) % 4 for k in range(1, 5)]
    solo_won = obs.contract is not None and obs.contract.is_solo
    return [seat for seat, text in enumerate(obs.reservations)
            if text == st.HIDDEN_RESERVATION and not (solo_won and order.index(seat) > order.index(winner))]


def _explain_loser(obs: DoppelkopfObservation, seat: int, mine: list[int], played: Places, forced: Places,
                   allowed: list[int], rooms: Rooms, rng: random.Random) -> None:
    """Make the hidden losing reservation of ``seat`` possible: both Q♣ in
    its hand (marriage) or at most three trumps (poverty), chosen at random
    among what the seen cards allow.  Exchange partners are left to redrawing."""
    info = obs.poverty
    if info is not None and seat == info.taker:
        _explain_taker(obs, seat, mine, played, forced, allowed, rooms, rng)
        return
    seen_elsewhere = mine.count(QC) + sum(p.count(QC) for s, p in enumerate(played) if s != seat)
    still_held = 2 - played[seat].count(QC)
    marriage_fits = seen_elsewhere == 0 and not any(QC in f for f in forced) and (
        still_held == 0 or allowed[seat] >> QC & 1)
    choices = ["marriage"] if marriage_fits else []
    order = [(obs.dealer + k) % 4 for k in range(1, 5)]
    after = order.index(seat) > order.index(_declarer(obs))
    solo_won = obs.contract is not None and obs.contract.is_solo
    if obs.options["poverty"] and (solo_won or after):
        choices.append("poverty")
    if obs.options["throwing_in"] and solo_won:
        choices.append("throw in")  # throwing in loses only to a solo
    if not choices:
        raise _Redraw("no reservation explains this Vorbehalt")
    choice = rng.choice(choices)
    if choice == "marriage":
        forced[seat] += [QC] * still_held
    elif choice == "throw in":
        _explain_throw_in(obs, seat, mine, played, forced, rng)
    else:
        rooms[seat] = POVERTY_MAX_TRUMPS - sum(NORMAL_TRUMPS >> f & 1 for f in played[seat])


def _explain_throw_in(obs: DoppelkopfObservation, seat: int, seen: list[int], played: Places, forced: Places,
                      rng: random.Random) -> None:
    """Five nines or five kings in the hand of ``seat``, drawn from the copies not seen elsewhere."""
    ranks = [KING] if house.without_nines(obs.options) else [NINE, KING]
    rank = rng.choice(ranks)
    left = Counter({f: 2 for f in house.deck_faces(obs.options) if rank_of(f) == rank})
    left.subtract(f for f in seen if rank_of(f) == rank)
    for other in range(4):
        left.subtract(f for f in played[other] + forced[other] if rank_of(f) == rank)
    need = house.THROW_IN_CARDS - sum(1 for f in played[seat] + forced[seat] if rank_of(f) == rank)
    pool = list(left.elements())
    if need > len(pool):
        raise _Redraw("too few of these cards left for a hand thrown in")
    forced[seat] += rng.sample(pool, max(need, 0))


def _loser_choices(obs: DoppelkopfObservation, seat: int) -> list[str]:
    """The reservations a hidden loser in a poverty game may have made."""
    order = [(obs.dealer + k) % 4 for k in range(1, 5)]
    after = order.index(seat) > order.index(_declarer(obs))
    return ["marriage", "poverty"] if after else ["marriage"]


def _explain_taker(obs: DoppelkopfObservation, seat: int, seen: list[int], played: Places, forced: Places,
                   allowed: list[int], rooms: Rooms, rng: random.Random) -> None:
    """The poverty taker's own hidden reservation.  Seen from outside, the
    exchange is drawn later to fit it (``_exchange``); the giver, who knows the
    cards that moved, constrains the taker's hidden cards here."""
    if obs.phase == Phase.OFFERING:
        return
    if obs.seat != _poverty(obs).player:
        _explain_taker_from_outside(obs, seat, seen, played, allowed, rooms, rng)
        return
    info = _poverty(obs)
    given = list(info.given or ())
    returned = list(info.returned or ())
    moved = played[seat] + returned
    if rng.choice(_loser_choices(obs, seat)) == "marriage":
        missing = 2 - moved.count(QC) + given.count(QC) - forced[seat].count(QC)
        forced[seat] += [QC] * max(missing, 0)
    else:
        rooms[seat] = POVERTY_MAX_TRUMPS - _normal_trumps(moved) + _normal_trumps(given)


def _explain_taker_from_outside(obs: DoppelkopfObservation, seat: int, seen: list[int], played: Places,
                                allowed: list[int], rooms: Rooms, rng: random.Random) -> None:
    """Without knowing the exchange.  A marriage taker: both Q♣ end up with
    taker or giver (a Q♣ the taker returned is in the giver's hand, which keeps
    no other trump), so nobody else may hold one.  A poor taker: his cards after
    the exchange hold at most his own three trumps plus the three given (a
    necessary bound).  ``_draw_given`` then picks given cards that fit exactly."""
    giver = _poverty(obs).player
    choices = _loser_choices(obs, seat)
    others_queens = seen.count(QC) + sum(p.count(QC) for s, p in enumerate(played) if s not in (seat, giver))
    if others_queens:
        choices = [c for c in choices if c != "marriage"]
    if not choices:
        raise _Redraw("no reservation explains the taker's Vorbehalt")
    if rng.choice(choices) == "marriage":
        for other in range(4):
            if other not in (seat, giver):
                allowed[other] &= ~(1 << QC)
    else:
        rooms[seat] = 2 * POVERTY_MAX_TRUMPS - sum(NORMAL_TRUMPS >> f & 1 for f in played[seat])


def _add_seat(problem: _Problem, obs: DoppelkopfObservation, seat: int, forced: list[int], allowed: int,
              cap_trumps: int | None) -> None:
    capacity = obs.hand_sizes[seat] - len(forced)
    if cap_trumps is None:
        problem.add(seat, capacity, allowed)
        return
    problem.add_poor(seat, capacity, allowed, cap_trumps - sum(NORMAL_TRUMPS >> f & 1 for f in forced))


def _poor_trump_room(obs: DoppelkopfObservation, seat: int) -> int | None:
    """How many normal trumps ``seat``'s hidden cards may hold if it is the poor
    player seen from outside after (or before) the exchange; else ``None``."""
    info = obs.poverty
    if info is None or info.player != seat or obs.seat == info.taker:
        return None
    if obs.phase not in (Phase.GIVING, Phase.PLAYING, Phase.DONE):
        return None
    if obs.phase == Phase.DONE and not obs.tricks:
        return None
    played = [face for trick in [t.cards for t in obs.tricks] + [obs.trick] for s, face in trick if s == seat]
    return POVERTY_MAX_TRUMPS - sum(NORMAL_TRUMPS >> f & 1 for f in played)


def _dealt(obs: DoppelkopfObservation, current: list[list[int]], played: list[list[int]], limbo: list[int],
           rng: random.Random) -> tuple[list[list[int]], list[int], list[int]]:
    """The dealt hands (and the poverty cards given and returned) behind the
    current holdings."""
    dealt = [current[s] + played[s] for s in range(4)]
    info = obs.poverty
    if info is None or obs.phase == Phase.GIVING:
        return dealt, [], []
    giver, taker = info.player, info.taker
    given = list(info.given or ())
    returned = list(info.returned or ())
    if taker is None:  # offered, not (yet) taken: the cards lie face down
        dealt[giver] += limbo
        return dealt, sorted(limbo), []
    exchanged = obs.phase not in (Phase.RETURNING,)
    if not exchanged:
        if not given:
            given = _draw_given(obs, dealt[taker], rng)
        dealt[taker] = _minus(dealt[taker], given)
        dealt[giver] += given
        return dealt, given, []
    if not returned:
        trumps = [f for f in dealt[giver] if NORMAL_TRUMPS >> f & 1]
        plain = [f for f in dealt[giver] if not NORMAL_TRUMPS >> f & 1]
        if len(trumps) > POVERTY_MAX_TRUMPS:
            raise _Redraw("the poor hand kept a trump")
        returned = trumps + rng.sample(plain, 3 - len(trumps))
    pool = dealt[taker] + returned
    if not given:
        given = _draw_given(obs, pool, rng)
    dealt[taker] = _minus(pool, given)
    dealt[giver] = _minus(dealt[giver], returned) + given
    return dealt, given, returned


def _draw_given(obs: DoppelkopfObservation, pool: list[int], rng: random.Random) -> list[int]:
    """Three of the taker's fifteen cards as the unseen poverty cards — such that
    the taker's dealt hand fits his hidden reservation, if he made one."""
    taker = _poverty(obs).taker
    if taker is None or obs.reservations[taker] != st.HIDDEN_RESERVATION:
        return rng.sample(pool, 3)
    fits = []
    allowed = _loser_choices(obs, taker)
    for combo in combinations(range(len(pool)), 3):
        dealt = [f for i, f in enumerate(pool) if i not in combo]
        if ("marriage" in allowed and dealt.count(QC) == 2) or (
            "poverty" in allowed and sum(NORMAL_TRUMPS >> f & 1 for f in dealt) <= POVERTY_MAX_TRUMPS
        ):
            fits.append([pool[i] for i in combo])
    if not fits:
        raise _Redraw("the taker's hand fits no reservation")
    return rng.choice(fits)


def _minus(cards: list[int], remove: list[int]) -> list[int]:
    left = Counter(cards)
    left.subtract(remove)
    if any(n < 0 for n in left.values()):
        raise _Redraw("cards to remove are not there")
    return list(left.elements())


def _ids(dealt: list[list[int]]) -> tuple[tuple[tuple[int, ...], ...], list[int]]:
    """Give each face's two copies their two ids (the first dealt the face's own): the
    hands as ids, and as id masks."""
    seen = 0
    hands, masks = [], []
    for hand in dealt:
        ids = []
        mask = 0
        for f in hand:
            bit = 1 << f
            if seen & bit:
                f += COPY_OFFSET
                bit <<= COPY_OFFSET
            else:
                seen |= bit
            ids.append(f)
            mask |= bit
        hands.append(tuple(ids))
        masks.append(mask)
    return tuple(hands), masks


Dealt = tuple[list[list[int]], list[int], list[int]]
"""The dealt hands (faces), the poverty cards given and those returned."""


def _check_sizes(obs: DoppelkopfObservation, dealt: list[list[int]]) -> None:
    size = house.hand_size(obs.options)
    if len(dealt[0]) != size or len(dealt[1]) != size or len(dealt[2]) != size or len(dealt[3]) != size:
        raise _Redraw(f"hands of sizes {[len(h) for h in dealt]}")


def _revealed_winner(obs: DoppelkopfObservation) -> int:
    """The seat whose reservation won and is public, or -1."""
    return obs.declarer if obs.declarer is not None and obs.contract not in (
        None, Contract.NORMAL, Contract.SILENT_SOLO) else -1


def _replay(spec: DealMaker, obs: DoppelkopfObservation, rng: random.Random,
            dealt_given_returned: Dealt) -> st.DoppelkopfState:
    dealt, given, returned = dealt_given_returned
    _check_sizes(obs, dealt)
    state = spec.new_deal(Deal(obs.dealer, _ids(dealt)[0]), obs.options, obs.tournament)
    winner = _revealed_winner(obs)
    for actor, text in obs.actions:
        if text == st.HIDDEN_RESERVATION:
            action = _hidden_reservation(state.legal_actions(), actor, obs, winner, rng)
        elif text == st.HIDDEN_GIVE:
            action = GIVE + triple_code(given)
        elif text == st.HIDDEN_RETURN:
            action = RETURN + triple_code(returned)
        else:
            action = state.parse_action(text)
        # An announcement may come from a seat that is not to move; anything else
        # by the wrong seat means this draw left the view's turn order.
        state.apply_for(actor, action)
    return state


def _hidden_reservation(legal: Sequence[int], seat: int, obs: DoppelkopfObservation, winner: int,
                        rng: random.Random) -> int:
    """A reservation ``seat``'s hand could make (``legal``) that is consistent with the
    outcome: before the reveal any will do; after it, one the revealed reservation beats."""
    options = [a for a in legal if a != HEALTHY]
    if winner >= 0:
        winning = st.parse_action(obs.reservations[winner] or "healthy")
        order = [(obs.dealer + k) % 4 for k in range(1, 5)]
        rank = st.reservation_rank(winning)
        later = order.index(seat) > order.index(winner)
        options = [a for a in options
                   if st.reservation_rank(a) < rank or (st.reservation_rank(a) == rank and later)]
    if not options:
        raise _Redraw("this hand could not have made a losing reservation")
    return rng.choice(options)


Play = tuple[int, int, int]
"""A card played: (seat, face, the face that led its trick, -1 for the lead)."""

_TEMPLATE: list[tuple[DoppelkopfObservation, st.DoppelkopfState, list[Play]] | None] = [None]
"""The observation last sampled for, its first world, replayed, and the cards played
in it (``_plays``).  The search's further worlds for the same observation are that
state on another deal (``_on_deal``) instead of a replay each (most of a world's
cost).  One entry, read and replaced whole: searches in several threads only ever
miss it."""


_HAND_MADE = frozenset({MARRIAGE, POVERTY, THROW_IN})
"""The reservations a hand must allow (healthy and the solos are always open to the
seat that may speak, the compulsory soloist's solos included)."""


def _on_deal(replayed: st.DoppelkopfState, plays: list[Play], obs: DoppelkopfObservation,
             dealt_given_returned: Dealt, rng: random.Random) -> st.DoppelkopfState:
    """``replayed`` (the public actions replayed on another deal of ``obs``, whose cards
    played are ``plays``) as the
    same replay on this deal would leave it, or ``_Redraw`` where that replay would
    fail.  The public actions write the same public facts whatever the hands; what
    the hands decide is done again here, in the replay's order: the hidden
    reservations (drawn as the replay draws them, ``_hidden_reservation``) and the
    legality of the public ones, the teams of a normal game (a silent solo), the
    cards the poverty exchange moves, the pigs and superpigs, and the copies the
    cards played leave in each hand.  The tricks need no replay: the worlds of one
    observation show the same pigs (``_attempt``), so every trick has the same winner."""
    dealt, given, returned = dealt_given_returned
    _check_sizes(obs, dealt)
    state = replayed.clone()
    state.forget_seen()  # its hidden actions are drawn below: views spell anew
    ids, hands = _ids(dealt)
    state.deal = Deal(obs.dealer, ids)
    state.hands = hands
    state.forget_legal()
    history = state.history
    winner = _revealed_winner(obs)
    for index, (actor, text) in enumerate(obs.actions):
        action = history[index]
        if not HEALTHY <= action < ANNOUNCE_RE:
            break  # the reservations come first
        if text == st.HIDDEN_RESERVATION:
            legal = state.reservation_options(actor)
            action = history[index] = state.reservations[actor] = _hidden_reservation(legal, actor, obs, winner, rng)
        elif action in _HAND_MADE and action not in state.reservation_options(actor):
            raise _Redraw("this hand cannot make the reservation it made")
    if replayed.phase == st.RESERVING:
        return state
    if replayed.contract in (st.NORMAL_GAME, st.SILENT_SOLO):
        state.lone, state.declarer = False, -1
        state.start_normal()
        if any(state.announced >> seat & 1 and state.team[seat] != replayed.team[seat] for seat in range(4)):
            raise _Redraw("an announcement made for the other team")
    if state.given:
        _exchange(state, replayed, dealt, given, returned)
    if replayed.phase == st.PLAYING:
        _play_again(state, plays)
    return state


def _exchange(state: st.DoppelkopfState, replayed: st.DoppelkopfState, dealt: list[list[int]], given: list[int],
              returned: list[int]) -> None:
    """The poverty exchange on this deal: the poor hand gives all its trumps among
    the three cards, the taker holds them and returns three."""
    giver, hands, history = state.declarer, state.hands, state.history
    if _normal_trumps(dealt[giver]) != _normal_trumps(given):
        raise _Redraw("the poor hand kept a trump")
    hands[giver], state.given = _take(hands[giver], given)
    moves = [index for index, action in enumerate(history) if action >= GIVE]
    history[moves[0]] = GIVE + triple_code(given)
    if replayed.partner < 0:
        return
    hands[state.partner] |= mask_of(state.given)
    if replayed.returned:
        hands[state.partner], state.returned = _take(hands[state.partner], returned)
        hands[giver] |= mask_of(state.returned)
        history[moves[1]] = RETURN + triple_code(returned)


def _take(hand: int, faces: list[int]) -> tuple[int, tuple[int, ...]]:
    """Three faces out of an id mask as the state takes them (``st.remove_face``, in
    face order): the mask left and the ids taken."""
    taken = []
    for face in sorted(faces):
        if not (hand >> face | hand >> (face + COPY_OFFSET)) & 1:
            raise _Redraw("a card to pass on is not in the hand")
        hand, card_id = st.remove_face(hand, face)
        taken.append(card_id)
    return hand, tuple(taken)


def _plays(state: st.DoppelkopfState) -> list[Play]:
    """Every card played in ``state``'s deal so far, in order."""
    plays = []
    for leader, cards in [(t[0], t[1]) for t in state.tricks] + [(state.leader, state.trick)]:
        for index, face in enumerate(cards):
            plays.append(((leader + index) & 3, face, cards[0] if index else -1))
    return plays


def _play_again(state: st.DoppelkopfState, plays: list[Play]) -> None:
    """From the holdings at the first card: the pigs and superpigs (``find_pigs``),
    then every card played (``plays``), as ``DoppelkopfState._play`` takes it (one copy
    out of the hand, a pig shown), checked as ``apply`` checks it (held, suit followed)."""
    state.table = SOLO_TABLE[state.solo] if state.solo >= 0 else NORMAL
    state.pigs = state.superpigs = -1
    house.find_pigs(state)
    hands, table = state.hands, state.table
    suit, follow = SUIT[table], FOLLOW[table]
    played = 0
    for seat, face, led in plays:
        hand = hands[seat]
        faces = (hand | hand >> COPY_OFFSET) & FACE_MASK
        if led >= 0:
            faces = faces & follow[suit[led]] or faces
        if not faces >> face & 1:
            raise _Redraw("a card played that this hand could not play")
        bit = 1 << face
        if not hand & bit:
            bit <<= COPY_OFFSET
        hands[seat] = hand ^ bit
        played |= bit
    state.played = played
    pigs, superpigs, superpig = state.pigs, state.superpigs, house.superpig_face(state.options)
    state.pigs_shown = pigs >= 0 and any(seat == pigs and face == AD for seat, face, _ in plays)
    state.superpigs_shown = superpigs >= 0 and any(seat == superpigs and face == superpig for seat, face, _ in plays)
