"""Search speed side by side with a frozen baseline: ``tricktable bench GAME --search``.

The decisions are fixed first: deals of the bench seed played by the rules bot,
and every few real decisions (two or more legal actions) one is kept, written as
seed, deal index and public action prefix.  Two worker processes
(``speed_worker.py``) then time the search bot on exactly those decisions,
alternating decision by decision so that the machine's load hits both alike: one
runs this checkout, the other the same worker on a baseline commit's tree
(``git archive`` of it, unpacked once under ``build/baseline/<commit>``, its
compiled kernels built as ``make install`` builds this checkout's).  Both
search without the hard stop, so each uses its full budget whatever the load.

A rollout is one sampled world finished for one candidate action, by policy or
solver; ``rollouts_per_cpu_s`` is all of them over all the CPU seconds spent.
"""

from __future__ import annotations

import io
import json
import math
import os
import shutil
import statistics
import subprocess
import sys
import tarfile
import tempfile
from pathlib import Path
from typing import IO, Any, Sequence

from tricktable import speedups
from tricktable.arena import deal_state
from tricktable.bots import make_bot
from tricktable.core.errors import GameError
from tricktable.games import entry

BASELINE_COMMIT = "20c78f4"
"""Main before session 2's search work: the frozen baseline of issue 14."""
ROOT = Path(__file__).resolve().parent.parent
WORKER = Path(__file__).resolve().parent / "speed_worker.py"
STRIDE = 5
"""Keep one real decision in this many, so that the decisions spread over a deal."""


def decisions(game: str, count: int, seed: str = "bench") -> list[dict[str, Any]]:
    """``count`` decisions from rules-bot deals of ``seed``, in stable notation."""
    game_entry = entry(game)
    spec = game_entry.spec
    options = spec.normalize_options(game_entry.bot_options)
    bots = [make_bot("heuristic", seed=f"{seed}/{seat}") for seat in range(4)]
    found: list[dict[str, Any]] = []
    index = seen = 0
    while len(found) < count:
        state = deal_state(spec, seed, index, options)
        prefix: list[tuple[int, str]] = []
        while not state.is_terminal() and len(found) < count:
            if not state.legal_actions():
                raise GameError("the speed bench plays games without referee actions")
            seat = state.to_move
            obs = state.observe(seat)
            if len(obs.legal) > 1:
                if seen % STRIDE == 0:
                    found.append({"game": game, "seed": seed, "index": index, "prefix": list(prefix)})
                seen += 1
            text = bots[seat].choose(obs)
            state.act(seat, text)
            prefix.append((seat, text))
        index += 1
    return found


def full_commit(commit: str, repo: Path = ROOT) -> str:
    """The full hash of ``commit`` (any name git knows)."""
    try:
        return subprocess.run(["git", "-C", str(repo), "rev-parse", "--verify", f"{commit}^{{commit}}"],
                              check=True, capture_output=True, text=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError) as error:
        raise GameError(f"baseline commit {commit!r} is not in the repository at {repo}") from error


def baseline_tree(commit: str, repo: Path = ROOT) -> Path:
    """The source tree of ``commit`` (any name git knows), unpacked once into the build directory."""
    full = full_commit(commit, repo)
    target = repo / "build" / "baseline" / full
    if not (target / "tricktable" / "bots" / "search.py").exists():
        archive = subprocess.run(["git", "-C", str(repo), "archive", full, "tricktable"],
                                 check=True, capture_output=True).stdout
        target.parent.mkdir(parents=True, exist_ok=True)
        unpacked = Path(tempfile.mkdtemp(dir=target.parent))  # then renamed whole: no half tree is ever seen
        with tarfile.open(fileobj=io.BytesIO(archive)) as tar:
            if hasattr(tarfile, "data_filter"):  # Python ≥ 3.11.4: refuse paths outside the target
                tar.extractall(unpacked, filter="data")
            else:
                tar.extractall(unpacked)
        try:
            unpacked.rename(target)
        except OSError:  # another process unpacked it meanwhile
            shutil.rmtree(unpacked)
    compile_kernels(target)
    return target


def compile_kernels(tree: Path) -> dict[str, str]:
    """Give the baseline ``tree`` its compiled kernels, as ``make install`` gives this
    checkout its own: otherwise a baseline from after the kernels would be timed in pure
    Python, about four times slower than it ran.  A kernel whose source equals one this
    checkout has compiled gets a copy of that build (same source, same mypyc, same Python);
    the others are compiled by the tree's own ``speedups build``.  Returns how each kernel
    loads (``kernel_status``); nothing for a tree from before the kernels, and nothing is
    built while ``TRICKTABLE_PURE`` asks for pure Python on both sides."""
    status = kernel_status(tree)
    if os.environ.get(speedups.PURE_ENV):
        return status
    stale = [name for name, how in status.items() if not how.startswith("compiled")]
    if not stale:
        return status
    if _same_file(tree / "tricktable" / "speedups.py", Path(speedups.__file__)):
        stale = [name for name in stale if not _copy_build(name, tree)]
    if stale:
        _build(tree, stale)
    return kernel_status(tree)


