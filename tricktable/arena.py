"""Duplicate matches between two bots: ``tricktable arena``.

Luck of the cards is taken out by replaying every deal so that both bots hold
the same cards in the same seats:

* partners opposite (Euchre, Court Piece; ``Seating`` in the registry): the deal is played twice, A's team in
  seats 0/2 against B's team in 1/3, then with the teams swapped.  A deal's score
  difference is the mean over the two tables of (A's team points − B's team points).
* teams per deal (Doppelkopf): A sits in each seat in turn against three
  copies of B, and each of those four results is compared with the same seat's
  result when B plays all four seats.  A deal's difference is the mean over the
  four seats of (A's points − B's points in that seat).

Decision times count only real decisions (two or more legal actions), in CPU
milliseconds of ``Bot.choose`` (``time.process_time``: on a shared machine the wall
clock counts the others' work); bots are handed observations only.

B may be a frozen baseline: ``b_commit`` runs B's bot (``search`` by default) of that
commit (its tree unpacked by ``tricktable.speed``) in a worker process of its own.  The worker
is told the deal (seed and index) and the actions so far, rebuilds the deal with
that commit's rules and hands its bot the seat's observation; B's times are then
the worker's CPU milliseconds per decision.
"""

from __future__ import annotations

import math
import statistics
import time
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from typing import Any, Callable, Sequence

from tricktable.bots import Bot, make_bot
from tricktable.core.protocol import GameSpec, GameState
from tricktable.core.rng import derive_seed
from tricktable.games import Seating, entry


@dataclass
class DealResult:
    diff: float
    a_ms: list[float] = field(default_factory=list)
    b_ms: list[float] = field(default_factory=list)


def deal_state(spec: GameSpec, seed: str, index: int, options: dict[str, Any]) -> GameState:
    """Deal ``index`` of an arena run (the dealer rotates with the index)."""
    deal = spec.deal_from_seed(derive_seed(seed, "deal", index), index % 4, options)
    return spec.new_deal(deal, options)


class BaselineBot(Bot):
    """The search bot of another commit, playing through a worker process (see the
    module docstring); it decides from the deal's actions so far, not from an
    observation of this process."""

    name = "baseline"

    def __init__(self, worker: Any, job: dict[str, Any]):
        super().__init__(job["bot_seed"], job["budget_ms"])
        self.worker, self.job = worker, job

    def choose_after(self, actions: Sequence[tuple[int | str, str]]) -> tuple[str, float]:
        """The action and the worker's CPU milliseconds for it."""
        answer = self.worker.run(dict(self.job, prefix=list(actions)))
        return str(answer["action"]), float(answer["cpu_ms"])


def play_table(state: GameState, bots: Sequence[Bot], times: Sequence[list[float]]) -> GameState:
    """Play a deal to its end; ``times[seat]`` collects that seat's decision times."""
    actions: list[tuple[int | str, str]] = []  # what a baseline worker replays: (seat, text) or ("referee", action)
    while not state.is_terminal():
        seat = state.to_move
        legal = state.legal_actions()
        if not legal:  # only the referee can act (a timeout rule)
            action = state.referee_actions()[0]
            state.apply_referee(action)
            actions.append(("referee", str(action)))
            continue
        bot = bots[seat]
        if isinstance(bot, BaselineBot):
            text, elapsed = bot.choose_after(actions)
        else:
            start = time.process_time()
            text = bot.choose(state.observe(seat))
            elapsed = (time.process_time() - start) * 1000
        if len(legal) > 1:
            times[seat].append(elapsed)
        state.act(seat, text)
        actions.append((seat, text))
    return state


NO_HARD_STOP_MS = 1e9


def bot_settings(name: str, budget_ms: float | None, hard_stop: bool = True) -> dict[str, Any]:
    """``make_bot``'s settings for bot ``name``: the budget (None: the bot's own) and,
    without ``hard_stop``, no clock for a search bot (the others have none)."""
    settings: dict[str, Any] = {} if budget_ms is None else {"budget_ms": budget_ms}
    if not hard_stop and name.startswith("search"):
        settings["hard_ms"] = NO_HARD_STOP_MS
    return settings


