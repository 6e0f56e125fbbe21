"""The summaries and passkey tables on both databases: a finished game without
a summary is found, a stored one is not found again, a summary of another
format is replaced; a challenge is taken once; a passkey is its owner's."""

from __future__ import annotations

import time

from tricktable.store import Store
from tricktable.store.stats import NewSummary
from tests.harness import backdate_identities


def test_finished_games_are_summarised_once(database_url):
    store = Store(database_url)
    try:
        owner = store.add_identity("owner-1", "127.0.0.0/24").id
        backdate_identities(store, days=1)  # gives it one finished euchre match
        found = store.unsummarized(owner, "euchre", 1, limit=10)
        assert len(found) == 1 and found[0].record["actions"] and found[0].finished_at < time.time() - 3600
        assert store.unsummarized("someone-else", "euchre", 1, limit=10) == []
        store.add_summaries(owner, "euchre", 1, [NewSummary(found[0].id, found[0].finished_at, {"deals": 9})])
        assert store.unsummarized(owner, "euchre", 1, limit=10) == []
        assert [s.summary for s in store.summaries(owner, "euchre", 1)] == [{"deals": 9}]
        assert len(store.unsummarized(owner, "euchre", 2, limit=10)) == 1  # a newer format: summarised again
        store.add_summaries(owner, "euchre", 2, [NewSummary(found[0].id, found[0].finished_at, {"deals": 10})])
        assert store.summaries(owner, "euchre", 1) == []
        assert [s.summary for s in store.summaries(owner, "euchre", 2)] == [{"deals": 10}]
    finally:
        store.close()


def test_a_challenge_is_taken_once_and_only_for_its_purpose(database_url):
    store = Store(database_url)
    try:
        store.add_challenge("abc", "sign_in", None, time.time() + 60)
        assert store.take_challenge("abc", "register") is None  # wrong purpose: used up all the same
        assert store.take_challenge("abc", "sign_in") is None
        store.add_challenge("def", "register", "who", time.time() + 60)
        taken = store.take_challenge("def", "register")
        assert taken is not None and taken.identity == "who"
        assert store.take_challenge("def", "register") is None
        store.add_challenge("old", "sign_in", None, time.time() - 1)
        assert store.take_challenge("old", "sign_in") is None
    finally:
        store.close()


def test_a_passkey_is_its_owners(database_url):
    store = Store(database_url)
    try:
        assert store.add_passkey("cred", "who", b"key", 0)
        assert not store.add_passkey("cred", "another", b"key2", 0)
        assert not store.remove_passkey("another", "cred")
        assert store.passkey_used("cred", 0, 5) and not store.passkey_used("cred", 0, 6)
        found = store.passkey("cred")
        assert found is not None and found.sign_count == 5 and found.identity == "who"
        assert store.remove_passkey("who", "cred") and store.passkeys_of("who") == []
    finally:
        store.close()
