"""The Court Piece family as one ``GameSpec``: options, seeded dealing in packets,
the match and world sampling.  Each game is this spec with a name and a
``Variant`` (``variants.py``).  Spec: ``shared/rules/court-piece.md``."""

from __future__ import annotations

import random
from types import MappingProxyType
from typing import Any, ClassVar, Mapping

from tricktable.errors import RecordError
from tricktable.core.observation import Observation
from tricktable.core.protocol import Deal, GameSpec, OptionSpec
from tricktable.core.rng import shuffled
from tricktable.games.courtpiece.match import CourtPieceMatch
from tricktable.games.courtpiece.observation import CourtPieceObservation
from tricktable.games.courtpiece.rules import DECK, NEXT, PACKETS, TARGET_KOTS, TARGET_POINTS, TRICKS
from tricktable.games.courtpiece.state import CourtPieceState
from tricktable.games.courtpiece import variants
from tricktable.games.courtpiece.actions import ACTIONS
from tricktable.games.courtpiece.variants import Variant

COMMON_OPTIONS = (
    OptionSpec("counting", "points", ("points", "kots"), "Count the match in points or in kots."),
    OptionSpec("target_points", TARGET_POINTS, (5, 7, 10, 11, 15, 21, 31), "Points that win a match (points mode)."),
    OptionSpec("target_kots", TARGET_KOTS, (1, 2, 3, 4, 5, 7), "Kots that win a match (kots mode)."),
    OptionSpec("new_cards", "person", ("person", "any seat", "off"),
               "Who may ask for new cards, from his first five cards until his own first card of the deal: "
               "the person (person_seat), any seat, nobody."),
    OptionSpec("person_seat", 0, (0, 1, 2, 3), "The seat of the person playing with computer players."),
    OptionSpec("change_trump", True, description="The caller may change trump once before the first card."),
    OptionSpec("first_game", False, description="The person's very first game: 10 s to call instead of 20 s."),
)
DAILY_OPTIONS = {"counting": "points", "new_cards": "off"}
"""What a daily game fixes (a game without a counting mode just deals the same cards)."""
PILE_HOUSE_RULES = (
    OptionSpec("ace_on_ace", False, description="Two wins in a row with two different aces do not capture."),
    OptionSpec("trump_ace_cannot_seal", False, description="The ace of trumps cannot complete a capture."),
    OptionSpec("no_pile_on_11_12", False, description="A pair completed on trick 11 or 12 does not capture."),
)
MENDIKOT_TARGET_POINTS = 7
ALL_HOUSE_RULES = {"all house rules": {rule.name: True for rule in PILE_HOUSE_RULES}}

NEW_CARDS_ON_TURN = OptionSpec("new_cards_on_turn", False, legacy=True, description=(
    "Rules version 1: new cards only on one's own calling turn (Be-Ranga: one's own turn in the first trick "
    "while no trump is set)."))
CALL_ANY_SUIT = OptionSpec("call_any_suit", False, legacy=True, description=(
    "Rules version 1: the caller (or his partner) may name any suit, held among his first five cards or not."))
"""The legacy options that replay records of each game's first rules version
(``docs/changelog-court-piece.md``): never offered in the Rules dialog."""


def first_version(game: str, *options: OptionSpec) -> dict[str, dict[str, bool]]:
    """``legacy_rules`` of a game whose version 1 is reproduced by ``options``."""
    return {f"{game}-1": {option.name: True for option in options}}


class CourtPieceSpec(GameSpec):
    """What every Court Piece game shares; a game names its variant."""

    deck = DECK
    actions = ACTIONS
    variant: ClassVar[Variant]

    def deal_from_seed(self, seed: str, dealer: int, options: Mapping[str, Any]) -> Deal:
        """Shuffle, then deal 5, 4 and 4 cards to everyone, starting with the
        caller (the dealer's right) and going counter-clockwise."""
        cards = shuffled(DECK, seed)
        hands: list[list[int]] = [[], [], [], []]
        seat, position = NEXT[dealer], 0
        for size in PACKETS:
            for _ in range(4):
                hands[seat] += cards[position:position + size]
                position += size
                seat = NEXT[seat]
        return Deal(dealer, tuple(tuple(h) for h in hands), (), seed)

    def deal_from_json(self, data: Mapping[str, Any]) -> Deal:
        deal = super().deal_from_json(data)
        if deal.seed is None and (deal.rest or any(len(h) != TRICKS for h in deal.hands)):
            raise RecordError("a Court Piece deal gives 13 cards to each player and leaves none")
        return deal

    def new_deal(self, deal: Deal, options: Mapping[str, Any], *, flip_pick: int | None = None,
                 new_cards_allowed: bool = True) -> CourtPieceState:
        """``flip_pick``, ``new_cards_allowed``: see the state."""
        return CourtPieceState(self, deal, options, variant=self.variant, flip_pick=flip_pick,
                               new_cards_allowed=new_cards_allowed)

    def new_match(self, seed: str, options: Mapping[str, Any], daily: bool = False) -> CourtPieceMatch:
        if daily:  # the daily game counts in points and deals everyone the same cards
            names = {option.name for option in self.option_specs}
            options = {**options, **{k: v for k, v in DAILY_OPTIONS.items() if k in names}}
        return CourtPieceMatch(self, seed, options, daily)

    def sample_world(self, obs: Observation, rng: random.Random) -> CourtPieceState:
        assert isinstance(obs, CourtPieceObservation), "a Court Piece world needs a Court Piece observation"
        return self.variant.trump.sample_world(self, obs, rng)


