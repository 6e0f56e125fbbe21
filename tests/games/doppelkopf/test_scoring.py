"""Worked scoring examples, computed by hand from ``shared/rules/doppelkopf.md``
section "Scoring" (and "Teams and winning", "Announcements").

Each example gives the facts of a finished deal and the full breakdown: every
line (key, game points, team) and the settlement per seat.  Team 0 is Re, 1 is
Kontra; unless said otherwise seats 0 and 2 are Re, 1 and 3 Kontra.
"""

from __future__ import annotations

import dataclasses
import random

import pytest

from tricktable.cards import parse_card
from tricktable.errors import RecordError
from tricktable.catalog import replay
from tricktable.core.record import record_of
from tricktable.games.doppelkopf import state as st
from tricktable.games.doppelkopf.rules import KONTRA, POINTS, RE, SOLO_NAMES, DealFacts, settle

PAIRS = (RE, KONTRA, RE, KONTRA)
SOLOIST_1 = (KONTRA, RE, KONTRA, KONTRA)
FOX, DOKO, KARL, CAUGHT = ("fox", "fox"), ("doppelkopf", "dk"), ("karlchen", "k"), ("karlchen_caught", "kc")


def facts(re_points: int, levels=(-1, -1), re_extras=(), kontra_extras=(), team=PAIRS, lone=False,
          re_tricks: int | None = None) -> DealFacts:
    if re_tricks is None:
        re_tricks = 12 if re_points == 240 else 0 if re_points == 0 else 6
    return DealFacts(tuple(team), lone, (re_points, 240 - re_points), (re_tricks, 12 - re_tricks), tuple(levels),
                     (list(re_extras), list(kontra_extras)))


def breakdown(f: DealFacts) -> tuple[list[tuple[str, int, int]], list[int]]:
    result = settle(f)
    return [(key, points, team) for key, _, points, team in result.lines], result.seat_points


def test_1_normal_game_won_by_re():
    """Re 130, Kontra 110, nothing announced; Re caught a fox, Kontra made a Doppelkopf.
    Re wins (121+): won 1; extras netted: +1 fox −1 Doppelkopf → value 1."""
    lines, seats = breakdown(facts(130, re_extras=[FOX], kontra_extras=[DOKO]))
    assert lines == [("won", 1, RE), ("fox", 1, RE), ("doppelkopf", 1, KONTRA)]
    assert seats == [1, -1, 1, -1]


def test_2_kontra_wins_against_the_old_ones():
    """Re 100, Kontra 140: Kontra won 1 + gegen die Alten 1 = 2."""
    lines, seats = breakdown(facts(100))
    assert lines == [("won", 1, KONTRA), ("against_the_old", 1, KONTRA)]
    assert seats == [-2, 2, -2, 2]


def test_3_kontra_only_announcement_at_120():
    """Kontra announced, Re did not; 120-120.  Re needs only 120, Kontra 121:
    Re wins: won 1 + Kontra announced 2 = 3."""
    lines, seats = breakdown(facts(120, levels=(-1, 0)))
    assert lines == [("won", 1, RE), ("kontra_announced", 2, RE)]
    assert seats == [3, -3, 3, -3]


def test_4_no_announcement_at_120_kontra_wins():
    """Nothing announced, 120-120: Re needs 121, so Kontra wins: 1 + gegen die Alten 1 = 2."""
    lines, seats = breakdown(facts(120))
    assert lines == [("won", 1, KONTRA), ("against_the_old", 1, KONTRA)]
    assert seats == [-2, 2, -2, 2]


def test_5_kontra_only_announcement_at_121_kontra_wins():
    """Kontra announced, Kontra takes 121: it reached its raised 121; won 1,
    gegen die Alten 1, Kontra announced 2 = 4."""
    lines, seats = breakdown(facts(119, levels=(-1, 0)))
    assert lines == [("won", 1, KONTRA), ("against_the_old", 1, KONTRA), ("kontra_announced", 2, KONTRA)]
    assert seats == [-4, 4, -4, 4]


