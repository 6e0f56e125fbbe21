"""The hint button at a table of friends: shown where the host allowed hints,
hidden where he did not (the game view's ``hints``)."""

from __future__ import annotations

import time

import pytest

from tests.web.conftest import PHONE
from tests.web.seating import call, started_table


@pytest.mark.parametrize("allowed", [True, False], ids=["allowed", "off"])
def test_the_hint_button_follows_the_tables_setting(make_page, allowed):
    host = make_page(viewport=PHONE)
    friend = make_page(viewport=PHONE)
    table, game = started_table(host, friend, hints=allowed)
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:  # the friend plays by the API until it is the host's turn
        state = call(friend, "GET", f"/api/games/{game['id']}")
        if state["thinking"] is None and state["view"]["to_move"] == 0:
            break
        if state["thinking"] is None and state["view"]["to_move"] == 1:
            friend.context.request.post(f"{friend.server.url}/api/games/{game['id']}/actions",
                                        data={"action": state["view"]["legal"][0], "version": state["version"]})
        time.sleep(0.05)
    host.open(f"#/table/{table['id']}")  # (it waits until the host may act)
    host.page.wait_for_selector(".hand button.legal, button.action[data-action]", timeout=15000)
    host.settle()
    assert host.page.locator("#hint-button").count() == (1 if allowed else 0)
    if allowed:
        host.shot("tables-hint-allowed-390x844")
