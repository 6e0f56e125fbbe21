"""Doppelkopf as a ``GameSpec``: options, the DDV preset, seeded dealing, the
8-deal match and world sampling."""

from __future__ import annotations

import random
from typing import Any, Mapping

from tricktable.core.match import MatchState
from tricktable.core.protocol import Deal, GameSpec, GameState, OptionSpec, ScoreLine
from tricktable.core.rng import SeedStream, derive_seed, shuffled
from tricktable.core.observation import Observation
from tricktable.games.doppelkopf.actions import ACTIONS
from tricktable.games.doppelkopf.observation import DoppelkopfObservation, Outcome, Situation, doppelkopf_observation
from tricktable.games.doppelkopf import house
from tricktable.games.doppelkopf.rules import DEALS_PER_MATCH, DECK
from tricktable.games.doppelkopf.state import DoppelkopfState
from tricktable.games.doppelkopf.views import build_observation, build_situation
from tricktable.games.doppelkopf.tournament import TOURNAMENT_DEALS, TournamentDeal, TournamentList

PACKETS = {12: (3, 3, 3, 3), 10: (3, 4, 3)}
"""Cards are dealt in packets (three at a time; without nines 3, 4, 3), from the dealer's left."""


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
        # House rules (spec "House rules", games/doppelkopf/house.py).
        OptionSpec("schweinchen", False,
                   description="Schweinchen: the holder of both ♦A has pigs, above 10♥ (no fox)."),
        OptionSpec("superschweinchen", False,
                   description="Superschweinchen (with Schweinchen): the holder of both ♦9 (without nines: ♦K) "
                               "has superpigs above the pigs.", requires="schweinchen"),
        OptionSpec("throwing_in", False,
                   description="Throwing in: with five nines or five kings the cards may be thrown in."),
        OptionSpec("bock", False,
                   description="Bock rounds: after 120:120 or a lost solo the next four deals count double."),
        OptionSpec("without_nines", False,
                   description="Without nines: 40 cards, 10 each; announcements need two cards fewer."),
        OptionSpec("tournament_list", False,
                   description="Tournament list (DDV): 24 deals, one compulsory solo per player (tournament.py)."),
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
        # The spec's "house rules" preset: pigs and the second 10♥; poverty stays on.
        "house": {"schweinchen": True, "second_heart_ten": True},
    }

    def deal_from_seed(self, seed: str, dealer: int, options: Mapping[str, Any]) -> Deal:
        cards = shuffled(house.deck(options), seed)
        hands: list[list[int]] = [[], [], [], []]
        start = 0
        for packet in PACKETS[house.hand_size(options)]:
            for offset in range(4):
                hands[(dealer + 1 + offset) % 4] += cards[start:start + packet]
                start += packet
        # Without nines the nines are set aside: the deal's rest, so that a deal still holds the deck.
        return Deal(dealer, tuple(tuple(h) for h in hands), house.set_aside(options), seed)

    def new_deal(self, deal: Deal, options: Mapping[str, Any],
                 tournament: TournamentDeal | None = None) -> DoppelkopfState:
        """``tournament``: the tournament list's facts of this deal (a match with the list).
        A deal played alone with the list on is the list's first deal (spec "Tournament
        list"): everybody still owes his compulsory solo, so a solo declared in it is the
        soloist's compulsory solo and he leads it."""
        options = self.normalize_options(options)
        if tournament is None and options["tournament_list"]:
            tournament = TournamentList().deal(deal.dealer, regular_played=0)
        return DoppelkopfState(self, deal, options, tournament)

    def new_match(self, seed: str, options: Mapping[str, Any], daily: bool = False) -> "DoppelkopfMatch":
        return DoppelkopfMatch(self, seed, options, daily)

    def observation(self, state: DoppelkopfState, seat: int) -> DoppelkopfObservation:
        """``state.observe(seat)``: the state asks the spec that made it (``state.Observer``)."""
        return build_observation(state, seat)

    def situation(self, state: DoppelkopfState, seat: int) -> Situation:
        """``state.situation(seat)``: the state asks the spec that made it."""
        return build_situation(state, seat)

    def sample_world(self, obs: Observation, rng: random.Random) -> DoppelkopfState:
        from tricktable.games.doppelkopf.sampling import sample_world

        return sample_world(self, doppelkopf_observation(obs), rng)


