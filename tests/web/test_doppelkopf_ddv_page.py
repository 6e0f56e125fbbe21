"""The DDV preset in the browser: the table shows the tournament list (deals left, who
still owes a compulsory solo) and the score sheet names every DDV line in the person's
language (an extra deal — a compulsory solo by choice — gets its sheet too).  Screenshots
in build/screenshots/ (390x844 and 1280x800)."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

DESKTOP = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}
CORNER = {"x": 8, "y": 24}  # overlapping cards: tap the visible corner, as a person would
DDV_LIST = {"poverty": False, "second_heart_ten": False, "karlchen_only_by_winning": True, "soloist_leads": False,
            "ddv_scoring": True, "tournament_list": True}
ENGLISH = json.loads((Path(__file__).resolve().parents[2] / "tricktable" / "web" / "i18n" / "en.json")
                     .read_text(encoding="utf-8"))


@pytest.mark.parametrize("viewport, name", [(DESKTOP, "desktop"), (PHONE, "phone")])
def test_ddv_table_shows_the_list_and_the_sheet_names_every_ddv_line(make_page, viewport, name):
    p = make_page(viewport=viewport)
    p.open("#/")
    p.page.evaluate("options => localStorage.setItem('tt.options.doppelkopf', JSON.stringify(options))", DDV_LIST)
    p.open("#/play/doppelkopf")
    page, rng = p.page, random.Random(name)
    game_id = page.evaluate("localStorage.getItem('tt.game.doppelkopf')")
    api = f"{p.server.url}/api/games/{game_id}"
    view = page.request.get(api).json()["view"]
    assert view["options"]["ddv_scoring"] and view["tournament"]["regular_left"] == 24
    body = page.locator("body").inner_text()
    assert "Deals left" in body and "Compulsory solo owed" in body and "deal 1 of 24" in body.lower()
    shot = False
    for _ in range(1000):
        if page.locator("dialog[open]").count():
            break
        healthy = page.locator('button.action[data-action="healthy"]')
        announce = page.locator('button.action[data-action="re"], button.action[data-action="kontra"], '
                                'button.action[data-action="no 90"]')
        cards = page.locator(".hand button.legal")
        if healthy.count():
            healthy.click()
        elif announce.count():  # Re/Kontra, then no 90: lines the DDV table scores its own way
            announce.first.click()
        elif cards.count():
            if not shot and page.locator(".trick .card").count() >= 2:
                p.shot(f"doppelkopf-ddv-table-{name}")
                shot = True
            cards.nth(rng.randrange(cards.count())).click(position=CORNER)
        else:
            page.wait_for_timeout(50)
            continue
        p.settle()
    sheet = page.locator("dialog[open] .score-sheet")
    assert sheet.count()
    p.shot(f"doppelkopf-ddv-sheet-{name}")
    match = page.request.get(api).json()["view"]["match"]
    result = match["results"][-1]
    keys = [line["key"] for line in result["lines"] if line.get("seat") is None and line["key"] != "card_points"]
    assert any(key.startswith(("re_no_", "kontra_no_")) for key in keys) or "won" not in keys, keys
    text = sheet.inner_text()
    if not result["counts"]:  # a compulsory solo by choice: an extra deal, played and scored
        assert "extra deal" in text and "not one of the 24 deals" in text
    for key in keys:  # every DDV line is named in words, not as its key
        label = ENGLISH[f"doppelkopf.line.{key}"].replace("{n}", "")
        assert label in text, (key, label)
