"""The games' fast playouts (``SearchGame.playout``) agree with the
real game: the same rollouts, played once through ``GameState.apply`` with the
policy on rebuilt tables and once through the fast playout, end with the same value
for the same seat; and a playout declines options it does not model."""

from __future__ import annotations

import dataclasses
import random
from types import SimpleNamespace

import pytest

from tricktable.bots.players import GAME_BOTS, game_module, search_game
from tricktable.bots.search import SearchGame, rollout
from tricktable.core.protocol import GameState
from tricktable.catalog import entry

GAMES = ("euchre", "doppelkopf", "double-sar", "single-sar", "hidden-trump", "be-ranga", "mendikot")
COURT_PIECE = ("double-sar", "single-sar", "hidden-trump", "be-ranga", "mendikot")
CASES = [(game, None) for game in GAMES] + [("doppelkopf", "ddv")]
"""Every game with its bots' options, and the presets that change the card play's scoring."""


def _search(game: str) -> SearchGame:
    found = search_game(game_module(game), SimpleNamespace(game=game))  # only .game is read
    assert found.playout is not None
    return found


def _fast(search: SearchGame, state: GameState, seat: int) -> float | None:
    """The playout alone on a copy of ``state`` (None: it declined)."""
    assert search.playout is not None
    return search.playout(state.clone(), seat)


def _positions(game: str, count: int, seed: int, preset: str | None = None, **options: object) -> list[GameState]:
    """States part way through deals: each action the policy's or a random legal one."""
    spec = entry(game).spec
    search, rng = _search(game), random.Random(seed)
    options = spec.normalize_options({**entry(game).bot_options, **({"preset": preset} if preset else {}), **options})
    states = []
    for index in range(count):
        state = spec.new_deal(spec.deal_from_seed(f"playout-{seed}-{index}", index % 4, options), options)
        for _ in range(rng.randrange(70)):
            if state.is_terminal():
                break
            legal = state.legal_actions()
            if not legal:
                state.apply_referee(state.referee_actions()[0])
            else:
                state.apply(search.policy(state) if rng.random() < 0.5 else rng.choice(list(legal)))
        if not state.is_terminal():
            states.append(state)
    return states


@pytest.mark.parametrize("game, preset", CASES)
def test_fast_playout_ends_every_rollout_like_the_real_game(game, preset):
    fast = _search(game)
    slow = dataclasses.replace(fast, playout=None)
    rng = random.Random(game)
    played = 0
    for state in _positions(game, 300, 1, preset):
        seat = rng.randrange(4)
        played += _fast(fast, state, seat) is not None
        assert rollout(state.clone(), fast, seat) == rollout(state.clone(), slow, seat)
    assert played >= 60  # the fast path really ran in a good share of the positions


def _count_kernel_calls(monkeypatch) -> list[int]:
    """The Court Piece kernel's deals played from now on (one entry each)."""
    from tricktable.bots import courtpiece

    calls: list[int] = []
    play_deal = courtpiece.kernel.play_deal
    kernel = courtpiece.kernel
    monkeypatch.setattr(courtpiece, "kernel", SimpleNamespace(
        **{name: getattr(kernel, name) for name in dir(kernel) if not name.startswith("_") and name != "play_deal"},
        play_deal=lambda *args: calls.append(1) or play_deal(*args)))
    return calls


@pytest.mark.parametrize("game", COURT_PIECE)
def test_the_court_piece_kernel_finishes_most_rollouts_of_every_court_piece_game(game, monkeypatch):
    """Trump open and nothing face down (Hidden Trump and Mendikot after the reveal,
    Be-Ranga once a void set trump): the kernel takes the rollout over, with the
    game's card rules, and ends it as the real game does."""
    calls = _count_kernel_calls(monkeypatch)
    fast = _search(game)
    slow = dataclasses.replace(fast, playout=None)
    rng = random.Random(game)
    states = _positions(game, 150, 7)
    for state in states:
        seat = rng.randrange(4)
        assert rollout(state.clone(), fast, seat) == rollout(state.clone(), slow, seat)
    assert len(calls) >= len(states) // 3


