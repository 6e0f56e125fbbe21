"""Scenario tests, one per rule of ``shared/rules/doppelkopf.md`` (section named
in each docstring)."""

from __future__ import annotations

import random
from itertools import combinations

import pytest

from tricktable.cards import COPY_OFFSET, card_text, parse_card
from tricktable.errors import IllegalAction, NotationError
from tricktable.games.doppelkopf import SPEC
from tricktable.games.doppelkopf import state as st
from tricktable.games.doppelkopf.rules import NORMAL, POINTS, SOLO_NAMES, SOLO_TABLE, TRUMP_ORDER, DECK, RE, KONTRA


def order_of(table: int, texts: str) -> list[str]:
    """Cards sorted by strength in a table (highest first), trumps above plain."""
    from tricktable.games.doppelkopf.rules import POWER, SUIT, TRUMP

    cards = [parse_card(t) for t in texts.split()]
    key = lambda c: (SUIT[table][c] == TRUMP, POWER[table][c])  # noqa: E731
    return [card_text(c) for c in sorted(cards, key=key, reverse=True)]


# -- Table ---------------------------------------------------------------------------
def test_deck_and_card_points(dk):
    """Table: 48 cards, two of each A 10 K Q J 9; A 11, 10 10, K 4, Q 3, J 2, 9 0; total 240."""
    assert len(DECK) == 48
    assert sum(POINTS[c % 64] for c in DECK) == 240
    assert [POINTS[parse_card(t)] for t in "AS 10S KS QS JS 9S".split()] == [11, 10, 4, 3, 2, 0]


def test_left_of_dealer_speaks_and_leads_first(dk):
    """Table: play goes clockwise, the player left of the dealer leads the first trick."""
    state = dk.start(["", "", "", ""], dealer=1)
    assert state.to_move == 2
    dk.run(state, "healthy", "healthy", "healthy", "healthy")
    assert state.leader == state.to_move == 2


# -- Trumps and suits ------------------------------------------------------------------
def test_normal_game_trump_order():
    """Trumps and suits: 10♥, Q♣ Q♠ Q♥ Q♦, J♣ J♠ J♥ J♦, A♦ 10♦ K♦ 9♦ (26 cards)."""
    assert [card_text(c) for c in TRUMP_ORDER[NORMAL]] == \
        "10H QC QS QH QD JC JS JH JD AD 10D KD 9D".split()


def test_plain_suit_orders():
    """Trumps and suits: ♣ and ♠ rank A 10 K 9; ♥ ranks A K 9 (its tens are trumps)."""
    assert order_of(NORMAL, "9C KC AC 10C") == ["AC", "10C", "KC", "9C"]
    assert order_of(NORMAL, "9H KH AH 10H")[0] == "10H"  # a trump
    assert order_of(NORMAL, "9H KH AH") == ["AH", "KH", "9H"]


def test_identical_cards_first_played_wins(dk):
    """Trumps and suits: of two identical cards in one trick, the first played wins."""
    state = dk.start(["", "", "", ""])
    assert state.trick_winner(0, [parse_card(t) for t in "QC 9D QC JD".split()], last=False) == 0
    assert state.trick_winner(1, [parse_card(t) for t in "AS AS 9S KS".split()], last=False) == 1


def test_follow_suit_all_trumps_are_one_suit(dk):
    """Trumps and suits: follow the led suit if you can; all trumps form one suit."""
    state = dk.start(["9D 9D", "QS 10H AH 9C 9C AC AC 10C 10C KC KC KH", "", ""], dealer=3)
    dk.run(state, "healthy", "healthy", "healthy", "healthy", "play 9D")
    # Diamonds are trumps: the trumps QS and 10H follow, the A♥ does not.
    assert {t for t in state.legal_texts() if t.startswith("play")} == {"play QS", "play 10H"}


def test_heart_ten_does_not_follow_hearts(dk):
    """Trumps and suits: 10♥ is a trump, so it does not follow a ♥ lead."""
    state = dk.start(["AH", "10H 9C 9C AC AC 10C 10C KC KC 9S 9S 10S", "", ""], dealer=3)
    dk.run(state, "healthy", "healthy", "healthy", "healthy", "play AH")
    plays = {t for t in state.legal_texts() if t.startswith("play")}
    assert "play 10H" in plays and "play 9C" in plays  # void in hearts: anything goes


