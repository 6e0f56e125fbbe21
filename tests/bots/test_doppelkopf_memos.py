"""The Doppelkopf playout's memos (``_SEAT_POINTS``, ``_KNOWN_PARTNERS``) never
hold more than their bound, and a bound never changes a decision (a
thinking process's memory must stay flat through a soak)."""

from __future__ import annotations

from collections import OrderedDict
from typing import Any

import pytest

from lab.arena import bot_settings, deal_state
from tricktable.bots import doppelkopf, make_bot
from tricktable.catalog import entry

MEMOS = {"_SEAT_POINTS": "SEAT_POINTS_LIMIT", "_KNOWN_PARTNERS": "KNOWN_PARTNERS_LIMIT"}


class Watched(OrderedDict[Any, Any]):
    """A memo that notes the most entries it ever held."""

    most = 0

    def __setitem__(self, key: Any, value: Any) -> None:
        super().__setitem__(key, value)
        self.most = max(self.most, len(self))


def decisions(deals: int = 2) -> list[str]:
    """The normal level's search (every world, no clock) on every seat of ``deals`` deals."""
    game = entry("doppelkopf")
    options = game.spec.normalize_options(game.bot_options)
    settings = bot_settings("search-noinfer", 10.0, hard_stop=False)
    bots = [make_bot("search-noinfer", seed=f"memos/{seat}", **settings) for seat in range(4)]
    chosen = []
    for index in range(deals):
        state = deal_state(game.spec, "memos", index, options)
        while not state.is_terminal():
            seat = state.to_move
            text = bots[seat].choose(state.observe(seat))
            chosen.append(text)
            state.act(seat, text)
    return chosen


def with_memos(monkeypatch: pytest.MonkeyPatch, limits: dict[str, int]) -> dict[str, Watched]:
    memos = {name: Watched() for name in MEMOS}
    for name, memo in memos.items():
        monkeypatch.setattr(doppelkopf, name, memo)
        monkeypatch.setattr(doppelkopf, MEMOS[name], limits[name])
    return memos


def test_the_memos_keep_their_bounds_and_change_no_decision(monkeypatch):
    unbounded = with_memos(monkeypatch, {name: 10**9 for name in MEMOS})
    free = decisions()
    assert unbounded["_SEAT_POINTS"].most > 64 and unbounded["_KNOWN_PARTNERS"].most > 4  # the bounds below bite
    bounded = with_memos(monkeypatch, {"_SEAT_POINTS": 64, "_KNOWN_PARTNERS": 4})
    assert decisions() == free
    assert bounded["_SEAT_POINTS"].most == 64 and bounded["_KNOWN_PARTNERS"].most == 4


def test_a_memo_lets_the_least_recently_used_entry_go():
    memo: OrderedDict[tuple[object, ...], int] = OrderedDict()
    for number in range(3):
        doppelkopf._remember(memo, (number,), number, 3)
    assert doppelkopf._recall(memo, (0,)) == 0  # used again: (1,) is now the oldest
    doppelkopf._remember(memo, (3,), 3, 3)
    assert list(memo) == [(2,), (0,), (3,)]
    assert doppelkopf._recall(memo, (1,)) is None
