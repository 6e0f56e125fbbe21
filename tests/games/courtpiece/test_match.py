"""The Court Piece match, one scenario per rule (shared/rules/court-piece.md:
"First deal", "Decision (dealer rotation)", "Scoring", "Decision (match
length)", "Daily").

Deals are scripted: the match's next deal is replaced by a ``block_deal`` for
the match's own dealer, so the match logic itself runs unchanged.
"""

import random

import pytest

from tricktable.cards import rank_of
from tricktable.errors import GameOver
from tricktable.catalog import replay
from tricktable.core.record import record_of
from tricktable.games.courtpiece import DOUBLE_SAR, SINGLE_SAR
from tricktable.games.courtpiece.match import first_draw

from .helpers import block_deal, trick_cards

# Winners of tricks 1..12 and of trick 13 for a deal that ``team`` wins.
def win_for(team):
    """``team`` wins 7-1 (Single Sar ends after trick 8)."""
    a, b = (team, team + 2)
    other = 1 - team
    return [other] + [a, b] * 3 + [a] + [other, other + 2] * 2, other


def kot_for(team):
    return [team, team + 2] * 6, team


def play_deal(match, plan):
    """Replace the match's current deal by a scripted one and play it through."""
    winners, last = plan
    deal = block_deal(winners, last, dealer=match.dealer)
    spec = match.spec
    match.current = spec.new_deal(spec.deal_from_json(deal), match.options)
    hands = trick_cards(deal)
    current = match.current
    match.act(match.to_move, "call S")
    while match.current is current and not match.is_terminal():
        match.act(match.to_move, f"play {hands[match.to_move][len(current.tricks)]}")
    return current


def new_match(spec=SINGLE_SAR, seed="match", daily=False, **options):
    return spec.new_match(seed, spec.normalize_options(options), daily=daily)


def test_first_deal_highest_drawn_card_calls_and_the_player_on_his_left_deals():
    """First deal: everyone draws; the highest card chooses trump (Decision: he is
    the caller and the player on his left deals)."""
    for n in range(20):
        match = new_match(seed=f"draw{n}")
        last_round = match.draw[-1]
        top = max(rank_of(c) for _, c in last_round)
        (winner,) = [s for s, c in last_round if rank_of(c) == top]
        assert match.dealer == (winner + 1) % 4 and match.current.caller == winner
        assert match.view(0)["match"]["first_draw"][0][0][0] == 0


def test_first_draw_ties_draw_again():
    """First deal: ties for the highest card draw again (suits do not rank); only
    the tied players draw."""
    seed = next(f"tie{n}" for n in range(500) if len(first_draw(f"tie{n}")) > 1)
    rounds = first_draw(seed)
    first_top = max(rank_of(c) for _, c in rounds[0])
    tied = [s for s, c in rounds[0] if rank_of(c) == first_top]
    assert len(tied) > 1 and [s for s, _ in rounds[1]] == tied
    assert first_draw(seed) == rounds  # from the match seed: replays the same


@pytest.mark.parametrize("case", ["dealers win", "goon kot", "callers win", "callers kot"])
def test_dealer_rotation(case):
    """Decision (dealer rotation): the dealing team won → the deal passes to the
    right; the callers won without a kot → the same dealer; with a kot → the
    dealer's partner.  The dealer is always on the team that lost."""
    match = new_match()
    dealer = match.dealer
    dealers, callers = dealer % 2, 1 - dealer % 2
    plan = {"dealers win": win_for(dealers), "goon kot": kot_for(dealers),
            "callers win": win_for(callers), "callers kot": kot_for(callers)}[case]
    deal = play_deal(match, plan)
    expected = {"dealers win": (dealer + 3) % 4, "goon kot": (dealer + 3) % 4,
                "callers win": dealer, "callers kot": (dealer + 2) % 4}[case]
    assert match.dealer == expected and match.current.dealer == expected
    assert match.dealer % 2 != deal.winners


def test_points_mode_scores_each_deal_per_the_table():
    """Scoring: points mode adds the table's points to the winning team."""
    match = new_match()
    callers = match.current.callers
    play_deal(match, win_for(callers))
    assert match.team_totals()[callers] == 1
    callers = match.current.callers  # same dealer again
    play_deal(match, win_for(1 - callers))
    assert match.team_totals()[1 - callers] == 2


