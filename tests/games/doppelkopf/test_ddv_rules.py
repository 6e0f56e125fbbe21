"""The DDV preset's marriage and solo lead, played out under ``preset="ddv"``
(``shared/rules/doppelkopf.md`` section "DDV tournament rules": "Marriage", and "a
voluntary solo is led from the dealer's left").

The DDV marriage is the standard marriage of this project's rules ("Reservations",
"Announcements"): the tests check each DDV line on the preset, so a change of the
standard rules that broke the DDV would show here.  Dealer 3 in every test: seat 0
speaks and leads first."""

from __future__ import annotations

import random

from tricktable.games.doppelkopf import state as st
from tricktable.games.doppelkopf.ddv import settle_ddv
from tricktable.games.doppelkopf.rules import (
    KONTRA,
    NORMAL,
    RE,
    SOLO_NAMES,
    SOLO_TABLE,
    TRUMP_ORDER,
)

STRONG = "QC QC 10H 10H QS QS AC AC AS AS AH AH"
"""Both Q♣ and both 10♥: this hand wins the first three tricks when it leads them."""


def ddv_marriage(dk, hands, seed: int = 0) -> st.DoppelkopfState:
    return dk.run(dk.start(hands, dealer=3, seed=seed, preset="ddv"), "marriage", "healthy", "healthy", "healthy")


def others_play(dk, state: st.DoppelkopfState, rng: random.Random) -> None:
    """The three others play random cards until seat 0 is to move or the marriage is decided."""
    dk.advance(state, rng, lambda s: s.to_move == 0 or not s.marriage_pending or s.is_terminal())


def test_ddv_marriage_partner_is_first_other_winner_whatever_was_led(dk):
    """DDV Marriage: the partner is the first other player to win one of the first three
    tricks, whatever was led: seat 0 leads 10♥ (wins), then 9♣, which seat 1's A♣ (or a
    trump) beats: decided in trick 2 by a plain-suit trick."""
    state = ddv_marriage(dk, ["QC QC 10H 10H 9C", "AC", "", ""])
    rng = random.Random(2)
    state.act(0, "play 10H")
    others_play(dk, state, rng)
    assert state.marriage_pending and state.tricks[0][2] == 0
    state.act(0, "play 9C")
    others_play(dk, state, rng)
    winner = state.tricks[1][2]
    assert winner != 0 and state.partner == winner and state.decided_in == 2
    assert [state.team[s] for s in range(4)].count(RE) == 2 and state.team[winner] == RE


def test_ddv_marriage_decided_in_trick_2_re_kontra_until_10_cards(dk):
    """DDV Marriage: no announcement before the deciding trick is complete; decided in
    trick 2 the deadlines drop by 1: Re/Kontra may be said while holding 10 cards, not 9."""
    state = ddv_marriage(dk, ["QC QC 10H 10H 9C", "AC", "", ""])
    rng = random.Random(2)
    state.act(0, "play 10H")
    others_play(dk, state, rng)
    assert all(a < 52 for s in range(4) for a in state.legal_actions_for(s))
    state.act(0, "play 9C")
    # Inside the deciding trick nobody may announce yet.
    assert all(a < 52 for s in range(4) for a in state.legal_actions_for(s))
    others_play(dk, state, rng)
    assert state.decided_in == 2 and state.counts == [10, 10, 10, 10]
    expected = {s: st.ANNOUNCE_RE if state.team[s] == RE else st.ANNOUNCE_KONTRA for s in range(4)}
    for seat in range(4):
        assert expected[seat] in state.legal_actions_for(seat), seat  # 10 cards: still allowed
    leader = state.to_move
    state.apply([a for a in state.legal_actions() if a < 52][0])
    assert state.counts[leader] == 9
    assert expected[leader] not in state.legal_actions_for(leader)  # 9 cards: too late
    others = [s for s in range(4) if s != leader]
    assert all(expected[s] in state.legal_actions_for(s) for s in others)


def test_ddv_marriage_all_three_tricks_scored_as_a_solo(dk):
    """DDV Marriage: the marriage player wins all three first tricks: a diamonds solo (the
    normal trumps are the diamonds solo's), scored as a solo: no extra points, the
    soloist wins or loses three times the value; deadlines lowered by 2."""
    state = ddv_marriage(dk, [STRONG, "", "", ""])
    rng = random.Random(0)
    for lead in ("10H", "10H", "QC"):
        state.act(0, f"play {lead}")
        others_play(dk, state, rng)
    assert state.lone and state.partner == -1 and state.decided_in == 3 and state.lowering == 2
    assert state.team == [RE, KONTRA, KONTRA, KONTRA]
    assert TRUMP_ORDER[state.table] == TRUMP_ORDER[SOLO_TABLE[SOLO_NAMES.index("diamonds")]]
    # 9 cards and the deadline lowered by 2: Re may still be said (9 ≥ 11 − 2), not after the next card.
    assert st.ANNOUNCE_RE in state.legal_actions_for(0)
    dk.advance(state, rng, lambda s: s.is_terminal())
    facts = state.facts()
    assert facts.lone and state.settlement == settle_ddv(facts)
    assert not any(line[0] in ("fox", "doppelkopf", "karlchen", "against_the_old") for line in state.settlement.lines)
    value = state.settlement.value
    sign = 1 if state.settlement.winner == RE else -1
    assert state.returns() == [3 * sign * value, -sign * value, -sign * value, -sign * value]


def test_ddv_silent_marriage_is_a_diamonds_solo(dk):
    """DDV Marriage: a silent marriage (both Q♣, "healthy") is a diamonds solo: alone, the
    diamonds solo's trumps, scored as a solo (no extra points, three times)."""
    state = dk.run(dk.start(["QC QC", "", "", ""], dealer=3, preset="ddv"), "healthy", "healthy", "healthy", "healthy")
    assert state.contract == st.SILENT_SOLO and state.lone and state.declarer == 0
    assert TRUMP_ORDER[state.table] == TRUMP_ORDER[NORMAL] == TRUMP_ORDER[SOLO_TABLE[SOLO_NAMES.index("diamonds")]]
    dk.advance(state, random.Random(5), lambda s: s.is_terminal())
    assert state.settlement is not None and not any(
        line[0] in ("fox", "doppelkopf", "karlchen", "against_the_old") for line in state.settlement.lines)
    points = state.returns()
    assert points[0] == -3 * points[1] and points[1] == points[2] == points[3]


def test_ddv_no_poverty(dk):
    """DDV: no poverty: a hand with one trump is offered healthy, marriage (none here) and the solos only."""
    state = dk.start(["9C 9C AC AC 10C 10C KC KC 9S 9S AS QD", "", "", ""], dealer=3, preset="ddv")
    assert "poverty" not in state.legal_texts()


def test_ddv_voluntary_solo_led_from_the_dealers_left(dk):
    """DDV: a voluntary solo is led from the dealer's left (seat 0), not by the soloist (seat 2)."""
    state = dk.run(dk.start(["", "", "", ""], dealer=3, preset="ddv"), "healthy", "healthy", "solo jacks", "healthy")
    assert state.contract == st.SOLO_GAME and state.declarer == 2
    assert state.to_move == 0 and state.leader == 0
    assert state.team == [KONTRA, KONTRA, RE, KONTRA]
