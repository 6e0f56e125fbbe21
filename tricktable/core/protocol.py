"""The game protocol every game implements.

A ``GameState`` is one deal (or, through ``MatchState``, a whole match).  It is
mutable for speed, but ``apply`` validates before it changes anything, so an
action that raises leaves the state exactly as it was.

Actions are small ints inside a game; ``action_text``/``parse_action`` give the
stable text notation (``play JH``, ``order up``, ``call S`` …) used by the CLI,
records, the HTTP API and logs.  Text always parses back to the same int.

Some actions belong to the referee, never to a player (a timeout in Court Piece):
they are listed by ``referee_actions`` and applied with ``apply_referee``.

``observe(seat)`` is the typed, immutable ``Observation`` of exactly what that
seat may know (see ``tricktable.core.observation``); bots, samplers and hints
work from it alone.  ``view(seat)`` is its JSON wire shape, ``observe(seat).to_json()``.
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from dataclasses import dataclass
from typing import Any, ClassVar, Mapping, Sequence

from tricktable.cards import COPY_OFFSET, card_text, mask_of, parse_cards
from tricktable.core.actions import ActionSpace
from tricktable.errors import (
    GameError,
    GameOver,
    IllegalAction,
    NotationError,
    NotYourTurn,
    OptionError,
    RecordError,
)
from tricktable.core.observation import TERMINAL as TERMINAL  # re-exported: games take it from the protocol
from tricktable.core.observation import Observation
from tricktable.core.step import FinishedTrick, Step

NUM_SEATS = 4


@dataclass(frozen=True)
class ScoreLine:
    """One line of a score breakdown: what it is for and what it is worth.

    ``points`` is per team (``team`` = 0 or 1) or per seat, as ``scope`` says;
    ``key`` is a stable identifier the web page translates.
    """

    key: str
    text: str
    points: int
    team: int | None = None
    seat: int | None = None

    def to_json(self) -> dict[str, Any]:
        return {k: v for k, v in self.__dict__.items() if v is not None}


@dataclass(frozen=True)
class Deal:
    """Who dealt and which cards everybody got, plus the undealt rest in order.

    ``hands[seat]`` keeps the order in which the cards were dealt (games that deal
    in packets, like Court Piece, rely on it).  ``seed`` is set when the deal was
    derived from a seed; an explicit deal has ``seed=None``.
    """

    dealer: int
    hands: tuple[tuple[int, ...], ...]
    rest: tuple[int, ...] = ()
    seed: str | None = None

    def to_json(self) -> dict[str, Any]:
        if self.seed is not None:
            return {"dealer": self.dealer, "seed": self.seed}
        return {
            "dealer": self.dealer,
            "hands": [" ".join(card_text(c) for c in hand) for hand in self.hands],
            "rest": " ".join(card_text(c) for c in self.rest),
        }

    def all_cards(self) -> list[int]:
        return [c for hand in self.hands for c in hand] + list(self.rest)


def explicit_cards(texts: Sequence[str], double_deck: bool) -> list[list[int]]:
    """Parse several card lists; in a double deck the second copy of a face gets
    its own id, in order of appearance."""
    seen: set[int] = set()
    out = []
    for text in texts:
        cards = []
        for c in parse_cards(text):
            if c in seen and double_deck:
                c += COPY_OFFSET
            seen.add(c)
            cards.append(c)
        out.append(cards)
    return out


@dataclass(frozen=True)
class OptionSpec:
    """One rule option (a house rule) with its default and allowed values."""

    name: str
    default: Any
    choices: tuple[Any, ...] = (False, True)
    description: str = ""
    legacy: bool = False
    """Kept only so that records of an older rules version replay (see
    ``GameSpec.legacy_rules``); never offered in the Rules dialog."""
    requires: str | None = None
    """A switch without which this option means nothing (Superschweinchen needs
    Schweinchen): setting it while that one is off is refused."""


@dataclass
class GameSpec(ABC):
    """A game's rules as a whole: options, dealing, and factories for states."""

    name: ClassVar[str]
    title: ClassVar[str]
    rules_version: ClassVar[str]
    deck: ClassVar[tuple[int, ...]]
    double_deck: ClassVar[bool] = False
    actions: ClassVar[ActionSpace]
    """Every action int the game uses, as named ranges (``tricktable.core.actions``)."""
    option_specs: ClassVar[tuple[OptionSpec, ...]] = ()
    presets: ClassVar[Mapping[str, Mapping[str, Any]]] = {}
    legacy_rules: ClassVar[Mapping[str, Mapping[str, Any]]] = {}
    """Older rules versions whose records still replay: version → the (legacy)
    options that reproduce its rules.  A record keeps the version it was made
    under, and replaying it switches those options on."""

    def normalize_options(self, options: Mapping[str, Any] | None = None) -> dict[str, Any]:
        """Fill defaults, apply a ``preset``, and reject anything unknown."""
        options = dict(options or {})
        result = {spec.name: spec.default for spec in self.option_specs}
        preset = options.pop("preset", None)
        if preset is not None:
            if preset not in self.presets:
                raise OptionError(f"{self.name} has no preset {preset!r}; known: {sorted(self.presets)}")
            result.update(self.presets[preset])
        by_name = {spec.name: spec for spec in self.option_specs}
        for key, value in options.items():
            if key not in by_name:
                raise OptionError(f"{self.name} has no option {key!r}; known: {sorted(by_name)}")
            if value not in by_name[key].choices:
                raise OptionError(f"option {key!r} cannot be {value!r}; allowed: {list(by_name[key].choices)}")
            result[key] = value
        for spec in self.option_specs:
            if spec.requires and result[spec.name] != spec.default and not result[spec.requires]:
                raise OptionError(f"option {spec.name!r} needs option {spec.requires!r}")
        return result

    @abstractmethod
    def deal_from_seed(self, seed: str, dealer: int, options: Mapping[str, Any]) -> Deal:
        """The deal a seed gives (pure function of its arguments)."""

    def deal_from_json(self, data: Mapping[str, Any]) -> Deal:
        """Rebuild a deal from ``Deal.to_json`` output, checking the cards."""
        dealer = data.get("dealer")
        if not isinstance(dealer, int) or not 0 <= dealer < NUM_SEATS:
            raise RecordError("deal.dealer must be a seat 0..3")
        if "seed" in data:
            if not isinstance(data["seed"], str):
                raise RecordError("deal.seed must be a string")
            return self.deal_from_seed(data["seed"], dealer, {})
        hands_text = data.get("hands")
        if not isinstance(hands_text, list) or len(hands_text) != NUM_SEATS:
            raise RecordError("deal.hands must list four hands")
        rest_text = data.get("rest", "")
        if not all(isinstance(t, str) for t in [*hands_text, rest_text]):
            raise RecordError("deal cards must be strings like '9C JD AS'")
        try:
            *hands, rest = explicit_cards([*hands_text, rest_text], self.double_deck)
        except NotationError as error:
            raise RecordError(str(error)) from None
        deal = Deal(dealer, tuple(tuple(h) for h in hands), tuple(rest))
        if sorted(deal.all_cards()) != sorted(self.deck):
            raise RecordError(f"the deal's cards are not exactly the {self.title} deck")
        return deal

    @abstractmethod
    def new_deal(self, deal: Deal, options: Mapping[str, Any]) -> "GameState":
        """A fresh deal state (options already normalized)."""

    @abstractmethod
    def new_match(self, seed: str, options: Mapping[str, Any], daily: bool = False) -> "GameState":
        """A fresh match state (options already normalized)."""

    @abstractmethod
    def sample_world(self, obs: Observation, rng: random.Random) -> "GameState":
        """A complete deal state consistent with everything ``obs`` shows."""