def test_trick_goes_to_highest_trump_else_highest_of_led_suit(dk):
    """Trumps and suits: highest trump wins, else the highest card of the led suit."""
    state = dk.start(["", "", "", ""])
    cards = lambda text: [parse_card(t) for t in text.split()]  # noqa: E731
    assert state.trick_winner(0, cards("AC 9D 10C AS"), last=False) == 1
    assert state.trick_winner(0, cards("KC AS 10C 9C"), last=False) == 2
    assert state.trick_winner(2, cards("AH 10H JD QC"), last=False) == 3  # 10H is the top trump


# -- Teams ---------------------------------------------------------------------------------
def test_re_are_the_queen_of_clubs_holders(dk):
    """Teams and winning: the two holders of Q♣ are Re, the other two Kontra."""
    state = dk.start(["QC", "", "QC", ""])
    dk.run(state, "healthy", "healthy", "healthy", "healthy")
    assert state.contract == st.NORMAL_GAME
    assert state.team == [RE, KONTRA, RE, KONTRA]


def test_team_is_secret_until_queen_of_clubs_played(dk):
    """Teams and winning: a team becomes public only by playing Q♣ (or announcing)."""
    state = dk.start(["QC", "", "QC", ""], dealer=3)
    dk.run(state, "healthy", "healthy", "healthy", "healthy")
    assert state.view(1)["teams"] == [None, "kontra", None, None]
    assert state.view(0)["teams"] == ["re", None, None, None]
    dk.run(state, "play QC")
    assert state.view(1)["teams"] == ["re", "kontra", None, None]
    # Seat 2 holds the other Q♣: both are located, so it knows every team.
    assert state.view(2)["teams"] == ["re", "kontra", "re", "kontra"]


def test_team_revealed_by_announcement(dk):
    """Teams and winning: an announcement makes the announcer's team public."""
    state = dk.start(["", "", "QC", "QC 9C"], dealer=3)
    dk.run(state, "healthy", "healthy", "healthy", "healthy", "kontra")
    assert state.view(1)["teams"][0] == "kontra"
    assert state.view(1)["teams"][2] is None


# -- Reservations -----------------------------------------------------------------------------
def test_reservation_offers_only_what_the_hand_allows(dk):
    """Reservations: marriage needs both Q♣, poverty needs ≤ 3 trumps; solos always."""
    state = dk.start(["QC QC", "9C 9C AC AC 10C 10C KC KC 9S 9S AS AS", "", ""], dealer=3)
    texts = state.legal_texts()
    assert "marriage" in texts and "poverty" not in texts
    assert texts[-7:] == [f"solo {name}" for name in SOLO_NAMES]
    dk.run(state, "healthy")
    assert "poverty" in state.legal_texts() and "marriage" not in state.legal_texts()


def test_solo_outranks_poverty_outranks_marriage(dk):
    """Reservations: solo > poverty > marriage."""
    hands = ["QC QC", "9C 9C AC AC 10C 10C KC KC 9S 9S AS AS", "", ""]
    state = dk.run(dk.start(hands), "marriage", "poverty", "healthy", "healthy")
    assert state.contract == st.POVERTY_GAME and state.declarer == 1
    state = dk.run(dk.start(hands), "marriage", "poverty", "solo jacks", "healthy")
    assert state.contract == st.SOLO_GAME and state.declarer == 2 and SOLO_NAMES[state.solo] == "jacks"


def test_equal_reservations_earlier_seat_plays(dk):
    """Reservations: between two reservations of the same rank the earlier player plays."""
    state = dk.run(dk.start(["", "", "", ""], dealer=1), "solo aces", "healthy", "solo queens", "solo clubs")
    assert state.declarer == 2 and SOLO_NAMES[state.solo] == "aces"


