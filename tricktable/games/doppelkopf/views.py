"""Building one seat's ``DoppelkopfObservation`` from a deal state (what it shows
and hides is listed in ``tricktable.games.doppelkopf.observation``)."""

from __future__ import annotations

from typing import Sequence

from tricktable.cards import COPY_OFFSET, cards_of
from tricktable.games.doppelkopf.actions import HEALTHY
from tricktable.games.doppelkopf import house
from tricktable.games.doppelkopf import state as st
from tricktable.games.doppelkopf.observation import (
    Contract,
    DoppelkopfObservation,
    Marriage,
    Outcome,
    Phase,
    Poverty,
    Result,
    Situation,
    Team,
    frozen_options,
    partners_of,
)
from tricktable.games.doppelkopf.rules import FACE_MASK, NORMAL, SOLO_NAMES, face_mask, faces_of
from tricktable.games.doppelkopf.state import DoppelkopfState

TEAMS = (Team.RE, Team.KONTRA)
"""``Team`` by the rules' team number (``RE``, ``KONTRA``)."""
PHASES = tuple(Phase)
"""``Phase`` by the state's phase number (the same order)."""
CONTRACTS = {contract.value: contract for contract in Contract}
SOLOS = tuple(Contract.solo(index) for index in range(len(SOLO_NAMES)))


def build_observation(state: DoppelkopfState, seat: int) -> DoppelkopfObservation:
    done = state.phase == st.DONE
    contract = public_contract(state, seat)
    pigs, superpigs = house.known_pigs(state, seat)
    return DoppelkopfObservation(
        game=state.spec.name,
        seat=seat,
        to_move=state.to_move,
        hand=_hand(state.hands[seat]),
        actions=state.seen_actions(seat),
        legal=tuple(state.legal_texts_for(seat)),
        terminal=done,
        dealer=state.dealer,
        phase=PHASES[state.phase],
        hand_sizes=tuple(state.counts),
        reservations=_reservations(state, seat),
        contract=contract,
        declarer=state.declarer if contract and contract != Contract.NORMAL and state.declarer >= 0 else None,
        teams=known_teams(state, seat),
        levels=(state.levels[0], state.levels[1]),
        marriage=_marriage(state) if state.contract == st.MARRIAGE_GAME else None,
        poverty=_poverty(state, seat) if state.contract == st.POVERTY_GAME else None,
        leader=state.leader if state.phase == st.PLAYING or state.tricks else None,
        trick=st.seated(state.leader, state.trick),
        tricks=state.seen_tricks(),
        points_won=tuple(state.won_points),
        tricks_won=tuple(state.won_tricks),
        options=frozen_options(state.options),
        result=_result(state) if done else None,
        pigs=pigs,
        superpigs=superpigs,
        tournament=state.tournament,
    )


def build_situation(state: DoppelkopfState, seat: int) -> Situation:
    """``Situation.of(build_observation(state, seat))``, from the state's running
    tallies (search rollouts build one for every card)."""
    hand_ids = state.hands[seat]
    hand = tuple(sorted(faces_of(hand_ids & FACE_MASK) + faces_of(hand_ids >> COPY_OFFSET & FACE_MASK)))
    seen_ids = state.played | hand_ids
    once, twice = face_mask(seen_ids), seen_ids & seen_ids >> COPY_OFFSET & FACE_MASK
    leader = state.leader
    trick = tuple(((leader + index) & 3, c) for index, c in enumerate(state.trick))
    contract = public_contract(state, seat)
    table = state.table if state.pigs < 0 else house.known_table(state, seat, contract.table if contract else NORMAL)
    return Situation(seat, PHASES[state.phase], contract, table, hand, trick, once | twice << COPY_OFFSET,
                     state.led_suits, partners_of(seat, known_teams(state, seat)))


def _hand(mask: int) -> tuple[int, ...]:
    """The faces held, in face order; a face held twice appears as its two ids."""
    faces = sorted(c % COPY_OFFSET for c in cards_of(mask))
    return tuple(f + COPY_OFFSET if i and faces[i - 1] == f else f for i, f in enumerate(faces))


def public_contract(state: DoppelkopfState, seat: int) -> Contract | None:
    if not state.contract:
        return None
    if state.contract == st.SILENT_SOLO and seat != state.declarer and state.phase != st.DONE:
        return Contract.NORMAL
    if state.contract == st.SOLO_GAME:
        return SOLOS[state.solo]
    return CONTRACTS[state.contract]


def known_teams(state: DoppelkopfState, seat: int) -> tuple[Team | None, ...]:
    """Each seat's team as far as ``seat`` can tell from public facts and its own cards."""
    contract = state.contract
    if not contract:
        return (None,) * 4
    team = state.team
    if state.settlement is not None or contract == st.SOLO_GAME:
        return TEAMS[team[0]], TEAMS[team[1]], TEAMS[team[2]], TEAMS[team[3]]
    if contract in (st.MARRIAGE_GAME, st.POVERTY_GAME):
        if state.partner >= 0 or (contract == st.MARRIAGE_GAME and not state.marriage_pending):
            return TEAMS[team[0]], TEAMS[team[1]], TEAMS[team[2]], TEAMS[team[3]]
        return tuple(Team.RE if s == state.declarer else None for s in range(4))
    return _evidence(state, seat)


def _evidence(state: DoppelkopfState, seat: int) -> tuple[Team | None, ...]:
    """Normal game (or a silent solo that looks like one): Q♣ plays and
    announcements reveal teams; so do the viewer's own queens."""
    queens = list(state.queens_played)
    queens[seat] += state.queens_of_clubs(seat)
    teams: list[Team | None] = [Team.RE if q else None for q in queens]
    public = state.announced | 1 << seat
    for other in range(4):
        if public >> other & 1:
            teams[other] = TEAMS[state.team[other]]
    if sum(queens) == 2 or teams.count(Team.RE) == 2:
        teams = [t or Team.KONTRA for t in teams]
    return tuple(teams)


def _reservations(state: DoppelkopfState, seat: int) -> tuple[str | None, ...]:
    winner = state.winning_reservation() if state.phase != st.RESERVING else -1
    out: list[str | None] = []
    for s, action in enumerate(state.reservations):
        if action is None:
            out.append(None)
        elif action == HEALTHY or s == seat or s == winner:
            out.append(state.action_text(action))
        else:
            out.append(st.HIDDEN_RESERVATION)
    return tuple(out)


def _marriage(state: DoppelkopfState) -> Marriage:
    return Marriage(
        player=state.declarer,
        partner=state.partner if state.partner >= 0 else None,
        pending=state.marriage_pending,
        decided_in_trick=state.decided_in or None,
        alone=state.lone,
    )


def _poverty(state: DoppelkopfState, seat: int) -> Poverty:
    insider = seat == state.declarer or (seat == state.partner and state.partner >= 0)
    return Poverty(
        player=state.declarer,
        declined=tuple(state.declined),
        taker=state.partner if state.partner >= 0 else None,
        given=_faces(state.given) if insider and state.given else None,
        returned=_faces(state.returned) if insider and state.returned else None,
    )


def _faces(cards: Sequence[int]) -> tuple[int, ...]:
    return tuple(sorted(c % COPY_OFFSET for c in cards))


def _result(state: DoppelkopfState) -> Result:
    settlement = state.settlement
    winner = settlement.winner if settlement else None
    return Result(
        outcome=Outcome(state.outcome),
        winner=TEAMS[winner] if winner is not None else None,
        value=settlement.value if settlement else 0,
        points=tuple(state.returns()),
        lines=tuple(state.breakdown()),
    )
