"""The DDV plus-minus scoring, line by line, computed by hand from
``shared/rules/doppelkopf.md`` section "DDV tournament rules" → "Scoring".

Each test names the rule line it checks.  Team 0 is Re, 1 is Kontra; unless said
otherwise seats 0 and 2 are Re, 1 and 3 Kontra.  A deal's facts are written out
(card points, tricks, announcement levels, extra points) and ``settle_ddv`` gives
its lines and each seat's game points."""

from __future__ import annotations

import random

from tests.games.doppelkopf.test_scoring import DOKO, FOX, KARL, PAIRS, SOLOIST_1, facts
from tricktable.games.doppelkopf import SPEC
from tricktable.games.doppelkopf.ddv import settle_ddv
from tricktable.games.doppelkopf.rules import KONTRA, RE, DealFacts, settle
NONE, RE_ONLY, KONTRA_ONLY, BOTH = (-1, -1), (0, -1), (-1, 0), (0, 0)


def ddv(f: DealFacts) -> tuple[list[tuple[str, int, int]], list[int]]:
    result = settle_ddv(f)
    return [(key, points, team) for key, _, points, team in result.lines], result.seat_points


# -- the examples -----------------------------------------------------------------
def test_no_90_announced_and_missed_scores_5():
    """Re announces Re and no 90, takes 150, Kontra 90.  Re missed 151; Kontra,
    told no 90, reached 90 and wins: won 1, Re +2, no 90 by Re +1, against the queens of
    clubs +1 = 5 (the standard table scores 6: the losers' missed no 90 is worth 2 there)."""
    lines, seats = ddv(facts(150, levels=(1, -1)))
    assert lines == [("won", 1, KONTRA), ("re_announced", 2, KONTRA), ("re_no_90", 1, KONTRA),
                     ("against_the_old", 1, KONTRA)]
    assert seats == [-5, 5, -5, 5]
    assert settle(facts(150, levels=(1, -1))).value == 6


def test_kontra_told_no_90_reaches_90_and_wins():
    """Winner list: the side told no 90 that announced nothing beyond Kontra wins with 90.
    Re: Re + no 90, 145; Kontra: Kontra, 95; Re caught a fox.  Kontra wins: won 1, Re +2,
    Kontra +2, no 90 by Re +1, against the queens +1, minus Re's fox 1 = 6."""
    lines, seats = ddv(facts(145, levels=(1, 0), re_extras=[FOX]))
    assert lines == [("won", 1, KONTRA), ("re_announced", 2, KONTRA), ("kontra_announced", 2, KONTRA),
                     ("re_no_90", 1, KONTRA), ("against_the_old", 1, KONTRA), ("fox", 1, RE)]
    assert seats == [-6, 6, -6, 6]


def test_kontra_told_no_90_below_90_loses():
    """Winner list: told no 90, Kontra 89 misses 90; Re made 151: won 1, under 90 +1, Re +2,
    no 90 by Re +1 = 5."""
    lines, seats = ddv(facts(151, levels=(1, -1)))
    assert lines == [("won", 1, RE), ("under_no_90", 1, RE), ("re_announced", 2, RE), ("re_no_90", 1, RE)]
    assert seats == [5, -5, 5, -5]


# -- winner list ------------------------------------------------------------------------------
def test_winner_list_no_announcement_re_needs_121():
    """Winner list: with no announcement Re needs 121: at 120 Kontra wins (won 1, against the queens 1)."""
    assert ddv(facts(120)) == ([("won", 1, KONTRA), ("against_the_old", 1, KONTRA)], [-2, 2, -2, 2])
    assert ddv(facts(121)) == ([("won", 1, RE)], [1, -1, 1, -1])


def test_winner_list_kontra_alone_announced_re_needs_120():
    """Winner list: Kontra alone announced: Re wins with 120 (won 1, Kontra +2 = 3), Kontra needs 121."""
    assert ddv(facts(120, levels=KONTRA_ONLY)) == ([("won", 1, RE), ("kontra_announced", 2, RE)], [3, -3, 3, -3])
    lines, _ = ddv(facts(119, levels=KONTRA_ONLY))
    assert lines[0] == ("won", 1, KONTRA)


def test_winner_list_announced_no_60_needs_181():
    """Winner list: a side that announced no 60 needs 181; told no 60, the other wins with 60.
    Re no 60 takes 180: Kontra (60) wins: won 1, Re +2, no 90 +1, no 60 +1 by Re, against the queens 1 = 6."""
    lines, seats = ddv(facts(180, levels=(2, -1)))
    assert lines == [("won", 1, KONTRA), ("re_announced", 2, KONTRA), ("re_no_90", 1, KONTRA),
                     ("re_no_60", 1, KONTRA), ("against_the_old", 1, KONTRA)]
    assert seats[1] == 6


