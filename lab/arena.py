"""Duplicate matches between two bots: ``tricktable-lab arena``.

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
commit (its tree unpacked by ``lab.baseline``) in a worker process of its own.  The worker
is told the deal (seed and index) and the actions so far, rebuilds the deal with
that commit's rules and hands its bot the seat's observation; B's times are then
the worker's CPU milliseconds per decision.

With a results file (``--results``) a run survives being stopped: the file starts with
a header naming the experiment and the bots' code (``results_header``), and every
finished deal is appended at once as a line of its own.  The same command resumes:
it plays only the deals the file lacks, and its summary covers all the deals in it;
a file of another experiment, or of other bots, is refused rather than mixed.
"""

from __future__ import annotations

import fcntl
import hashlib
import json
import math
import os
import platform
import statistics
import subprocess
import threading
import time
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path
from typing import IO, Any, Callable, Iterator, Sequence

import tricktable
from lab.baseline import ROOT, Worker, baseline_tree, full_commit, kernel_status
from tricktable.bots import Bot, make_bot
from tricktable.errors import GameError
from tricktable.core.protocol import GameSpec, GameState
from tricktable.core.rng import derive_seed
from tricktable.catalog import Seating, entry


@dataclass
class DealResult:
    """One duplicate deal: ``diff`` is the mean of ``tables``, each table's (or with teams per deal,
    each seat's) A − B; ``a_ms`` and ``b_ms`` are the CPU ms of A's and B's real decisions."""

    diff: float
    tables: list[float] = field(default_factory=list)
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


def bot_settings(name: str, budget_ms: float | None, hard_stop: bool = True) -> dict[str, Any]:
    """``make_bot``'s settings for bot ``name``: the budget (None: the bot's own) and,
    without ``hard_stop``, no clock for a search bot (the others have none)."""
    settings: dict[str, Any] = {} if budget_ms is None else {"budget_ms": budget_ms}
    if not hard_stop and name.startswith("search"):
        settings["clock"] = False
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
        return _scored(result, diffs)
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
    return _scored(result, diffs)


def _scored(result: DealResult, diffs: Sequence[float]) -> DealResult:
    result.tables, result.diff = list(diffs), sum(diffs) / len(diffs)
    return result


def _baseline_bots(worker: Any, budget: float, bot: str, game: str, seed: str, index: int) -> list[Bot]:
    return [BaselineBot(worker, {"game": game, "seed": seed, "index": index, "budget_ms": budget, "bot": bot,
                                 "bot_seed": f"{seed}/{bot}/{seat}"}) for seat in range(4)]


def _collect(result: DealResult, times: Sequence[list[float]], is_a: Callable[[int], bool]) -> None:
    for seat, seat_times in enumerate(times):
        (result.a_ms if is_a(seat) else result.b_ms).extend(seat_times)


@dataclass(frozen=True)
class Experiment:
    """What makes the deals of an arena run, apart from how many: the bots, the seed, the budgets, the rules."""

    game: str
    a: str
    b: str
    seed: str
    budget_ms: float | None = None
    hard_stop: bool = True
    baseline: Baseline | None = None
    preset: str | None = None
    rules_version: str | None = None


class Dealer:
    """Plays the duplicate deals of an experiment in this process; B's baseline worker, if any,
    is started at the first deal and serves them all."""

    def __init__(self, experiment: Experiment):
        self.experiment = experiment
        self.options = table_options(experiment.game, experiment.preset, experiment.rules_version)
        self.worker: Worker | None = None

    def play(self, index: int) -> DealResult:
        e = self.experiment
        return duplicate_deal(e.game, e.a, e.b, e.seed, index, e.budget_ms, e.hard_stop, self._b_worker(),
                              self.options)

    def _b_worker(self) -> tuple[Worker, float, str] | None:
        baseline = self.experiment.baseline
        if baseline is None:
            return None
        if self.worker is None:
            self.worker = Worker(baseline_tree(baseline.commit))
        budget = next(ms for ms in (baseline.budget_ms, self.experiment.budget_ms, 250.0) if ms is not None)
        return self.worker, budget, baseline.bot

    def close(self) -> None:
        if self.worker is not None:
            self.worker.close()
            self.worker = None


_POOL_DEALER: Dealer | None = None
"""The dealer of a pool process (``_play_deals``).  Its baseline worker is not closed: it
ends with the pool process, whose end closes the worker's input (it reads until then)."""
PARENT_CHECK_S = 1.0


def _start_pool_dealer(experiment: Experiment) -> None:
    global _POOL_DEALER
    _POOL_DEALER = Dealer(experiment)
    threading.Thread(target=_exit_with, args=(os.getppid(),), daemon=True).start()


def _exit_with(parent: int) -> None:
    """End this pool process soon after its parent: after a ``kill -9`` of the arena it would
    wait for tasks forever, holding the lock of the results file it inherited."""
    while os.getppid() == parent:
        time.sleep(PARENT_CHECK_S)
    os._exit(1)