def test_others_see_only_vorbehalt_until_revealed(dk):
    """Reservations (decision): others see only "Vorbehalt" until the winning
    reservation is revealed; a losing one stays hidden."""
    state = dk.run(dk.start(["", "", "", ""], dealer=3), "solo hearts", "solo queens")
    assert state.view(2)["reservations"] == ["Vorbehalt", "Vorbehalt", None, None]
    assert state.view(1)["reservations"] == ["Vorbehalt", "solo queens", None, None]
    assert [a[1] for a in state.view(3)["actions"]] == ["Vorbehalt", "Vorbehalt"]
    dk.run(state, "healthy", "healthy")
    assert state.view(2)["reservations"] == ["solo hearts", "Vorbehalt", "healthy", "healthy"]
    assert state.view(2)["contract"] == "solo hearts"


# -- Marriage -----------------------------------------------------------------------------------
def marriage(dk, seed: int = 0) -> st.DoppelkopfState:
    return dk.run(dk.start(["QC QC", "", "", ""], dealer=3, seed=seed), "marriage", "healthy", "healthy", "healthy")


def test_marriage_partner_is_first_other_trick_winner(dk):
    """Reservations / Marriage: the first other player to win one of the first three tricks is the partner."""
    rng = random.Random(3)
    for seed in range(20):
        state = marriage(dk, seed)
        dk.advance(state, rng, lambda s: len(s.tricks) == 3 or not s.marriage_pending)
        winners = [w for _, _, w, _ in state.tricks]
        others = [w for w in winners if w != 0]
        if others:
            assert state.partner == others[0] and state.decided_in == winners.index(others[0]) + 1
            assert state.team[state.partner] == RE and state.team.count(RE) == 2
            assert state.view(3)["teams"][state.partner] == "re"
        else:
            assert state.lone and state.decided_in == 3 and state.team.count(RE) == 1


def test_marriage_alone_after_three_tricks(dk):
    """Reservations / Marriage: if nobody else wins one of the first three tricks, the marriage player is alone."""
    hands = ["QC QC 10H 10H QS QS AC AC AS AS AH AH", "", "", ""]
    state = dk.run(dk.start(hands, dealer=3), "marriage", "healthy", "healthy", "healthy")
    rng = random.Random(0)
    for lead in ("10H", "10H", "QS"):
        state.act(0, f"play {lead}")
        dk.advance(state, rng, lambda s: s.to_move == 0 or not s.marriage_pending)
    assert state.lone and state.partner == -1 and state.decided_in == 3
    assert state.view(1)["teams"] == ["re", "kontra", "kontra", "kontra"]


def test_no_announcement_before_marriage_partner_found(dk):
    """Announcements: in a marriage no one may announce until the partner is found."""
    state = marriage(dk)
    assert state.marriage_pending
    assert all(a < 52 for a in state.legal_actions())
    with pytest.raises(IllegalAction, match="marriage"):
        state.apply(st.ANNOUNCE_RE)


def test_marriage_lowers_card_limits_by_one_less_than_the_deciding_trick(dk):
    """Announcements: once the marriage is decided in trick n, every card count drops by n - 1
    (trick 1: unchanged; trick 2: Re needs 10; trick 3 or alone after trick 3: 9)."""
    rng = random.Random(1)
    decided = set()
    for seed in range(40):
        state = marriage(dk, seed)
        dk.advance(state, rng, lambda s: not s.marriage_pending)
        decided.add(state.decided_in)
        seat = state.to_move
        level0 = st.ANNOUNCE_RE if state.team[seat] == RE else st.ANNOUNCE_KONTRA
        legal = state.legal_actions()
        assert (level0 in legal) == (state.counts[seat] >= 11 - (state.decided_in - 1))
    assert decided == {1, 2, 3}


def test_marriage_decided_in_trick_one_keeps_eleven_cards(dk):
    """Announcements: a marriage decided in trick 1 leaves the counts unchanged: Re needs 11 cards."""
    rng = random.Random(0)
    state = next(s for s in (dk.advance(marriage(dk, seed), rng, lambda s: len(s.tricks) == 1) for seed in range(40))
                 if s.decided_in == 1)
    assert state.partner >= 0 and st.ANNOUNCE_RE in state.legal_actions_for(0)  # 11 cards
    dk.advance(state, rng, lambda s: s.to_move in (0, state.partner) and s.counts[s.to_move] == 10)
    assert all(a < 52 for a in state.legal_actions())  # 10 cards: too few, as in a normal game


