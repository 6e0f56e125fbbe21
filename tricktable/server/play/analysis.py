"""The analysis of a finished game: every decision of one person's seat (his
own: alone he is seat 0, at a table the seat the table gave him) searched as the hint would have searched it then, the points each lost
against the best action, per deal the total lost and the biggest mistakes,
and an accuracy figure (``docs/analysis.md``).

A decision's search is the hint's own (``bots.levels.hard_hint``: the hard
level's world count, no clock) from the seat's observation at that moment,
seeded by ``hint_seed(match seed, actions before it)``: the values are the
ones the Hint button showed, or would have shown, at that point.

The analysis runs in a background thread of the server process, one decision
at a time, each decision one task of the thinking processes
(``bot_pool.ThinkingPool``), so a computer player's move at a live table
waits behind at most one decision, never behind a deal; at most
``ANALYSES_AT_ONCE`` analyses run at once in a process, the others queue.
Every finished decision is stored at once with the lease of the process
working it (``store/analyses.py``): a server that stops leaves a lapsed
lease, and the next request for that analysis goes on from the last stored
decision.

An attempt that fails on the machinery (a thinking process died twice, the
database was busy, memory ran out) may be retried by the owner's next POST,
from its last stored decision, up to ``MAX_ATTEMPTS`` attempts in all; any
other fault (the record does not replay, the search raised) fails for good at
once: the same record and seeds would fail the same way again.
"""

from __future__ import annotations

import logging
import math
import secrets
import threading
import time
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from typing import Any, Callable, Iterator, Mapping

from sqlalchemy.exc import OperationalError

from tricktable.bots.levels import hint_seed, hint_worlds
from tricktable.catalog import parse_record
from tricktable.core.match import MatchState
from tricktable.core.observation import Observation
from tricktable.core.protocol import GameState
from tricktable.server.play.commit import OUT_OF_TURN_ENTRY, apply_entry
from tricktable.server.play.view import HUMAN
from tricktable.store import AnalysisRow, Store
from tricktable.store.analyses import UNFINISHED

log = logging.getLogger("tricktable.server")

ANALYSES_AT_ONCE = 1
"""Analyses a server process works at once (each one decision at a time in the
thinking processes); the rest wait their turn, queued."""
LEASE_SECONDS = 30.0
"""How long an analysis stays a process's after its last sign of life (each
stored decision renews it): a process that died leaves it to the next request
after this long."""
SLOT_POLL_SECONDS = 1.0
"""How often a queued analysis looks whether the process is stopping."""
HALF_ACCURACY_LOSS = 0.5
"""Points lost in one decision that score it 50 (accuracy halves with every
further half point): half the stake of an ordinary deal (one point in every game
here)."""
NOISE_TOLERANCE = 0.05
"""Points lost below this count as none for accuracy: within the sampling noise of
the search's values (the best action's value is the highest of several noisy
estimates, so a tiny loss is as likely luck as a mistake)."""
MISTAKES_SHOWN = 3
MAX_ATTEMPTS = 3
"""Attempts an analysis gets in all (the first and two retries) before a
failure of the machinery is its last."""
PASSING_FAULTS: tuple[type[BaseException], ...] = (
    BrokenProcessPool,  # a thinking process died again after the pool's own restart
    OperationalError,  # the database busy or gone for a moment
    MemoryError, TimeoutError, OSError)
"""Failures that are not the record's nor the search's: another attempt may
pass.  Anything else is a fault of the replay or the search on this record and
seed, which are fixed: it would fail the same way every time."""

Search = Callable[[Observation, str], list[dict[str, Any]]]
"""``(observation, seed) -> the hint's ranked actions`` (``hard_hint``, wherever it runs)."""


@dataclass(frozen=True)
class Decision:
    """One decision of the analysed seat: the record's ``index``-th action."""

    index: int
    deal: int
    seat: int
    chosen: str
    observation: Observation
    seed: str


def decisions_of(record: Mapping[str, Any], seat: int = HUMAN) -> Iterator[Decision]:
    """Every decision of ``seat`` in ``record`` the search can rank: its own
    turn with more than one legal action.  Not decisions: a forced action (one
    legal action), the referee's timeout in its place, and an action out of
    turn (a Doppelkopf announcement while another seat is to move: the search
    ranks the actions of the seat to move only)."""
    parsed = parse_record(record)
    state = parsed.start()
    seed = str(parsed.seed)
    for index, entry in enumerate(parsed.actions):
        if state.to_move == seat and OUT_OF_TURN_ENTRY.match(entry) is None:
            obs = state.observe(seat)
            if len(obs.legal) > 1 and entry in obs.legal:  # (not a forced action, nor the referee's timeout)
                yield Decision(index, deal_of(state), seat, entry, obs, hint_seed(seed, index))
        apply_entry(state, entry)


