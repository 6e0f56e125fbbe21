"""Building Euchre positions from card text for scenario tests."""

from __future__ import annotations

from typing import Any

from tricktable.games.euchre import SPEC, EuchreState

# Deal A: seat 0 holds both bowers and the top hearts; 9H is the up-card.
DEAL_A = {
    "dealer": 3,
    "hands": ["JH JD AH KH QH", "9C 10C JC QC KC", "AC 9S 10S JS QS", "KS AS 9D 10D QD"],
    "rest": "9H 10H KD AD",
}
# Deal B: seat 0 holds three top trumps in hearts and two losers.
DEAL_B = {
    "dealer": 3,
    "hands": ["JH JD AH 9C 9S", "10C JC QC KC AC", "10S JS QS KS AS", "9D 10D QD KD AD"],
    "rest": "9H 10H QH KH",
}


def position(deal: dict[str, Any], actions: list[str] = (), **options: Any) -> EuchreState:
    state = SPEC.new_deal(SPEC.deal_from_json(deal), SPEC.normalize_options(options))
    for text in actions:
        state.act(state.to_move, text)
    return state