def test_winner_list_both_sides_announced_no_90_nobody_wins_nets_extras():
    """Winner list / extra points: both sides announced no 90, Re 130 (missed 151), Kontra
    110 (missed 151): nobody wins, only the extra points are netted: Re fox 1 + Karlchen 1,
    Kontra Doppelkopf 1 → Re +1."""
    lines, seats = ddv(facts(130, levels=(1, 1), re_extras=[FOX, KARL], kontra_extras=[DOKO]))
    assert lines == [("fox", 1, RE), ("karlchen", 1, RE), ("doppelkopf", 1, KONTRA)]
    assert seats == [1, -1, 1, -1]


def test_winner_list_schwarz_needs_every_trick():
    """Winner list: schwarz announced needs every trick; the side told schwarz wins with one trick.
    Re: Re, no 90, no 60, no 30, schwarz; takes 235 in 11 tricks; Kontra 5 in 1 trick wins:
    won 1, Re +2, four announcements by Re +4, against the queens 1 = 8."""
    lines, seats = ddv(facts(235, levels=(4, -1), re_tricks=11))
    assert lines == [("won", 1, KONTRA), ("re_announced", 2, KONTRA), ("re_no_90", 1, KONTRA),
                     ("re_no_60", 1, KONTRA), ("re_no_30", 1, KONTRA), ("re_schwarz", 1, KONTRA),
                     ("against_the_old", 1, KONTRA)]
    assert seats[1] == 8


# -- the table of points ---------------------------------------------------------------------------
def test_won_1_and_losers_under_90_60_30_schwarz():
    """Scoring: won 1; losers under 90 +1, under 60 +1, under 30 +1, no trick +1 (Re takes every trick: 5)."""
    lines, seats = ddv(facts(240))
    assert lines == [("won", 1, RE), ("under_no_90", 1, RE), ("under_no_60", 1, RE), ("under_no_30", 1, RE),
                     ("under_schwarz", 1, RE)]
    assert seats == [5, -5, 5, -5]
    assert ddv(facts(211))[0] == [("won", 1, RE), ("under_no_90", 1, RE), ("under_no_60", 1, RE),
                                  ("under_no_30", 1, RE)]


def test_re_announced_2_and_kontra_announced_2():
    """Scoring: Re announced +2, Kontra announced +2 (to the winners): Re 130, both announced: 1 + 2 + 2 = 5."""
    assert ddv(facts(130, levels=BOTH)) == (
        [("won", 1, RE), ("re_announced", 2, RE), ("kontra_announced", 2, RE)], [5, -5, 5, -5])


def test_each_announcement_1_per_side_whether_made_or_not():
    """Scoring: each of no 90 … schwarz +1 per side that announced it, made or not.  Re: no 90
    and no 60, takes 185 (made 181); Kontra replied Kontra and no 90 (missed).  Re wins: won 1,
    under 90 +1, under 60 +1, Re +2, Kontra +2, Re's no 90 and no 60 +2, Kontra's no 90 +1, and
    Re, told no 90 by Kontra, reached 120 +1 = 11."""
    lines, seats = ddv(facts(185, levels=(2, 1)))
    assert lines == [("won", 1, RE), ("under_no_90", 1, RE), ("under_no_60", 1, RE), ("re_announced", 2, RE),
                     ("kontra_announced", 2, RE), ("re_no_90", 1, RE), ("re_no_60", 1, RE), ("kontra_no_90", 1, RE),
                     ("told_no_90_reached_120", 1, RE)]
    assert seats == [11, -11, 11, -11]


def test_told_no_90_reached_120_scores_1():
    """Scoring: the side told no 90 reached 120 anyway: +1.  Re: Re + no 90, takes 120; Kontra
    120 wins: won 1, Re +2, no 90 +1, told no 90 reached 120 +1, against the queens +1 = 6."""
    lines, seats = ddv(facts(120, levels=(1, -1)))
    assert ("told_no_90_reached_120", 1, KONTRA) in lines
    assert seats == [-6, 6, -6, 6]


def test_told_no_60_reached_90_and_told_no_30_reached_60_and_told_schwarz_reached_30():
    """Scoring: told no 60 reached 90 +1, told no 30 reached 60 +1, told schwarz reached 30 +1
    (and told no 90 reached 120).  Re announced up to schwarz and took 110 in 5 tricks; Kontra
    130 wins: won 1, Re +2, Re's four announcements +4, the four "told … reached" +4, against
    the queens +1 = 12."""
    lines, seats = ddv(facts(110, levels=(4, -1), re_tricks=5))
    assert [key for key, _, _ in lines if key.startswith("told_")] == [
        "told_no_90_reached_120", "told_no_60_reached_90", "told_no_30_reached_60", "told_schwarz_reached_30"]
    assert seats == [-12, 12, -12, 12]


def test_told_no_60_reached_90_only():
    """Scoring: told no 60, Kontra reached 90 but not 120: only the no 60 point (Re 150, levels Re no 60)."""
    lines, _ = ddv(facts(150, levels=(2, -1)))
    assert [key for key, _, _ in lines if key.startswith("told_")] == ["told_no_60_reached_90"]