def deal_of(state: GameState) -> int:
    """The 0-based deal of the match ``state`` is in (0 for a single deal)."""
    return state.deal_index if isinstance(state, MatchState) else 0


def judged(decision: Decision, ranked: list[dict[str, Any]], worlds: int) -> dict[str, Any]:
    """A decision as the analysis reports it, from the hint's ranked actions."""
    rows = [(str(row["action"]), float(row["value"])) for row in ranked]
    best, best_value = rows[0]
    value = next(v for action, v in rows if action == decision.chosen)
    return {"index": decision.index, "deal": decision.deal, "seat": decision.seat, "chosen": decision.chosen,
            "best": best, "value": value, "best_value": best_value, "lost": round(max(0.0, best_value - value), 3),
            "worlds": worlds, "ranked": [{"action": action, "value": v} for action, v in rows]}


def decision_accuracy(lost: float) -> float:
    """0–100 for one decision: 100 when it lost nothing beyond the noise, 50 at
    ``HALF_ACCURACY_LOSS`` points lost, halving with every further half point."""
    return 100.0 * math.pow(2.0, -max(0.0, lost - NOISE_TOLERANCE) / HALF_ACCURACY_LOSS)


def accuracy_of(decisions: list[dict[str, Any]]) -> float | None:
    """The mean of the decisions' accuracies (None without a decision): every
    decision weighs the same, and none can move the figure by more than its
    share, so one search's outlier never decides a game's figure."""
    if not decisions:
        return None
    return round(sum(decision_accuracy(d["lost"]) for d in decisions) / len(decisions), 1)