class GameState(ABC):
    """One game position; see the module docstring for the contract."""

    spec: GameSpec
    options: dict[str, Any]

    @property
    @abstractmethod
    def to_move(self) -> int:
        """The seat to act, or ``TERMINAL``."""

    @abstractmethod
    def legal_actions(self) -> Sequence[int]:
        """The actions the seat to move may take (empty when terminal)."""

    @abstractmethod
    def apply(self, action: int) -> None:
        """Play ``action`` for the seat to move; raise ``IllegalAction`` otherwise."""

    @abstractmethod
    def action_text(self, action: int) -> str:
        """The stable notation of an action."""

    @abstractmethod
    def parse_action(self, text: str) -> int:
        """The action a notation means; ``NotationError`` if it means none."""

    @abstractmethod
    def observe(self, seat: int) -> Observation:
        """Exactly what ``seat`` may know."""

    @abstractmethod
    def last_step(self) -> Step:
        """What the last action did: who took it, its text as each seat reads
        it, the trick it completed, whether it ended the deal or the game
        (``core/step.py``).  Asked after an action; ``GameError`` before the first."""

    def view(self, seat: int) -> dict[str, Any]:
        """The observation's JSON wire shape."""
        return self.observe(seat).to_json()

    @abstractmethod
    def returns(self) -> list[int]:
        """Per-seat result of a finished game (game points)."""

    @abstractmethod
    def breakdown(self) -> list[ScoreLine]:
        """The scoring lines of a finished game."""

    @abstractmethod
    def clone(self) -> "GameState":
        """An independent copy."""

    _history: list[int]

    @property
    def history(self) -> list[int]:
        """Every action applied so far, in order (referee actions included)."""
        return self._history

    def is_terminal(self) -> bool:
        return self.to_move == TERMINAL

    def referee_actions(self) -> Sequence[int]:
        """Actions only the server may apply now (timeouts); none by default."""
        return ()

    def apply_referee(self, action: int) -> None:
        raise IllegalAction(f"{self._describe(action)} is not a referee action now")

    def legal_actions_for(self, seat: int) -> Sequence[int]:
        """The actions ``seat`` may take now: the seat to move's legal actions, and
        for any other seat what the rules let it do out of turn (by default nothing).
        A game that allows out-of-turn actions overrides this and ``apply_for``."""
        return self.legal_actions() if seat == self.to_move else ()

    def apply_for(self, seat: int, action: int) -> None:
        """Play ``action`` for ``seat``, to move or not; validation before change.

        ``NotYourTurn`` when ``seat`` is not to move and the action is not one the
        rules allow out of turn; ``IllegalAction`` (with the reason) when it is such
        an action but not allowed now."""
        if seat != self.to_move:
            raise NotYourTurn(f"it is seat {self.to_move}'s turn, not seat {seat}'s")
        self.apply(action)

    def out_of_turn_history(self) -> Mapping[int, int]:
        """``history`` index → seat, for every action taken by a seat that was not
        to move (records write those as ``"<seat>: <text>"``).  Empty by default."""
        return {}

    def act(self, seat: int, text: str) -> int:
        """Apply ``seat``'s action given as text (``apply_for`` checks whose turn it is)."""
        if self.is_terminal():
            raise GameOver("the game is over")
        action = self.parse_action(text)
        self.apply_for(seat, action)
        return action

    def apply_any(self, action: int) -> None:
        """Apply a player's or the referee's action (used by replay)."""
        if action in self.referee_actions():
            self.apply_referee(action)
        else:
            self.apply(action)

    def _describe(self, action: int) -> str:
        """An action for an error message, even when it has no notation."""
        try:
            return repr(self.action_text(action))
        except NotationError:
            return repr(action)

    def legal_texts(self) -> list[str]:
        return [self.action_text(a) for a in self.legal_actions()]

    def legal_texts_for(self, seat: int) -> list[str]:
        return [self.action_text(a) for a in self.legal_actions_for(seat)]