def test_silent_solo(dk):
    """Reservations: both Q♣ and "healthy" is a silent solo: alone against three,
    scored as a solo, normal trumps; the others see a normal game."""
    state = dk.run(dk.start(["", "QC QC", "", ""], dealer=3), "healthy", "healthy", "healthy", "healthy")
    assert state.contract == st.SILENT_SOLO and state.lone and state.declarer == 1
    assert state.team == [KONTRA, RE, KONTRA, KONTRA] and state.table == NORMAL
    assert state.view(0)["contract"] == "normal" and state.view(0)["declarer"] is None
    assert state.view(1)["contract"] == "silent solo"
    assert state.view(0)["teams"] == ["kontra", None, None, None]


# -- Poverty ----------------------------------------------------------------------------------------
POOR = "9C 9C AC AC 10C 10C KC KC 9S 9S AS QD"  # one trump


def poverty(dk, **options) -> st.DoppelkopfState:
    return dk.run(dk.start([POOR, "", "", ""], dealer=3, **options), "poverty", "healthy", "healthy", "healthy")


def test_poverty_gives_three_cards_including_all_trumps(dk):
    """Reservations / Poverty: three cards face down that include all your trumps."""
    state = poverty(dk)
    assert state.phase == st.GIVING and state.to_move == 0
    gives = state.legal_texts()
    assert all("QD" in text for text in gives) and "give 9C 9C QD" in gives
    with pytest.raises(IllegalAction):
        state.act(0, "give 9C 9C AC")


def test_poverty_offer_from_the_left_first_acceptor_takes(dk):
    """Reservations / Poverty: from the poor player's left each accepts or declines;
    the first to accept takes the cards, returns any three and becomes the partner (Re)."""
    state = dk.run(poverty(dk), "give 9C 9C QD", "decline", "accept")
    assert state.partner == 2 and state.phase == st.RETURNING and state.to_move == 2
    assert state.counts == [9, 12, 15, 12]
    assert len(state.legal_actions()) > 100  # any three of fifteen
    returned = state.legal_texts()[0]
    dk.run(state, returned)
    assert state.counts == [12] * 4 and state.phase == st.PLAYING and state.to_move == 0
    assert state.team == [RE, KONTRA, RE, KONTRA]


def test_the_taker_may_return_any_three_of_his_cards_each_once_in_order():
    """Reservations / Poverty: "returns any three cards" — ``triple_codes`` lists every
    three cards of a hand (a face twice only where both copies are held), each once,
    ascending: what ``itertools.combinations`` of the hand's faces gives, deduplicated."""
    rng = random.Random(15)
    for _ in range(3000):
        ids = rng.sample(DECK, rng.choice([3, 4, 9, 12, 15]))
        hand = sum(1 << c for c in ids)
        faces = sorted(c % COPY_OFFSET for c in ids)
        expected = sorted({(a << 12) | (b << 6) | c for a, b, c in combinations(faces, 3)})
        assert st.triple_codes(hand) == expected


def test_poverty_cards_seen_only_by_giver_and_taker(dk):
    """Reservations / Poverty (views): the cards passed face down are seen by giver and taker only."""
    state = dk.run(poverty(dk), "give 9C 9C QD", "decline")
    assert state.view(1)["poverty"]["given"] is None
    assert state.view(0)["poverty"]["given"] == ["9C", "9C", "QD"]
    dk.run(state, "accept")
    assert state.view(2)["poverty"]["given"] == ["9C", "9C", "QD"]
    dk.run(state, state.legal_texts()[-1])
    for seat in (1, 3):
        texts = [t for _, t in state.view(seat)["actions"]]
        assert st.HIDDEN_GIVE in texts and st.HIDDEN_RETURN in texts
        assert state.view(seat)["poverty"]["returned"] is None
    assert state.view(0)["poverty"]["returned"] == state.view(2)["poverty"]["returned"] is not None


