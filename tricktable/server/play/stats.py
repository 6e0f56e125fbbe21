"""A person's statistics of one game: each finished game is summarised once
(``catalog.summarize_record``, the one replay it costs) and kept; every
request after that adds up the kept summaries (``core.summary.statistics``)."""

from __future__ import annotations

import logging
from typing import Any

from tricktable import catalog
from tricktable.core.summary import SUMMARY_FORMAT, Finished, GameSummary, statistics
from tricktable.errors import RecordError
from tricktable.server.play.analysis import accuracy_of
from tricktable.store import Store
from tricktable.store.stats import NewSummary

RECENT_GAMES = 20
"""How many of the last games the chart shows."""
SUMMARIES_PER_REQUEST = 50
"""At most this many games are summarised by one request (1-12 ms each), so
that a person with a long past (games finished before statistics existed)
waits well under a second; the rest come with the next request."""

LEFT_OUT = "left_out"
"""A stored summary with this key stands for a game its statistics leave out."""

log = logging.getLogger(__name__)


class Statistics:
    def __init__(self, store: Store):
        self.store = store

    def of(self, owner: str | None, game: str) -> dict[str, Any]:
        """``owner``'s statistics of ``game`` (None: a caller without an
        identity, who has played nothing); ``UnknownGame`` for a name the catalog lacks."""
        facts = catalog.entry(game).facts
        pending = self.summarize_new(owner, game) if owner is not None else False
        stored = self.store.summaries(owner, game, SUMMARY_FORMAT) if owner is not None else []
        figures = statistics([Finished(s.game_id, s.finished_at, GameSummary.from_json(s.summary))
                              for s in stored if LEFT_OUT not in s.summary], facts, RECENT_GAMES)
        accuracy = self.accuracy(owner, [r["game_id"] for r in figures["recent"]]) if owner is not None else []
        return {"game": game, **figures, "accuracy": accuracy, "complete": not pending}

    def accuracy(self, who: str, game_ids: list[str]) -> list[dict[str, Any]]:
        """``[{"game_id", "accuracy"}]`` of those of ``game_ids`` whose analysis
        of ``who``'s seat is done (``play/analysis.py: accuracy_of``), in their order."""
        seats = self.store.seats_held(who, game_ids)
        decisions = self.store.finished_decisions([(game_id, seats[game_id]) for game_id in game_ids])
        scored = ((game_id, accuracy_of(decisions[game_id])) for game_id in game_ids if game_id in decisions)
        return [{"game_id": game_id, "accuracy": value} for game_id, value in scored if value is not None]

    def summarize_new(self, owner: str, game: str) -> bool:
        """Summarise ``owner``'s finished games that have no summary yet, each
        from his own seat (a table's match: the seat it gave him); whether more
        are left for the next request."""
        found = self.store.unsummarized(owner, game, SUMMARY_FORMAT, SUMMARIES_PER_REQUEST + 1)
        made = []
        for row in found[:SUMMARIES_PER_REQUEST]:
            try:
                summary = catalog.summarize_record(row.record, row.seat).to_json()
            except RecordError as error:
                # A record this version cannot replay is left out of the figures,
                # and kept as such so that it is not tried again on every request.
                log.warning("game %s is left out of statistics: %s", row.id, error)
                summary = {LEFT_OUT: str(error)}
            made.append(NewSummary(row.id, row.finished_at, summary))
        self.store.add_summaries(owner, game, SUMMARY_FORMAT, made)
        return len(found) > SUMMARIES_PER_REQUEST


__all__ = ["Statistics"]