def _bots(name: str, seed: str, budget_ms: float | None, hard_stop: bool = True) -> list[Bot]:
    settings = bot_settings(name, budget_ms, hard_stop)
    return [make_bot(name, seed=f"{seed}/{name}/{seat}", **settings) for seat in range(4)]


@dataclass(frozen=True)
class Baseline:
    """B as the ``bot`` of ``commit`` at ``budget_ms`` (None: the shared budget)."""

    commit: str
    budget_ms: float | None = None
    bot: str = "search"


def table_options(game: str, preset: str | None = None, rules_version: str | None = None) -> dict[str, Any]:
    """The options both bots play under: the registry's ``bot_options``, under the game's
    ``preset`` if any, and with the legacy options that reproduce an older ``rules_version``
    (``GameSpec.legacy_rules``: what a baseline commit of that version played)."""
    game_entry = entry(game)
    spec = game_entry.spec
    chosen: dict[str, Any] = {"preset": preset, **game_entry.bot_options} if preset else dict(game_entry.bot_options)
    if rules_version is not None and rules_version != spec.rules_version:
        if rules_version not in spec.legacy_rules:
            known = ", ".join([spec.rules_version, *spec.legacy_rules])
            raise ValueError(f"{game} has no rules version {rules_version!r} (known: {known})")
        chosen.update(spec.legacy_rules[rules_version])
    return spec.normalize_options(chosen)


def duplicate_deal(game: str, a: str, b: str, seed: str, index: int, budget_ms: float | None = None,
                   hard_stop: bool = True, b_worker: tuple[Any, float, str] | None = None,
                   options: dict[str, Any] | None = None) -> DealResult:
    """One duplicate deal; ``b_worker`` is (worker, budget, bot) when B is a baseline commit's bot;
    ``options``: what ``table_options`` gives (default: the game's own)."""
    game_entry = entry(game)
    spec = game_entry.spec
    options = table_options(game) if options is None else options
    bots_a = _bots(a, seed, budget_ms, hard_stop)
    bots_b = _bots(b, seed, budget_ms, hard_stop) if b_worker is None else _baseline_bots(
        *b_worker, game, seed, index)
    result = DealResult(0.0)
    if game_entry.seating is Seating.PARTNERS_OPPOSITE:
        diffs = []
        for a_team in (0, 1):
            seats = [bots_a[s] if s % 2 == a_team else bots_b[s] for s in range(4)]
            times: list[list[float]] = [[] for _ in range(4)]
            points = play_table(deal_state(spec, seed, index, options), seats, times).returns()
            diffs.append(points[a_team] - points[1 - a_team])
            _collect(result, times, lambda s: s % 2 == a_team)
        result.diff = sum(diffs) / 2
        return result
    times_b: list[list[float]] = [[] for _ in range(4)]
    baseline = play_table(deal_state(spec, seed, index, options), bots_b, times_b).returns()
    _collect(result, times_b, lambda s: False)
    diffs = []
    for a_seat in range(4):
        seats = [bots_a[s] if s == a_seat else bots_b[s] for s in range(4)]
        times = [[] for _ in range(4)]
        points = play_table(deal_state(spec, seed, index, options), seats, times).returns()
        diffs.append(points[a_seat] - baseline[a_seat])
        _collect(result, times, lambda s: s == a_seat)
    result.diff = sum(diffs) / 4
    return result


def _baseline_bots(worker: Any, budget: float, bot: str, game: str, seed: str, index: int) -> list[Bot]:
    return [BaselineBot(worker, {"game": game, "seed": seed, "index": index, "budget_ms": budget, "bot": bot,
                                 "bot_seed": f"{seed}/{bot}/{seat}"}) for seat in range(4)]


def _collect(result: DealResult, times: Sequence[list[float]], is_a: Callable[[int], bool]) -> None:
    for seat, seat_times in enumerate(times):
        (result.a_ms if is_a(seat) else result.b_ms).extend(seat_times)


