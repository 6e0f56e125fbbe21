#!/usr/bin/env python3
"""The page's pace as a person feels it: from his card played in the middle of a
trick to his next turn, in Chromium at 390×844, at the default pace and the
default level, per game; with the page of this checkout and, in the same run,
the page's ``table.js`` and ``style.css`` of another commit (``--old``, routed in
place of this checkout's), so the two are compared on one server at one
machine speed.  Prints median and p95 per game and page as JSON.

    .venv/bin/python scripts/page_pace.py [--old 54c9cf8] [--samples 25] [GAME ...]
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from playwright.sync_api import sync_playwright

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))  # the repository root: the tests' server harness
from tests.harness import ServerProcess  # noqa: E402

GAMES = ["euchre", "doppelkopf", "double-sar", "single-sar", "hidden-trump", "be-ranga", "mendikot"]
OLD_FILES = ("js/table.js", "style.css")
SETTLED = ("() => document.querySelector('dialog[open]') || (document.querySelector('#main').dataset.busy === '0'"
           " && document.querySelector('.hand button.legal, button.action[data-action]'))")
RETURNING_VISITOR = ("for (const g of %s) localStorage.setItem('tt.howto.' + g, '1');"
                     " localStorage.setItem('tt.settings', '{\"autoPlay\": false}');" % json.dumps(GAMES))


def old_page(commit: str) -> dict[str, str]:
    return {name: subprocess.run(["git", "-C", str(REPO), "show", f"{commit}:tricktable/web/{name}"],
                                 capture_output=True, text=True, check=True).stdout for name in OLD_FILES}


def measure(browser, url: str, game: str, routed: dict[str, str], samples_wanted: int) -> dict[str, int]:
    context = browser.new_context(viewport={"width": 390, "height": 844}, service_workers="block")
    context.add_init_script(RETURNING_VISITOR)
    page = context.new_page()
    for name, body in routed.items():
        kind = "text/javascript" if name.endswith(".js") else "text/css"
        page.route(f"**/{name}", lambda route, _request, b=body, k=kind: route.fulfill(body=b, content_type=k))
    page.goto(f"{url}/#/play/{game}")
    page.wait_for_selector("body[data-ready]")
    page.evaluate("document.addEventListener('click', () => (window.clicked = performance.now()), true)")
    rng, samples, deadline = random.Random(1), [], time.monotonic() + 150
    while len(samples) < samples_wanted and time.monotonic() < deadline:
        page.wait_for_function(SETTLED, timeout=30000)
        if page.locator("dialog[open]").count():
            page.locator("dialog[open] button.primary, dialog[open] button.action").last.click()
            continue
        cards = page.locator(".hand button.legal")
        if not cards.count():
            page.locator("button.action[data-action]").first.click()
            continue
        mid_trick = page.locator(".trick .card").count() > 0
        cards.nth(rng.randrange(cards.count())).click(position={"x": 8, "y": 24})
        page.wait_for_function(SETTLED, timeout=30000)
        took = page.evaluate("performance.now() - window.clicked")
        if mid_trick and not page.locator("dialog[open]").count() and page.locator(".hand button.legal").count():
            samples.append(took)
    context.close()
    samples.sort()
    return {"n": len(samples), "median_ms": round(statistics.median(samples)) if samples else -1,
            "p95_ms": round(samples[int(0.95 * (len(samples) - 1))]) if samples else -1}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("games", nargs="*", default=GAMES)
    parser.add_argument("--old", default="54c9cf8", help="the commit whose table.js and style.css to compare")
    parser.add_argument("--samples", type=int, default=25)
    args = parser.parse_args()
    folder = tempfile.mkdtemp(prefix="tricktable-pace-")
    server = ServerProcess(f"sqlite:///{folder}/pace.db", bot=None).start()
    results: dict[str, dict[str, int]] = {}
    try:
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path="/usr/bin/chromium",
                                                 args=["--headless", "--no-sandbox", "--disable-gpu"])
            for game in args.games:
                for which, routed in (("old", old_page(args.old)), ("new", {})):
                    results[f"{game} {which}"] = measure(browser, server.url, game, routed, args.samples)
                    print(game, which, results[f"{game} {which}"], file=sys.stderr, flush=True)
            browser.close()
    finally:
        server.stop()
    print(json.dumps(results))


if __name__ == "__main__":
    main()