def test_6_no_90_announced_and_missed():
    """Re announced Re and no 90 (target 151) but took 140.  Kontra (silent) stopped it:
    won 1, gegen die Alten 1, Re announced 2, no 90 announced by losers and missed 2 = 6."""
    lines, seats = breakdown(facts(140, levels=(1, -1)))
    assert lines == [("won", 1, KONTRA), ("against_the_old", 1, KONTRA), ("re_announced", 2, KONTRA),
                     ("missed_no_90", 2, KONTRA)]
    assert seats == [-6, 6, -6, 6]


def test_7_both_miss_nobody_wins_extras_netted():
    """Both announced no 90; Re 130, Kontra 110: both missed 151, nobody wins.
    Only extras count: Re 1 fox, Kontra 2 Doppelkopf → Re −1, Kontra +1."""
    lines, seats = breakdown(facts(130, levels=(1, 1), re_extras=[FOX], kontra_extras=[DOKO, DOKO]))
    assert lines == [("fox", 1, RE), ("doppelkopf", 1, KONTRA), ("doppelkopf", 1, KONTRA)]
    assert seats == [-1, 1, -1, 1]
    assert settle(facts(130, levels=(1, 1))).winner is None


def test_8_schwarz_announced_and_made():
    """Re announced up to schwarz and took every trick: won 1, Re announced 2, and for
    each of no 90/60/30/schwarz: losers below the mark 1 + announced by winners 1 → 1+2+8 = 11."""
    lines, seats = breakdown(facts(240, levels=(4, -1)))
    assert lines == [("won", 1, RE), ("re_announced", 2, RE),
                     ("under_no_90", 1, RE), ("announced_no_90", 1, RE),
                     ("under_no_60", 1, RE), ("announced_no_60", 1, RE),
                     ("under_no_30", 1, RE), ("announced_no_30", 1, RE),
                     ("under_schwarz", 1, RE), ("announced_schwarz", 1, RE)]
    assert seats == [11, -11, 11, -11]


def test_9_schwarz_unannounced():
    """Kontra takes every trick, nothing announced: won 1, gegen die Alten 1, Re under
    90, 60, 30 and trickless: 4 → 6."""
    lines, seats = breakdown(facts(0))
    assert [k for k, _, _ in lines] == ["won", "against_the_old", "under_no_90", "under_no_60", "under_no_30",
                                        "under_schwarz"]
    assert seats == [-6, 6, -6, 6]


def test_10_fox_caught_by_each_side():
    """Re 150 wins (Kontra 90 is not under 90): won 1; Re caught a Kontra fox (+1),
    Kontra caught a Re fox (−1) → 1."""
    lines, seats = breakdown(facts(150, re_extras=[FOX], kontra_extras=[FOX]))
    assert lines == [("won", 1, RE), ("fox", 1, RE), ("fox", 1, KONTRA)]
    assert seats == [1, -1, 1, -1]


def test_11_foxes_can_turn_the_value_negative():
    """Re 150 wins but Kontra caught both Re foxes: 1 − 2 = −1 (the winners pay)."""
    lines, seats = breakdown(facts(150, kontra_extras=[FOX, FOX]))
    assert sum(p if t == RE else -p for _, p, t in lines) == -1
    assert seats == [-1, 1, -1, 1]


def test_12_karlchen_won_and_caught():
    """Kontra 125 wins; it won the last trick with its J♣ (Karlchen 1) and caught Re's
    J♣, played later in that trick (1): won 1, gegen die Alten 1, 2 extras = 4."""
    lines, seats = breakdown(facts(115, kontra_extras=[KARL, CAUGHT]))
    assert lines == [("won", 1, KONTRA), ("against_the_old", 1, KONTRA), ("karlchen", 1, KONTRA),
                     ("karlchen_caught", 1, KONTRA)]
    assert seats == [-4, 4, -4, 4]


def test_13_two_doppelkopf_tricks():
    """Re 160 wins with two tricks of 40+: won 1, Kontra (80) under 90 1, 2 Doppelkopf = 4."""
    lines, seats = breakdown(facts(160, re_extras=[DOKO, DOKO]))
    assert lines == [("won", 1, RE), ("under_no_90", 1, RE), ("doppelkopf", 1, RE), ("doppelkopf", 1, RE)]
    assert seats == [4, -4, 4, -4]