def test_extra_points_netted_value_may_go_negative():
    """Extra points: netted between the sides; the value may go negative.  Re 125 wins (1);
    Kontra caught two foxes and made a Doppelkopf: 1 − 3 = −2 — each Re player loses 2."""
    lines, seats = ddv(facts(125, kontra_extras=[FOX, FOX, DOKO]))
    assert lines == [("won", 1, RE), ("fox", 1, KONTRA), ("fox", 1, KONTRA), ("doppelkopf", 1, KONTRA)]
    assert seats == [-2, 2, -2, 2]


def test_extra_point_against_the_queens_of_clubs_only_when_kontra_wins():
    """Extra points: won against the queens of clubs (Kontra wins) 1; Re winning gets no such point."""
    assert ("against_the_old", 1, KONTRA) in ddv(facts(100))[0]
    assert not any(key == "against_the_old" for key, _, _ in ddv(facts(140))[0])


def test_solo_no_extra_points_soloist_three_times():
    """Solo: no extra points (not even against the queens of clubs); the soloist wins or loses
    three times.  Soloist (seat 1) announced Re, took 100: Kontra wins 1 + Re +2 = 3, the
    soloist −9, each opponent +3; the fox Kontra caught counts nothing."""
    lines, seats = ddv(facts(100, levels=RE_ONLY, team=SOLOIST_1, lone=True, kontra_extras=[FOX]))
    assert lines == [("won", 1, KONTRA), ("re_announced", 2, KONTRA)]
    assert seats == [3, -9, 3, 3]


def test_solo_won_by_the_soloist():
    """Solo: soloist takes 200 (Kontra under 90, under 60): 1 + 1 + 1 = 3, the soloist +9."""
    lines, seats = ddv(facts(200, team=SOLOIST_1, lone=True))
    assert lines == [("won", 1, RE), ("under_no_90", 1, RE), ("under_no_60", 1, RE)]
    assert seats == [-3, 9, -3, -3]


def test_scores_are_zero_sum_over_random_facts():
    """Settlement: per player of the winning side, negative for the losers — the four sum to zero."""
    rng = random.Random(16)
    for _ in range(500):
        lone = rng.random() < 0.3
        team = SOLOIST_1 if lone else PAIRS
        levels = (rng.randint(-1, 4), rng.randint(-1, 4))
        f = facts(rng.randint(0, 240), levels=levels, team=team, lone=lone,
                  re_extras=[FOX] * rng.randint(0, 2), kontra_extras=[DOKO] * rng.randint(0, 2))
        assert sum(settle_ddv(f).seat_points) == 0


# -- the option in a deal ---------------------------------------------------------------------------
def test_ddv_preset_scores_deals_with_the_ddv_table(dk):
    """DDV preset: a played deal is settled by the DDV table (its own line keys), the standard
    rules by the standard table; same deal, same actions."""
    for seed in range(60):
        ddv_state = dk.start(["QC", "", "QC", ""], dealer=3, seed=seed, preset="ddv")
        standard = dk.start(["QC", "", "QC", ""], dealer=3, seed=seed)
        for state in (ddv_state, standard):
            rng = random.Random(seed)
            dk.run(state, "healthy", "healthy", "healthy", "healthy")
            state.apply(state.parse_action("re"))
            state.apply(state.parse_action("no 90"))
            dk.advance(state, rng, lambda s: s.is_terminal())
        assert ddv_state.settlement == settle_ddv(ddv_state.facts())
        assert standard.settlement == settle(standard.facts())
        ddv_keys = {line.key for line in ddv_state.breakdown()}
        assert "re_no_90" in ddv_keys and not ddv_keys & {"announced_no_90", "missed_no_90"}
        if standard.settlement.winner == KONTRA:
            assert "missed_no_90" in {line.key for line in standard.breakdown()}
            return
    raise AssertionError("no seed gave a missed no 90")


def test_old_ddv_records_replay_with_their_own_scoring(dk):
    """Old records keep replaying: a record stores its options written out, so a "ddv" record made
    before ``ddv_scoring`` existed (options without it) is scored by the standard table."""
    from tricktable.catalog import replay
    from tricktable.core.record import record_of

    old_options = {k: v for k, v in SPEC.normalize_options({"preset": "ddv"}).items()
                   if k not in ("ddv_scoring", "tournament_list")}
    state = SPEC.new_deal(dk.fill_deal(["QC", "", "QC", ""], seed=3), old_options)
    dk.run(state, "healthy", "healthy", "healthy", "healthy", "re", "no 90")
    dk.advance(state, random.Random(3), lambda s: s.is_terminal())
    assert not state.options["ddv_scoring"] and state.settlement == settle(state.facts())
    record = record_of(state).to_json()
    record["options"] = old_options
    again = replay(record)
    assert again.returns() == state.returns()
