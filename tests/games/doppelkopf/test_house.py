"""Scenario tests of the Doppelkopf house rules (``shared/rules/doppelkopf.md``, section
"House rules"), one per rule line, each named after it; results computed by hand."""

from __future__ import annotations

import random

import pytest

from tricktable.cards import parse_card
from tricktable.errors import OptionError
from tricktable.catalog import replay
from tricktable.core.record import record_of
from tricktable.games.doppelkopf import SPEC
from tricktable.games.doppelkopf import state as st
from tricktable.games.doppelkopf.house import BockQueue
from tricktable.games.doppelkopf.observation import Situation
from tricktable.games.doppelkopf.rules import KONTRA, PIGS_TABLE, RE, SUPERPIGS_TABLE, SUPERPIG_KINGS_TABLE

PIGS = {"schweinchen": True}
SUPERPIGS = {"schweinchen": True, "superschweinchen": True}


def cards(text: str) -> list[int]:
    return [parse_card(t) for t in text.split()]


def healthy(dk, state: st.DoppelkopfState) -> st.DoppelkopfState:
    return dk.run(state, "healthy", "healthy", "healthy", "healthy")


# -- Schweinchen ---------------------------------------------------------------------------
def test_schweinchen_pigs_beat_the_heart_ten(dk):
    """House rules, Schweinchen: the holder of both ♦A has pigs; both rank above 10♥."""
    state = healthy(dk, dk.start(["10H", "AD AD", "QC", "QC"], **PIGS))
    assert state.pigs == 1 and state.table == PIGS_TABLE
    dk.run(state, "play 10H", "play AD")
    assert state.trick_winner(0, cards("10H AD QC QC"), last=False) == 1
    # Without the option the same trick goes to the 10♥.
    plain = healthy(dk, dk.start(["10H", "AD AD", "QC", "QC"]))
    assert plain.pigs == -1 and plain.trick_winner(0, cards("10H AD QC QC"), last=False) == 0


def test_schweinchen_only_with_both_aces_of_diamonds_in_one_hand(dk):
    """House rules, Schweinchen: a player who holds both ♦A has pigs — one ♦A is a fox."""
    state = healthy(dk, dk.start(["10H", "AD", "AD", ""], **PIGS))
    assert state.pigs == -1 and state.trick_winner(0, cards("10H AD QC AD"), last=False) == 0


def test_schweinchen_public_when_the_first_is_played(dk):
    """House rules, Schweinchen: they become public when the first is played (the holder
    knows from his own cards)."""
    state = healthy(dk, dk.start(["10H", "AD AD", "", ""], **PIGS))
    assert [state.observe(s).pigs for s in range(4)] == [None, 1, None, None]
    assert state.observe(0).table != PIGS_TABLE and state.observe(1).table == PIGS_TABLE
    assert "AD" in state.view(1)["trumps"][:1] and state.view(0)["trumps"][0] == "10H"
    dk.run(state, "play 10H", "play AD")
    assert [state.observe(s).pigs for s in range(4)] == [1, 1, 1, 1]
    assert state.view(2)["trumps"][:2] == ["AD", "10H"]


def test_schweinchen_in_a_diamonds_solo_and_not_in_a_queen_solo(dk):
    """House rules, Schweinchen: in a contract whose trumps include the ♦ aces (… diamonds
    solo) — in a queen solo the ♦A is a plain card."""
    diamonds = dk.run(dk.start(["", "AD AD", "", ""], **PIGS), "solo diamonds", "healthy", "healthy", "healthy")
    assert diamonds.contract == st.SOLO_GAME and diamonds.pigs == 1 and diamonds.table == PIGS_TABLE
    assert diamonds.trick_winner(0, cards("10H AD QC JD"), last=False) == 1
    queens = dk.run(dk.start(["", "AD AD", "", ""], **PIGS), "solo queens", "healthy", "healthy", "healthy")
    assert queens.pigs == -1
    # ♦ led: the queen of clubs (a trump) wins, the ♦A is only the best diamond.
    assert queens.trick_winner(0, cards("KD AD QC 10D"), last=False) == 2
    assert queens.trick_winner(0, cards("KD AD 9D 10D"), last=False) == 1


