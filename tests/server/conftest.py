"""Fixtures for the server and store tests: SQLite files, a throwaway
PostgreSQL server (initdb in a temp folder, random port), an app client."""

from __future__ import annotations

import os
from typing import Callable, Iterator

import pytest
from fastapi.testclient import TestClient

from tricktable.server import create_app
from tricktable.server.play.scheduler import BotFactory, forced_bot
from tests.harness import Postgres, find_pg_bin


def need(condition: bool, reason: str) -> None:
    """Skip when a system package is missing, except under CI, where the test
    must run: a green CI may not hide a missing install step."""
    if not condition:
        if os.environ.get("CI"):
            pytest.fail(reason)
        pytest.skip(reason)


@pytest.fixture(scope="session")
def postgres() -> Iterator[Postgres]:
    need(find_pg_bin() is not None, "PostgreSQL is not installed (make test installs it)")
    server = Postgres.start()
    yield server
    server.stop()


@pytest.fixture
def sqlite_url(tmp_path) -> str:
    return f"sqlite:///{tmp_path / 'tricktable.db'}"


@pytest.fixture(params=["sqlite", "postgresql"])
def database_url(request, tmp_path) -> str:
    """Each store test runs on both databases."""
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'tricktable.db'}"
    return request.getfixturevalue("postgres").new_database()


@pytest.fixture
def make_client(sqlite_url) -> Iterator[Callable[[BotFactory], TestClient]]:
    """Apps on one SQLite file with the computer players a test chooses."""
    apps: list[tuple[object, TestClient]] = []

    def make(bot_factory: BotFactory) -> TestClient:
        app = create_app(sqlite_url, bot_factory=bot_factory)
        test_client = TestClient(app)
        test_client.__enter__()
        apps.append((app, test_client))
        return test_client

    yield make
    for app, test_client in reversed(apps):
        test_client.__exit__(None, None, None)
        app.state.room.store.close()  # type: ignore[attr-defined]


@pytest.fixture
def two_processes(make_client) -> tuple[TestClient, TestClient]:
    """Two server processes' apps on one database (each with its own channel
    and change feed), with the uniform random computer players."""
    return make_client(forced_bot("random")), make_client(forced_bot("random"))


@pytest.fixture
def client(make_client) -> TestClient:
    # The uniform random bot keeps whole-match tests fast; tests of the real
    # computer players build their own client.
    return make_client(forced_bot("random"))