HOUSE_RULES = [
    ("double-sar", {"ace_on_ace": True, "counting": "kots"}),
    ("double-sar", {"trump_ace_cannot_seal": True, "no_pile_on_11_12": True}),
    ("single-sar", {"counting": "kots"}),
]


@pytest.mark.parametrize("game, options", HOUSE_RULES)
def test_the_court_piece_kernel_follows_the_pile_house_rules_and_counting(game, options, monkeypatch):
    """Spec "Double Sar — the pile" house rules and the counting modes: the kernel's
    pile blocks the same captures as ``Pile`` and the game's scoring counts them."""
    calls = _count_kernel_calls(monkeypatch)
    fast = _search(game)
    slow = dataclasses.replace(fast, playout=None)
    rng = random.Random(game)
    for state in _positions(game, 150, 5, **options):
        seat = rng.randrange(4)
        assert rollout(state.clone(), fast, seat) == rollout(state.clone(), slow, seat)
    assert len(calls) >= 60  # the kernel really played them


@pytest.mark.parametrize("game", COURT_PIECE)
def test_the_court_piece_kernel_plays_under_the_first_rules_version_too(game, monkeypatch):
    """The legacy options that replay each game's rules version 1 (``new_cards_on_turn``,
    ``call_any_suit``; docs/changelog-court-piece.md) change only the calling and when new
    cards may be asked: the kernel finishes the rollouts under them, as the real game does.
    (The arena plays against the frozen baseline under ``--rules-version GAME-1``; through
    the real game its searches cost five times the CPU.)"""
    calls = _count_kernel_calls(monkeypatch)
    fast = _search(game)
    slow = dataclasses.replace(fast, playout=None)
    rng = random.Random(game)
    states = _positions(game, 150, 8, new_cards="any seat", **entry(game).spec.legacy_rules[f"{game}-1"])
    for state in states:
        assert state.options["new_cards_on_turn"]
        seat = rng.randrange(4)
        assert rollout(state.clone(), fast, seat) == rollout(state.clone(), slow, seat)
    assert len(calls) >= len(states) // 3


@pytest.mark.parametrize("game", COURT_PIECE)
def test_the_compiled_court_piece_kernel_plays_the_same_rollouts_as_the_pure_one(game, monkeypatch):
    """The kernel mypyc compiled at ``make install`` and its pure-Python source end
    every rollout alike (the compiled one must be there and fresh)."""
    from tricktable import speedups
    from tricktable.bots import courtpiece, courtpiece_kernel

    fresh, why = speedups.compiled_is_fresh(courtpiece_kernel.__name__)
    assert fresh, why
    assert courtpiece.kernel is not courtpiece_kernel, speedups.status()  # the bots run the compiled one
    search = _search(game)
    rng = random.Random(game)
    jobs = [(state, rng.randrange(4)) for state in _positions(game, 150, 6)]
    compiled = [rollout(state.clone(), search, seat) for state, seat in jobs]
    monkeypatch.setattr(courtpiece, "kernel", courtpiece_kernel)
    assert [rollout(state.clone(), search, seat) for state, seat in jobs] == compiled
    assert len(set(compiled)) > 2  # real deals with different ends


@pytest.mark.parametrize("preset", [None, "ddv"])
def test_the_compiled_doppelkopf_kernel_plays_the_same_rollouts_as_the_pure_one(preset, monkeypatch):
    """The Doppelkopf kernel mypyc compiled at ``make install`` and its pure-Python
    source end every rollout alike (the compiled one must be there and fresh)."""
    from tricktable import speedups
    from tricktable.bots import doppelkopf, doppelkopf_kernel

    fresh, why = speedups.compiled_is_fresh(doppelkopf_kernel.__name__)
    assert fresh, why
    assert doppelkopf.kernel is not doppelkopf_kernel, speedups.status()  # the bots run the compiled one
    search = _search("doppelkopf")
    rng = random.Random(preset)
    jobs = [(state, rng.randrange(4)) for state in _positions("doppelkopf", 150, 7, preset, schweinchen=True)]
    compiled = [rollout(state.clone(), search, seat) for state, seat in jobs]
    doppelkopf.install_tables(doppelkopf_kernel)
    monkeypatch.setattr(doppelkopf, "kernel", doppelkopf_kernel)
    assert [rollout(state.clone(), search, seat) for state, seat in jobs] == compiled
    assert len(set(compiled)) > 2  # real deals with different ends


