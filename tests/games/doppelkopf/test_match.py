"""The 8-deal match ("Table"; "Reservations / Poverty" for the redeal)."""

from __future__ import annotations

import json
import random

from tricktable.catalog import replay
from tricktable.core.record import record_of
from tricktable.games.doppelkopf import SPEC
from tricktable.games.doppelkopf import state as st


def play_match(seed: str, rng: random.Random, **options) -> object:
    match = SPEC.new_match(seed, SPEC.normalize_options(options))
    while not match.is_terminal():
        match.apply(rng.choice(match.legal_actions()))
    return match


def test_match_is_eight_deals_passing_left_and_zero_sum():
    """Table: a game is 8 deals, every player deals twice, the deal passes left; totals sum to zero."""
    rng = random.Random(0)
    for seed in range(5):
        match = play_match(f"m{seed}", rng)
        counted = [r for r in match.results if r["counts"]]
        assert len(counted) == 8 and [r["number"] for r in counted] == list(range(1, 9))
        dealers = [r["dealer"] for r in counted]
        assert all(b == (a + 1) % 4 for a, b in zip(dealers, dealers[1:]))
        assert sorted(dealers) == sorted(list(range(4)) * 2)
        assert sum(match.totals) == 0
        assert match.totals == [sum(r["points"][s] for r in match.results) for s in range(4)]


def poor_seat(deal: st.DoppelkopfState) -> int | None:
    return next((s for s in range(4) if st.POVERTY in deal.reservation_options(s)), None)


def test_poverty_redeal_keeps_deal_number_and_dealer():
    """Reservations / Poverty: if all decline, the same dealer redeals, same deal number."""
    match = next(m for m in (SPEC.new_match(f"redeal{k}", SPEC.normalize_options({})) for k in range(500))
                 if poor_seat(m.current) is not None)
    deal, dealer, poor = match.current, match.dealer, poor_seat(match.current)
    while deal.phase == st.RESERVING:
        match.apply(st.POVERTY if deal.to_move == poor else st.HEALTHY)
    match.apply(deal.legal_actions()[0])  # give
    for _ in range(3):
        match.apply(st.DECLINE)
    assert match.current is not deal and match.current.deal.hands != deal.deal.hands
    assert match.results[-1]["counts"] is False and match.results[-1]["points"] == [0, 0, 0, 0]
    assert match.dealer == dealer and match.deals_played == 0
    assert match.view(0)["match"]["deal_number"] == 1


def test_match_record_replays():
    """A whole match replays from its record (seed and actions)."""
    match = play_match("replay-me", random.Random(2), preset="ddv")
    again = replay(json.loads(record_of(match).dumps()))
    assert again.returns() == match.returns() and again.results == match.results