def test_schweinchen_in_a_poverty_the_holder_is_decided_after_the_exchange(dk):
    """House rules, Schweinchen: in a poverty the holder is decided after the exchange."""
    # Seat 0 is poor (three trumps: AD 10D KD); seat 1 holds the other ♦A and takes the poverty.
    hands = ["AD 10D KD AC AC 10C 10C KC KC 9C 9C AS", "AD QC QC QS QS JC", "", ""]
    for returned, pigs in (("QS QS JC", 1), ("AD 10D KD", -1)):
        state = dk.start(hands, **PIGS)
        dk.run(state, "poverty", "healthy", "healthy", "healthy", "give AD 10D KD", "accept")
        assert state.pigs == -1  # the taker holds both ♦A now, but nothing is decided before the return
        dk.run(state, f"return {returned}")
        assert state.phase == st.PLAYING and state.pigs == pigs


def test_schweinchen_a_pig_is_no_fox(dk):
    """House rules, Schweinchen: a pig is no fox: no extra point for catching it.  Trick 1:
    10♥ (seat 0, Kontra), ♦A (seat 1, Re), ♦9 (seat 2, Kontra), ♦K (seat 3, Re): with
    superpigs the ♦9 catches the pig — no fox; without the house rules the 10♥ catches a fox."""
    hands = ["10H", "AD AD QC", "9D 9D", "QC KD"]
    for options, winner in ((SUPERPIGS, 2), ({}, 0)):
        state = healthy(dk, dk.start(hands, **options))
        dk.run(state, "play 10H", "play AD", "play 9D", "play KD")
        assert state.tricks[0][2] == winner and state.team[winner] == KONTRA
        dk.advance(state, random.Random(1), lambda s: s.is_terminal())
        foxes = [text for _, text in state._extras()[KONTRA] if text == "Fox (A♦) caught in trick 1"]
        assert foxes == ([] if options else ["Fox (A♦) caught in trick 1"])


# -- Superschweinchen ------------------------------------------------------------------------
def test_superschweinchen_superpigs_beat_the_pigs(dk):
    """House rules, Superschweinchen: when pigs are held, the holder of both ♦9 has
    superpigs, ranked above the pigs."""
    state = healthy(dk, dk.start(["10H", "AD AD", "9D 9D", ""], **SUPERPIGS))
    assert (state.pigs, state.superpigs, state.table) == (1, 2, SUPERPIGS_TABLE)
    assert state.trick_winner(0, cards("10H AD 9D QC"), last=False) == 2
    only_pigs = healthy(dk, dk.start(["10H", "AD AD", "9D 9D", ""], **PIGS))
    assert only_pigs.trick_winner(0, cards("10H AD 9D QC"), last=False) == 1


def test_superschweinchen_only_when_pigs_are_held(dk):
    """House rules, Superschweinchen: only when pigs are held — with the ♦A split, ♦9 is low."""
    state = healthy(dk, dk.start(["10H AD", "AD", "9D 9D", ""], **SUPERPIGS))
    assert (state.pigs, state.superpigs) == (-1, -1)
    assert state.trick_winner(0, cards("10H AD 9D QC"), last=False) == 0


def test_superschweinchen_public_when_the_first_is_played(dk):
    """House rules, Superschweinchen: public when the first is played; the holder of both ♦9
    does not learn from his cards that pigs are held."""
    state = healthy(dk, dk.start(["10H", "AD AD", "9D 9D", ""], **SUPERPIGS))
    assert [state.observe(s).superpigs for s in range(4)] == [None, None, None, None]
    dk.run(state, "play 10H", "play AD")
    assert state.observe(2).superpigs == 2 and state.observe(0).superpigs is None
    dk.run(state, "play 9D")
    assert [state.observe(s).superpigs for s in range(4)] == [2, 2, 2, 2]


