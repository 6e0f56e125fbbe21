"""Child processes that end with their parent.

``tricktable serve --workers N`` runs N uvicorn workers under one supervisor
process; each worker has its own thinking processes.  A supervisor killed with
``kill -9`` cannot stop its children, and orphaned workers would keep serving
the port (a restarted server could not bind it, and two generations would
serve side by side).  So every child asks the kernel for a signal when its
parent dies (Linux: ``prctl(PR_SET_PDEATHSIG)``), and elsewhere watches its
parent's process id from a thread.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import os
import signal
import sys
import threading
import time

PR_SET_PDEATHSIG = 1
"""From <linux/prctl.h>."""
WATCH_SECONDS = 0.5


def follow_parent(parent: int, sig: int = signal.SIGTERM) -> None:
    """Get ``sig`` (a worker's graceful stop) as soon as process ``parent``,
    which started this one, is gone; at once if it is gone already."""
    if not _ask_kernel(sig):
        watch_parent(parent, sig)
    if os.getppid() != parent:  # it died before the kernel was asked
        os.kill(os.getpid(), sig)


def _ask_kernel(sig: int) -> bool:
    if not sys.platform.startswith("linux"):
        return False
    try:
        libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6", use_errno=True)
        return int(libc.prctl(PR_SET_PDEATHSIG, sig, 0, 0, 0)) == 0
    except (OSError, AttributeError):
        return False


def watch_parent(parent: int, sig: int = signal.SIGTERM) -> None:
    """``sig`` to this process once ``parent`` is gone, seen from a thread
    that looks every ``WATCH_SECONDS`` (for processes started from a thread
    that may end before the parent does: the kernel's signal follows the
    starting thread, not the process)."""

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(WATCH_SECONDS)
        os.kill(os.getpid(), sig)

    threading.Thread(target=watch, name="watch-parent", daemon=True).start()


__all__ = ["follow_parent", "watch_parent"]
