"""Court Piece decisions of this turn (shared/rules/court-piece.md): the caller
(and his partner after a pass) names a suit he holds among his first five
cards; new cards is offered from the first five cards until the person's own
first card of the deal, in every Court Piece game; records of the first rules
versions replay under their own rules (docs/changelog-court-piece.md)."""

from __future__ import annotations

import json
import random

import pytest

from tricktable.cards import SUIT_LETTERS, suit_of
from tricktable.errors import IllegalAction
from tricktable.catalog import replay
from tricktable.core.record import record_of
from tricktable.catalog import get_spec
from tricktable.games.courtpiece import sampling
from tricktable.games.courtpiece.actions import NEW_CARDS
from tricktable.games.courtpiece.state import PLAYING

CALLED = ("double-sar", "single-sar")
FAMILY = ("double-sar", "single-sar", "hidden-trump", "be-ranga", "mendikot")


def seeded(game: str, seed: str = "decisions", dealer: int = 0, **options):
    spec = get_spec(game)
    return spec.new_deal(spec.deal_from_seed(seed, dealer, {}), spec.normalize_options(options))


def first_five_suits(state, seat: int) -> set[str]:
    return {SUIT_LETTERS[suit_of(c)] for c in state.deal.hands[seat][:5]}


def short_seed(game: str, seat: int, dealer: int) -> str:
    """A seed whose deal leaves ``seat`` without some suit among his first five."""
    return next(f"short {i}" for i in range(200) if len(first_five_suits(seeded(game, f"short {i}", dealer), seat)) < 4)


@pytest.mark.parametrize("game", CALLED)
def test_caller_names_a_suit_he_holds_among_his_first_five_cards(game):
    """Calling trump, Decision: the caller names a suit of which he holds at least
    one card among his first five; another suit is refused and changes nothing."""
    state = seeded(game, short_seed(game, 3, 0))
    held = first_five_suits(state, 3)
    calls = [t for t in state.legal_texts() if t.startswith("call ")]
    assert calls == [f"call {s}" for s in "CDHS" if s in held]
    missing = next(s for s in "CDHS" if s not in held)
    before = state.view(3)
    with pytest.raises(IllegalAction, match=f"no {missing} among your first five"):
        state.act(3, f"call {missing}")
    assert state.view(3) == before


@pytest.mark.parametrize("game", CALLED)
@pytest.mark.parametrize("how", ["pass to partner", "timeout"])
def test_partner_after_a_pass_names_a_suit_from_his_own_first_five(game, how):
    """Calling trump, Decision: the partner after a pass (or the caller's timeout)
    likewise names a suit from his own first five cards."""
    state = seeded(game, short_seed(game, 1, 0))
    if how == "timeout":
        state.apply_referee(state.referee_actions()[0])
    else:
        state.act(3, how)
    assert state.to_move == 1
    calls = [t for t in state.legal_texts() if t.startswith("call ")]
    assert calls == [f"call {s}" for s in "CDHS" if s in first_five_suits(state, 1)]


@pytest.mark.parametrize("game", ["hidden-trump", "mendikot"])
def test_the_face_down_trump_card_comes_from_the_first_five_cards(game):
    """Relatives, Hidden Trump and Mendikot: the card put face down (the trump
    suit) is one of the first five, for the caller and the partner after a pass."""
    state = seeded(game)
    hides = sorted(t for t in state.legal_texts() if t.startswith("hide "))
    assert len(hides) == 5
    state.act(3, "pass to partner")
    assert len([t for t in state.legal_texts() if t.startswith("hide ")]) == 5


@pytest.mark.parametrize("game", FAMILY)
def test_new_cards_is_offered_from_the_first_five_cards_until_the_persons_own_first_card(game):
    """App extras, new cards: from the moment the person sees his first five cards
    until he plays his own first card — out of turn too; afterwards never."""
    state = seeded(game)  # dealer 0: seat 3 acts first, the person is seat 0
    assert state.to_move != 0 and state.legal_texts_for(0) == ["new cards"]
    assert state.view(0)["legal"] == ["new cards"]
    rng = random.Random(game)
    while not (state.to_move == 0 and state.phase == PLAYING):  # on until the person's first card
        state.apply(rng.choice([a for a in state.legal_actions() if a != NEW_CARDS]))
        assert "new cards" in state.legal_texts_for(0)
    state.apply(next(a for a in state.legal_actions() if a < 52))  # his first card
    assert "new cards" not in state.legal_texts_for(0)
    with pytest.raises(IllegalAction, match="until your own first card"):
        state.apply_for(0, NEW_CARDS)


