"""Doppelkopf house rules and the computer players: pigs are trumps they count (read from
the game's rank tables through the observation), bock deals make announcements surer,
five nines are thrown in.  Positions are real deals of the game, not hand-built tables."""

from __future__ import annotations

from tricktable.bots import doppelkopf as db
from tricktable.bots import make_bot
from tricktable.cards import card_text, parse_cards
from tricktable.games.doppelkopf import SPEC
from tricktable.games.doppelkopf.rules import NORMAL, PIGS_TABLE

# Seat 0 leads 10♥; seat 1 holds both ♦A and no other trump that beats 10♥.
HANDS = [
    "10H QC QS QH JC JS JH AC 10C KC 9C 9S",
    "AD AD 9D 9D KD AS 10S KS AH KH 9H 9H",
    "10H QC QS QH QD QD JC JS JH JD JD 10D",
    "10D KD AC 10C KC 9C AS 10S KS 9S AH KH",
]


def after_the_heart_ten(options: dict[str, bool]):
    state = SPEC.new_deal(SPEC.deal_from_json({"dealer": 3, "hands": HANDS, "rest": ""}), SPEC.normalize_options(options))
    for text in ("healthy", "healthy", "healthy", "healthy", "play 10H"):
        state.act(state.to_move, text)
    return state


def test_a_pig_holder_knows_his_ace_of_diamonds_beats_the_heart_ten():
    """Spec "House rules", Schweinchen: the pig holder wins the 10♥ trick with a pig; without
    pigs the same hand keeps its ♦A (the fox) away from a trick it cannot win."""
    pigs = after_the_heart_ten({"schweinchen": True})
    obs = pigs.observe(1)
    assert obs.pigs == 1 and obs.table == PIGS_TABLE
    assert db.heuristic_text(obs) == "play AD"
    plain = after_the_heart_ten({})
    assert plain.observe(1).table == NORMAL and db.heuristic_text(plain.observe(1)) != "play AD"


def test_a_pig_holder_counts_his_pigs_as_top_trumps():
    """The hand strength the announcement rules read counts pigs among the top trumps."""
    hand = parse_cards("AD AD QC QS JC JS JH JD 10D KD AC 9S")
    assert db.high_trumps(hand, PIGS_TABLE) == db.high_trumps(hand, NORMAL) + 2


def test_the_search_bot_plays_the_pig_against_the_heart_ten():
    """The search bot's sampled worlds and rollouts rank the pigs as the game does."""
    state = after_the_heart_ten({"schweinchen": True})
    # No safety stop: the bot thinks through all its worlds however loaded the machine is.
    bot = make_bot("search", seed="pigs", budget_ms=40, clock=False)
    choice = bot.choose(state.observe(1))
    while not choice.startswith("play "):  # an announcement first (it does not pass the turn)
        state.act(1, choice)
        choice = bot.choose(state.observe(1))
    assert choice == "play AD"


def test_bock_deals_raise_the_stakes_of_announcements():
    """A hand that announces Re in a plain deal (seven trumps, four top ones) waits in a bock
    deal, where a lost announcement costs double; with one more top trump it announces."""
    enough = parse_cards("10H QC QS QH JC JS JD AD AC AS 9H KS")
    assert db.should_announce(enough, NORMAL) and not db.should_announce(enough, NORMAL, bock=2)
    stronger = parse_cards("10H 10H QC QS QH JC JS AD AC AS 9H KS")
    assert db.should_announce(stronger, NORMAL, bock=2)


def test_bock_deals_reach_the_bot_through_the_match():
    """The multiplier the rules read is the match's ``bock`` (the one the table shows)."""
    for covers, expected in (([], "re"), ([1], "play")):
        match = SPEC.new_match("bot bock", SPEC.normalize_options({"bock": True}))
        leader = (match.dealer + 1) % 4
        hands = ["", "", "", ""]
        hands[leader] = "10H QC QS QH JC JS JD AD AC AS 9H KS"
        rest = [card_text(c) for c in sorted(SPEC.deck) if c % 64 not in ()]
        for text in hands[leader].split():
            rest.remove(next(r for r in rest if r == text))
        others = [s for s in range(4) if s != leader]
        for index, seat in enumerate(others):
            hands[seat] = " ".join(rest[index::3])
        match.current = SPEC.new_deal(SPEC.deal_from_json({"dealer": match.dealer, "hands": hands, "rest": ""}),
                                      match.options)
        match.bocks.covers = list(covers)
        for _ in range(4):
            match.act(match.to_move, "healthy")
        obs = match.observe(leader)
        assert "re" in obs.legal and obs.match.extra["bock"] == (2 if covers else 1)
        assert db.heuristic_text(obs).split()[0] == expected


def test_five_nines_and_a_weak_hand_are_thrown_in():
    """Throwing in: five nines without strong trumps are worth less than a new deal."""
    hand = parse_cards("9C 9C 9S 9S 9H AC AC KC KS AS 10S KH")
    assert db.reservation(hand, ["healthy", "throw in", "solo clubs"]) == "throw in"
    strong = parse_cards("9C 9C 9S 9S 9H 10H 10H QC QS QH JC JS")
    assert db.reservation(strong, ["healthy", "throw in", "solo clubs"]) == "healthy"