def test_poverty_all_decline_redeal(dk):
    """Reservations / Poverty: if all decline, the same dealer redeals (the deal is thrown in)."""
    state = dk.run(poverty(dk), "give 9C 9C QD", "decline", "decline", "decline")
    assert state.is_terminal() and state.outcome == "thrown_in" and state.returns() == [0, 0, 0, 0]
    assert [line.key for line in state.breakdown()] == ["thrown_in"]


def test_poverty_not_offered_in_ddv_preset(dk):
    """Options: the DDV tournament preset has no poverty."""
    state = SPEC.new_deal(dk.fill_deal([POOR, "", "", ""]), SPEC.normalize_options({"preset": "ddv"}))
    assert "poverty" not in state.legal_texts()


# -- Solos ------------------------------------------------------------------------------------------------
def solo(dk, name: str, **options) -> st.DoppelkopfState:
    return dk.run(dk.start(["", "", "", ""], dealer=3, **options), "healthy", f"solo {name}", "healthy", "healthy")


def test_suit_solo_trump_suit_replaces_diamonds(dk):
    """Reservations / Solo: ♦ solo = normal order; ♥/♠/♣ put their A 10 K 9 where ♦ stood."""
    assert TRUMP_ORDER[SOLO_TABLE[SOLO_NAMES.index("diamonds")]] == TRUMP_ORDER[NORMAL]
    hearts = SOLO_TABLE[SOLO_NAMES.index("hearts")]
    assert [card_text(c) for c in TRUMP_ORDER[hearts]] == "10H QC QS QH QD JC JS JH JD AH KH 9H".split()
    assert order_of(hearts, "KD 10D AD 9D") == ["AD", "10D", "KD", "9D"]  # ♦ is a plain suit
    clubs = SOLO_TABLE[SOLO_NAMES.index("clubs")]
    assert [card_text(c) for c in TRUMP_ORDER[clubs]][-4:] == ["AC", "10C", "KC", "9C"]
    state = solo(dk, "spades")
    assert state.declarer == 1 and state.lone and state.team == [KONTRA, RE, KONTRA, KONTRA]


def test_queen_solo(dk):
    """Reservations / Solo: queen solo — only the queens are trumps; suits A 10 K J 9."""
    table = SOLO_TABLE[SOLO_NAMES.index("queens")]
    assert [card_text(c) for c in TRUMP_ORDER[table]] == ["QC", "QS", "QH", "QD"]
    assert order_of(table, "9H JH KH 10H AH") == ["AH", "10H", "KH", "JH", "9H"]


def test_jack_solo(dk):
    """Reservations / Solo: jack solo — only the jacks are trumps; suits A 10 K Q 9."""
    table = SOLO_TABLE[SOLO_NAMES.index("jacks")]
    assert [card_text(c) for c in TRUMP_ORDER[table]] == ["JC", "JS", "JH", "JD"]
    assert order_of(table, "9D QD KD 10D AD") == ["AD", "10D", "KD", "QD", "9D"]


def test_ace_solo_has_no_trumps(dk):
    """Reservations / Solo: ace solo (Fleischloser) — no trumps; A 10 K Q J 9."""
    table = SOLO_TABLE[SOLO_NAMES.index("aces")]
    assert TRUMP_ORDER[table] == ()
    assert order_of(table, "JS 9S QS KS 10S AS") == ["AS", "10S", "KS", "QS", "JS", "9S"]
    state = solo(dk, "aces")
    cards = [parse_card(t) for t in "9S QC 10H AS".split()]
    assert state.trick_winner(0, cards, last=False) == 3  # Q♣ and 10♥ are plain cards


# -- Announcements ----------------------------------------------------------------------------------------
def normal(dk, seed: int = 0) -> st.DoppelkopfState:
    return dk.run(dk.start(["QC", "QC", "", ""], dealer=3, seed=seed), "healthy", "healthy", "healthy", "healthy")


def test_re_kontra_need_eleven_cards(dk):
    """Announcements: Re or Kontra while holding 11 or more cards."""
    state = normal(dk)
    assert state.legal_actions()[0] == st.ANNOUNCE_RE
    rng = random.Random(0)
    dk.advance(state, rng, lambda s: len(s.tricks) == 1 and s.to_move in (0, 1))
    assert st.ANNOUNCE_RE in state.legal_actions()  # 11 cards
    dk.advance(state, rng, lambda s: len(s.tricks) == 2 and s.to_move in (0, 1))
    assert all(a < 52 for a in state.legal_actions())  # 10 cards, nothing to reply to


