#!/usr/bin/env python3
"""The screenshot matrix of the table, to look at: every game, each decision the
person meets in a deal (and Doppelkopf's folded reservations, Hidden Trump's
folded change of trump), a card in the middle of a trick, the deal's score sheet
and the match's summary; at 360×640, 390×844, a desktop and a landscape phone;
in English, German, Hindi and Thai.

It drives the real page in Debian's Chromium through Playwright against a
server of this checkout (random computer players, so a deal is quick; the same
seeded deal and the same person's choices in every language).  Each moment is
taken once and shown at every size by resizing the window.  The PNGs go to
``build/screens/`` as ``GAME-MOMENT-LANG-WxH.png``; ``index.txt`` there lists
them with the page's own findings at each (controls under 44 px, text cut
off, anything past the screen's edge or below it); ``sheets/`` has each moment
in every language side by side.

    .venv/bin/python scripts/screens.py [--games euchre,...] [--langs en,de] [--sizes 390x844,...]
"""

from __future__ import annotations

import argparse
import base64
import json
import random
import shutil
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))  # the repository root: the tests' server harness
from tests.harness import ServerProcess, hand_over  # noqa: E402

GAMES = ["euchre", "doppelkopf", "double-sar", "single-sar", "hidden-trump", "be-ranga", "mendikot"]
LANGS = ["en", "de", "hi", "th"]
SIZES = ["360x640", "390x844", "1280x800", "740x360"]
OUT = REPO / "build" / "screens"
CHROMIUM = "/usr/bin/chromium"
LOCALES = {"en": "en-US", "de": "de-DE", "hi": "hi-IN", "th": "th-TH"}
RETURNING_VISITOR = ("for (const g of %s) localStorage.setItem('tt.howto.' + g, '1');"
                     " if (!localStorage.getItem('tt.settings')) localStorage.setItem('tt.settings', '{\"autoPlay\": false}');"
                     % json.dumps(GAMES))
SETTLED = ("() => document.querySelector('dialog[open]') || (document.querySelector('#main')?.dataset.busy === '0'"
           " && document.querySelector('.hand button.legal, button.action[data-action], #confirm-selection'))")
DEALS = {"euchre": 4}  # Euchre's call of trump in round two and "alone" need more than one deal
CORNER = {"x": 8, "y": 24}  # overlapping cards: their visible corner

# What a player would mind, found by the page itself: a control under 44 px, text
# cut off inside its box, a box past the screen's right or bottom edge (the
# page may scroll down, never sideways), a hand card covered by another control.
FINDINGS = """() => {
  const found = [];
  const visible = (n) => { const b = n.getBoundingClientRect(); const s = getComputedStyle(n);
    return b.width > 0 && b.height > 0 && s.visibility !== 'hidden' && s.display !== 'none'; };
  const label = (n) => (n.id ? '#' + n.id : n.className || n.tagName) + ' "' + (n.textContent || '').trim().slice(0, 24) + '"';
  for (const n of document.querySelectorAll('button, select, a.action, summary')) {
    if (!visible(n) || n.closest('.hand')) continue;
    const b = n.getBoundingClientRect();
    if (b.width < 44 || b.height < 44) found.push(`small ${Math.round(b.width)}x${Math.round(b.height)} ${label(n)}`);
  }
  for (const n of document.querySelectorAll('button, .prompt, #prompt, .seat .name, .seat .tally, .bubble, dialog th, dialog td, h1, h2, p')) {
    if (!visible(n) || n.closest('.sr')) continue;
    if (n.scrollWidth > n.clientWidth + 1 && getComputedStyle(n).overflowX !== 'auto') found.push('cut ' + label(n));
  }
  // The whole hand and every button of a decision on the first screen, without scrolling.
  for (const n of document.querySelectorAll('.actions button, .hand button.card')) {
    if (visible(n) && n.getBoundingClientRect().bottom > innerHeight + 1) found.push('below the screen ' + label(n));
  }
  const width = document.documentElement.clientWidth;
  if (document.scrollingElement.scrollWidth > width) found.push('page wider than the screen');
  for (const n of document.querySelectorAll('button, .seat, .trick, dialog[open]')) {
    if (!visible(n)) continue;
    const b = n.getBoundingClientRect();
    if (b.right > width + 1 || b.left < -1) found.push('off screen sideways ' + label(n));
  }
  return found;
}"""


