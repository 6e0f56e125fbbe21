"""Doppelkopf world sampling: the further worlds of one observation are its first
replayed world on another deal (``sampling._on_deal``), not a replay each, and
share the public constraints worked out once (``sampling._PUBLIC``).  Every
such world must be the very state a full replay of the public actions on that deal
gives — compared here field by field, with the same random draws, over steered
random play in every preset and house option: hidden reservations (doppelkopf.md,
"Reservations"), a silent solo, the marriage, the poverty exchange seen by giver,
taker and outsiders ("Poverty"), pigs and superpigs, throwing in and play without
nines ("House rules"), the compulsory solo of the tournament list ("Tournament
list") and bock rounds."""

from __future__ import annotations

import random
from typing import Any

import pytest

from tricktable.cards import COPY_OFFSET, KING, NINE, rank_of
from tricktable.core.protocol import Deal
from tricktable.core.sampling import SamplingError
from tricktable.games.doppelkopf import SPEC, house, sampling
from tricktable.games.doppelkopf import state as st
from tricktable.games.doppelkopf.rules import AD, NORMAL, QC, TRUMP_MASK
from tricktable.games.doppelkopf.tournament import TournamentDeal

HOUSE = {"schweinchen": True, "superschweinchen": True, "second_heart_ten": True, "throwing_in": True,
         "bock": True, "soloist_leads": True}
OPTION_SETS = {
    "standard": {},
    "ddv": SPEC.presets["ddv"],
    "house": dict(SPEC.presets["house"], **HOUSE),
    "without nines": {"without_nines": True, "schweinchen": True, "superschweinchen": True, "throwing_in": True},
    "tournament list": dict(SPEC.presets["ddv"], tournament_list=True),
}
SHAPES = ("marriage", "poverty", "throw in", "pigs", "any")


def _is_trump(card_id: int) -> bool:
    return bool(TRUMP_MASK[NORMAL] >> (card_id % COPY_OFFSET) & 1)


def shaped(rng: random.Random, dealer: int, options: dict[str, Any], shape: str) -> Deal:
    """A random deal where one seat holds a marriage, a poor hand, five nines or
    kings, or both ♦A (``shape``; "any": no steering)."""
    cards = list(house.deck(options))
    rng.shuffle(cards)
    size = house.hand_size(options)
    first: list[int] = []
    if shape == "marriage":
        first = [QC, QC + COPY_OFFSET]
    elif shape == "poverty":
        count = rng.randint(0, 3)
        first = [c for c in cards if _is_trump(c)][:count] + [c for c in cards if not _is_trump(c)][:size - count]
    elif shape == "throw in":
        rank = KING if house.without_nines(options) else rng.choice([NINE, KING])
        first = [c for c in cards if rank_of(c % COPY_OFFSET) == rank][:house.THROW_IN_CARDS]
    elif shape == "pigs":
        first = [AD, AD + COPY_OFFSET]
    rest = [c for c in cards if c not in first]
    hands: list[list[int]] = [[], [], [], []]
    seat = rng.randrange(4)
    hands[seat] = first + [rest.pop() for _ in range(size - len(first))]
    for s in range(4):
        while len(hands[s]) < size:
            hands[s].append(rest.pop())
    return Deal(dealer, tuple(tuple(h) for h in hands), house.set_aside(options))


def _sample(obs: Any, seed: int) -> tuple[st.DoppelkopfState | None, object]:
    rng = random.Random(seed)
    try:
        return SPEC.sample_world(obs, rng), rng.getstate()
    except SamplingError:
        return None, rng.getstate()


def compare(obs: Any, cases: set[str]) -> int:
    """The first world of ``obs`` (the template), then further worlds by template and
    by full replay from the same seeds: equal field by field, with the same draws."""
    sampling._TEMPLATE[0] = None
    first, _ = _sample(obs, 0)
    if first is None:
        return 0
    for seed in (1, 2):
        further, further_rng = _sample(obs, seed)
        sampling._TEMPLATE[0] = None
        sampling._PUBLIC.clear()  # the observation's constraints worked out afresh too
        replayed, replayed_rng = _sample(obs, seed)
        assert further_rng == replayed_rng, obs.actions  # the same random draws
        assert (further is None) == (replayed is None), obs.actions
        if replayed is None or further is None:
            continue
        assert vars(further).keys() == vars(replayed).keys()
        for field, value in vars(replayed).items():
            assert getattr(further, field) == value, (field, obs.seat, obs.actions)
        _note_cases(replayed, obs, cases)
    return 1


def _note_cases(world: st.DoppelkopfState, obs: Any, cases: set[str]) -> None:
    hidden = [s for s, (_, text) in enumerate(obs.actions) if text == st.HIDDEN_RESERVATION]
    if hidden:
        cases.add("hidden reservation")
    if any(world.history[i] == st.THROW_IN for i in hidden):
        cases.add("hidden throw in")
    if world.contract == st.POVERTY_GAME and world.given:
        cases.add("poverty, inside" if obs.seat in (world.declarer, world.partner) else "poverty, outside")
    if world.contract == st.POVERTY_GAME and world.returned and obs.seat not in (world.declarer, world.partner):
        cases.add("poverty returned, outside")
    if world.contract in (st.SILENT_SOLO, st.MARRIAGE_GAME, st.SOLO_GAME):
        cases.add(world.contract)
    if world.pigs >= 0:
        cases.add("pigs")
    if world.superpigs >= 0:
        cases.add("superpigs")
    if world.tournament is not None and world.tournament.forced is not None:
        cases.add("compulsory solo")
    if world.announced:
        cases.add("announcement")


def deals(name: str, options: dict[str, Any], rng: random.Random, count: int) -> list[st.DoppelkopfState]:
    states = []
    for index in range(count):
        deal = shaped(rng, index % 4, options, SHAPES[index % len(SHAPES)])
        tournament = None
        if options.get("tournament_list"):
            forced = index % 4 if index % 2 else None  # every other deal a compulsory solo ("vorgeführt")
            tournament = TournamentDeal((0, 1, 2, 3), 4 if forced is not None else 20, forced)
        states.append(SPEC.new_deal(deal, options, tournament))
    return states


@pytest.mark.parametrize("name", list(OPTION_SETS))
def test_further_worlds_of_an_observation_equal_a_full_replay(name, dk):
    options = SPEC.normalize_options(OPTION_SETS[name])
    rng = random.Random(14)
    cases: set[str] = set()
    compared = 0
    for index, state in enumerate(deals(name, options, rng, 20)):
        forced = state.tournament is not None and state.tournament.forced is not None
        policy = dk.Policy(reserve="contested" if index % 3 and not forced else "random", announce=0.3)
        steps = 0
        while not state.is_terminal():
            if steps % 5 == index % 5:
                for seat in {state.to_move, rng.randrange(4)}:  # the seat to move and one other view
                    compared += compare(state.observe(seat), cases)
            policy.step(state, rng)
            steps += 1
    wanted = {"hidden reservation", "marriage", "solo", "announcement"}
    if options["poverty"]:
        wanted |= {"poverty, inside", "poverty, outside", "poverty returned, outside"}
    if options["schweinchen"]:
        wanted |= {"pigs", "superpigs"}
    if options["throwing_in"]:
        wanted.add("hidden throw in")
    if options["tournament_list"]:
        wanted.add("compulsory solo")
    assert wanted <= cases, wanted - cases
    assert compared >= 100
