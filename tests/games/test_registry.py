"""The catalog: one entry per game, and everything it names exists."""

import pytest

from tricktable.bots.players import GAME_BOTS
from tricktable.catalog import ENTRIES, GAMES, REGISTRY, UnknownGame, entry, get_spec


def test_every_game_is_registered_once_under_its_spec_name():
    assert len(GAMES) == len(set(GAMES)) == len(ENTRIES) == 7
    for game in ENTRIES:
        assert game.spec.name == game.name and REGISTRY[game.name] is game


@pytest.mark.parametrize("game", GAMES)
def test_the_bots_module_of_every_game_provides_the_bot_interface(game):
    module = entry(game).bots()
    assert callable(module.heuristic_text) and callable(module.worlds_for)
    assert hasattr(module, "SEARCH") or hasattr(module, "search_game")


@pytest.mark.parametrize("game", GAMES)
def test_the_bot_options_of_every_game_exist(game):
    found = entry(game)
    found.spec.normalize_options(found.bot_options)  # raises on an option the game does not have


def test_the_bots_and_the_catalog_know_the_same_games():
    assert tuple(GAME_BOTS) == GAMES


def test_an_unknown_game_is_refused_with_the_known_ones():
    with pytest.raises(UnknownGame, match="known: euchre"):
        get_spec("chess")
    with pytest.raises(UnknownGame):
        entry(None)