def test_the_compiled_euchre_kernel_plays_the_same_rollouts_as_the_pure_one(monkeypatch):
    """The Euchre kernel (card play and solver), compiled and pure, gives every rollout
    the same value (lone hands and lone defenders included)."""
    from tricktable import speedups
    from tricktable.bots import euchre, euchre_kernel

    fresh, why = speedups.compiled_is_fresh(euchre_kernel.__name__)
    assert fresh, why
    assert euchre.kernel is not euchre_kernel, speedups.status()
    search = _search("euchre")
    rng = random.Random("solver")
    jobs = [(state, rng.randrange(4)) for state in _positions("euchre", 200, 8, defend_alone=True)]
    compiled = [rollout(state.clone(), search, seat) for state, seat in jobs]
    euchre.install_tables(euchre_kernel)
    monkeypatch.setattr(euchre, "kernel", euchre_kernel)
    assert [rollout(state.clone(), search, seat) for state, seat in jobs] == compiled
    assert len(set(compiled)) > 2


DOPPELKOPF_HOUSE = [
    {"schweinchen": True},
    {"schweinchen": True, "superschweinchen": True},
    {"without_nines": True, "schweinchen": True, "superschweinchen": True},
    {"second_heart_ten": True, "throwing_in": True, "bock": True},
]
"""House rules the Doppelkopf playout models (spec "House rules"): pigs and superpigs
(each seat plays by the rank table it knows of), 40 cards without nines, the second
10♥; throwing in and bock rounds change nothing in the card play."""


@pytest.mark.parametrize("options", DOPPELKOPF_HOUSE, ids=lambda o: "+".join(o))
def test_doppelkopf_playout_follows_the_house_rules_it_models(options):
    fast = _search("doppelkopf")
    slow = dataclasses.replace(fast, playout=None)
    rng = random.Random(str(options))
    played = pigs = 0
    for state in _positions("doppelkopf", 200, 5, **options):
        seat = rng.randrange(4)
        value = _fast(fast, state, seat)
        played += value is not None
        pigs += value is not None and state.pigs >= 0
        assert rollout(state.clone(), fast, seat) == rollout(state.clone(), slow, seat)
    assert played >= 40
    assert pigs >= 3 or not options.get("schweinchen")  # pigs were really held in some of them


DECLINING = [
    ("euchre", {"stick_the_dealer": False, "defend_alone": True}, "a_rule_it_does_not_know"),  # bidding; lone defence
    ("double-sar", {"ace_on_ace": True}, "must_trump"),  # the state applies captures; a follow rule
    ("doppelkopf", {"second_heart_ten": True}, "pigs"),  # the state applies it; a change of what seats know
]


@pytest.mark.parametrize("game, modelled, unknown", DECLINING)
def test_a_playout_follows_the_options_it_models_and_declines_the_others(game, modelled, unknown):
    search = _search(game)
    states = [s for s in _positions(game, 60, 2) if _fast(search, s, 0) is not None]
    assert states
    state = states[0].clone()
    state.options = dict(state.options, **modelled)
    assert _fast(search, state, 0) is not None
    state.options[unknown] = True  # the rollout stays in the real game
    assert _fast(search, state, 0) is None
    assert rollout(state.clone(), search, 0) == rollout(state.clone(), dataclasses.replace(search, playout=None), 0)


def test_euchre_playout_follows_a_lone_defender():
    """Options "defend alone" and "dealer's partner must go alone": two seats may
    sit out, and a lone euchre scores 4."""
    fast = _search("euchre")
    slow = dataclasses.replace(fast, playout=None)
    rng = random.Random("lone")
    lone = 0
    for state in _positions("euchre", 400, 4, defend_alone=True, dealers_partner_alone=True):
        seat = rng.randrange(4)
        lone += state.lone_defender >= 0 and _fast(fast, state, seat) is not None
        assert rollout(state.clone(), fast, seat) == rollout(state.clone(), slow, seat)
    assert lone >= 5



