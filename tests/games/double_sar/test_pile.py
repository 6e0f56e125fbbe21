"""Double Sar's pile, one scenario per rule (shared/rules/court-piece.md,
"Double Sar — the pile", "End of a deal" and "House rules").

All deals are ``block_deal``s: dealer seat 0, so the caller is seat 3 and the
callers are team 1; team 0 is the dealing team.
"""

import pytest

from tricktable.games.courtpiece.rules import CALLERS_KOT, CALLERS_WON, GOON_KOT, OTHERS_WON

from ..courtpiece.helpers import scripted

ALTERNATE = [0, 3] * 6  # teams take turns: nobody ever wins two in a row


def double_sar(winners, last=0, tricks=13, **options):
    return scripted("double-sar", winners, last, tricks=tricks, **options)


def test_capture_on_two_in_a_row_by_the_same_player():
    """The pile: the same player winning two tricks in a row takes the whole pile,
    the trick just won included."""
    winners = [1, 2, 2] + ALTERNATE[:9]
    state = double_sar(winners, tricks=2)
    assert (state.pile, state.captured) == (2, [0, 0])
    state = double_sar(winners, tricks=3)
    assert (state.pile, state.captured, state.captures) == (0, [3, 0], [(3, 2, 3)])
    view = state.view(1)
    assert view["pile"] == 0 and view["captured"] == [3, 0]


def test_partners_win_does_not_capture():
    """The pile: the same player (not his partner) must win both tricks."""
    winners = [0, 2, 2] + ALTERNATE[:9]
    state = double_sar(winners, tricks=2)
    assert (state.pile, state.captured) == (2, [0, 0])
    state = double_sar(winners, tricks=3)  # seat 2's own second win does
    assert state.captured == [3, 0]


def test_third_win_in_a_row_does_not_capture():
    """The pile: after a capture a new pile starts; a third win in a row does not
    capture, two more wins in a row are needed."""
    winners = [1, 1, 1, 1] + ALTERNATE[:8]
    assert double_sar(winners, tricks=2).captured == [0, 2]
    third = double_sar(winners, tricks=3)
    assert (third.pile, third.captured) == (1, [0, 2])
    fourth = double_sar(winners, tricks=4)
    assert (fourth.pile, fourth.captured, fourth.captures) == (0, [0, 4], [(2, 1, 2), (4, 1, 2)])


def test_tricks_one_and_two_capture():
    """The pile: winning tricks 1 and 2 captures."""
    state = double_sar([3, 3] + ALTERNATE[:10], tricks=2)
    assert state.captures == [(2, 3, 2)] and state.captured == [0, 2] and state.pile == 0


def test_trick_13_takes_the_rest():
    """The pile: the winner of the 13th trick takes whatever is left in the pile."""
    winners = [1, 1] + [0, 3, 2, 1] * 2 + [0, 3]
    state = double_sar(winners, last=2, tricks=12)
    assert (state.pile, state.captured) == (10, [0, 2])
    state = double_sar(winners, last=2)
    assert state.is_terminal() and state.pile == 0
    assert state.captures[-1] == (13, 2, 11) and state.captured == [11, 2]
    assert (state.outcome, state.points) == (OTHERS_WON, [2, 0])


def test_only_captured_tricks_count():
    """The pile: tricks lying in the pile count for nobody."""
    state = double_sar([0, 1, 0, 1, 0, 1, 2, 2] + ALTERNATE[:4], tricks=7)
    assert state.captured == [0, 0] and state.pile == 7


def test_house_rule_ace_on_ace():
    """House rules, ace on ace: two wins in a row with two different aces do not
    capture; the pile stays and the streak goes on (Decision)."""
    winners = [2, 0, 1, 1, 1] + ALTERNATE[:7]  # seat 1 wins trick 3 with AC, 4 with AD, 5 with 6D
    plain = double_sar(winners, tricks=4, ace_tricks=(4,))
    assert plain.captures == [(4, 1, 4)]
    ruled = double_sar(winners, tricks=4, ace_tricks=(4,), ace_on_ace=True)
    assert (ruled.captures, ruled.pile) == ([], 4)
    ruled = double_sar(winners, tricks=5, ace_tricks=(4,), ace_on_ace=True)
    assert (ruled.captures, ruled.captured) == ([(5, 1, 5)], [0, 5])


