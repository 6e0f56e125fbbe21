"""The DDV tournament list (option ``tournament_list`` with the "ddv" preset),
from ``shared/rules/doppelkopf.md`` section "DDV tournament rules" → "Tournament list".

Matches (and deals played alone with the list on: the list's first deal) are played
with chosen reservations and random cards (never announcing): what the list decides —
who deals, which deals count, who must play a solo and who leads it — does not depend
on the cards played."""

from __future__ import annotations

import random

import pytest

from tricktable.bots import make_bot
from tricktable.bots.doppelkopf import best_solo, heuristic_text, playout
from tricktable.cards import parse_cards
from tricktable.catalog import replay
from tricktable.core.record import record_of
from tricktable.games.doppelkopf import SPEC
from tricktable.games.doppelkopf import state as st
from tricktable.games.doppelkopf.spec import DoppelkopfMatch
from tricktable.games.doppelkopf.tournament import TOURNAMENT_DEALS, TournamentDeal

OPTIONS = {"preset": "ddv", "tournament_list": True}


def new_match(seed: str = "list") -> DoppelkopfMatch:
    match = SPEC.new_match(seed, OPTIONS)
    assert isinstance(match, DoppelkopfMatch)
    return match


def deal_of(match: DoppelkopfMatch) -> st.DoppelkopfState:
    deal = match.current
    assert isinstance(deal, st.DoppelkopfState)
    return deal


def finish_deal(match: DoppelkopfMatch, rng: random.Random, reserve=lambda seat, texts: "healthy") -> st.DoppelkopfState:
    """Play the current deal to its end: ``reserve(seat, legal texts)`` speaks, cards are random."""
    deal = deal_of(match)
    while not deal.is_terminal():
        texts = match.legal_texts()
        if deal.phase == st.RESERVING:
            text = reserve(deal.to_move, texts)
            text = text if text in texts else "healthy"
        else:
            text = rng.choice([t for t in texts if t.startswith("play ")] or texts)
        match.act(match.to_move, text)
    return deal


def solo_by(*seats: int, solo: str = "solo queens"):
    """A reservation policy: these seats play a solo, the others say healthy."""
    return lambda seat, texts: solo if seat in seats else "healthy"


def test_tournament_list_is_24_regular_deals_with_every_player_owing_one_solo():
    """Tournament list: a match of 24 regular deals; at the start all four owe their compulsory solo."""
    match = new_match()
    deal = deal_of(match)
    assert deal.tournament == TournamentDeal((0, 1, 2, 3), TOURNAMENT_DEALS, None)
    assert match.view(0)["tournament"] == {"owing": [0, 1, 2, 3], "regular_left": 24, "forced": None}
    assert match.match_view(0)["deals_total"] == 24
    assert not SPEC.normalize_options({"preset": "ddv"})["tournament_list"]  # an option, off by default


def test_compulsory_solo_redeal_by_the_same_dealer():
    """Tournament list: a compulsory solo played by choice is an extra deal — the same dealer
    deals again and it does not count among the 24; the compulsory soloist leads."""
    match, rng = new_match(), random.Random(1)
    dealer = match.dealer
    soloist = (dealer + 2) % 4  # not the dealer's left: the lead shows the compulsory rule
    deal = finish_deal(match, rng, solo_by(soloist))
    assert deal.contract == st.SOLO_GAME and deal.compulsory and deal.tricks[0][0] == soloist
    assert match.results[-1]["counts"] is False and match.deals_played == 0
    assert match.dealer == dealer
    assert deal_of(match).tournament == TournamentDeal(tuple(s for s in range(4) if s != soloist), 24, None)


@pytest.mark.parametrize("offset", [1, 2, 3, 4])
def test_compulsory_soloist_leads_in_the_lists_first_deal(offset):
    """Tournament list: "a player's first solo is his compulsory solo ... The compulsory
    soloist leads" — in the list's first deal too, whichever seat declares it (offset 1 is
    the dealer's left, 4 the dealer himself)."""
    match, rng = new_match(f"first deal {offset}"), random.Random(offset)
    assert match.deals_played == 0 and match.results == []
    soloist = (match.dealer + offset) % 4
    deal = deal_of(match)
    while deal.phase == st.RESERVING:
        match.act(match.to_move, "solo jacks" if match.to_move == soloist else "healthy")
    assert deal.compulsory and deal.declarer == soloist
    assert deal.leader == soloist and match.to_move == soloist
    assert match.observe(soloist).leader == soloist  # the table shows him leading
    finish_deal(match, rng)
    assert deal.tricks[0][0] == soloist


