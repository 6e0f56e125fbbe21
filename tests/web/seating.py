"""A table of friends set up through the API for the browser tests of its
pages: each person's page is opened first (that gives it its identity), then
the host's table is created, the friends join it by its code and the host
starts the match."""

from __future__ import annotations

from typing import Any


def call(p, method: str, path: str, body: dict | None = None) -> Any:
    """An API call with the profile's own identity (its cookies)."""
    answer = p.context.request.fetch(f"{p.server.url}{path}", method=method, data=body)
    assert answer.ok, answer.text()
    return answer.json()


def started_table(host, *friends, game: str = "euchre", **settings) -> tuple[dict, dict]:
    """A match of ``game`` at a table of ``host``'s with ``friends`` at the
    next free seats, easy computer players in the others and no turn clock
    unless ``settings`` (the create call's fields) say otherwise: the table
    (as created: with its invite and watch links) and its match."""
    for p in (host, *friends):
        p.open("#/")
    table = call(host, "POST", "/api/tables", {"game": game, "level": "easy", "clock": 0, **settings})
    for friend in friends:
        call(friend, "POST", f"/api/tables/{table['code']}/join", {})
    return table, call(host, "POST", f"/api/tables/{table['id']}/start")
