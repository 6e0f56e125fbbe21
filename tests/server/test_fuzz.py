"""A schema-driven fuzz of the whole API (schemathesis on hypothesis): every
operation of ``/openapi.json``, with data its schema allows and data it does
not, its identity cookie and ``Last-Event-ID`` included (the schema
documents them).  Half the cases aim at real games of a real identity, so
the fuzz reaches past the 404 of a made-up id.  It fails on any 5xx and on
any answer the document does not describe: a status it does not list, a
content type, a body or header that does not fit, a 405 without the right
``Allow``.  Bounded to about a minute.

Not checked: that every request the schema allows is accepted.  A game's
options depend on the game (``docs/fairness.md`` has the API's shapes), which
one JSON Schema of ``POST /api/games`` cannot say, so an option of another
game is a 422 the schema cannot foresee.
"""

from __future__ import annotations

import time

import pytest
import schemathesis
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, given, settings
from hypothesis.errors import Unsatisfiable
from hypothesis import strategies as st
from schemathesis.checks import positive_data_acceptance

from tricktable.server import create_app
from tricktable.server.trust.identity import COOKIE
from tricktable.server.play.scheduler import forced_bot
from tests.harness import settle

EXAMPLES = 25
"""Cases per operation and mode: 18 operations, two modes, about a minute here."""
BUDGET_SECONDS = 150.0


@pytest.fixture
def fuzzed(sqlite_url):
    app = create_app(sqlite_url, bot_factory=forced_bot("random"))
    with TestClient(app) as person:
        person.post("/api/identity")
        games = [settle(person, person.post("/api/games", json={"game": game}).json())["id"]
                 for game in ("euchre", "doppelkopf", "double-sar")]
        games.append(person.post("/api/daily/euchre").json()["id"])
        yield app, person.cookies[COOKIE], games
    app.state.room.store.close()


def aimed(operation, mode, cookie: str, games: list[str]):
    """Cases of ``operation``, half of them with the person's cookie and one of
    the person's games in place of the generated ones (not for the event
    stream: a real game's stream stays open; its own tests read it)."""
    streams = operation.path.endswith("/events")
    def aim(case, use_cookie: bool, game: int | None):
        if use_cookie and any(p.name == COOKIE for p in operation.iter_parameters()):
            case.cookies = {**(case.cookies or {}), COOKIE: cookie}
        if game is not None and "game_id" in (case.path_parameters or {}) and not streams:
            case.path_parameters = {**case.path_parameters, "game_id": games[game]}
        return case

    return st.builds(aim, operation.as_strategy(generation_mode=mode), st.booleans(),
                     st.none() | st.integers(0, len(games) - 1))


def test_no_input_makes_a_5xx_or_an_undocumented_answer(fuzzed):
    app, cookie, games = fuzzed
    schema = schemathesis.openapi.from_asgi("/openapi.json", app)
    failures: list[str] = []
    started = time.monotonic()
    operations = [result.ok() for result in schema.get_all_operations()]
    assert len(operations) >= 18
    for operation in operations:
        for mode in schemathesis.GenerationMode:
            @given(case=aimed(operation, mode, cookie, games))
            @settings(max_examples=EXAMPLES, deadline=None, database=None, suppress_health_check=list(HealthCheck))
            def fuzz(case) -> None:
                case.call_and_validate(excluded_checks=[positive_data_acceptance])

            try:
                fuzz()
            except Unsatisfiable:
                assert mode is schemathesis.GenerationMode.NEGATIVE  # no input of it can break its schema
            except Exception as error:  # every operation's failures, not only the first one's
                failures.append(f"{operation.label} ({mode.value}): {error}"[:3000])
    took = time.monotonic() - started
    assert not failures, "\n\n".join(failures)
    assert took < BUDGET_SECONDS, f"the fuzz took {took:.0f} s"
