"""No partner-harming plays (a behaviour a player respects): in every
partnership game neither the rules nor search trump a trick the partner holds in
last seat, where it cannot be lost (Euchre and the five Court Piece games; the
Doppelkopf counterpart, greasing the partner's sure trick, is in
test_doppelkopf_scenarios.py).  The positions come from real deals of the rules bot."""

from __future__ import annotations

from typing import Any

import pytest

from tricktable.bots import make_bot
from tricktable.cards import parse_card
from tricktable.catalog import entry

COURT_PIECE_GAMES = ("double-sar", "single-sar", "hidden-trump", "be-ranga", "mendikot")


def _euchre_facts(obs: Any) -> tuple[int, Any, Any] | None:
    from tricktable.bots import euchre as eb

    if obs.trump is None:
        return None
    trump = obs.trump
    return trump, eb.trick_winner(trump, obs.trick), lambda c: eb.EFFECTIVE_SUIT[trump][c]


def _court_piece_facts(obs: Any) -> tuple[int, Any, Any] | None:
    from tricktable.bots import courtpiece as cb

    hidden = obs.hidden
    if obs.trump is None or (hidden and hidden.trump_hidden) or obs.trump_trick == len(obs.tricks) + 1:
        return None  # trump not open to all, or (Be-Ranga) set by this very trick
    pile = obs.pile
    if pile and pile.open_pair and pile.open_pair[0] == obs.seat:
        return None  # Double Sar: winning this trick would capture the pile for us
    return obs.trump, cb.trick_winner(obs.trump, obs.trick), lambda c: cb.SUIT_OF[c]


def partner_holds_the_trick(game: str, count: int) -> list[Any]:
    """Positions in last seat where the partner holds the trick and the seat, void in
    the suit led, could trump it or throw off."""
    facts_of = _euchre_facts if game == "euchre" else _court_piece_facts
    spec = entry(game).spec
    options = spec.normalize_options({"new_cards": "off"} if game != "euchre" else {})
    rules = make_bot("heuristic")
    found: list[Any] = []
    index = 0
    while len(found) < count and index < 400:
        state = spec.new_deal(spec.deal_from_seed(f"partner-{index}", index % 4, options), options)
        while not state.is_terminal():
            obs = state.observe(state.to_move)
            plays = [t for t in obs.legal if t.startswith("play ")]
            facts = facts_of(obs) if len(getattr(obs, "trick", ())) == 3 and plays else None
            if facts and len(found) < count:
                trump, (winner, _), suit = facts
                cards = [parse_card(t.split()[1]) for t in plays]
                led = suit(obs.trick[0][1])
                if winner == (obs.seat + 2) % 4 and led != trump and any(suit(c) == trump for c in cards) \
                        and any(suit(c) != trump for c in cards):
                    found.append(obs)
            state.act(state.to_move, rules.choose(obs))
        index += 1
    return found


def trumps_played(game: str, obs: Any, choice: str) -> bool:
    facts = _euchre_facts(obs) if game == "euchre" else _court_piece_facts(obs)
    assert facts is not None
    trump, _, suit = facts
    return bool(suit(parse_card(choice.split()[1])) == trump)


@pytest.mark.parametrize("game", ("euchre", *COURT_PIECE_GAMES))
@pytest.mark.parametrize("bot", ("heuristic", "search"))
def test_never_trump_a_trick_the_partner_holds_in_last_seat(game, bot):
    positions = partner_holds_the_trick(game, 6)
    assert len(positions) >= 3, "too few positions found to test"
    player = make_bot(bot, budget_ms=10) if bot == "search" else make_bot(bot)
    for obs in positions:
        choice = player.choose(obs)
        assert not trumps_played(game, obs, choice), (obs.trick, obs.hand, choice)
