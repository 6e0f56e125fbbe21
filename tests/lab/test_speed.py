"""The search speed bench: ``tricktable-lab bench GAME --search``."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from lab import cli
from lab.arena import deal_state
from tricktable.errors import GameError
from tricktable.catalog import entry
from lab.baseline import ROOT, baseline_tree
from lab.speed import decisions


def test_decisions_are_fixed_by_the_seed_and_replay_to_a_real_choice():
    first, again = decisions("euchre", 6, "s"), decisions("euchre", 6, "s")
    assert first == again and len(first) == 6
    spec = entry("euchre").spec
    for job in first:
        state = deal_state(spec, job["seed"], job["index"], spec.normalize_options({}))
        for seat, text in job["prefix"]:
            state.act(seat, text)
        assert len(state.observe(state.to_move).legal) > 1


def test_an_unknown_baseline_commit_is_a_clear_error():
    with pytest.raises(GameError, match="not in the repository"):
        baseline_tree("no-such-commit")


def test_bench_search_prints_both_sides_on_the_same_decisions(capsys):
    # HEAD as its own baseline: the same code makes the same choices on the same decisions.
    head = subprocess.run(["git", "-C", str(ROOT), "rev-parse", "HEAD"], check=True, capture_output=True,
                          text=True).stdout.strip()
    assert cli.main(["bench", "euchre", "--search", "--json", "--decisions", "3", "--budget-ms", "5",
                     "--baseline-commit", head]) == 0
    result = json.loads(capsys.readouterr().out)
    assert result["game"] == "euchre" and result["decisions"] == 3 and result["same_choice"] == 3
    for side in (result, result["baseline"]):
        assert side["rollouts_per_cpu_s"] > 0
        assert 0 < side["cpu_ms_per_decision"]["p50"] <= side["cpu_ms_per_decision"]["p95"]
        assert 0 < side["wall_ms_per_decision"]["p50"] <= side["wall_ms_per_decision"]["p95"]
    assert result["rollouts"] == result["baseline"]["rollouts"]
    assert result["baseline"]["kernels"] == result["kernels"]  # compiled alike (or pure alike)


def _tree_of_this_checkout(tmp_path: Path) -> Path:
    """A baseline tree as ``baseline_tree`` unpacks one: the sources, no builds."""
    import shutil

    shutil.copytree(ROOT / "tricktable", tmp_path / "tricktable",
                    ignore=shutil.ignore_patterns("_native", "__pycache__"))
    return tmp_path


def test_a_baseline_tree_gets_this_checkouts_builds_of_the_same_kernels(tmp_path, monkeypatch):
    from lab import baseline
    from tricktable import speedups

    monkeypatch.delenv(speedups.PURE_ENV, raising=False)
    tree = _tree_of_this_checkout(tmp_path)
    assert not any(how.startswith("compiled") for how in baseline.kernel_status(tree).values())
    monkeypatch.setattr(baseline, "_build", lambda tree, names: pytest.fail(f"built {names}: a copy was due"))
    status = baseline.compile_kernels(tree)
    assert set(status) == set(speedups.kernels())
    assert all(how.startswith("compiled") for how in status.values()), status


def test_a_baseline_kernel_that_differs_is_built_by_the_trees_own_build(tmp_path, monkeypatch):
    from lab import baseline
    from tricktable import speedups

    monkeypatch.delenv(speedups.PURE_ENV, raising=False)
    tree = _tree_of_this_checkout(tmp_path)
    edited = tree / "tricktable" / "bots" / "euchre_kernel.py"
    edited.write_text(edited.read_text() + "\n# the baseline's own version\n")
    built: list[list[str]] = []
    monkeypatch.setattr(baseline, "_build", lambda tree, names: built.append(names))
    status = baseline.compile_kernels(tree)
    assert built == [["tricktable.bots.euchre_kernel"]]
    assert status.pop("tricktable.bots.euchre_kernel").startswith("pure Python")  # (the build was a stand-in)
    assert all(how.startswith("compiled") for how in status.values()), status


def test_plain_bench_still_counts_random_deals(capsys):
    assert cli.main(["bench", "euchre", "--seconds", "0.2", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["per_second"] > 0


# -- compiled kernels (tricktable/speedups.py) ---------------------------------------
KERNEL = "tricktable.bots.courtpiece_kernel"


def _artefacts_in(tmp_path, monkeypatch):
    """The real build artefacts copied to a scratch native directory."""
    import shutil

    from tricktable import speedups

    for path in speedups.artefacts(KERNEL):
        assert path.exists(), "run make install: the kernel is not compiled"
        shutil.copy(path, tmp_path / path.name)
    monkeypatch.setattr(speedups, "NATIVE_DIR", tmp_path)
    return speedups.artefacts(KERNEL)


def test_a_fresh_compiled_kernel_is_loaded_under_its_own_name(tmp_path, monkeypatch):
    from tricktable import speedups

    _artefacts_in(tmp_path, monkeypatch)
    monkeypatch.delenv(speedups.PURE_ENV, raising=False)
    module = speedups.load(KERNEL)
    assert module.__name__ == "_tt_courtpiece_kernel" and module.__file__.endswith(speedups.SUFFIX)
    assert speedups.status()[KERNEL].startswith("compiled")


def test_a_stale_compiled_kernel_is_never_used(tmp_path, monkeypatch):
    """An edited kernel source (its hash no longer the one the build recorded) runs
    in pure Python until the next build."""
    from tricktable import speedups
    from tricktable.bots import courtpiece_kernel

    _, stamp = _artefacts_in(tmp_path, monkeypatch)
    monkeypatch.delenv(speedups.PURE_ENV, raising=False)
    stamp.write_text("0" * 64 + "\n")
    assert speedups.compiled_is_fresh(KERNEL) == (False, "compiled from an older source: stale, not used "
                                                         "(run make install)")
    assert speedups.load(KERNEL) is courtpiece_kernel
    assert "stale" in speedups.status()[KERNEL] and "pure Python" in speedups.status()[KERNEL]


def test_a_failed_build_leaves_the_pure_module_in_use_and_says_why(tmp_path, monkeypatch, capsys):
    from tricktable import speedups
    from tricktable.bots import courtpiece_kernel

    extension, stamp = _artefacts_in(tmp_path, monkeypatch)
    broken = tmp_path / "broken.py"
    broken.write_text("def f(x: int) -> str:\n    return x\n")  # mypyc refuses a type error
    monkeypatch.setattr(speedups, "source_of", lambda name: broken)
    monkeypatch.setattr(speedups, "BUILD_DIR", tmp_path / "build")
    assert speedups.build([KERNEL]) == [KERNEL]
    assert "NOT compiled, the pure-Python module will be used" in capsys.readouterr().err
    assert not extension.exists() and not stamp.exists()  # no older build is left to load
    monkeypatch.setattr(speedups, "source_of", lambda name: Path(courtpiece_kernel.__file__))
    assert speedups.load(KERNEL) is courtpiece_kernel


# -- Court Piece world sampling: the replayed template -----------------------------------
COURT_PIECE = ("double-sar", "single-sar", "hidden-trump", "be-ranga", "mendikot")


@pytest.mark.parametrize("game", COURT_PIECE)
def test_further_worlds_of_an_observation_equal_a_full_replay(game):
    """``courtpiece.sampling``: the worlds after the first for one observation are the
    first world's replayed state on another deal; each equals, slot by slot, the
    replay of the public actions on that deal."""
    import random

    from tricktable.bots import make_bot
    from tricktable.games.courtpiece import sampling

    spec = entry(game).spec
    options = spec.normalize_options(entry(game).bot_options)
    bots = [make_bot("heuristic", seed=f"t/{seat}") for seat in range(4)]
    compared = 0
    for index in range(6):
        state = deal_state(spec, "template", index, options)
        steps = 0
        while not state.is_terminal():
            seat = state.to_move
            obs = state.observe(seat)
            if steps % 7 == 3:
                spec.sample_world(obs, random.Random(0))  # the first world: the template
                for k in range(3):
                    further = spec.sample_world(obs, random.Random(k))
                    sampling._TEMPLATE[0] = None
                    replayed = spec.sample_world(obs, random.Random(k))
                    for slot in type(replayed).__slots__:
                        assert getattr(further, slot) == getattr(replayed, slot), (slot, index, steps)
                    compared += 1
            state.act(seat, bots[seat].choose(obs))
            steps += 1
    assert compared >= 30