def test_reply_limit_one_card_fewer(dk):
    """Announcements: a reply may be made with one card fewer than the announcement replied to needed."""
    state = normal(dk)
    dk.run(state, "re")  # seat 0, Re
    rng = random.Random(0)
    dk.advance(state, rng, lambda s: len(s.tricks) == 2 and s.to_move in (2, 3))
    assert st.ANNOUNCE_KONTRA in state.legal_actions()  # 10 cards: a reply to Re
    dk.run(state, "kontra")
    assert state.levels == [0, 0]


def test_reply_to_no_90_with_nine_cards(dk):
    """Announcements: in reply to no 90 (needs 10) Kontra may still be said with 9 cards."""
    state = dk.run(normal(dk), "re", "no 90")
    rng = random.Random(0)
    dk.advance(state, rng, lambda s: len(s.tricks) == 3 and s.to_move in (2, 3))
    assert state.legal_actions()[0] == st.ANNOUNCE_KONTRA


def test_announcements_one_level_at_a_time(dk):
    """Announcements: no 90 (≥10), no 60 (≥9), no 30 (≥8), schwarz (≥7), each after its predecessor;
    several may be made at once."""
    state = normal(dk)
    assert st.NO_90 not in state.legal_actions()
    with pytest.raises(IllegalAction, match="next announcement"):
        state.act(0, "no 90")
    dk.run(state, "re", "no 90", "no 60", "no 30", "schwarz")
    assert state.levels[RE] == 4 and state.to_move == 0  # announcing does not pass the turn
    assert all(a < 52 for a in state.legal_actions())


def test_no_60_needs_nine_cards(dk):
    """Announcements: each level meets its own card count."""
    state = dk.run(normal(dk), "re", "no 90")
    rng = random.Random(0)
    dk.advance(state, rng, lambda s: len(s.tricks) == 3 and s.to_move in (0, 1))
    assert state.legal_actions()[0] == st.NO_60  # 9 cards
    dk.advance(state, rng, lambda s: len(s.tricks) == 4 and s.to_move in (0, 1))
    assert state.legal_actions()[0] < 52  # 8 cards: no 60 is too late


def test_late_reply_allows_no_further_announcement(dk):
    """Announcements: a Re or Kontra made with fewer cards than a first one needs (a late reply)
    allows that team no further announcement in the deal."""
    state = dk.run(normal(dk), "re")
    rng = random.Random(0)
    dk.advance(state, rng, lambda s: len(s.tricks) == 2 and s.to_move in (2, 3))
    dk.run(state, "kontra")  # 10 cards: a late reply to Re
    assert state.closed == [False, True]
    with pytest.raises(IllegalAction, match="late reply"):
        state.act(state.to_move, "no 90")
    assert all(a < 52 for a in state.legal_actions())
    assert not any(state.legal_actions_for(s) for s in (2, 3) if s != state.to_move)


def test_timely_kontra_allows_no_90(dk):
    """Announcements: a Kontra made with 11 cards is not a late reply: no 90 may follow."""
    state = dk.run(normal(dk), "re")
    dk.advance(state, random.Random(0), lambda s: s.to_move in (2, 3))
    dk.run(state, "kontra", "no 90")
    assert state.levels[KONTRA] == 1


# -- Options ------------------------------------------------------------------------------------------------------
def test_option_second_heart_ten(dk):
    """Options 1: the second 10♥ beats the first — except in the last trick."""
    cards = [parse_card(t) for t in "10H 9D 10H QC".split()]
    plain = dk.start(["", "", "", ""])
    option = dk.start(["", "", "", ""], second_heart_ten=True)
    assert plain.trick_winner(0, cards, last=False) == 0
    assert option.trick_winner(0, cards, last=False) == 2
    assert option.trick_winner(0, cards, last=True) == 0