@pytest.mark.parametrize("game", FAMILY)
def test_new_cards_out_of_turn_throws_the_deal_in_and_the_record_replays(game):
    """App extras, new cards: asked out of turn, the deal is thrown in (it does not
    count); the record keeps the asking seat and replays."""
    state = seeded(game)
    state.act(0, "new cards")
    assert state.is_terminal() and state.outcome == "new_cards" and state.returns() == [0, 0, 0, 0]
    record = record_of(state).to_json()
    assert record["actions"][-1] == "0: new cards"
    again = replay(json.dumps(record))
    assert again.history == state.history and again.view(0) == state.view(0)


@pytest.mark.parametrize("game", FAMILY)
def test_new_cards_is_not_offered_in_the_redeal(game):
    """App extras, new cards, Decision: not again in the redeal (the same dealer deals)."""
    spec = get_spec(game)
    match = spec.new_match("redeal", spec.normalize_options({}))
    dealer = match.dealer
    match.act(0, "new cards")
    assert match.dealer == dealer and all("new cards" not in match.legal_texts_for(s) for s in range(4))


def test_called_suit_is_honoured_by_world_sampling():
    """Sampled worlds (for the search bots) give whoever named trump a card of that
    suit among his first five cards; also when drawing again never finds one."""
    spec = get_spec("double-sar")
    state = seeded("double-sar", short_seed("double-sar", 3, 0))
    state.act(3, state.legal_texts()[0])  # a call
    suit = state.trump
    obs = state.observe(0)
    rng = random.Random(1)
    for tries in (sampling.SAMPLING_TRIES, 0):
        sampling.SAMPLING_TRIES, saved = tries, sampling.SAMPLING_TRIES
        try:
            for _ in range(30):
                world = spec.sample_world(obs, rng)
                assert world.observe(0) == obs
                assert any(suit_of(c) == suit for c in world.deal.hands[3][:5])
        finally:
            sampling.SAMPLING_TRIES = saved


@pytest.mark.parametrize("game", CALLED)
def test_a_first_version_record_that_called_any_suit_replays_with_its_own_rules(game):
    """Old records keep replaying: a ``<game>-1`` record whose caller named a suit
    he did not hold among his first five cards replays (legacy ``call_any_suit``);
    the same record under the current version is refused."""
    state = seeded(game, short_seed(game, 3, 0), call_any_suit=True, new_cards_on_turn=True)
    missing = next(s for s in "CDHS" if s not in first_five_suits(state, 3))
    state.act(3, f"call {missing}")
    rng = random.Random(3)
    while not state.is_terminal():
        state.apply(rng.choice([a for a in state.legal_actions() if a != NEW_CARDS]))
    record = dict(record_of(state).to_json(), rules_version=f"{game}-1")
    record["options"] = {k: v for k, v in record["options"].items() if k not in ("call_any_suit", "new_cards_on_turn")}
    again = replay(json.dumps(record))
    assert again.returns() == state.returns() and again.history == state.history
    with pytest.raises(ValueError):
        replay(json.dumps(dict(record, rules_version=get_spec(game).rules_version)))


@pytest.mark.parametrize("game", FAMILY)
def test_first_version_records_offer_new_cards_only_on_the_persons_calling_turn(game):
    """Old records keep replaying: under ``<game>-1`` (legacy ``new_cards_on_turn``)
    new cards is offered only on the person's own turn, as then."""
    spec = get_spec(game)
    state = seeded(game, **spec.legacy_rules[f"{game}-1"])
    assert state.to_move != 0 and state.legal_texts_for(0) == []
    assert spec.rules_version == f"{game}-2"