# -- Throwing in ------------------------------------------------------------------------------
def test_throwing_in_with_five_nines(dk):
    """House rules, Throwing in: a player with 5 or more 9s may throw the cards in: the same
    dealer deals again, same deal number."""
    hands = ["9C 9C 9S 9S 9H", "", "", ""]
    assert "throw in" not in dk.start(hands).legal_texts()
    state = dk.start(hands, throwing_in=True)
    assert "throw in" in state.legal_texts()
    dk.run(state, "throw in", "healthy", "healthy", "healthy")
    assert state.is_terminal() and state.outcome == "thrown_in" and state.returns() == [0, 0, 0, 0]
    assert [line.key for line in state.breakdown()] == ["thrown_in_cards"]
    match = SPEC.new_match("throw", SPEC.normalize_options({"throwing_in": True}))
    dealer = match.dealer
    match.current = SPEC.new_deal(dk.fill_deal(_from_left(dealer, hands), dealer), match.options)
    for text in ("throw in", "healthy", "healthy", "healthy"):
        match.act(match.to_move, text)
    assert match.results[-1]["counts"] is False and match.dealer == dealer
    assert match.observe(0).match.deal_number == 1 and match.deals_played == 0


def test_throwing_in_with_five_kings_not_with_four(dk):
    """House rules, Throwing in: … or 5 or more kings."""
    assert "throw in" in dk.start(["KC KC KS KS KH", "", "", ""], throwing_in=True).legal_texts()
    four = dk.start(["KC KC KS KS 9H 9H 9S 9S AC AC AS AS", "", "", ""], throwing_in=True)
    assert "throw in" not in four.legal_texts()


def test_throwing_in_ranks_below_every_solo_and_above_poverty(dk):
    """House rules, Throwing in: a reservation ranked below every solo, above poverty."""
    hands = ["9C 9C 9S 9S 9H", "AC AC AS AS 10C 10C 10S 10S KC KC KS KS", "", ""]
    above = dk.run(dk.start(hands, throwing_in=True), "throw in", "poverty", "healthy", "healthy")
    assert above.outcome == "thrown_in"
    below = dk.run(dk.start(hands, throwing_in=True), "throw in", "poverty", "solo aces", "healthy")
    assert below.contract == st.SOLO_GAME and below.declarer == 2
    assert below.observe(3).reservations == ("Vorbehalt", "Vorbehalt", "solo aces", "healthy")


def _from_left(dealer: int, hands: list[str]) -> list[str]:
    """Hands written from the dealer's left (the first speaker first) as seat order."""
    out = [""] * 4
    for offset, hand in enumerate(hands):
        out[(dealer + 1 + offset) % 4] = hand
    return out


# -- Bock rounds ---------------------------------------------------------------------------------
def test_bock_rounds_doubling_and_overlapping():
    """House rules, Bock rounds: the next four deals count double; each bock that covers a
    deal doubles it (two overlapping ×4); a thrown-in deal uses up no bock deal; bock deals
    after the match's last deal are dropped.  Deals 1..8: deal 1 makes a bock (deals 2–5
    ×2), a redeal of deal 2, deal 3 makes one (4, 5 ×4; 6, 7 ×2), deal 7 makes one (8 ×2,
    the other three dropped)."""
    queue, seen = BockQueue(), []
    makes = {1: True, 3: True, 7: True}
    deal, played = 1, 0
    while played < 8:
        seen.append(queue.multiplier())
        played += 1
        queue.after_deal(True, makes.get(deal, False), 8 - played)
        if deal == 1:  # deal 2 is first thrown in
            seen.append(queue.multiplier())
            queue.after_deal(False, False, 8 - played)
        deal += 1
    assert seen == [1, 2, 2, 2, 4, 4, 2, 2, 2]
    assert queue.covers == []


def test_bock_rounds_after_a_lost_solo_in_the_match(dk):
    """House rules, Bock rounds: after a lost solo the next four deals count double (shown on
    the score sheet); a second lost solo overlaps: ×4.  The soloist holds all eight 9s and
    four jacks in an ace solo and takes no trick."""
    match = SPEC.new_match("bock", SPEC.normalize_options({"bock": True}))
    raw = []
    for _ in range(2):
        dealer = match.dealer
        soloist = (dealer + 2) % 4
        hands = ["", "", "", ""]
        # He never wins a trick: no 9 can be led against him, a jack at best ties (the first wins).
        hands[soloist] = "9C 9C 9S 9S 9H 9H 9D 9D JC JS JH JD"
        match.current = SPEC.new_deal(dk.fill_deal(hands, dealer), match.options)
        while match.current.phase == st.RESERVING:
            match.act(match.to_move, "solo aces" if match.to_move == soloist else "healthy")
        deal = match.current
        dk.advance(deal, random.Random(2), lambda s: len(s.tricks) == 11 and len(s.trick) == 3)
        match.apply(deal.legal_actions()[-1])
        assert deal.settlement.winner == KONTRA and deal.facts().tricks[RE] == 0
        raw.append(deal.returns())
    first, second = match.results
    assert first["points"] == raw[0] and second["points"] == [2 * p for p in raw[1]]
    assert [line for line in second["lines"] if line["key"] == "bock"] == [
        {"key": "bock", "text": "Bock ×2: the deal's points count 2 times", "points": 2}]
    # Deals 3, 4, 5 are covered twice (×4), deal 6 once: the table shows ×4 and three more.
    assert match.bocks.covers == [2, 2, 2, 1]
    assert dict(match.observe(0).match.extra).items() >= {"bock": 4, "bock_deals_queued": 3}.items()


