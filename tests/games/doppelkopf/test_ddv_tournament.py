"""The DDV tournament list (option ``tournament_list`` with the "ddv" preset),
from ``shared/rules/doppelkopf.md`` section "DDV tournament rules" → "Tournament list".

Matches are played with chosen reservations and random cards (never announcing):
what the list decides — who deals, which deals count, who must play a solo and
who leads it — does not depend on the cards played."""

from __future__ import annotations

import random

from tricktable.bots.doppelkopf import best_solo, heuristic_text
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
