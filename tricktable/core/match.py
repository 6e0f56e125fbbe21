"""A match: a sequence of deals with running totals, itself a ``GameState``.

Each game subclasses ``MatchState`` and fills in the hooks (who deals first,
what a finished deal is worth, who deals next, when the match ends).  Deal ``k``
of a match (redeals included) is dealt from ``derive_seed(match_seed, "deal", k)``,
so a match record only needs its seed and its actions.  The match advances to the
next deal by itself as soon as a deal ends; the finished deal's summary (with its
score breakdown) stays in ``results`` for the score sheet.
"""

from __future__ import annotations

from abc import abstractmethod
from types import MappingProxyType
from typing import Any, Mapping, Sequence

from tricktable.errors import GameOver
from tricktable.core.observation import DealSummary, MatchInfo, Observation
from tricktable.core.protocol import TERMINAL, GameSpec, GameState, ScoreLine
from tricktable.core.rng import derive_seed
from tricktable.core.step import Step


class MatchState(GameState):
    def __init__(self, spec: GameSpec, seed: str, options: Mapping[str, Any], daily: bool = False):
        self.spec = spec
        self.seed = seed
        self.options = dict(options)
        self.daily = daily
        self.totals = [0, 0, 0, 0]
        self.deal_index = 0
        self.results: list[dict[str, Any]] = []
        self.previous_deal: GameState | None = None
        self._history: list[int] = []
        self._out_of_turn: dict[int, int] = {}  # history index -> seat (see ``out_of_turn_history``)
        # seat -> (deal index, over, previous deal, its MatchInfo): see ``match_info``
        self._match_infos: dict[int, tuple[int, bool, GameState | None, MatchInfo]] = {}
        self.over = False
        self.ended_deal = False
        """Whether the last action ended a deal (``last_step``)."""
        self.dealer = self.first_dealer()
        self.current = self.start_deal()

    # -- hooks -----------------------------------------------------------
    @abstractmethod
    def first_dealer(self) -> int:
        """The first dealer, drawn from the match seed."""

    @abstractmethod
    def deal_points(self, deal: GameState) -> list[int]:
        """Per-seat points a finished deal adds to the totals."""

    @abstractmethod
    def next_dealer(self, deal: GameState) -> int:
        """Who deals after ``deal``."""

    @abstractmethod
    def is_over(self) -> bool:
        """Whether the match has ended (called after every deal)."""

    def counts_as_deal(self, deal: GameState) -> bool:
        """False for a thrown-in deal that is dealt again under the same number."""
        return True

    def match_view(self, seat: int) -> dict[str, Any]:
        """Extra match-level facts for the view (game-specific additions)."""
        return {}

    # -- protocol ----------------------------------------------------------
    def deal_seed(self, index: int) -> str:
        return derive_seed(self.seed, "deal", index)

    def start_deal(self) -> GameState:
        deal = self.spec.deal_from_seed(self.deal_seed(self.deal_index), self.dealer, self.options)
        return self.spec.new_deal(deal, self.options)

    @property
    def deals_played(self) -> int:
        return sum(1 for r in self.results if r["counts"])

    @property
    def to_move(self) -> int:
        return TERMINAL if self.over else self.current.to_move

    def legal_actions(self) -> Sequence[int]:
        return () if self.over else self.current.legal_actions()

    def referee_actions(self) -> Sequence[int]:
        return () if self.over else self.current.referee_actions()

    def apply(self, action: int) -> None:
        if self.over:
            raise GameOver("the match is over")
        self.current.apply(action)
        self._after(action)

    def legal_actions_for(self, seat: int) -> Sequence[int]:
        return () if self.over else self.current.legal_actions_for(seat)

    def apply_for(self, seat: int, action: int) -> None:
        if self.over:
            raise GameOver("the match is over")
        out_of_turn = seat != self.current.to_move
        self.current.apply_for(seat, action)
        if out_of_turn:
            self._out_of_turn[len(self._history)] = seat
        self._after(action)

    def out_of_turn_history(self) -> Mapping[int, int]:
        return self._out_of_turn

    def apply_referee(self, action: int) -> None:
        if self.over:
            raise GameOver("the match is over")
        self.current.apply_referee(action)
        self._after(action)

    def _after(self, action: int) -> None:
        self._history.append(action)
        self.ended_deal = self.current.is_terminal()
        if self.ended_deal:
            self._finish_deal()

    def last_step(self) -> Step:
        """The last action's step in its deal (the finished one, where it ended
        that deal), with whether it ended the deal and the match."""
        deal = self.previous_deal if self.ended_deal else self.current
        assert deal is not None  # a deal ended: it is the previous one
        step = deal.last_step()
        return Step(step.seat, step.texts, step.completed, self.ended_deal, self.over)

    def _finish_deal(self) -> None:
        deal = self.current
        points = self.deal_points(deal)
        counts = self.counts_as_deal(deal)
        self.totals = [t + p for t, p in zip(self.totals, points)]
        self.results.append(
            {
                "number": self.deals_played + (1 if counts else 0),
                "dealer": self.dealer,
                "counts": counts,
                "points": points,
                "lines": [line.to_json() for line in deal.breakdown()],
            }
        )
        self.previous_deal = deal
        self.dealer = self.next_dealer(deal)
        self.deal_index += 1
        if self.is_over():
            self.over = True
        else:
            self.current = self.start_deal()

    def action_text(self, action: int) -> str:
        return self.current.action_text(action)

    def parse_action(self, text: str) -> int:
        return self.current.parse_action(text)

    def returns(self) -> list[int]:
        return list(self.totals)

    def breakdown(self) -> list[ScoreLine]:
        return [
            ScoreLine("deal", f"deal {r['number']}", p, seat=seat)
            for r in self.results
            for seat, p in enumerate(r["points"])
        ]

    def observe(self, seat: int) -> Observation:
        """The current deal's observation with the match around it."""
        return self.current.observe(seat).in_match(self.match_info(seat))

    def match_info(self, seat: int) -> MatchInfo:
        """The match around the current deal as ``seat`` sees it.  Everything
        in it changes only when a deal ends (which makes a new ``previous_deal``),
        so it is built once per seat and deal and kept, also by clones (it is
        immutable; a clone that goes another way finishes its deal into another
        ``previous_deal`` object, so it never takes this one's)."""
        kept = self._match_infos.get(seat)
        if kept is not None and kept[0] == self.deal_index and kept[1] == self.over and kept[2] is self.previous_deal:
            return kept[3]
        info = self._build_match_info(seat)
        self._match_infos[seat] = (self.deal_index, self.over, self.previous_deal, info)
        return info

    def _build_match_info(self, seat: int) -> MatchInfo:
        results = tuple(
            DealSummary(r["number"], r["dealer"], r["counts"], tuple(r["points"]),
                        tuple(MappingProxyType(dict(line)) for line in r["lines"]))
            for r in self.results
        )
        return MatchInfo(
            deal_number=self.deals_played + (0 if self.over else 1),
            dealer=self.dealer,
            totals=tuple(self.totals),
            results=results,
            over=self.over,
            daily=self.daily,
            previous_deal=self.previous_deal.observe(seat) if self.previous_deal else None,
            extra=MappingProxyType(self.match_view(seat)),
        )

    def clone(self) -> "MatchState":
        twin = object.__new__(type(self))
        twin.__dict__.update(self.__dict__)
        twin.totals = list(self.totals)
        twin.results = list(self.results)
        twin._history = list(self._history)
        twin._out_of_turn = dict(self._out_of_turn)
        twin.current = self.current.clone()
        return twin