def test_house_rule_trump_ace_cannot_seal():
    """House rules, trump ace: the ace of trumps cannot complete a capture."""
    winners = [0, 1] * 5 + [2, 2]  # seat 2 wins trick 11, then trick 12 with AS
    plain = double_sar(winners, last=1)
    assert plain.captures == [(12, 2, 12), (13, 1, 1)]
    assert (plain.captured, plain.outcome, plain.points) == ([12, 1], OTHERS_WON, [2, 0])
    ruled = double_sar(winners, last=1, trump_ace_cannot_seal=True)
    assert ruled.captures == [(13, 1, 13)]
    assert (ruled.captured, ruled.outcome, ruled.points) == ([0, 13], CALLERS_KOT, [0, 3])


def test_house_rule_no_pile_on_tricks_11_and_12():
    """House rules: a pair completed on trick 11 or 12 does not capture (one
    completed on trick 10 still does)."""
    winners = [0, 1] * 4 + [3, 3, 3, 3]
    plain = double_sar(winners, last=0)
    assert plain.captures == [(10, 3, 10), (12, 3, 2), (13, 0, 1)]
    ruled = double_sar(winners, last=0, no_pile_on_11_12=True)
    assert ruled.captures == [(10, 3, 10), (13, 0, 3)]
    assert ruled.captured == [3, 10] and ruled.outcome == CALLERS_WON
    late = [0, 1] * 5 + [3, 3]
    assert double_sar(late, last=0, no_pile_on_11_12=True).captures == [(13, 0, 13)]
    assert double_sar(late, last=0).captures == [(12, 3, 12), (13, 0, 1)]


def test_house_rules_are_off_by_default():
    """House rules: all off by default."""
    from tricktable.games.courtpiece import DOUBLE_SAR

    options = DOUBLE_SAR.normalize_options({})
    assert not any(options[name] for name in ("ace_on_ace", "trump_ace_cannot_seal", "no_pile_on_11_12"))


def test_end_at_7_only_when_the_other_team_has_a_trick_double_sar():
    """End of a deal: 7 captured tricks end it unless the other team has captured
    none; then it ends as soon as the other team captures something."""
    winners = [0, 0, 2, 2, 0, 0, 2, 2, 1, 1, 0, 3]
    state = double_sar(winners, tricks=8)
    assert state.captured == [8, 0] and not state.is_terminal()
    state = double_sar(winners)
    assert state.is_terminal() and len(state.tricks) == 10 and state.captured == [8, 2]
    assert state.outcome == OTHERS_WON and state.hands[0].bit_count() == 3


def test_goon_kot_in_double_sar():
    """End of a deal: capturing all 13 tricks is a kot; by the dealing team, a goon kot."""
    state = double_sar([0, 0, 2, 2] * 3, last=0)
    assert state.captured == [13, 0] and state.outcome == GOON_KOT and state.points == [4, 0]
    state = double_sar([0, 0, 2, 2] * 3, last=0, counting="kots")
    assert state.points == [3, 0]


@pytest.mark.parametrize("last", [0, 1])
def test_views_show_the_pile_face_down(last):
    """The pile lies face down: a view shows how many tricks are in it, and the
    cards only as they were played (never another hand)."""
    state = double_sar([0, 1, 0, 1, 0, 1, 2, 2] + ALTERNATE[:4], last=last, tricks=5)
    for seat in range(4):
        view = state.view(seat)
        assert view["pile"] == 5 and view["captures"] == []
        shown = {c for t in view["tricks"] for _, c in t["cards"]} | set(view["hand"])
        assert len(shown) == 20 + 8