def deals_of(decisions: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Per deal with an analysed decision: the points lost, its accuracy and its
    biggest mistakes (up to three record indices, most lost first, lost > 0)."""
    by_deal: dict[int, list[dict[str, Any]]] = {}
    for decision in decisions:
        by_deal.setdefault(decision["deal"], []).append(decision)
    out = []
    for deal, own in sorted(by_deal.items()):
        mistakes = sorted((d for d in own if d["lost"] > 0), key=lambda d: (-d["lost"], d["index"]))
        out.append({"deal": deal, "lost": round(sum(d["lost"] for d in own), 3), "accuracy": accuracy_of(own),
                    "mistakes": [d["index"] for d in mistakes[:MISTAKES_SHOWN]]})
    return out


def progress(found: AnalysisRow | None) -> dict[str, Any]:
    """What ``POST …/analysis`` answers; once an attempt has failed, its
    ``error``, the ``attempts`` started and whether a POST would ``retry`` it."""
    if found is None:
        return {"status": "none", "done": 0, "total": 0}
    failure = {"error": found.error, "attempts": found.attempts, "retry": found.retry} if found.error else {}
    return {"status": found.status, "done": found.done, "total": found.total, **failure}


def report(found: AnalysisRow | None) -> dict[str, Any]:
    """What ``GET …/analysis`` answers: the progress and everything analysed so far.
    ``worlds``: the fewest worlds any of its decisions was searched with (each
    decision has its own count: the hard budget buys fewer per action when there
    are more actions)."""
    decisions = found.decisions if found is not None else []
    return {**progress(found), "worlds": min((d["worlds"] for d in decisions), default=None),
            "decisions": decisions, "deals": deals_of(decisions), "accuracy": accuracy_of(decisions)}


class Analyst:
    """Starts, works and resumes the analyses of one server process."""

    def __init__(self, store: Store, search: Search, at_once: int = ANALYSES_AT_ONCE,
                 clock: Callable[[], float] = time.time):
        self.store = store
        self.search = search
        self.worker = f"analyst-{secrets.token_hex(6)}"
        self._clock = clock
        self._slots = threading.BoundedSemaphore(at_once)
        self._stopped = threading.Event()
        self._threads: dict[tuple[str, int], threading.Thread] = {}
        self._lock = threading.Lock()

    def resume_lapsed(self, game_id: str, seat: int, record: Mapping[str, Any],
                      found: AnalysisRow | None) -> AnalysisRow | None:
        """``found`` (the stored analysis of ``seat``), taken over first if it
        is unfinished and its lease has lapsed (its process stopped): a
        reader's poll writes nothing while the analysis is being worked."""
        if found is None or found.status not in UNFINISHED:
            return found
        if found.lease_until is not None and found.lease_until >= self._clock():
            return found
        return self.request(game_id, seat, record)

    def request(self, game_id: str, seat: int, record: Mapping[str, Any]) -> AnalysisRow | None:
        """Start the analysis of ``seat``'s decisions in the game if it has
        none, take over an unfinished one its process left (its lease lapsed),
        or retry a failed one that may be retried; its row."""
        found = self.store.analysis(game_id, seat)
        lease = self._clock() + LEASE_SECONDS
        if found is None:
            total = sum(1 for _ in decisions_of(record, seat))
            if self.store.queue_analysis(game_id, total, self.worker, lease, seat=seat):
                self._launch(game_id, seat, record)
        elif found.status in UNFINISHED and self.store.claim_analysis(game_id, self.worker, lease, self._clock(),
                                                                      seat=seat):
            log.info("analysis of %s (seat %d) taken over from %s", game_id, seat, found.worker)
            self._launch(game_id, seat, record)
        elif found.status == "failed" and found.retry and self.store.retry_analysis(game_id, self.worker, lease,
                                                                                    seat=seat):
            log.info("analysis of %s (seat %d) retried after: %s", game_id, seat, found.error)
            self._launch(game_id, seat, record)
        return self.store.analysis(game_id, seat)

    def start(self) -> None:
        """Let analyses run again after a ``stop`` (a room started anew)."""
        self._stopped.clear()

    def stop(self, wait: float = 5.0) -> None:
        """Let the running analyses go (after the decision under way); their
        leases are given back, so the next request anywhere resumes them."""
        self._stopped.set()
        with self._lock:
            threads = list(self._threads.values())
        for thread in threads:
            thread.join(wait)

    def _launch(self, game_id: str, seat: int, record: Mapping[str, Any]) -> None:
        with self._lock:
            if self._stopped.is_set():
                return
            thread = threading.Thread(target=self._work, args=(_Job(game_id, seat), dict(record)), daemon=True,
                                      name=f"analysis-{game_id[:8]}-{seat}")
            self._threads[(game_id, seat)] = thread
        thread.start()

    def _work(self, job: _Job, record: dict[str, Any]) -> None:
        try:
            if self._wait_for_slot(job):
                try:
                    self._analyse(job, record)
                finally:
                    self._slots.release()
        finally:
            with self._lock:
                self._threads.pop((job.game_id, job.seat), None)

    def _wait_for_slot(self, job: _Job) -> bool:
        """Queue for one of the process's slots, renewing the lease meanwhile;
        False when the process stops (the lease is given back) or another
        process took the analysis over."""
        renewed = self._clock()
        while not self._slots.acquire(timeout=SLOT_POLL_SECONDS):
            if self._stopped.is_set():
                self._renew(job, None)
                return False
            if self._clock() - renewed > LEASE_SECONDS / 3:
                renewed = self._clock()
                if not self._renew(job, renewed + LEASE_SECONDS):
                    return False
        if self._stopped.is_set():
            self._slots.release()
            self._renew(job, None)
            return False
        return True

    def _renew(self, job: _Job, lease_until: float | None) -> bool:
        return self.store.renew_analysis(job.game_id, self.worker, lease_until, seat=job.seat)

    def _save(self, job: _Job, status: str, decisions: tuple[dict[str, Any], ...], lease_until: float | None,
              error: str | None = None, retry: bool = False) -> bool:
        return self.store.save_analysis(job.game_id, self.worker, status, decisions, lease_until, error=error,
                                        retry=retry, seat=job.seat)

    def _analyse(self, job: _Job, record: dict[str, Any]) -> None:
        found = self.store.analysis(job.game_id, job.seat)
        if found is None or not self._save(job, "running", (), self._clock() + LEASE_SECONDS):
            return
        searched = {d["index"] for d in found.decisions}  # before a restart or a failed attempt
        try:
            for decision in decisions_of(record, job.seat):
                if decision.index in searched:
                    continue
                if self._stopped.is_set():
                    self._save(job, "running", (), None)
                    return
                ranked = self.search(decision.observation, decision.seed)
                judgement = judged(decision, ranked, hint_worlds(decision.observation))
                if not self._save(job, "running", (judgement,), self._clock() + LEASE_SECONDS):
                    return  # another process took it over
        except Exception as error:  # noqa: BLE001 — a stop ends the search under way; anything else fails it
            if self._stopped.is_set():
                self._save(job, "running", (), None)
                return
            self._failed(job, found.attempts, error)
            return
        self._save(job, "done", (), None)

    def _failed(self, job: _Job, attempts: int, error: Exception) -> None:
        """Store the attempt's failure; another may follow if the machinery
        failed (``PASSING_FAULTS``) and attempts are left."""
        retry = isinstance(error, PASSING_FAULTS) and attempts < MAX_ATTEMPTS
        log.exception("analysis of %s (seat %d) failed (attempt %d of %d%s)", job.game_id, job.seat, attempts,
                      MAX_ATTEMPTS, "" if retry else ", for good")
        message = f"{type(error).__name__}: {error}" if str(error) else type(error).__name__
        self._save(job, "failed", (), None, error=message, retry=retry)


@dataclass(frozen=True)
class _Job:
    """One analysis being worked: a game's seat."""

    game_id: str
    seat: int


__all__ = ["ANALYSES_AT_ONCE", "MAX_ATTEMPTS", "PASSING_FAULTS", "Analyst", "Decision", "accuracy_of", "decision_accuracy", "decisions_of", "deals_of",
           "judged", "progress", "report"]