class DoubleSarSpec(CourtPieceSpec):
    name = "double-sar"
    title = "Double Sar"
    rules_version = "double-sar-2"
    option_specs = COMMON_OPTIONS + PILE_HOUSE_RULES + (NEW_CARDS_ON_TURN, CALL_ANY_SUIT)
    presets = ALL_HOUSE_RULES
    legacy_rules = first_version("double-sar", NEW_CARDS_ON_TURN, CALL_ANY_SUIT)
    variant = variants.DOUBLE_SAR


class SingleSarSpec(CourtPieceSpec):
    name = "single-sar"
    title = "Single Sar"
    rules_version = "single-sar-2"
    option_specs = COMMON_OPTIONS + (NEW_CARDS_ON_TURN, CALL_ANY_SUIT)
    legacy_rules = first_version("single-sar", NEW_CARDS_ON_TURN, CALL_ANY_SUIT)
    variant = variants.SINGLE_SAR


class HiddenTrumpSpec(CourtPieceSpec):
    """Hidden Trump (Chhupa Rang): the caller puts a card of the chosen suit face
    down (``trump.HiddenCard``); Single Sar scoring."""

    name = "hidden-trump"
    title = "Hidden Trump"
    rules_version = "hidden-trump-2"
    option_specs = COMMON_OPTIONS + (NEW_CARDS_ON_TURN,)
    legacy_rules = first_version("hidden-trump", NEW_CARDS_ON_TURN)
    variant = variants.HIDDEN_TRUMP


class BeRangaSpec(CourtPieceSpec):
    """Be-Ranga: no trump is called (``trump.FirstVoid``); Double Sar's pile and
    house rules, no capture before the trick after the trump-setting trick
    (``tricks.Pile(wait_for_trump=True)``).  The player to the dealer's right
    leads the first trick, as the caller does in the family: he keeps the name
    ``caller`` and his team is the "callers" of the score table and of the dealer
    rotation.  No change trump (the spec offers it only where trump is called),
    no calling timer."""

    name = "be-ranga"
    title = "Be-Ranga"
    rules_version = "be-ranga-2"
    option_specs = tuple(o for o in COMMON_OPTIONS if o.name not in ("change_trump", "first_game")) + PILE_HOUSE_RULES + (
        NEW_CARDS_ON_TURN,)
    presets = ALL_HOUSE_RULES
    legacy_rules = first_version("be-ranga", NEW_CARDS_ON_TURN)
    variant = variants.BE_RANGA


class MendikotSpec(CourtPieceSpec):
    """Mendikot: Hidden Trump's calling, tens decide (``scoring.Tens``).  A match
    ends when a team reaches ``target_points`` (7 by default); the daily game is
    8 deals.  The dealer rotation is the family's, with the mendikot and the
    whitewash in the place of the kot.  New cards is offered as in every Court
    Piece game."""

    name = "mendikot"
    title = "Mendikot"
    rules_version = "mendikot-2"
    option_specs = (OptionSpec("target_points", MENDIKOT_TARGET_POINTS, (3, 5, 7, 10, 15, 21),
                               "Points that win a match."),) + tuple(
        o for o in COMMON_OPTIONS if o.name not in ("counting", "target_points", "target_kots", "change_trump")) + (
        NEW_CARDS_ON_TURN,)
    legacy_rules = first_version("mendikot", NEW_CARDS_ON_TURN)
    variant = variants.MENDIKOT


DOUBLE_SAR = DoubleSarSpec()
SINGLE_SAR = SingleSarSpec()
HIDDEN_TRUMP = HiddenTrumpSpec()
BE_RANGA = BeRangaSpec()
MENDIKOT = MendikotSpec()
FAMILY: Mapping[str, CourtPieceSpec] = MappingProxyType(
    {spec.name: spec for spec in (DOUBLE_SAR, SINGLE_SAR, HIDDEN_TRUMP, BE_RANGA, MENDIKOT)})
"""The family's games by name (their bots serve several games of it)."""
