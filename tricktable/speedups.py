"""Compiled playout kernels (the search's rollouts): build them with mypyc, load them only
while they match their source, and fall back to the same source in pure Python.

A kernel is a module ``tricktable/bots/<name>_kernel.py`` written in typed,
mypyc-friendly Python (ints, lists, plain functions; no imports of the games).
``make install`` runs ``python -m tricktable.speedups build``: each kernel's
source is copied to ``build/native/<native name>.py``, compiled there by mypyc
under its own top-level name (``_tt_<name>_kernel``), and the extension is
copied into ``tricktable/_native/`` next to a stamp holding the SHA-256 of the
source it was built from.  Both are git-ignored build artefacts.

``load(name)`` (the bots call it once at import) hashes the source as it is now:
the compiled module is used only when the stamp matches, so an edited kernel
never runs old compiled code; it then runs in pure Python until the next build
(``make install`` rebuilds when a kernel changes).  A failed build prints why
and leaves the pure module in use; install goes on.  ``TRICKTABLE_PURE=1``
forces the pure modules (the tests compare both).

Because the compiled module has its own name, ``import`` never picks it up by
accident: only ``load`` decides, and ``status()`` says what it decided and why
(``tricktable-lab bench --search`` prints it).
"""

from __future__ import annotations

import hashlib
import importlib
import importlib.machinery
import importlib.util
import os
import shutil
import subprocess
import sys
from pathlib import Path
from types import ModuleType

PACKAGE = Path(__file__).resolve().parent
NATIVE_DIR = PACKAGE / "_native"
BUILD_DIR = PACKAGE.parent / "build" / "native"
KERNEL_GLOB = "bots/*_kernel.py"
PURE_ENV = "TRICKTABLE_PURE"
SUFFIX = importlib.machinery.EXTENSION_SUFFIXES[0]

_STATUS: dict[str, str] = {}


def kernels() -> list[str]:
    """Every kernel module's name (``tricktable.bots.<name>_kernel``)."""
    return sorted("tricktable." + ".".join(path.relative_to(PACKAGE).with_suffix("").parts)
                  for path in PACKAGE.glob(KERNEL_GLOB))


def source_of(name: str) -> Path:
    return PACKAGE.joinpath(*name.split(".")[1:]).with_suffix(".py")


def native_name(name: str) -> str:
    """The compiled module's own top-level name: never found by a plain import."""
    return "_tt_" + name.rsplit(".", 1)[1]


def source_hash(name: str) -> str:
    return hashlib.sha256(source_of(name).read_bytes()).hexdigest()


def artefacts(name: str) -> tuple[Path, Path]:
    """The compiled extension of kernel ``name`` and the stamp of the source it was built from."""
    native = native_name(name)
    return NATIVE_DIR / (native + SUFFIX), NATIVE_DIR / (native + ".sha256")


def compiled_is_fresh(name: str) -> tuple[bool, str]:
    """Whether a compiled build of ``name`` exists and matches its source now, and why not."""
    extension, stamp = artefacts(name)
    if not extension.exists() or not stamp.exists():
        return False, "not compiled (run make install)"
    if stamp.read_text().strip() != source_hash(name):
        return False, "compiled from an older source: stale, not used (run make install)"
    return True, f"compiled ({extension.name})"


def load(name: str) -> ModuleType:
    """The kernel ``name``: its compiled build if fresh, else the pure-Python module."""
    fresh, why = compiled_is_fresh(name)
    if os.environ.get(PURE_ENV):
        fresh, why = False, f"{PURE_ENV} is set"
    if fresh:
        try:
            module = _load_extension(name)
        except ImportError as error:
            why = f"the compiled build failed to load ({error})"
        else:
            _STATUS[name] = why
            return module
    _STATUS[name] = f"pure Python: {why}"
    return importlib.import_module(name)


def _load_extension(name: str) -> ModuleType:
    native = native_name(name)
    if native in sys.modules:
        return sys.modules[native]
    extension, _ = artefacts(name)
    spec = importlib.util.spec_from_file_location(native, extension)
    if spec is None or spec.loader is None:
        raise ImportError(f"no loader for {extension}")
    module = importlib.util.module_from_spec(spec)
    sys.modules[native] = module
    try:
        spec.loader.exec_module(module)
    except BaseException:
        del sys.modules[native]
        raise
    return module


def status() -> dict[str, str]:
    """How each kernel loaded so far runs: compiled, or pure Python and why."""
    return dict(_STATUS)


def build(names: list[str] | None = None) -> list[str]:
    """Compile each kernel with mypyc; returns the ones that failed (their stale
    builds are removed, so the pure modules run).  Never raises for a failed compile."""
    failed = []
    NATIVE_DIR.mkdir(exist_ok=True)
    for name in names if names is not None else kernels():
        error = _build_one(name)
        if error:
            failed.append(name)
            for path in artefacts(name):
                path.unlink(missing_ok=True)
            print(f"speedups: {name} NOT compiled, the pure-Python module will be used: {error}", file=sys.stderr)
        else:
            print(f"speedups: {name} compiled")
    return failed


def _build_one(name: str) -> str:
    native = native_name(name)
    work = BUILD_DIR / native
    shutil.rmtree(work, ignore_errors=True)
    work.mkdir(parents=True)
    source = source_of(name).read_bytes()
    (work / f"{native}.py").write_bytes(source)
    try:
        done = subprocess.run([sys.executable, "-m", "mypyc", f"{native}.py"], cwd=work,
                              capture_output=True, text=True, timeout=600)
    except (OSError, subprocess.SubprocessError) as error:
        return f"mypyc did not run ({error})"
    built = work / (native + SUFFIX)
    if done.returncode != 0 or not built.exists():
        tail = "\n".join((done.stdout + done.stderr).strip().splitlines()[-8:])
        return f"mypyc failed (exit {done.returncode}):\n{tail}"
    extension, stamp = artefacts(name)
    # A new file renamed over the old one: a process that has the old build loaded
    # keeps its own (overwriting a loaded extension in place crashes that process).
    fresh = extension.with_name(extension.name + ".new")
    shutil.copyfile(built, fresh)
    os.replace(fresh, extension)
    stamp.write_text(hashlib.sha256(source).hexdigest() + "\n")
    return ""


def main(argv: list[str]) -> int:
    if argv[:1] == ["build"]:
        return 1 if build(argv[1:] or None) else 0  # the Makefile goes on either way
    if argv[:1] == ["status"]:
        for name in kernels():
            print(name, "-", compiled_is_fresh(name)[1])
        return 0
    print("usage: python -m tricktable.speedups build [module ...] | status", file=sys.stderr)
    return 2


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
