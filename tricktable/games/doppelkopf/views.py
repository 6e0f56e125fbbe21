"""What one seat of a Doppelkopf deal may know (``DoppelkopfState.view``).

Never shown: another hand; a reservation other than "healthy" before it wins
(others read "Vorbehalt", and a losing one stays hidden); the three poverty
cards (only giver and taker see them, the taker once he has accepted) and the
three returned (giver and taker); a team before it is public (a played Q♣, an
announcement, or a contract that fixes the teams); a silent solo before the
deal ends (it looks like a normal game to the others).
"""

from __future__ import annotations

from typing import Any

from tricktable.cards import COPY_OFFSET, card_text, cards_of
from tricktable.games.doppelkopf import state as st
from tricktable.games.doppelkopf.rules import ANNOUNCE_NAMES, QC, TEAM_NAMES, TRUMP_ORDER
from tricktable.games.doppelkopf.state import DoppelkopfState


def build_view(state: DoppelkopfState, seat: int) -> dict[str, Any]:
    done = state.phase == st.DONE
    to_move = state.to_move
    contract = public_contract(state, seat)
    view: dict[str, Any] = {
        "game": state.spec.name,
        "seat": seat,
        "dealer": state.dealer,
        "phase": st.PHASE_NAMES[state.phase],
        "to_move": to_move,
        "hand": _texts(cards_of(state.hands[seat])),
        "hand_sizes": list(state.counts),
        "reservations": _reservations(state, seat),
        "contract": contract,
        "trumps": [card_text(c) for c in TRUMP_ORDER[state.table]] if contract else None,
        "declarer": state.declarer if contract and contract != st.NORMAL_GAME and state.declarer >= 0 else None,
        "teams": known_teams(state, seat),
        "announcements": {name: (ANNOUNCE_NAMES[level] if level > 0 else name) if level >= 0 else None
                          for name, level in zip(TEAM_NAMES, state.levels)},
        "marriage": _marriage(state) if state.contract == st.MARRIAGE_GAME else None,
        "poverty": _poverty(state, seat) if state.contract == st.POVERTY_GAME else None,
        "leader": state.leader if state.phase == st.PLAYING or state.tricks else None,
        "trick": _plays(state.leader, state.trick),
        "tricks": [{"leader": leader, "cards": _plays(leader, cards), "winner": winner, "points": points}
                   for leader, cards, winner, points in state.tricks],
        "points_won": list(state.won_points),
        "tricks_won": list(state.won_tricks),
        "actions": _actions(state, seat),
        "legal": state.legal_texts_for(seat),
        "terminal": done,
        "options": dict(state.options),
    }
    if done:
        view["result"] = _result(state)
    return view


def _plays(leader: int, cards: Any) -> list[list[Any]]:
    return [[(leader + index) % 4, card_text(c)] for index, c in enumerate(cards)]


def public_contract(state: DoppelkopfState, seat: int) -> str | None:
    if not state.contract:
        return None
    if state.contract == st.SILENT_SOLO and seat != state.declarer and state.phase != st.DONE:
        return st.NORMAL_GAME
    if state.contract == st.SOLO_GAME:
        return f"solo {st.SOLO_NAMES[state.solo]}"
    return state.contract


def known_teams(state: DoppelkopfState, seat: int) -> list[str | None]:
    """Each seat's team as far as ``seat`` can tell from public facts and its own cards."""
    actual = [TEAM_NAMES[t] for t in state.team]
    contract = state.contract
    if not contract:
        return [None] * 4
    if state.settlement is not None or contract == st.SOLO_GAME:
        return actual
    if contract in (st.MARRIAGE_GAME, st.POVERTY_GAME):
        if state.partner >= 0 or (contract == st.MARRIAGE_GAME and not state.marriage_pending):
            return actual
        return [TEAM_NAMES[st.RE] if s == state.declarer else None for s in range(4)]
    return _evidence(state, seat, actual)


def _evidence(state: DoppelkopfState, seat: int, actual: list[str]) -> list[str | None]:
    """Normal game (or a silent solo that looks like one): Q♣ plays and
    announcements reveal teams; so do the viewer's own queens."""
    queens = [0, 0, 0, 0]
    for leader, cards, _, _ in [*state.tricks, (state.leader, state.trick, 0, 0)]:
        for index, c in enumerate(cards):
            queens[(leader + index) % 4] += c == QC
    queens[seat] += state._queens_of_clubs(seat)
    teams: list[str | None] = ["re" if q else None for q in queens]
    for actor, action in zip(state._actors, state.history):
        if st.ANNOUNCE_RE <= action <= st.SCHWARZ:
            teams[actor] = actual[actor]
    teams[seat] = actual[seat]
    if sum(queens) == 2 or teams.count("re") == 2:
        teams = [t or "kontra" for t in teams]
    return teams


def _reservations(state: DoppelkopfState, seat: int) -> list[str | None]:
    winner = state.winning_reservation() if state.phase != st.RESERVING else -1
    out: list[str | None] = []
    for s, action in enumerate(state.reservations):
        if action is None:
            out.append(None)
        elif action == st.HEALTHY or s == seat or s == winner:
            out.append(state.action_text(action))
        else:
            out.append(st.HIDDEN_RESERVATION)
    return out


def _actions(state: DoppelkopfState, seat: int) -> list[list[Any]]:
    winner = state.winning_reservation() if state.phase != st.RESERVING else -1
    insiders = (state.declarer, state.partner)
    out = []
    for actor, action in zip(state._actors, state.history):
        if st.HEALTHY < action < st.ANNOUNCE_RE and actor != seat and actor != winner:
            text = st.HIDDEN_RESERVATION
        elif action >= st.RETURN:
            text = state.action_text(action) if seat in insiders else st.HIDDEN_RETURN
        elif action >= st.GIVE:
            text = state.action_text(action) if seat in insiders else st.HIDDEN_GIVE
        else:
            text = state.action_text(action)
        out.append([actor, text])
    return out


def _marriage(state: DoppelkopfState) -> dict[str, Any]:
    return {
        "player": state.declarer,
        "partner": state.partner if state.partner >= 0 else None,
        "pending": state.marriage_pending,
        "decided_in_trick": state.decided_in or None,
        "alone": state.lone,
    }


def _poverty(state: DoppelkopfState, seat: int) -> dict[str, Any]:
    insider = seat == state.declarer or (seat == state.partner and state.partner >= 0)
    return {
        "player": state.declarer,
        "declined": list(state.declined),
        "taker": state.partner if state.partner >= 0 else None,
        "given": _texts(state.given) if insider and state.given else None,
        "returned": _texts(state.returned) if insider and state.returned else None,
    }


def _texts(cards: Any) -> list[str]:
    """Card texts in face order (which copy a player holds is not observable)."""
    return [card_text(c) for c in sorted(c % COPY_OFFSET for c in cards)]


def _result(state: DoppelkopfState) -> dict[str, Any]:
    settlement = state.settlement
    return {
        "outcome": state.outcome,
        "winner": TEAM_NAMES[settlement.winner] if settlement and settlement.winner is not None else None,
        "value": settlement.value if settlement else 0,
        "points": state.returns(),
        "lines": [line.to_json() for line in state.breakdown()],
    }
