"""The analyses' store on both databases: one per game, progress written only
by the process that holds it, a lapsed lease taken over, a live one not."""

from __future__ import annotations

from tricktable.store import Store


def test_an_analysis_is_one_per_game_and_written_only_by_its_holder(database_url):
    store = Store(database_url)
    try:
        assert store.analysis("g1") is None
        assert store.queue_analysis("g1", 3, "a", lease_until=100.0)
        assert not store.queue_analysis("g1", 3, "b", lease_until=100.0)  # started once
        found = store.analysis("g1")
        assert (found.status, found.done, found.total, found.decisions, found.worker) == ("queued", 0, 3, [], "a")
        assert not store.claim_analysis("g1", "b", lease_until=200.0, now=50.0)  # a's lease runs until 100
        assert not store.save_analysis("g1", "b", "running", [{"index": 4}], 200.0)
        assert store.save_analysis("g1", "a", "running", [{"index": 4}], 110.0)
        assert store.claim_analysis("g1", "b", lease_until=300.0, now=150.0)  # lapsed: b takes it over
        assert not store.renew_analysis("g1", "a", 400.0)  # a learns it at its next write
        assert store.save_analysis("g1", "b", "done", [{"index": 4}, {"index": 9}], None)
        found = store.analysis("g1")
        assert (found.status, found.done, found.decisions[1], found.lease_until) == ("done", 2, {"index": 9}, None)
        assert not store.claim_analysis("g1", "c", lease_until=500.0, now=450.0)  # done: nothing to take over
    finally:
        store.close()