def _build(tree: Path, names: list[str]) -> None:
    """The tree's own ``speedups build`` of kernels ``names`` (a failed compile leaves the
    pure module, as at install)."""
    subprocess.run([sys.executable, "-m", "tricktable.speedups", "build", *names], cwd=tree, env=_env(tree),
                   capture_output=True, check=False)


def _copy_build(name: str, tree: Path) -> bool:
    """Copy this checkout's fresh build of kernel ``name`` into ``tree`` if the tree's source
    of it is the same; whether it did."""
    fresh, _ = speedups.compiled_is_fresh(name)
    source = tree.joinpath("tricktable", *name.split(".")[1:]).with_suffix(".py")
    if not fresh or not _same_file(source, speedups.source_of(name)):
        return False
    native = tree / "tricktable" / speedups.NATIVE_DIR.name
    native.mkdir(exist_ok=True)
    for artefact in speedups.artefacts(name):  # the extension first: a stamp never vouches for a missing build
        copied = native / (artefact.name + ".new")
        shutil.copyfile(artefact, copied)
        os.replace(copied, native / artefact.name)
    return True


def _same_file(first: Path, second: Path) -> bool:
    return first.exists() and second.exists() and first.read_bytes() == second.read_bytes()


class Worker:
    """A ``speed_worker.py`` process on the tree at ``root``."""

    def __init__(self, root: Path):
        code = f"import runpy; runpy.run_path({str(WORKER)!r}, run_name='__main__')"
        self.process = subprocess.Popen([sys.executable, "-c", code], cwd=root, env=_env(root),
                                        stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)

    def run(self, job: dict[str, Any]) -> dict[str, Any]:
        stdin, stdout = self._pipes()
        stdin.write(json.dumps(job) + "\n")
        stdin.flush()
        line = stdout.readline()
        if not line:
            raise GameError(f"the speed worker stopped (exit {self.process.wait()})")
        answer: dict[str, Any] = json.loads(line)
        return answer

    def close(self) -> None:
        stdin, _ = self._pipes()
        stdin.close()
        self.process.wait()

    def _pipes(self) -> tuple[IO[str], IO[str]]:
        assert self.process.stdin is not None and self.process.stdout is not None
        return self.process.stdin, self.process.stdout


_KERNEL_STATUS = """
import json
from tricktable import speedups
for name in speedups.kernels():
    speedups.load(name)
print(json.dumps(speedups.status()))
"""


def kernel_status(root: Path) -> dict[str, str]:
    """How each compiled kernel of the tree at ``root`` loads (``speedups.status()``: compiled,
    or pure Python and why), asked in a process of its own as a worker on that tree loads it;
    none for a commit from before the compiled kernels (whose bots are pure Python)."""
    if not (root / "tricktable" / "speedups.py").exists():  # (the editable install would lend it this checkout's)
        return {}
    done = subprocess.run([sys.executable, "-c", _KERNEL_STATUS], cwd=root, env=_env(root), check=True,
                          capture_output=True, text=True)
    status: dict[str, str] = json.loads(done.stdout)
    return status


def _env(root: Path) -> dict[str, str]:
    env = dict(os.environ)
    env["PYTHONPATH"] = str(root)  # ahead of the editable install of this checkout
    return env


def summary(results: Sequence[dict[str, Any]]) -> dict[str, Any]:
    """``rollouts_per_cpu_s`` and the per-decision CPU percentiles of one side, and the
    wall-clock ones (on a loaded machine the wall clock counts the others' work too)."""
    cpu = [r["cpu_ms"] for r in results]
    rollouts = sum(r["rollouts"] for r in results)
    return {"rollouts_per_cpu_s": round(rollouts / (sum(cpu) / 1000), 1),
            "cpu_ms_per_decision": _percentiles(cpu),
            "wall_ms_per_decision": _percentiles([r.get("wall_ms", 0.0) for r in results]),
            "rollouts": rollouts}


def _percentiles(times: Sequence[float]) -> dict[str, float]:
    ordered = sorted(times)
    p95 = ordered[min(len(ordered) - 1, math.ceil(0.95 * len(ordered)) - 1)]
    return {"p50": round(statistics.median(ordered), 2), "p95": round(p95, 2)}


def bench_search(game: str, count: int = 30, budget_ms: float = 250.0, baseline_commit: str = BASELINE_COMMIT,
                 seed: str = "bench") -> dict[str, Any]:
    """This checkout's search and the baseline's on the same ``count`` decisions."""
    jobs = [dict(job, budget_ms=budget_ms) for job in decisions(game, count, seed)]
    new, old = Worker(ROOT), Worker(baseline_tree(baseline_commit))
    new_results, old_results = [], []
    try:
        for job in jobs:  # alternate, so that a change of load hits both sides
            new_results.append(new.run(job))
            old_results.append(old.run(job))
    finally:
        new.close()
        old.close()
    same = sum(a["action"] == b["action"] for a, b in zip(new_results, old_results))
    return {"game": game, **summary(new_results), "decisions": len(jobs), "budget_ms": budget_ms,
            "same_choice": same, "kernels": new_results[-1].get("kernels", {}) if new_results else {},
            "baseline": {"commit": baseline_commit, **summary(old_results),
                         "kernels": old_results[-1].get("kernels", {}) if old_results else {}}}