def test_bock_rounds_after_120_to_120():
    """House rules, Bock rounds: a deal that ends 120 : 120 makes a bock; 121 : 119 does not."""
    from tricktable.games.doppelkopf.house import makes_bock
    from tricktable.games.doppelkopf.rules import Settlement

    state = SPEC.new_deal(SPEC.deal_from_seed("even", 0, {}), SPEC.normalize_options({"bock": True}))
    # The card points as a finished deal would hold them (only they decide here).
    state.settlement, state.team = Settlement(RE, [], 1, [1, -1, 1, -1]), [RE, KONTRA, RE, KONTRA]
    state.won_points = [60, 60, 60, 60]
    assert makes_bock(state)
    state.won_points = [61, 60, 60, 59]
    assert not makes_bock(state)


# -- Without nines ---------------------------------------------------------------------------------
def test_without_nines_40_cards_10_each():
    """House rules, Without nines: a 40-card deck (no 9s), 10 cards each; deck total 240."""
    options = SPEC.normalize_options({"without_nines": True})
    deal = SPEC.deal_from_seed("forty", 2, options)
    assert [len(h) for h in deal.hands] == [10, 10, 10, 10]
    held = [c % 64 for h in deal.hands for c in h]
    assert not any(card_rank(c) == "9" for c in held)
    from tricktable.games.doppelkopf.rules import POINTS

    assert sum(POINTS[c] for c in held) == 240
    assert sorted(deal.all_cards()) == sorted(SPEC.deck)  # the nines are set aside, not lost


def without_nines(partial: list[str], **options: object) -> st.DoppelkopfState:
    """A deal without nines where each seat holds at least the cards written for it."""
    from collections import Counter

    from tricktable.cards import card_text
    from tricktable.games.doppelkopf.house import DECK_WITHOUT_NINES, NINES

    left = Counter(c % 64 for c in DECK_WITHOUT_NINES)
    hands = [cards(text) for text in partial]
    for hand in hands:
        left.subtract(hand)
    rest = sorted(left.elements())
    random.Random(5).shuffle(rest)
    for hand in hands:
        while len(hand) < 10:
            hand.append(rest.pop())
    texts = [" ".join(card_text(c) for c in hand) for hand in hands]
    deal = SPEC.deal_from_json({"dealer": 3, "hands": texts, "rest": " ".join(card_text(c % 64) for c in NINES)})
    return SPEC.new_deal(deal, SPEC.normalize_options({"without_nines": True, **options}))


def card_rank(face: int) -> str:
    from tricktable.cards import card_text

    return card_text(face)[:-1]


def test_without_nines_re_needs_nine_cards(dk):
    """House rules, Without nines: every announcement card count is lowered by 2 (Re/Kontra ≥ 9
    cards, no 90 ≥ 8): Re may be said with 9 cards, not with 8."""
    options = SPEC.normalize_options({"without_nines": True})
    state = healthy(dk, SPEC.new_deal(SPEC.deal_from_seed("deadline", 3, options), options))
    re_seat = next(s for s in range(4) if state.team[s] == RE)
    rng = random.Random(0)
    dk.advance(state, rng, lambda s: s.counts[re_seat] == 9)
    late = state.clone()
    assert "re" in state.legal_texts_for(re_seat)
    state.apply_for(re_seat, state.parse_action("re"))
    assert "no 90" in state.legal_texts_for(re_seat)  # no 90 needs 8 cards
    dk.advance(late, rng, lambda s: s.counts[re_seat] == 8)
    assert "re" not in late.legal_texts_for(re_seat)
    dk.advance(state, rng, lambda s: s.counts[re_seat] == 7)
    assert "no 90" not in state.legal_texts_for(re_seat)


