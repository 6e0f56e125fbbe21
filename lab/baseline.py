"""A frozen baseline: another commit's product, unpacked and run beside this checkout's.

``baseline_tree`` unpacks a commit's ``tricktable`` (and ``lab``, where the commit has
one) with ``git archive`` once under ``build/baseline/<commit>`` and builds its compiled
kernels as ``make install`` builds this checkout's; a ``Worker`` runs this checkout's
``speed_worker.py`` on such a tree (or on this checkout) in a process of its own.  The
arena's baseline bot and the search bench both use it.
"""

from __future__ import annotations

import io
import json
import os
import shutil
import subprocess
import sys
import tarfile
import tempfile
from pathlib import Path
from typing import IO, Any

from tricktable import speedups
from tricktable.errors import GameError

ROOT = Path(__file__).resolve().parent.parent
"""The repository this lab belongs to."""
WORKER = Path(__file__).resolve().parent / "speed_worker.py"
PACKAGES = ("tricktable", "lab")
"""What a baseline tree holds of its commit (the lab only where the commit has one)."""


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
        archive = subprocess.run(["git", "-C", str(repo), "archive", full, *_packages(full, repo)],
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


def _packages(commit: str, repo: Path) -> list[str]:
    """Those of ``PACKAGES`` that ``commit`` has."""
    listed = subprocess.run(["git", "-C", str(repo), "ls-tree", "--name-only", commit],
                            check=True, capture_output=True, text=True).stdout.split()
    return [name for name in PACKAGES if name in listed]


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