def _play_in_pool(index: int) -> tuple[int, DealResult]:
    assert _POOL_DEALER is not None, "started by the pool's initializer"
    return index, _POOL_DEALER.play(index)


def _play_deals(experiment: Experiment, indices: Sequence[int], jobs: int) -> Iterator[tuple[int, DealResult]]:
    """Each deal of ``indices`` and its result as soon as it is finished (in any order when ``jobs`` > 1).
    A task is one deal, so that a results file is written deal by deal: a run stopped by a kill
    loses only the deals in play (a task of several deals would lose the finished ones with them)."""
    if jobs <= 1:
        dealer = Dealer(experiment)
        try:
            for index in indices:
                yield index, dealer.play(index)
        finally:
            dealer.close()
        return
    pool = ProcessPoolExecutor(jobs, initializer=_start_pool_dealer, initargs=(experiment,))
    try:
        for done in as_completed([pool.submit(_play_in_pool, index) for index in indices]):
            yield done.result()
    finally:
        pool.shutdown(cancel_futures=True)  # on an error, the deals not yet begun are not played


def percentiles(times: Sequence[float]) -> dict[str, float]:
    if not times:
        return {"p50": 0.0, "p95": 0.0, "max": 0.0}
    ordered = sorted(times)
    p95 = ordered[min(len(ordered) - 1, math.ceil(0.95 * len(ordered)) - 1)]
    return {"p50": round(statistics.median(ordered), 2), "p95": round(p95, 2), "max": round(ordered[-1], 2)}


def arena(game: str, a: str, b: str, deals: int, seed: str, jobs: int = 1,
          budget_ms: float | None = None, progress: Callable[[dict[str, Any]], None] | None = None,
          hard_stop: bool = True, baseline: Baseline | None = None, preset: str | None = None,
          rules_version: str | None = None, results: Path | None = None) -> dict[str, Any]:
    """Play duplicate deals 0 to ``deals`` − 1; see the module docstring for the scoring.
    ``progress`` gets the summary so far after every deal.  Without
    ``hard_stop`` a search always uses all its worlds, so the result does not
    depend on how loaded the machine is (the decision times still do).
    With ``baseline``, B is that commit's bot (``baseline.bot``) instead of this checkout's.  ``preset``: both
    play under the game's option preset (not with a baseline, whose rules may predate it).  ``rules_version``:
    both play an older rules version of the game, e.g. the one a baseline commit knew (``table_options``).
    ``results``: the file each finished deal is appended to (``Results.attach``); the deals it holds are
    not played again, and the summary covers every deal in it."""
    if preset is not None and baseline is not None:
        raise ValueError("a baseline commit plays the default options: no preset with --b-commit")
    experiment = Experiment(game, a, b, seed, budget_ms, hard_stop, baseline, preset, rules_version)
    table_options(game, preset, rules_version)  # (fails early on an unknown game, preset or version)
    if baseline is not None:
        baseline_tree(baseline.commit)  # unpack it once, before the jobs start
    label_b = b if baseline is None else f"{baseline.bot}@{baseline.commit}"
    played = Results()
    try:
        if results is not None:
            played.attach(results, results_header(experiment))
        for index, result in _play_deals(experiment, [i for i in range(deals) if i not in played.deals], jobs):
            played.add(index, result)
            if progress:
                progress(summary(game, a, label_b, played.in_order()))
    finally:
        played.close()
    return summary(game, a, label_b, played.in_order())


RESULTS_FORMAT = 1
"""The results file's format, and the arena's way of playing and scoring a deal: raise it when
either changes, so that no file mixes deals of both."""
PLAYING_CODE = ("__init__.py", "errors.py", "cards.py", "speedups.py", "core", "games", "bots", "catalog.py")
"""The modules the bots play with (the layers below the server, and the kernels' loader)."""
COMPARED = ("experiment", "bots")
"""The header's sections that a resumed run must match (``checkout`` is for the record)."""
LOCK_WAIT_S = 3 * PARENT_CHECK_S
"""How long a run waits for the lock of its results file: the pool processes of a run just
killed hold it until they see their parent gone (``_exit_with``)."""


def results_header(experiment: Experiment) -> dict[str, Any]:
    """A results file's first line: the experiment (a baseline by its full commit) and the bots.
    Two runs have the same bots when the sources they play with are the same (``sources_hash``;
    the commit is not compared: it moves with every change of the docs, the tests or the server),
    with the same kernels compiled (``baseline.kernel_status``: compiled kernels only change the
    decision times) under the same Python, and the same baseline commit with its kernels."""
    baseline = experiment.baseline
    bots: dict[str, Any] = {"sources": sources_hash(), "kernels": kernel_status(ROOT),
                            "python": platform.python_version()}
    if baseline is not None:
        experiment = replace(experiment, baseline=replace(baseline, commit=full_commit(baseline.commit)))
        bots["baseline_kernels"] = kernel_status(baseline_tree(baseline.commit))
    return {"experiment": {"format": RESULTS_FORMAT, **asdict(experiment)}, "bots": bots, "checkout": checkout(ROOT)}