def _run_chunk(args: tuple[str, str, str, str, int, int, float | None, bool, Baseline | None, dict[str, Any]]
               ) -> list[DealResult]:
    game, a, b, seed, start, stop, budget_ms, hard_stop, baseline, options = args
    if baseline is None:
        return [duplicate_deal(game, a, b, seed, i, budget_ms, hard_stop, options=options) for i in range(start, stop)]
    from tricktable.speed import Worker, baseline_tree

    worker = Worker(baseline_tree(baseline.commit))
    budget = next(ms for ms in (baseline.budget_ms, budget_ms, 250.0) if ms is not None)
    try:
        return [duplicate_deal(game, a, b, seed, i, budget_ms, hard_stop, (worker, budget, baseline.bot), options)
                for i in range(start, stop)]
    finally:
        worker.close()


def percentiles(times: Sequence[float]) -> dict[str, float]:
    if not times:
        return {"p50": 0.0, "p95": 0.0, "max": 0.0}
    ordered = sorted(times)
    p95 = ordered[min(len(ordered) - 1, math.ceil(0.95 * len(ordered)) - 1)]
    return {"p50": round(statistics.median(ordered), 2), "p95": round(p95, 2), "max": round(ordered[-1], 2)}


def arena(game: str, a: str, b: str, deals: int, seed: str, jobs: int = 1,
          budget_ms: float | None = None, progress: Callable[[dict[str, Any]], None] | None = None,
          hard_stop: bool = True, baseline: Baseline | None = None, preset: str | None = None,
          rules_version: str | None = None) -> dict[str, Any]:
    """Play ``deals`` duplicate deals; see the module docstring for the scoring.
    ``progress`` gets the summary so far after every chunk of deals.  Without
    ``hard_stop`` a search always uses all its worlds, so the result does not
    depend on how loaded the machine is (the decision times still do).
    With ``baseline``, B is that commit's bot (``baseline.bot``) instead of this checkout's.  ``preset``: both
    play under the game's option preset (not with a baseline, whose rules may predate it).  ``rules_version``:
    both play an older rules version of the game, e.g. the one a baseline commit knew (``table_options``)."""
    if preset is not None and baseline is not None:
        raise ValueError("a baseline commit plays the default options: no preset with --b-commit")
    options = table_options(game, preset, rules_version)  # (fails early on an unknown game, preset or version)
    if baseline is not None:
        from tricktable.speed import baseline_tree

        baseline_tree(baseline.commit)  # unpack it once, before the jobs start
    label_b = b if baseline is None else f"{baseline.bot}@{baseline.commit}"
    chunk = max(1, min(10, deals // max(1, jobs * 4)))
    tasks = [(game, a, b, seed, start, min(deals, start + chunk), budget_ms, hard_stop, baseline, options)
             for start in range(0, deals, chunk)]
    results: list[DealResult] = []
    if jobs > 1:
        with ProcessPoolExecutor(max_workers=jobs) as pool:
            for done in pool.map(_run_chunk, tasks):
                results += done
                if progress:
                    progress(summary(game, a, label_b, results))
    else:
        for task in tasks:
            results += _run_chunk(task)
            if progress:
                progress(summary(game, a, label_b, results))
    return summary(game, a, label_b, results)


def summary(game: str, a: str, b: str, results: Sequence[DealResult]) -> dict[str, Any]:
    diffs = [r.diff for r in results]
    mean = statistics.fmean(diffs) if diffs else 0.0
    stderr = statistics.stdev(diffs) / math.sqrt(len(diffs)) if len(diffs) > 1 else 0.0
    return {
        "game": game,
        "a": a,
        "b": b,
        "deals": len(results),
        "mean_diff": round(mean, 4),
        "stderr": round(stderr, 4),
        "a_ms": percentiles([t for r in results for t in r.a_ms]),
        "b_ms": percentiles([t for r in results for t in r.b_ms]),
    }
