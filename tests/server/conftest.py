"""Fixtures for the server and store tests: SQLite files, a throwaway
PostgreSQL server (initdb in a temp folder, random port), an app client."""

from __future__ import annotations

import os
from typing import Iterator

import pytest
from fastapi.testclient import TestClient

from tricktable.server import create_app
from tricktable.server.testing import Postgres, find_pg_bin


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
def client(sqlite_url, monkeypatch) -> Iterator[TestClient]:
    # The uniform random bot keeps whole-match tests fast; one test below
    # checks the real computer players separately.
    monkeypatch.setenv("TRICKTABLE_BOT", "random")
    app = create_app(sqlite_url)
    with TestClient(app) as test_client:
        yield test_client
    app.state.room.store.close()