class DealState(GameState):
    """One deal of a game: the spec, the ``Deal``, the options, the dealer, each
    hand as a card mask, the history with who took each action, the phase and
    the seat to move; a game's deal state starts from here.

    ``phase`` and ``turn`` are plain ints (enum members cost time on the hot
    path); the deal is over when ``phase`` is the game's ``DONE``."""

    DONE: ClassVar[int]
    """The game's phase number of a finished deal."""
    phase: int
    turn: int

    def __init__(self, spec: GameSpec, deal: Deal, options: Mapping[str, Any]):
        self.spec = spec
        self.deal = deal
        self.options = dict(options)
        self.dealer = deal.dealer
        self.hands = [mask_of(hand) for hand in deal.hands]
        self._history = []
        self._actors: list[int] = []
        """``_actors[i]``: the seat that took ``history[i]``."""

    @property
    def to_move(self) -> int:
        return TERMINAL if self.phase == self.DONE else self.turn

    def is_terminal(self) -> bool:
        return self.phase == self.DONE

    @property
    def actors(self) -> list[int]:
        """The seat that took each action of ``history``, in order."""
        return self._actors

    def restarted(self) -> "DealState":
        """The same deal before its first action (what ``history`` was applied to),
        with whatever the deal was created with besides its cards and options."""
        fresh = self.spec.new_deal(self.deal, self.options)
        assert isinstance(fresh, DealState)
        return fresh

    def last_step(self) -> Step:
        if not self._history:
            raise GameError("no action has been taken yet")
        over = self.is_terminal()
        seats = range(len(self.hands))
        return Step(self._actors[-1], tuple(self._seen_last(seat) for seat in seats), self._completed_by_last(),
                    deal_over=over, match_over=over)

    @abstractmethod
    def _seen_last(self, seat: int) -> str:
        """The last action's text as ``seat`` reads it (its view's last action)."""

    @abstractmethod
    def _completed_by_last(self) -> FinishedTrick | None:
        """The trick the last action completed, as the views show it, or None."""

    def _record_by(self, action: int, seat: int) -> None:
        """Append an action taken by ``seat`` to the history."""
        self._history.append(action)
        self._actors.append(seat)