def test_14_solo_won_three_times_no_extras():
    """A solo (seat 1 alone) with Re announced takes 150: won 1 + Re announced 2 = 3;
    the Doppelkopf does not count in a solo.  Soloist +9, the three others −3."""
    lines, seats = breakdown(facts(150, levels=(0, -1), re_extras=[DOKO], team=SOLOIST_1, lone=True))
    assert lines == [("won", 1, RE), ("re_announced", 2, RE)]
    assert seats == [-3, 9, -3, -3]


def test_15_solo_lost_no_against_the_old():
    """The soloist takes 100: Kontra won 1 (no gegen die Alten in a solo) → soloist −3."""
    lines, seats = breakdown(facts(100, team=SOLOIST_1, lone=True))
    assert lines == [("won", 1, KONTRA)]
    assert seats == [1, -3, 1, 1]


def test_16_silent_solo():
    """Silent solo (seat 1 held both Q♣, said healthy), 121 card points, a fox caught by the
    soloist: scored as a solo — won 1, no extras → +3 / −1."""
    lines, seats = breakdown(facts(121, re_extras=[FOX], team=SOLOIST_1, lone=True))
    assert lines == [("won", 1, RE)]
    assert seats == [-1, 3, -1, -1]


def test_17_lone_marriage():
    """A marriage nobody joined (seat 1 alone), Kontra announced and takes 150: won 1,
    Kontra announced 2, no gegen die Alten (scored as a solo), no Karlchen → soloist −9."""
    lines, seats = breakdown(facts(90, levels=(-1, 0), kontra_extras=[KARL], team=SOLOIST_1, lone=True))
    assert lines == [("won", 1, KONTRA), ("kontra_announced", 2, KONTRA)]
    assert seats == [3, -9, 3, 3]


def test_18_poverty():
    """Poverty pair (seats 0 and 2, Re) takes 125 against an announced Kontra: Re needs
    only 120 → won 1, Kontra announced 2; Kontra caught a fox −1 → 2."""
    lines, seats = breakdown(facts(125, levels=(-1, 0), kontra_extras=[FOX]))
    assert lines == [("won", 1, RE), ("kontra_announced", 2, RE), ("fox", 1, KONTRA)]
    assert seats == [2, -2, 2, -2]


def test_19_losers_announcement_missed_per_level():
    """Kontra announced up to no 60 (target 181) and took 170: it made no 90 (Re under 90 ⇒
    not "missed") but missed no 60.  Re (silent) wins with 70: won 1, Kontra announced 2,
    no 60 missed by the losers 2 = 5."""
    lines, seats = breakdown(facts(70, levels=(-1, 2)))
    assert lines == [("won", 1, RE), ("kontra_announced", 2, RE), ("missed_no_60", 2, RE)]
    assert seats == [5, -5, 5, -5]


def test_20_told_no_90_side_wins_by_reaching_90():
    """Announcements (rules doppelkopf-2), the rules file's example: Re says Re; Kontra says
    Kontra and no 90 and takes 123.  Kontra missed 151, Re (told no 90, announced only Re)
    reached 90: Re wins — won 1, Re announced 2, Kontra announced 2, no 90 announced by the
    losers and missed 2 = 7.  (doppelkopf-1 scored it "nobody wins", value 0.)"""
    lines, seats = breakdown(facts(117, levels=(0, 1)))
    assert lines == [("won", 1, RE), ("re_announced", 2, RE), ("kontra_announced", 2, RE),
                     ("missed_no_90", 2, RE)]
    assert seats == [7, -7, 7, -7]
    old = settle(dataclasses.replace(facts(117, levels=(0, 1)), told_wins=False))
    assert old.winner is None and old.seat_points == [0, 0, 0, 0]


def test_21_told_no_60_side_wins_by_reaching_60():
    """Announcements: Kontra (Kontra only) told no 60 wins with 60: Re announced up to no 60
    and took 180 (one short of 181).  Kontra: won 1, gegen die Alten 1, Re announced 2,
    Kontra announced 2, no 60 missed by the losers 2 (no 90 was made: 180 ≥ 151) = 8."""
    lines, seats = breakdown(facts(180, levels=(2, 0)))
    assert lines == [("won", 1, KONTRA), ("against_the_old", 1, KONTRA), ("re_announced", 2, KONTRA),
                     ("kontra_announced", 2, KONTRA), ("missed_no_60", 2, KONTRA)]
    assert seats == [-8, 8, -8, 8]
    assert settle(facts(181, levels=(2, 0))).winner == RE  # 181 made, Kontra 59 under 60