def test_without_nines_superpigs_are_both_kings_of_diamonds(dk):
    """House rules, Without nines: superpigs are then both ♦K."""
    state = healthy(dk, without_nines(["10H", "AD AD", "KD KD", "QC QC"], **SUPERPIGS))
    assert (state.pigs, state.superpigs, state.table) == (1, 2, SUPERPIG_KINGS_TABLE)
    assert state.trick_winner(0, cards("10H AD KD QC"), last=False) == 2


def test_without_nines_throwing_in_counts_kings_only(dk):
    """House rules, Without nines: throwing in counts kings only."""
    assert "throw in" in without_nines(["KC KC KS KS KH", "", "", ""], throwing_in=True).legal_texts()
    assert "throw in" not in without_nines(["KC KC KS KS AC AC AS AS 10C 10C", "", "", ""], throwing_in=True).legal_texts()


def test_without_nines_record_replays(dk):
    """Old records replay, and so does a deal without nines dealt from its seed."""
    options = SPEC.normalize_options({"without_nines": True, "schweinchen": True})
    state = SPEC.new_deal(SPEC.deal_from_seed("replay", 1, options), options)
    dk.play_out(state, random.Random(3), dk.Policy())
    again = replay(record_of(state).to_json())
    assert again.returns() == state.returns() and [again.view(s) for s in range(4)] == [state.view(s) for s in range(4)]


# -- the preset -----------------------------------------------------------------------------------
def test_house_rules_preset():
    """House rules: a "house rules" preset switches on Schweinchen and second 10♥ beats the
    first; poverty stays on."""
    house = SPEC.normalize_options({"preset": "house"})
    assert house["schweinchen"] and house["second_heart_ten"] and house["poverty"]
    assert not any(house[name] for name in ("superschweinchen", "throwing_in", "bock", "without_nines"))
    assert not any(SPEC.normalize_options({})[name] for name in
                   ("schweinchen", "superschweinchen", "throwing_in", "bock", "without_nines"))


@pytest.mark.parametrize("options", [PIGS, SUPERPIGS])
def test_sampled_worlds_keep_unshown_pigs_open(dk, options):
    """Views and world sampling: a pig holder's pigs are public only once shown; before,
    a sampled world may give them to anyone consistent with what is known."""
    state = healthy(dk, dk.start(["10H", "AD AD", "", ""], **options))
    rng = random.Random(4)
    holders = set()
    for _ in range(60):
        world = SPEC.sample_world(state.observe(0), rng)
        assert world.observe(0) == state.observe(0)
        holders.add(world.pigs)
    assert {-1, 1} <= holders and len(holders) >= 3
    dk.run(state, "play 10H", "play AD")
    for _ in range(20):
        world = SPEC.sample_world(state.observe(0), rng)
        assert world.pigs == 1 and world.observe(0) == state.observe(0)


def test_the_rollouts_situation_knows_the_pigs_the_seat_knows(dk):
    """Views: ``DoppelkopfState.situation(seat)`` (what rollouts decide from) equals the
    situation of the seat's observation with pigs and superpigs too: the holder's table has
    them from the start, the others' once shown."""
    rng = random.Random(6)
    tables = set()
    for index in range(30):
        state = healthy(dk, dk.start(["10H", "AD AD", "9D 9D", ""], seed=index, **SUPERPIGS))
        while not state.is_terminal():
            for seat in range(4):
                situation = state.situation(seat)
                assert situation == Situation.of(state.observe(seat))
                tables.add((seat, situation.table))
            state.apply(rng.choice([a for a in state.legal_actions() if a < 52]))
    assert {(1, PIGS_TABLE), (0, SUPERPIGS_TABLE), (2, SUPERPIGS_TABLE)} <= tables and (0, 0) in tables


def test_superschweinchen_needs_schweinchen():
    """House rules, Superschweinchen "(needs Schweinchen)": alone it is refused, not ignored."""
    with pytest.raises(OptionError, match="needs option 'schweinchen'"):
        SPEC.normalize_options({"superschweinchen": True})
    assert SPEC.normalize_options({"schweinchen": True, "superschweinchen": True})["superschweinchen"]