class DoppelkopfMatch(MatchState):
    """Eight deals; the deal passes left; a poverty that everybody declines (or
    a hand thrown in) is dealt again by the same dealer under the same deal number.
    With bock rounds (a house rule) a deal's points are multiplied by its bocks.
    With the tournament list (DDV): 24 regular deals, and a compulsory solo played
    by choice is an extra deal by the same dealer (``tournament.py``)."""

    def __init__(self, spec: GameSpec, seed: str, options: Mapping[str, Any], daily: bool = False):
        self.bocks = house.BockQueue()
        self.tournament = TournamentList() if spec.normalize_options(options)["tournament_list"] else None
        super().__init__(spec, seed, options, daily)

    def _finish_deal(self) -> None:
        deal, multiplier = self.current, self.bocks.multiplier()
        if self.tournament is not None and isinstance(deal, DoppelkopfState) and deal.compulsory:
            self.tournament = self.tournament.after(deal.declarer)
        super()._finish_deal()
        if not self.options.get("bock"):
            return
        if multiplier > 1:
            self.results[-1]["lines"].append(
                ScoreLine("bock", f"Bock ×{multiplier}: the deal's points count {multiplier} times", multiplier
                          ).to_json())
        bock = isinstance(deal, DoppelkopfState) and house.makes_bock(deal)
        self.bocks.after_deal(self.counts_as_deal(deal), bock, self.deals_total - self.deals_played)

    def clone(self) -> "DoppelkopfMatch":
        twin = super().clone()
        assert isinstance(twin, DoppelkopfMatch)
        twin.bocks = self.bocks.copy()
        return twin

    def first_dealer(self) -> int:
        return SeedStream(derive_seed(self.seed, "first dealer")).randbelow(4)

    def start_deal(self) -> GameState:
        if self.tournament is None:
            return super().start_deal()
        deal = self.spec.deal_from_seed(self.deal_seed(self.deal_index), self.dealer, self.options)
        spec = self.spec
        assert isinstance(spec, DoppelkopfSpec)
        return spec.new_deal(deal, self.options, self.tournament.deal(self.dealer, self.deals_played))

    def deal_points(self, deal: GameState) -> list[int]:
        multiplier = self.bocks.multiplier()
        return [points * multiplier for points in deal.returns()]

    def counts_as_deal(self, deal: GameState) -> bool:
        if not isinstance(deal, DoppelkopfState):
            return True
        if deal.outcome == Outcome.THROWN_IN.value:
            return False
        # A compulsory solo by choice is an extra deal; a vorgeführt one counts.
        return not (deal.compulsory and deal.tournament is not None and deal.tournament.forced is None)

    def next_dealer(self, deal: GameState) -> int:
        return (self.dealer + 1) % 4 if self.counts_as_deal(deal) else self.dealer

    @property
    def deals_total(self) -> int:
        return DEALS_PER_MATCH if self.tournament is None else TOURNAMENT_DEALS

    def is_over(self) -> bool:
        return self.deals_played >= self.deals_total

    def match_view(self, seat: int) -> dict[str, Any]:
        # Doppelkopf is scored per player: the daily leaderboard ranks your own total.
        view: dict[str, Any] = {"deals_total": self.deals_total, "daily_score": self.totals[seat]}
        if self.options.get("bock"):
            view.update(bock=self.bocks.multiplier(), bock_deals_queued=self.bocks.queued())
        return view


SPEC = DoppelkopfSpec()