@pytest.mark.parametrize("kernel", ["compiled", "pure"])
def test_euchre_trial_ends_every_candidate_like_the_real_game(kernel, monkeypatch):
    """``SearchGame.trial`` (the candidate card and the playout on masks, the world left
    as it is) gives every legal card of the seat to move the value of the real game's
    rollout after that card (``GameState.apply``, the policy on rebuilt tables), lone
    makers and lone defenders included, compiled and pure; before the card play it
    declines."""
    from tricktable import speedups
    from tricktable.bots import euchre, euchre_kernel

    if kernel == "pure":
        euchre.install_tables(euchre_kernel)
        monkeypatch.setattr(euchre, "kernel", euchre_kernel)
    else:
        assert speedups.compiled_is_fresh(euchre_kernel.__name__)[0]
    fast = _search("euchre")
    assert fast.trial is not None
    slow = dataclasses.replace(fast, playout=None, trial=None)
    tried = declined = lone = 0
    for state in _positions("euchre", 700, 9, defend_alone=True, dealers_partner_alone=True):
        seat = state.to_move
        history = list(state.history)
        for action in state.legal_actions():
            value = fast.trial(state, seat, action)
            assert state.history == history  # the world is left as it is
            if value is None:
                declined += 1
                continue
            after = state.clone()
            after.apply_for(seat, action)
            assert value == rollout(after, slow, seat), (history, action)
            tried += 1
            lone += state.alone
    assert tried >= 300 and declined >= 30 and lone >= 20

@pytest.mark.parametrize("game", COURT_PIECE)
def test_the_court_piece_policy_decides_in_the_kernel_as_on_the_table(game):
    """The kernel is the one copy of the card play, with two doors: the rollouts'
    (``kernel_action`` on a state's lists, legality its own) and the rules bot's
    (``decide`` on a ``Table`` of what the seat knows, the state's legal actions:
    ``courtpiece.choose_card``). At every step of real deals they give the same action."""
    from tricktable.bots import courtpiece as cp
    from tricktable.bots import relatives

    rules = relatives.KERNEL_CARD_RULES.get(game, 0)
    module = cp if GAME_BOTS[game] == "tricktable.bots.courtpiece" else relatives

    def on_table(state):
        legal = cp.bot_legal(state.legal_actions())
        table = cp.table_from_state(state)
        return cp.decide(table, legal) if module is cp else relatives.decide(table, legal, game)

    compared = 0
    for state in _positions(game, 80, 8):
        while not state.is_terminal():
            fast = cp.kernel_action(state, rules)
            if fast >= 0:
                assert fast == on_table(state)
                compared += 1
            state.apply(module.policy(state) if module is relatives else cp.heuristic_action(state))
    assert compared >= 500


@pytest.mark.parametrize("game", COURT_PIECE)
def test_the_court_piece_kernel_plays_only_what_the_rules_allow(game):
    """The kernel works out for itself what a seat may play (rollouts, inference), so
    at every step of random deals its action must be one the game offers:
    court-piece.md, "Rules shared by every Court Piece game" (follow the led suit if
    you can); "Relatives", Hidden Trump and Mendikot (a player who cannot follow suit
    may ask to see the face-down card, and must then play a trump if he has one) and
    Be-Ranga (the first card of a player who cannot follow suit makes trump)."""
    from tricktable.bots import courtpiece as cp
    from tricktable.bots import relatives
    from tricktable.games.courtpiece.actions import REVEAL

    rules = relatives.KERNEL_CARD_RULES.get(game, 0)
    rng = random.Random(game)
    checked = reveals = ruffs = 0
    for state in _positions(game, 120, 9):
        while not state.is_terminal():
            fast = cp.kernel_action(state, rules)
            legal = state.legal_actions()
            if fast >= 0:
                assert fast in legal, (game, state.history, fast)
                checked += 1
                reveals += fast == REVEAL
                ruffs += state.must_trump
            state.apply(fast if fast >= 0 and rng.random() < 0.5 else rng.choice(list(cp.bot_legal(legal))))
    assert checked >= 1000
    if game in ("hidden-trump", "mendikot"):
        assert reveals >= 10 and ruffs >= 10  # asked to see trump, then had to trump