def test_seven_in_a_row_bonus_and_its_reset_on_a_kot():
    """Scoring: 7 deals won in a row earn +2 points; any kot resets both teams'
    counts to zero."""
    match = new_match(target_points=31)
    team = 0
    for _ in range(6):
        play_deal(match, win_for(team))
    assert match.streaks == [6, 0]
    before = match.team_totals()[team]
    deal = play_deal(match, win_for(team))
    bonus = match.team_totals()[team] - before - deal.points[team]
    assert bonus == 2 and match.streaks == [0, 0]
    assert match.results[-1]["lines"][-1]["key"] == "streak"
    for _ in range(6):
        play_deal(match, win_for(team))
    play_deal(match, kot_for(team))  # a kot: both counts start again
    assert match.streaks == [0, 0]
    for _ in range(6):
        play_deal(match, win_for(team))
    play_deal(match, win_for(1 - team))  # the other team breaks the run
    assert match.streaks == [0, 1]
    assert sum(1 for r in match.results for line in r["lines"] if line["key"] == "streak") == 1


def test_seven_in_a_row_bonus_in_kots_mode_is_one_kot():
    """Scoring: in kots mode the bonus is +1 kot, and plain wins score nothing."""
    match = new_match(counting="kots", target_kots=7)
    for _ in range(7):
        play_deal(match, win_for(1))
    assert match.team_totals() == [0, 1]
    goon = match.dealer % 2 == 0
    play_deal(match, kot_for(0))
    assert match.team_totals()[0] == (3 if goon else 1)  # goon kot +3, callers' kot +1


def test_match_ends_at_the_points_target():
    """Decision (match length): a team reaching 10 points (an option) wins the match."""
    match = new_match(target_points=5)
    while not match.is_terminal():
        play_deal(match, kot_for(0))
    assert match.team_totals()[0] >= 5 and match.view(0)["match"]["winner_team"] == 0
    with pytest.raises(GameOver):
        match.apply(0)


def test_match_ends_at_the_kots_target():
    """Decision (match length): 2 kots (an option) win in kots mode."""
    match = new_match(counting="kots")
    play_deal(match, win_for(1))
    play_deal(match, kot_for(1))
    assert not match.is_terminal()
    while not match.is_terminal():
        play_deal(match, kot_for(1))
    assert match.team_totals()[1] >= 2 and match.view(1)["match"]["target"] == 2


def test_daily_is_eight_deals_counted_in_points():
    """Daily: 8 deals, counted in points mode whatever the chosen mode, no new cards;
    the score is our team's points minus theirs."""
    match = new_match(seed="2026-11-29", daily=True, counting="kots")
    assert match.counting == "points" and match.options["counting"] == "points"
    assert "new cards" not in match.legal_texts()
    for n in range(8):
        assert not match.is_terminal()
        play_deal(match, win_for(n % 2 if n < 4 else 0))
    assert match.is_terminal() and match.deals_played == 8
    totals = match.team_totals()
    assert match.view(1)["match"]["daily_score"] == totals[1] - totals[0]
    same_day = new_match(seed="2026-11-29", daily=True)
    assert same_day.current.deal == new_match(seed="2026-11-29", daily=True).current.deal


def test_new_cards_in_a_match_redeals_by_the_same_dealer_once():
    """App extras, new cards: once per deal; the same dealer deals fresh cards and
    the deal number does not move."""
    seed = next(f"nc{n}" for n in range(200) if new_match(seed=f"nc{n}").current.caller == 0)
    match = new_match(seed=seed)
    dealer, cards = match.dealer, match.current.deal.hands
    match.act(0, "new cards")
    assert match.dealer == dealer and match.current.deal.hands != cards
    assert match.view(0)["match"]["deal_number"] == 1 and match.results[-1]["counts"] is False
    assert "new cards" not in match.legal_texts() and match.team_totals() == [0, 0]
    match.act(0, "call H")
    assert "new cards" not in match.legal_texts()


@pytest.mark.parametrize("spec", [DOUBLE_SAR, SINGLE_SAR])
def test_random_matches_replay_identically(spec):
    """Records: a whole match (timeouts and new cards included) replays to the same
    totals and views."""
    for n in range(3):
        match = new_match(spec, seed=f"replay{n}", new_cards="any seat")
        rng = random.Random(n)
        while not match.is_terminal():
            if match.referee_actions() and rng.random() < 0.3:
                match.apply_referee(rng.choice(match.referee_actions()))
            else:
                match.apply(rng.choice(match.legal_actions()))
        again = replay(record_of(match).dumps())
        assert again.returns() == match.returns() and again.view(2) == match.view(2)
        assert max(match.team_totals()) >= 10


@pytest.mark.parametrize("spec", [DOUBLE_SAR, SINGLE_SAR])
def test_sampled_worlds_from_match_views_agree(spec):
    """World sampling works from the views a match gives its players (bots get those)."""
    match = new_match(spec, seed="worlds")
    rng = random.Random(5)
    checked = 0
    while not match.is_terminal() and checked < 60:
        seat = match.to_move
        view = match.view(seat)
        world = spec.sample_world(match.observe(seat), rng)
        expected = {k: v for k, v in view.items() if k != "match"}
        assert world.view(seat) == expected
        match.apply(rng.choice(match.legal_actions()))
        checked += 1