def single_deal_solo(soloist: int, dealer: int = 3, solo: str = "solo queens") -> st.DoppelkopfState:
    """One deal played alone with the tournament list on, ``soloist`` declaring ``solo``."""
    options = SPEC.normalize_options(OPTIONS)
    deal = SPEC.new_deal(SPEC.deal_from_seed(f"alone {soloist}", dealer, options), options)
    while deal.phase == st.RESERVING:
        deal.act(deal.to_move, solo if deal.to_move == soloist else "healthy")
    return deal


@pytest.mark.parametrize("offset", [1, 2, 3, 4])
def test_single_deal_with_the_list_on_is_the_lists_first_deal(offset):
    """Tournament list: a deal played alone with the list on is the list's first deal —
    everybody owes his compulsory solo, so a solo declared in it is compulsory and "the
    compulsory soloist leads" (not the dealer's left); its record replays the same."""
    dealer = 3
    soloist = (dealer + offset) % 4
    deal = single_deal_solo(soloist, dealer)
    assert deal.tournament == TournamentDeal((0, 1, 2, 3), TOURNAMENT_DEALS, None)
    assert deal.compulsory and deal.leader == soloist and deal.to_move == soloist
    assert deal.observe(soloist).tournament == deal.tournament
    rng = random.Random(offset)
    while not deal.is_terminal():
        deal.act(deal.to_move, rng.choice([t for t in deal.legal_texts() if t.startswith("play ")]))
    assert deal.tricks[0][0] == soloist
    replayed = replay(record_of(deal))
    assert replayed.history == deal.history and replayed.returns() == deal.returns()
    assert replayed.tricks[0][0] == soloist


def test_voluntary_solo_in_a_single_deal_without_the_list_is_led_from_the_dealers_left():
    """DDV tournament rules: without the tournament list every solo is voluntary, and a
    voluntary solo is led from the dealer's left."""
    options = SPEC.normalize_options({"preset": "ddv"})
    deal = SPEC.new_deal(SPEC.deal_from_seed("alone", 3, options), options)
    while deal.phase == st.RESERVING:
        deal.act(deal.to_move, "solo queens" if deal.to_move == 2 else "healthy")
    assert deal.tournament is None and not deal.compulsory
    assert deal.declarer == 2 and deal.leader == 0


def test_sampled_worlds_and_bots_follow_the_compulsory_soloist_lead():
    """Tournament list, "the compulsory soloist leads": the world sampler rebuilds a single
    deal with the list on with the soloist leading (every seat's sampled world shows it the
    same), the fast playout finishes such a world, and the bots play the soloist's lead."""
    soloist = 1  # dealer 3: not the dealer's left
    deal = single_deal_solo(soloist)
    rng = random.Random(7)
    for seat in range(4):
        obs = deal.observe(seat)
        world = SPEC.sample_world(obs, rng)
        assert world.leader == soloist and world.to_move == soloist and world.observe(seat) == obs
        assert playout(world, seat) is not None  # the kernel follows the list's options
    obs = deal.observe(soloist)
    for bot in (make_bot("heuristic"), make_bot("search", seed="lead", budget_ms=15)):
        assert bot.choose(obs) in obs.legal
    deal.act(soloist, make_bot("heuristic").choose(obs))
    assert deal.trick and deal.leader == soloist
    for seat in range(4):  # after the lead, too
        obs = deal.observe(seat)
        assert SPEC.sample_world(obs, rng).observe(seat) == obs


def test_voluntary_solo_after_ones_compulsory_solo_is_a_regular_deal_led_from_the_dealers_left():
    """Tournament list: a player's first solo is his compulsory one; his next solo is voluntary:
    led from the dealer's left, counted as a regular deal, and the deal passes on."""
    match, rng = new_match("voluntary"), random.Random(2)
    soloist = (match.dealer + 2) % 4
    finish_deal(match, rng, solo_by(soloist))  # his compulsory solo (an extra deal)
    dealer = match.dealer
    deal = finish_deal(match, rng, solo_by(soloist, solo="solo jacks"))
    assert deal.contract == st.SOLO_GAME and not deal.compulsory
    assert deal.tricks[0][0] == (dealer + 1) % 4
    assert match.results[-1]["counts"] is True and match.deals_played == 1
    assert match.dealer == (dealer + 1) % 4