def test_22_told_schwarz_side_wins_with_one_trick():
    """Announcements: told schwarz, a side that announced only Kontra wins with one trick, even
    one worth 0 card points: Re announced schwarz and took 240 points in 11 tricks.  Kontra:
    won 1, gegen die Alten 1, Re announced 2, Kontra announced 2, schwarz missed by the
    losers 2 = 8 (Re made no 90, no 60 and no 30)."""
    lines, seats = breakdown(facts(240, levels=(4, 0), re_tricks=11))
    assert lines == [("won", 1, KONTRA), ("against_the_old", 1, KONTRA), ("re_announced", 2, KONTRA),
                     ("kontra_announced", 2, KONTRA), ("missed_schwarz", 2, KONTRA)]
    assert seats == [-8, 8, -8, 8]


def test_23_both_announced_no_90_both_miss_nobody_wins():
    """Announcements: only when both teams announced no 90 or more and both miss does nobody
    win — Re no 60 takes 160 (missed 181), Kontra no 90 takes 80 (missed 151)."""
    assert settle(facts(160, levels=(2, 1))).winner is None
    assert settle(facts(160, levels=(2, 0))).winner == KONTRA  # Kontra told no 60, 80 ≥ 60


def told_no_90_deal(dk, seed: int) -> st.DoppelkopfState | None:
    """A normal game where Re says Re and Kontra says Kontra and no 90 before the first
    card, then random cards; ``None`` if the deal is no normal game."""
    state = dk.run(dk.start(["", "", "", ""], seed=seed), "healthy", "healthy", "healthy", "healthy")
    if state.contract != st.NORMAL_GAME:
        return None
    re_seat, kontra_seat = state.team.index(RE), state.team.index(KONTRA)
    state.act(re_seat, "re")
    state.act(kontra_seat, "kontra")
    state.act(kontra_seat, "no 90")
    return dk.advance(state, random.Random(seed), lambda s: s.is_terminal())


def test_doppelkopf_1_records_replay_with_their_scoring(dk):
    """Old records keep replaying: a record made under rules doppelkopf-1 replays with the old
    winner rule (its stored version selects it); under doppelkopf-2 the same actions score anew."""
    changed = 0
    for seed in range(12):
        state = told_no_90_deal(dk, seed)
        if state is None:
            continue
        record = record_of(state).to_json()
        assert record["rules_version"] == "doppelkopf-2" and not record["options"]["winner_doppelkopf_1"]
        assert replay(record).returns() == state.returns()
        old = replay({**record, "rules_version": "doppelkopf-1"})
        assert old.history == state.history and old.options["winner_doppelkopf_1"]
        assert old.returns() == settle(dataclasses.replace(state.facts(), told_wins=False)).seat_points
        assert replay(record_of(old).to_json()).returns() == old.returns()  # re-recorded: still the old rule
        kontra_points = state.facts().card_points[KONTRA]
        if 120 <= kontra_points < 151:  # Re took 90..120: it missed its old 121, reached the new 90
            assert state.settlement.winner == RE and old.settlement.winner is None
            changed += 1
        else:
            assert state.settlement.winner == old.settlement.winner
    assert changed >= 2
    with pytest.raises(RecordError, match="doppelkopf-0"):
        replay({**record, "rules_version": "doppelkopf-0"})


# -- extras as the state finds them in the tricks --------------------------------------------------------
def finished(dk, tricks: list[tuple[int, str]], team=PAIRS, **options) -> st.DoppelkopfState:
    """A state whose played tricks are the given (leader, "four cards") — enough to
    read the extras off the trick pile."""
    state = dk.start(["", "", "", ""], **options)
    state.team = list(team)
    for leader, text in tricks:
        cards = tuple(parse_card(t) for t in text.split())
        last = len(state.tricks) == 11
        state.tricks.append((leader, cards, state.trick_winner(leader, cards, last), sum(POINTS[c] for c in cards)))
    return state