def test_option_soloist_leads(dk):
    """Options 2: in a solo the soloist leads the first trick."""
    assert solo(dk, "queens").to_move == 0
    assert solo(dk, "queens", soloist_leads=True).to_move == 1


def test_ddv_preset_options():
    """DDV tournament rules: no poverty, first 10♥ beats the second, Karlchen only by winning;
    without the tournament list every solo is voluntary and led from the dealer's left."""
    ddv, standard = SPEC.normalize_options({"preset": "ddv"}), SPEC.normalize_options({})
    assert ddv.items() >= {"poverty": False, "second_heart_ten": False, "karlchen_only_by_winning": True,
                           "soloist_leads": False}.items()
    assert standard.items() >= {"poverty": True, "second_heart_ten": False, "karlchen_only_by_winning": False,
                                "soloist_leads": False}.items()
    assert not ddv["winner_doppelkopf_1"] and not standard["winner_doppelkopf_1"]


# -- Notation and protocol ------------------------------------------------------------------------------------------
def test_notation_round_trips(dk):
    """Protocol: every action text parses back to the same action."""
    state = poverty(dk)
    for action in state.legal_actions():
        assert state.parse_action(state.action_text(action)) == action
    for text in ["healthy", "marriage", "poverty", "re", "kontra", "no 90", "no 60", "no 30", "schwarz",
                 "play 10H", "give 9C 10D QD", "accept", "decline", "return AS KS 9H",
                 *[f"solo {n}" for n in SOLO_NAMES]]:
        verb, *cards = text.split()
        if verb in ("give", "return"):
            text = " ".join([verb, *sorted(cards, key=parse_card)])  # printed in card order
        assert state.action_text(state.parse_action(text)) == text
    assert state.parse_action("return AS KS 9H") == state.parse_action("return 9H AS KS")
    assert state.parse_action("play Q♣") == state.parse_action("play qc")
    for bad in ("play 2C", "give 9C", "solo bells", "hello"):
        with pytest.raises(NotationError):
            state.parse_action(bad)


def test_duplicate_card_is_one_action(dk):
    """Protocol: playing Q♣ is one action whichever copy is held; the copy leaves the hand."""
    state = dk.run(dk.start(["QC QC", "", "", ""], dealer=3), "healthy", "healthy", "healthy", "healthy")
    plays = [a for a in state.legal_actions() if a < 52]
    assert plays.count(parse_card("QC")) == 1
    dk.run(state, "play QC")
    assert state.view(0)["hand"].count("QC") == 1 and state.counts[0] == 11


def test_illegal_action_leaves_state_unchanged(dk):
    """Protocol: apply validates before it changes anything."""
    state = normal(dk)
    before = state.view(0), list(state.history)
    for bad in (st.ANNOUNCE_KONTRA, st.NO_60, parse_card("2C"), st.ACCEPT):
        with pytest.raises(IllegalAction):
            state.apply(bad)
    assert (state.view(0), list(state.history)) == before



def test_the_poverty_exchange_offers_every_three_cards_once():
    """doppelkopf.md, "Poverty": the poor player gives three cards holding all his
    trumps, the taker returns any three; each choice of faces is one action."""
    from itertools import combinations

    from tricktable.cards import cards_of
    from tricktable.games.doppelkopf.actions import GIVE, RETURN, triple_code
    from tricktable.games.doppelkopf.rules import TRUMP_MASK

    options = SPEC.normalize_options({})
    poor = 0
    for index in range(300):
        state = SPEC.new_deal(SPEC.deal_from_seed(f"triples/{index}", 0, options), options)
        faces = [c % 64 for c in cards_of(state.hands[state.turn])]
        trumps = sum(TRUMP_MASK[NORMAL] >> f & 1 for f in faces)
        giving = {triple_code(combo) for combo in combinations(faces, 3)
                  if sum(TRUMP_MASK[NORMAL] >> f & 1 for f in combo) == trumps}
        assert state._give_options() == [GIVE + code for code in sorted(giving)]
        poor += trumps <= 3
        if index < 20:
            every = {triple_code(combo) for combo in combinations(faces, 3)}
            assert state._return_options() == [RETURN + code for code in sorted(every)]
    assert poor >= 5  # hands that may give