def test_silent_marriage_and_marriage_turned_solo_are_no_compulsory_solo(dk):
    """Tournament list: a silent marriage or a marriage turned solo is not the compulsory solo."""
    listing = TournamentDeal((0, 1, 2, 3), 24, None)
    options = SPEC.normalize_options(OPTIONS)
    silent = SPEC.new_deal(dk.fill_deal(["QC QC", "", "", ""]), options, listing)
    dk.run(silent, "healthy", "healthy", "healthy", "healthy")
    assert silent.contract == st.SILENT_SOLO and silent.lone and not silent.compulsory
    married = SPEC.new_deal(dk.fill_deal(["QC QC 10H 10H QS QS AC AC AS AS AH AH", "", "", ""]), options, listing)
    dk.run(married, "marriage", "healthy", "healthy", "healthy")
    rng = random.Random(0)
    for lead in ("10H", "10H", "QC"):
        married.act(0, f"play {lead}")
        dk.advance(married, rng, lambda s: s.to_move == 0)
    assert married.lone and married.decided_in == 3 and not married.compulsory
    assert married.leader == 0  # seat 0 leads as the winner of trick 3, not as a compulsory soloist


def test_forced_vorgefuehrt_solo():
    """Tournament list, "vorgeführt": when the regular deals left equal the compulsory solos
    missing, the next player from the dealer's left who still owes one must play it: he
    alone speaks, only solos are offered, he chooses the type and leads; the deal counts
    and passes on.  Here seat s1 played his by choice, so with 3 owing the forced solos are
    the last 3 deals; before them nobody was forced."""
    match, rng = new_match("forced"), random.Random(3)
    first = (match.dealer + 1) % 4
    finish_deal(match, rng, solo_by(first))  # compulsory by choice: extra deal, 3 still owe
    while match.deals_played < TOURNAMENT_DEALS - 3:
        assert deal_of(match).tournament.forced is None
        finish_deal(match, rng)  # everybody healthy (a both-Q♣ hand: a silent solo, no compulsory one)
    owing = deal_of(match).tournament.owing
    assert len(owing) == 3 and first not in owing
    for left in (3, 2, 1):
        deal, dealer = deal_of(match), match.dealer
        facts = deal.tournament
        assert facts is not None and facts.regular_left == left and len(facts.owing) == left
        forced = next(s for s in ((dealer + k) % 4 for k in range(1, 5)) if s in facts.owing)
        assert facts.forced == forced and deal.to_move == forced
        assert all(text.startswith("solo ") for text in match.legal_texts())
        assert [match.legal_actions_for(s) for s in range(4) if s != forced] == [(), (), ()]
        match.act(forced, "solo hearts")
        assert deal.phase == st.PLAYING and deal.leader == forced and deal.compulsory
        assert deal.reservations.count(None) == 3  # the others did not speak
        match.act(forced, f"play {match.legal_texts()[-1].split()[-1]}")
        for seat in range(4):  # a sampled world replays under the same list: it shows the seat the same
            obs = deal.observe(seat)
            assert obs.tournament == facts and SPEC.sample_world(obs, rng).observe(seat) == obs
        finish_deal(match, rng)
        assert match.results[-1]["counts"] is True
        assert match.over or match.dealer == (dealer + 1) % 4
    assert match.over and match.deals_played == TOURNAMENT_DEALS and match.tournament is not None
    assert match.tournament.owing == ()
    assert len(match.results) == TOURNAMENT_DEALS + 1 and sum(match.totals) == 0
    replayed = replay(record_of(match))
    assert replayed.returns() == match.returns() and replayed.history == match.history


def test_bot_chooses_the_best_solo_for_a_forced_compulsory_solo():
    """Bots: a compulsory solo is chosen with the best solo the hand allows (never "healthy",
    which a forced player is not offered)."""
    legal = [f"solo {name}" for name in ("clubs", "spades", "hearts", "diamonds", "queens", "jacks", "aces")]
    many_jacks = parse_cards("JC JC JS JS JH JH JD AC AS AH 9C 9S")
    hearts = parse_cards("10H QC QS JC JD AH AH KH KH 9H 9H AC")
    queens = parse_cards("QC QC QS QS QH QH QD AC AS AH AD 9S")
    assert best_solo(sorted(many_jacks), legal) == "solo jacks"
    assert best_solo(sorted(hearts), legal) == "solo hearts"
    assert best_solo(sorted(queens), legal) == "solo queens"


def test_heuristic_bot_plays_a_vorgefuehrt_deal():
    """Bots: in a forced deal the rules bot names a solo and the match goes on."""
    match, rng = new_match("bot"), random.Random(4)
    while deal_of(match).tournament.forced is None:
        finish_deal(match, rng)
    forced = deal_of(match).tournament.forced
    text = heuristic_text(match.observe(forced))
    assert text.startswith("solo ") and text in match.legal_texts()
    match.act(forced, text)
    assert deal_of(match).compulsory
