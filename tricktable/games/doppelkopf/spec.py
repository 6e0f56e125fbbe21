"""Doppelkopf as a ``GameSpec``: options, the DDV preset, seeded dealing, the
8-deal match and world sampling."""

from __future__ import annotations

import random
from typing import Any, Mapping

from tricktable.core.match import MatchState
from tricktable.core.protocol import Deal, GameSpec, GameState, OptionSpec
from tricktable.core.rng import SeedStream, derive_seed, shuffled
from tricktable.core.observation import Observation
from tricktable.games.doppelkopf.actions import ACTIONS
from tricktable.games.doppelkopf.observation import Outcome, doppelkopf_observation
from tricktable.games.doppelkopf.rules import DEALS_PER_MATCH, DECK, HAND_SIZE
from tricktable.games.doppelkopf.state import DoppelkopfState

PACKET = 3
"""Cards are dealt three at a time, from the dealer's left."""


class DoppelkopfSpec(GameSpec):
    name = "doppelkopf"
    title = "Doppelkopf"
    rules_version = "doppelkopf-2"
    """Changes: ``docs/changelog-doppelkopf.md``."""
    deck = DECK
    double_deck = True
    actions = ACTIONS
    option_specs = (
        OptionSpec("second_heart_ten", False,
                   description="Second 10♥: of both 10♥ in one trick the second wins, except in the last trick."),
        OptionSpec("soloist_leads", False, description="Soloist leads: in a solo the soloist leads the first trick."),
        OptionSpec("karlchen_only_by_winning", False,
                   description="Karlchen only by winning: catching an opposing J♣ in the last trick scores nothing."),
        OptionSpec("poverty", True, description="Poverty (Armut) may be declared (off in the DDV preset)."),
        OptionSpec("ddv_scoring", False,
                   description="DDV plus-minus scoring: the DDV's table of game points (ddv.py), on in the DDV preset."),
        OptionSpec("winner_doppelkopf_1", False, legacy=True,
                   description="The winner rule of rules doppelkopf-1: a team told no 90 that announced only "
                               "Re/Kontra needed 120/121, and nobody won when both missed."),
    )
    legacy_rules = {"doppelkopf-1": {"winner_doppelkopf_1": True}}
    presets = {
        # The German Doppelkopf association's tournament rules, as the spec restates them: without
        # the tournament list every solo is voluntary, and a voluntary solo is led from the dealer's left.
        "ddv": {"poverty": False, "second_heart_ten": False, "karlchen_only_by_winning": True,
                "soloist_leads": False, "ddv_scoring": True},
        "standard": {},
    }

    def deal_from_seed(self, seed: str, dealer: int, options: Mapping[str, Any]) -> Deal:
        cards = shuffled(DECK, seed)
        hands: list[list[int]] = [[], [], [], []]
        for round_start in range(0, HAND_SIZE * 4, PACKET * 4):
            for offset in range(4):
                start = round_start + offset * PACKET
                hands[(dealer + 1 + offset) % 4] += cards[start:start + PACKET]
        return Deal(dealer, tuple(tuple(h) for h in hands), (), seed)

    def new_deal(self, deal: Deal, options: Mapping[str, Any]) -> DoppelkopfState:
        return DoppelkopfState(self, deal, self.normalize_options(options))

    def new_match(self, seed: str, options: Mapping[str, Any], daily: bool = False) -> "DoppelkopfMatch":
        return DoppelkopfMatch(self, seed, options, daily)

    def sample_world(self, obs: Observation, rng: random.Random) -> DoppelkopfState:
        from tricktable.games.doppelkopf.sampling import sample_world

        return sample_world(self, doppelkopf_observation(obs), rng)


class DoppelkopfMatch(MatchState):
    """Eight deals; the deal passes left; a poverty that everybody declines is
    dealt again by the same dealer under the same deal number."""

    def first_dealer(self) -> int:
        return SeedStream(derive_seed(self.seed, "first dealer")).randbelow(4)

    def deal_points(self, deal: GameState) -> list[int]:
        return deal.returns()

    def counts_as_deal(self, deal: GameState) -> bool:
        return not (isinstance(deal, DoppelkopfState) and deal.outcome == Outcome.THROWN_IN.value)

    def next_dealer(self, deal: GameState) -> int:
        return (self.dealer + 1) % 4 if self.counts_as_deal(deal) else self.dealer

    def is_over(self) -> bool:
        return self.deals_played >= DEALS_PER_MATCH

    def match_view(self, seat: int) -> dict[str, Any]:
        # Doppelkopf is scored per player: the daily leaderboard ranks your own total.
        return {"deals_total": DEALS_PER_MATCH, "daily_score": self.totals[seat]}


SPEC = DoppelkopfSpec()