FILLER = [(0, "9S 9S 9C 9C")] * 11


def test_fox_caught_by_kontra_and_own_fox_free(dk):
    """Scoring / extras: 1 for each opposing fox (A♦) won; a team's own fox scores nothing."""
    state = finished(dk, [(0, "AD QC 9D 9D"), (1, "AD 9D QS 9D")] + FILLER[:10])
    re, kontra = state._extras()
    assert [k for k, _ in re] == [] and [k for k, _ in kontra] == ["fox"]  # seat 1 (K) won seat 0's fox


def test_karlchen_won_and_caught_with_and_without_option(dk):
    """Scoring / extras + Option 3: Karlchen for winning the last trick with J♣; catching an
    opposing J♣ there scores too — unless "Karlchen only by winning"."""
    last = [(0, "JC 9D JC 9D")]  # seat 0 (Re) wins with J♣; seat 2's J♣ is his partner's
    assert [k for k, _ in finished(dk, FILLER + last)._extras()[RE]] == ["karlchen"]
    kontra_wins = [(1, "JC JH 9D 9D")]  # seat 1 (Kontra) leads J♣ and it holds
    assert [k for k, _ in finished(dk, FILLER + kontra_wins)._extras()[KONTRA]] == ["karlchen"]
    catch = [(0, "JC QC 9D 9D")]  # Kontra's Q♣ (seat 1) catches Re's Karlchen
    assert [k for k, _ in finished(dk, FILLER + catch)._extras()[KONTRA]] == ["karlchen_caught"]
    only = finished(dk, FILLER + catch, karlchen_only_by_winning=True)
    assert only._extras() == ([], [])


def test_doppelkopf_trick_needs_40(dk):
    """Scoring / extras: a trick worth 40+ card points is a Doppelkopf for its winner."""
    state = finished(dk, [(0, "AS AS 10S 10S"), (0, "AC AC 10C KC")] + FILLER[:10])
    re, kontra = state._extras()
    assert [k for k, _ in re] == ["doppelkopf"] and kontra == []  # 42 yes, 36 no


def test_no_extras_in_any_solo(dk):
    """Scoring: extra points are not counted in any solo."""
    state = finished(dk, [(0, "AD QC 9D 9D")] + FILLER[:10] + [(0, "JC 9D 9D 9D")], team=SOLOIST_1)
    state.lone = True
    assert state._extras() == ([], [])


@pytest.mark.parametrize("name", SOLO_NAMES)
def test_each_solo_type_settles_three_times(dk, name):
    """Scoring / settlement: a lone player wins or loses three times the deal value."""
    rng = random.Random(name)
    for seed in range(10):
        state = dk.run(dk.start(["", "", "", ""], seed=seed), f"solo {name}", "healthy", "healthy", "healthy")
        dk.play_out(state, rng, dk.Policy(announce=0.2))
        value = state.settlement.value
        soloist = 0
        sign = 1 if state.settlement.winner in (RE, None) else -1
        assert state.returns()[soloist] == 3 * sign * value
        assert all(state.returns()[s] == -sign * value for s in (1, 2, 3))
        assert not [l for l in state.breakdown() if l.key in ("fox", "karlchen", "doppelkopf")]


def test_breakdown_lists_every_line_value_and_seats(dk):
    """Scoring: the breakdown shows card points, every scoring line, the deal value and each seat."""
    rng = random.Random(5)
    state = dk.run(dk.start(["QC", "", "QC", ""], seed=1), "healthy", "healthy", "healthy", "healthy")
    dk.play_out(state, rng, dk.Policy(announce=0.1))
    lines = state.breakdown()
    assert [l.key for l in lines[:2]] == ["card_points", "card_points"]
    assert lines[0].points + lines[1].points == 240
    value = next(l for l in lines if l.key == "value")
    scored = [l for l in lines if l.key not in ("card_points", "value", "seat")]
    assert value.points == sum(l.points if l.team == value.team else -l.points for l in scored)
    assert [l.points for l in lines if l.key == "seat"] == state.returns()