def size_of(text: str) -> dict[str, int]:
    width, height = text.split("x")
    return {"width": int(width), "height": int(height)}


def action_kind(action: str) -> str:
    """An action without its suit or card: "call H" → "call", "change trump QS" → "change-trump"."""
    words = [w for w in action.split() if not (len(w) <= 3 and w[-1] in "CDHS" and w[:-1] in
                                                ("", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"))]
    return "-".join(words) or "suit"


class Shooter:
    """One browser profile in one language, its moments shot at every size."""

    def __init__(self, browser: Any, server: ServerProcess, game: str, lang: str, sizes: list[str], out: Path):
        self.game, self.lang, self.sizes, self.server, self.out = game, lang, sizes, server, out
        self.context = browser.new_context(viewport=size_of(sizes[0]), locale=LOCALES[lang], service_workers="block")
        self.context.add_init_script(RETURNING_VISITOR)
        self.page = self.context.new_page()
        self.errors: list[str] = []
        self.page.on("pageerror", lambda e: self.errors.append(str(e)))
        self.taken: list[tuple[str, list[str]]] = []

    def take_over(self, game_id: str) -> None:
        """Make ``game_id`` this profile's, as if it had started it."""
        from tricktable.server.trust.identity import COOKIE
        from tricktable.store import Store

        if not any(c["name"] == COOKIE for c in self.context.cookies()):
            self.context.request.post(f"{self.server.url}/api/identity")
        owner = next(c["value"] for c in self.context.cookies() if c["name"] == COOKIE).split(".")[0]
        store = Store(self.server.database)
        try:
            hand_over(store, game_id, owner)
        finally:
            store.close()

    def open_game(self, game_id: str) -> None:
        self.page.goto(f"{self.server.url}/?speed=0.05#/")
        self.page.wait_for_selector("body[data-ready]")
        self.take_over(game_id)
        self.page.evaluate("([key, id]) => localStorage.setItem(key, id)", [f"tt.game.{self.game}", game_id])
        self.page.evaluate(f"location.hash = '#/play/{self.game}'")
        self.page.wait_for_function("() => document.querySelector('#main').dataset.page === 'play'")
        self.settle()

    def settle(self) -> None:
        self.page.wait_for_function(SETTLED, timeout=30000)
        self.page.wait_for_timeout(60)

    def shoot(self, moment: str) -> None:
        print(f"  {self.game} {self.lang} {moment}", file=sys.stderr, flush=True)
        for size in self.sizes:
            self.page.set_viewport_size(size_of(size))
            self.page.wait_for_timeout(120)
            name = f"{self.game}-{moment}-{self.lang}-{size}"
            self.page.screenshot(path=str(self.out / f"{name}.png"))
            self.taken.append((name, self.page.evaluate(FINDINGS)))
        self.page.set_viewport_size(size_of(self.sizes[0]))

    def close(self) -> None:
        self.context.close()


def play_deals(shooter: Shooter, rng: random.Random, deals: int = 1, limit: int = 400) -> None:
    """Play from the start of a match to the end of ``deals`` deals that have a
    score sheet, shooting each new kind of decision, the first card played into
    a begun trick, and the first sheet.  Among a decision's buttons the person
    prefers one whose kind he has not chosen yet (so "order up" leads to "alone",
    a pass in one deal to the call of trump in round two of another)."""
    page, seen, chosen, sheets = shooter.page, set(), set(), 0
    for _ in range(limit):
        shooter.settle()
        if page.locator("dialog[open]").count():
            if not sheets:
                shooter.shoot("deal-end-sheet")
            sheets += 1
            if sheets == deals:
                return
            page.locator("dialog[open] button.primary, dialog[open] button.action").last.click()
            continue
        buttons = page.locator("button.action[data-action]")
        actions = [buttons.nth(i).get_attribute("data-action") or "" for i in range(buttons.count())]
        cards = page.locator(".hand button.legal")
        picking = page.locator("#confirm-selection").count() > 0
        kinds = sorted({action_kind(a) for a in actions} | ({"pick"} if picking else set()))
        if kinds:
            moment = "decide-" + "+".join(kinds) + ("+cards" if cards.count() else "")
            if moment not in seen:
                seen.add(moment)
                shooter.shoot(moment)
        if page.locator("#more-actions").count() and "unfolded" not in seen:
            seen.add("unfolded")
            page.locator("#more-actions").click()
            page.wait_for_timeout(100)
            shooter.shoot("decide-unfolded")
            unfolded = [buttons.nth(i).get_attribute("data-action") or "" for i in range(buttons.count())]
            seen.add("decide-" + "+".join(sorted({action_kind(a) for a in unfolded})) + ("+cards" if cards.count() else ""))
            continue
        if picking:
            page.locator(".hand button.card").first.click(position=CORNER)
            page.wait_for_timeout(100)
            if page.locator("#confirm-selection:not([disabled])").count():
                page.locator("#confirm-selection").click()
            continue
        if cards.count() and (not actions or rng.random() < 0.8):
            if page.locator(".trick .card").count() and "mid-trick" not in seen:
                seen.add("mid-trick")
                shooter.shoot("mid-trick")
            cards.nth(rng.randrange(cards.count())).click(position=CORNER)
            continue
        if actions:
            fresh = [a for a in actions if action_kind(a) not in chosen]
            action = rng.choice(fresh or actions)
            chosen.add(action_kind(action))
            page.locator(f'button.action[data-action="{action}"]').click()
            continue
        raise RuntimeError(f"{shooter.game}: nothing to do on the table")
    raise RuntimeError(f"{shooter.game}: {deals} score sheets not reached in {limit} moves")


def match_end(shooter: Shooter, game_id: str) -> None:
    """The summary of a finished match (``game_id``), opened over the table as
    the page opens it when the match's last card lands (the page resumes only
    unfinished matches, so it is opened through the page's own module)."""
    page = shooter.page
    while page.locator("dialog[open]").count():
        page.locator("dialog[open] button.primary, dialog[open] button.action").last.click()
        shooter.settle()
    shooter.take_over(game_id)
    page.evaluate("""(id) => Promise.all([import('./js/api.js'), import('./js/sheets.js')])
        .then(([a, s]) => a.api.load(id).then((state) => { s.showMatchSummary({newGame() {}}, state); }))""", game_id)  # (resolves when closed)
    page.wait_for_selector("dialog[open]")
    page.wait_for_timeout(200)
    shooter.shoot("match-end-summary")


def seed_for(game: str) -> str:
    """A match seed whose first decision is the person's own, and not a card
    (Euchre's order up, Court Piece's call of trump with its clock, Hidden Trump's
    hidden card), where the game has one; else any."""
    from tricktable.catalog import get_spec

    spec = get_spec(game)
    options = spec.normalize_options({})
    for number in range(200):
        seed = f"screens {number}"
        state = spec.new_match(seed, options)
        if state.to_move == 0 and not all(str(a).startswith("play ") for a in state.observe(0).legal):
            return seed
    return f"screens {game}"


def finished_game(server: ServerProcess, game: str) -> str:
    """A match of ``game`` played to its end through the API by random legal choices."""
    import httpx

    from tests.harness import finish

    with httpx.Client(base_url=server.url, timeout=60) as http:
        http.post("/api/identity")
        answer = http.post("/api/games", json={"game": game})
        answer.raise_for_status()
        return str(finish(http, answer.json())["id"])


def new_game(server: ServerProcess, game: str, seed: str) -> str:
    from tricktable.server.play.room import Room
    from tricktable.store import Store

    store = Store(server.database)
    try:
        return str(Room(store).new_game(game, {}, seed=seed)["id"])
    finally:
        store.close()


def contact_sheets(browser: Any, out: Path, langs: list[str]) -> int:
    """One PNG per moment and size with its languages side by side (``out/sheets/``),
    to look at a moment in every language at once; how many."""
    sheets = out / "sheets"
    sheets.mkdir(exist_ok=True)
    groups: dict[str, list[Path]] = {}
    for png in sorted(out.glob("*.png")):
        stem, size = png.stem.rsplit("-", 1)
        moment, lang = stem.rsplit("-", 1)
        if lang in langs:
            groups.setdefault(f"{moment}-{size}", []).append(png)
    page = browser.new_page()
    for name, pngs in groups.items():
        width, height = size_of(name.rsplit("-", 1)[1]).values()
        images = "".join(f'<img src="data:image/png;base64,{base64.b64encode(p.read_bytes()).decode()}"'
                         ' style="margin-right:8px">' for p in sorted(
            pngs, key=lambda p: langs.index(p.stem.rsplit("-", 2)[1])))
        page.set_viewport_size({"width": (width + 8) * len(pngs), "height": height})
        page.set_content(f'<body style="margin:0;display:flex;background:#888">{images}</body>')
        page.wait_for_load_state("load")
        page.screenshot(path=str(sheets / f"{name}.png"))
    page.close()
    return len(groups)


def main() -> int:
    from playwright.sync_api import sync_playwright

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", default=",".join(GAMES))
    parser.add_argument("--langs", default=",".join(LANGS))
    parser.add_argument("--sizes", default=",".join(SIZES))
    parser.add_argument("--out", type=Path, default=OUT, help="the folder for the PNGs (default build/screens)")
    parser.add_argument("--no-match-end", action="store_true", help="leave out the match summaries")
    args = parser.parse_args()
    games, langs, sizes = args.games.split(","), args.langs.split(","), args.sizes.split(",")
    args.out.mkdir(parents=True, exist_ok=True)
    folder = tempfile.mkdtemp(prefix="tricktable-screens-")
    server = ServerProcess(f"sqlite:///{folder}/screens.db", bot="random", limit_scale=1000).start()
    index: list[str] = []
    started = time.monotonic()
    try:
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=CHROMIUM,
                                                 args=["--headless", "--no-sandbox", "--disable-gpu"])
            for game in games:
                seed = seed_for(game)
                over = None if args.no_match_end else finished_game(server, game)
                for lang in langs:
                    shooter = Shooter(browser, server, game, lang, sizes, args.out)
                    try:
                        shooter.open_game(new_game(server, game, seed))
                        play_deals(shooter, random.Random(f"screens/{game}"), DEALS.get(game, 1))
                        if over is not None:
                            match_end(shooter, over)
                    except Exception as error:  # one game's failure must not cost the others' screens
                        index.append(f"FAILED {game} {lang}: {error}".splitlines()[0])
                    finally:
                        index += [f"{name}: {'; '.join(found) or 'ok'}" for name, found in shooter.taken]
                        index += [f"{game} {lang} page error: {e}" for e in shooter.errors]
                        shooter.close()
                    print(game, lang, len(shooter.taken), "screens", file=sys.stderr, flush=True)
            print(contact_sheets(browser, args.out, langs), "contact sheets", file=sys.stderr)
            browser.close()
    finally:
        server.stop()
        shutil.rmtree(folder, ignore_errors=True)
    (args.out / "index.txt").write_text("\n".join(index) + "\n")
    print(f"{len(index)} lines in {args.out / 'index.txt'} ({time.monotonic() - started:.0f} s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