def sources_hash(package: Path = Path(tricktable.__file__).resolve().parent) -> str:
    """The SHA-256 of the sources of ``PLAYING_CODE`` in ``package``, file by file in order of their paths."""
    paths = [package / part for part in PLAYING_CODE]
    files = sorted(p for path in paths for p in ([path] if path.suffix == ".py" else path.rglob("*.py")))
    digest = hashlib.sha256()
    for path in files:
        digest.update(f"{path.relative_to(package)}\0".encode() + path.read_bytes() + b"\0")
    return digest.hexdigest()


def checkout(root: Path) -> dict[str, Any]:
    """The commit of the checkout at ``root`` and whether its ``tricktable/`` differs from it (None: no git)."""
    git = ["git", "-C", str(root)]
    try:
        commit = subprocess.run([*git, "rev-parse", "HEAD"], check=True, capture_output=True, text=True).stdout
        changed = subprocess.run([*git, "status", "--porcelain", "--", "tricktable"], check=True,
                                 capture_output=True, text=True).stdout
    except (OSError, subprocess.CalledProcessError):
        return {"commit": None, "dirty": None}
    return {"commit": commit.strip(), "dirty": bool(changed.strip())}


class Results:
    """The deals of a run by index; attached to a file, also the deals the file held, and each
    new one is appended to it at once (written, flushed and synced to the disk: a ``kill -9``
    loses only the deals in play)."""

    def __init__(self) -> None:
        self.deals: dict[int, DealResult] = {}
        self.file: IO[bytes] | None = None

    def attach(self, path: Path, header: dict[str, Any]) -> None:
        """Take ``path`` for this run (locked against a second run): write ``header`` into a new or
        empty file, or check an existing file's header against it and take the deals the file holds.
        A last line without its end was cut short by a kill: it is dropped and its deal played again."""
        self.file = path.open("a+b")
        _lock(path, self.file)
        self.file.seek(0)
        content = self.file.read()
        whole = content[:content.rfind(b"\n") + 1]
        lines = [_record(path, number, line) for number, line in enumerate(whole.splitlines(), start=1)]
        if lines:
            _check_header(path, lines[0], header)
        self.file.truncate(len(whole))
        if not lines:
            self._append(header)
        for record in lines[1:]:
            index = record.pop("index")
            self.deals[index] = DealResult(**record)

    def add(self, index: int, result: DealResult) -> None:
        self.deals[index] = result
        if self.file is not None:
            self._append({"index": index, **asdict(result)})

    def in_order(self) -> list[DealResult]:
        return [self.deals[index] for index in sorted(self.deals)]

    def close(self) -> None:
        if self.file is not None:
            self.file.close()  # (and so unlocked)
            self.file = None

    def _append(self, record: dict[str, Any]) -> None:
        assert self.file is not None
        self.file.write(json.dumps(record).encode() + b"\n")
        self.file.flush()
        os.fsync(self.file.fileno())


def _lock(path: Path, file: IO[bytes]) -> None:
    deadline = time.monotonic() + LOCK_WAIT_S
    while True:
        try:
            fcntl.flock(file, fcntl.LOCK_EX | fcntl.LOCK_NB)
            return
        except BlockingIOError:
            if time.monotonic() > deadline:
                raise GameError(f"{path}: another arena run is writing to it") from None
            time.sleep(PARENT_CHECK_S / 10)


def _record(path: Path, number: int, line: bytes) -> dict[str, Any]:
    try:
        record = json.loads(line)
    except ValueError:
        record = None
    if not isinstance(record, dict):
        raise GameError(f"{path}, line {number}: not an arena results line")
    return record


def _check_header(path: Path, found: dict[str, Any], header: dict[str, Any]) -> None:
    """Refuse a file whose experiment or bots are not this run's, naming each difference."""
    wanted = json.loads(json.dumps(header))  # compared as the file holds it (e.g. a tuple as a list)
    differences = []
    for section in COMPARED:
        ours, theirs = wanted[section], found.get(section)
        if not isinstance(theirs, dict):
            raise GameError(f"{path} is not an arena results file (its first line has no {section!r})")
        differences += [f"{section}.{key}: {theirs.get(key)!r} in the file, {ours.get(key)!r} in this run"
                        for key in sorted(set(ours) | set(theirs)) if ours.get(key) != theirs.get(key)]
    if differences:
        raise GameError(f"{path} holds another experiment or other bots; not resumed:\n  " + "\n  ".join(differences))


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
