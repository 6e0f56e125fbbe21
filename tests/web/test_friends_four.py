"""Four people at a Doppelkopf table of friends, each in his own browser, and a
watcher following it by its watch link: an announcement out of turn, a person
who drops, whose turn the clock plays ("(auto)", seen by everyone) and who
comes back in a new browser with the same identity, the deal to its score
sheet; the watcher never sees a card still in a hand.  Also quick reactions and
"Play with anyone".

The server runs in this process (``HeldServer``) so that the test can run the
turn clock out at once instead of waiting 15 s: the referee's clock is moved on
while the room looks at the game, as ``tests/server/test_tables.py`` does.  Its
computer players are let go (they decide at once): the only one here is the one
that plays the dropped person's turn."""

from __future__ import annotations

import time
from collections import Counter
from pathlib import Path
from types import SimpleNamespace

import pytest

from tests.web.conftest import DESKTOP, PHONE, SMALL_PHONE, HeldServer, Page
from tests.web.test_accessibility import violations
from tests.web.test_phone_table import CONTROL_SIZES, MIN_TAP
from tricktable.server.play import commit

SCREENS = Path(__file__).resolve().parents[2] / "build" / "screens-friends"
CORNER = {"x": 8, "y": 24}  # overlapping cards: tap the visible corner, as a person would
STEP_TIMEOUT_S = 20  # the longest any one wait of the play loop may take


def shot(p: Page, name: str) -> None:
    SCREENS.mkdir(parents=True, exist_ok=True)
    p.page.screenshot(path=str(SCREENS / f"{name}.png"))


def wait_until(condition, what: str, timeout: float = STEP_TIMEOUT_S):
    """Poll ``condition`` (a cheap server-side look) until it gives something true."""
    deadline = time.monotonic() + timeout
    while True:
        value = condition()
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        time.sleep(0.05)


class Seated:
    """The test's people at one table: their pages by seat, and the server's truth about the match."""

    def __init__(self, server: HeldServer, host: Page, table_id: str):
        self.server = server
        self.host_id = host.identity()
        self.table_id = table_id
        self.pages: dict[int, Page] = {}

    @property
    def game_id(self) -> str:
        table = self.server.room.store.table(self.table_id)
        assert table is not None and table.game_id is not None
        return table.game_id

    def view(self) -> dict:
        """The match as the host's seat sees it (who is to move, the public actions)."""
        return self.server.room.load(self.game_id, self.host_id)["view"]

    def played(self) -> Counter:
        """Every card played so far in the match (Doppelkopf has two of each)."""
        record = self.server.room.store.load(self.game_id).record
        return Counter(text.split()[-1] for text in (a.split(": ")[-1] for a in record["actions"])
                       if text.startswith("play "))

    def deals_over(self) -> int:
        return len((self.view().get("match") or {}).get("results") or [])


# What the page offers the person now, read in one look (a round trip per page and turn of the loop).
NEXT_DECISION = """() => {
  if (document.querySelector('dialog[open]') || document.querySelector('#main').dataset.busy === '1') return null;
  if (document.querySelector('button.action[data-action="healthy"]')) return 'healthy';
  const card = document.querySelector('.hand button.legal');
  return card ? 'play ' + card.dataset.card : null;
}"""


def act(p: Page) -> str | None:
    """The person's decision if the page offers him one now: "healthy" in the
    reservations, else his first playable card.  Nothing while a dialog is open
    (the deal's score sheet: the test looks at it) or while it is not his turn."""
    wanted = p.page.evaluate(NEXT_DECISION)
    if wanted == "healthy":
        p.page.locator('button.action[data-action="healthy"]').click()
    elif wanted:
        p.page.locator(f'.hand button.legal[data-card="{wanted.split()[1]}"]').first.click(position=CORNER)
    return wanted


# The watcher's hand buttons (none should exist) and every card face in his page,
# by the card its element names (null: a face no element names).
WATCHER_LOOK = """() => ({hand: document.querySelectorAll('.hand button.card').length,
  faces: [...document.querySelectorAll('svg.face')].map(s => s.closest('[data-card]')?.dataset.card ?? null)})"""


def check_watcher(watcher: Page, seated: Seated) -> int:
    """The watcher's page shows no hand and no face of a card still in one: every
    face it shows is of a card played already (read after the page, so a card
    on screen was played by then).  How many faces it showed."""
    look = watcher.page.evaluate(WATCHER_LOOK)
    assert look["hand"] == 0
    faces = Counter(look["faces"])
    assert None not in faces, "a card face the test cannot name"
    played = seated.played()
    assert not faces - played, f"the watcher saw cards still in a hand: {faces - played}"
    return sum(faces.values())


def fits_width(p: Page, viewport: dict) -> None:
    """The page, resized to ``viewport``, scrolls no wider than it once its resize
    handler has laid the hand out again (right after the resize the cards still
    stand where the old width put them)."""
    p.page.wait_for_function("width => document.documentElement.scrollWidth <= width", arg=viewport["width"],
                             timeout=5000)


def create_table(p: Page, game: str, clock: str) -> tuple[str, str, str]:
    """A new table made from the home page: its id, invite token and watch token, read off the lobby."""
    p.open("#/")
    p.page.select_option("#friends-game", game)
    p.page.select_option("#friends-clock", clock)
    p.page.locator("#friends-create").click()
    p.page.wait_for_selector("#table-code")
    invite = p.page.locator("#invite-link").input_value().split("#/join/")[1]
    watch = p.page.locator("#watch-link").input_value().split("#/watch/")[1]
    return p.page.url.split("#/table/")[1], invite, watch


def join(p: Page, invite: str) -> int:
    p.page.goto(f"{p.server.url}/?speed=0.05&join={invite}")
    p.page.wait_for_selector(".lobby-seat.you")
    return int(p.page.locator(".lobby-seat.you").get_attribute("data-seat"))


@pytest.fixture
def people(browser, held_server):
    """Pages on the held server, closed at the end; no console errors allowed."""
    held_server.bots.let_go()
    made: list[Page] = []

    def make(**settings) -> Page:
        made.append(Page(browser, held_server, **settings))
        return made[-1]

    yield make
    errors = [e for p in made for e in p.errors]
    for p in made:
        try:
            p.close()
        except Exception:
            pass  # (a page the test closed itself)
    assert not errors, f"console errors: {errors}"


def run_clock_out(server: HeldServer, game_id: str, monkeypatch) -> None:
    """The turn clock of the seat to move runs out now: the referee's clock a
    minute on while the room looks at the game, until the computer player's
    step is stored."""
    before = server.version(game_id)
    monkeypatch.setattr(commit, "time", SimpleNamespace(time=lambda: time.time() + 60, monotonic=time.monotonic))
    try:
        server.room.resume(game_id)
        server.wait_for_version(game_id, before + 1)
    finally:
        monkeypatch.undo()


def test_four_friends_at_a_doppelkopf_table_with_a_watcher(held_server, people, monkeypatch):
    server = held_server
    host = people(viewport=PHONE)
    table_id, invite, watch = create_table(host, "doppelkopf", "15")
    seated = Seated(server, host, table_id)
    seated.pages[0] = host
    for _ in range(3):
        friend = people(viewport=PHONE)
        seated.pages[join(friend, invite)] = friend
    assert sorted(seated.pages) == [0, 1, 2, 3]

    # The watcher opens the watch link before the start: the seats, and a word that the match has not begun.
    watcher = people(viewport=PHONE)
    watcher.page.goto(f"{server.url}/?speed=0.05#/watch/{watch}")
    watcher.page.wait_for_selector("#lobby-wait")
    assert watcher.page.locator(".watch-seats li").count() == 4
    assert violations(watcher.page) == []

    host.page.wait_for_selector('.lobby-seat.person[data-seat="3"]', timeout=5000)
    shot(host, "lobby-host-390x844")
    host.page.locator("#start-table").click()
    for p in [*seated.pages.values(), watcher]:
        p.page.wait_for_selector(".table", timeout=10000)
    for seat, p in seated.pages.items():
        assert p.page.locator(".seat.south").get_attribute("data-seat") == str(seat)
    # The watcher: seat 1 at the bottom, every seat's cards face down, no hand, no decision.
    assert watcher.page.locator(".seat.south").get_attribute("data-seat") == "0"
    watcher.page.wait_for_function("() => document.querySelectorAll('.seat .backs .mini').length === 48")
    assert watcher.page.locator(".hand button, button.action[data-action], #react-button").count() == 0
    assert violations(watcher.page) == []

    # The reservations: everyone healthy.
    deadline = time.monotonic() + STEP_TIMEOUT_S
    while seated.view()["phase"] == "reservations":
        assert time.monotonic() < deadline, "the reservations never ended"
        for p in seated.pages.values():
            act(p)
    view = seated.view()
    leader = view["to_move"]

    # An announcement out of turn: someone who is not to move says Re or Kontra.
    announcer = (leader + 1) % 4
    page = seated.pages[announcer].page
    word = page.locator('button.action[data-action="re"], button.action[data-action="kontra"]')
    word.first.wait_for(timeout=10000)
    assert page.locator(".seat.south.to-move").count() == 0  # not his turn
    said = word.first.get_attribute("data-action")
    word.first.click()
    wait_until(lambda: [announcer, said] in [list(a) for a in seated.view()["actions"]], "the announcement")
    label = {"re": "Re", "kontra": "Kontra"}[said]
    for p in [*seated.pages.values(), watcher]:
        p.page.locator(".facts", has_text=label).wait_for(timeout=10000)
    # His own team (the one he announced for) is named from his seat, not seat 1's; a watcher has none.
    assert page.locator(".facts div", has_text="Your team").locator("dd").inner_text() == label
    assert watcher.page.locator(".facts", has_text="Your team").count() == 0

    # A quick reaction from the host reaches every seat and the watcher, beside the host's seat.
    host.page.locator("#react-button").click()
    assert host.page.locator("#reaction-menu button").count() == 5
    host.page.locator('#reaction-menu button[data-reaction="well_played"]').click()
    for p in [*seated.pages.values(), watcher]:
        p.page.locator('.seat[data-seat="0"] .reaction', has_text="Well played").wait_for(timeout=5000)
    shot(host, "reaction-host-390x844")

    # The person to the leader's left drops (his browser closes) before his first card.
    dropped = (leader + 1) % 4 if (leader + 1) % 4 != 0 else (leader + 2) % 4
    gone = seated.pages.pop(dropped)
    state = gone.context.storage_state()
    gone.close()
    faces_seen = 0
    deadline = time.monotonic() + 60
    while seated.view()["to_move"] != dropped:
        assert time.monotonic() < deadline, "the dropped person's turn never came"
        for p in seated.pages.values():
            act(p)
        faces_seen = max(faces_seen, check_watcher(watcher, seated))
    # The watcher sees his turn clock running beside his seat.
    watcher.page.locator(f'.seat[data-seat="{dropped}"] .seat-clock').wait_for(timeout=10000)
    shot(watcher, "watcher-clock-390x844")
    # His clock runs out: a computer player decides for him, and everyone sees his seat marked (auto).
    run_clock_out(server, seated.game_id, monkeypatch)
    for p in [*seated.pages.values(), watcher]:
        p.page.locator(f'.seat[data-seat="{dropped}"] .auto-mark').wait_for(timeout=10000)
    assert host.page.locator(f'.seat[data-seat="{dropped}"] .auto-mark').inner_text() == "(auto)"

    # He comes back in a new browser with the same identity and plays on from his own seat.
    back = people(viewport=PHONE, storage_state=state)
    back.page.goto(f"{server.url}/?speed=0.05#/table/{table_id}")
    back.page.wait_for_selector(".table", timeout=10000)
    assert back.page.locator(".seat.south").get_attribute("data-seat") == str(dropped)
    seated.pages[dropped] = back

    # The rest of the deal, to its score sheet on every page.
    deadline = time.monotonic() + 90
    while not seated.deals_over():
        assert time.monotonic() < deadline, "the deal never ended"
        for p in seated.pages.values():
            act(p)
        faces_seen = max(faces_seen, check_watcher(watcher, seated))
    assert faces_seen >= 3  # the watcher did see the tricks' cards
    for seat, p in sorted(seated.pages.items()):
        p.page.wait_for_selector("dialog[open] .score-sheet", timeout=15000)
    shot(host, "seat1-sheet-390x844")
    watcher.page.wait_for_selector("dialog[open] .score-sheet", timeout=15000)
    assert "Seat 1" in watcher.page.locator("dialog[open]").inner_text() or \
        "Team 1" in watcher.page.locator("dialog[open]").inner_text()
    shot(watcher, "watcher-sheet-390x844")
    watcher.page.locator("dialog[open] button").last.click()
    watcher.page.wait_for_selector("dialog[open]", state="detached")
    shot(watcher, "watcher-390x844")
    watcher.page.set_viewport_size(SMALL_PHONE)
    fits_width(watcher, SMALL_PHONE)
    shot(watcher, "watcher-360x640")
    watcher.page.set_viewport_size(DESKTOP)
    shot(watcher, "watcher-desktop")
    for seat, p in sorted(seated.pages.items()):
        p.page.locator("dialog[open] button").last.click()
        shot(p, f"seat{seat + 1}-390x844")


def test_a_refused_or_muted_reaction(held_server, people):
    """Two friends at a Euchre table: the reactions' menu has finger-sized
    buttons; a reaction refused by the rate limit is told; a person who muted
    reactions does not see the other's, though he still sees his own."""
    server = held_server
    host = people(viewport=PHONE)
    table_id, invite, _watch = create_table(host, "euchre", "0")
    friend = people(viewport=PHONE)
    friend.context.add_init_script(
        "localStorage.setItem('tt.settings', JSON.stringify({autoPlay: false, muteReactions: true}))")
    assert join(friend, invite) == 1
    host.page.wait_for_selector('.lobby-seat.person[data-seat="1"]', timeout=5000)
    host.page.locator("#start-table").click()
    for p in (host, friend):
        p.page.wait_for_selector("#react-button", timeout=10000)
    host.page.locator("#react-button").click()
    assert host.page.locator("#react-button").get_attribute("aria-expanded") == "true"
    sizes = host.page.evaluate("() => [...document.querySelectorAll('#reaction-menu button')]"
                               ".map(b => b.getBoundingClientRect()).map(r => [r.width, r.height])")
    assert len(sizes) == 5 and all(w >= MIN_TAP and h >= MIN_TAP for w, h in sizes)
    assert violations(host.page) == []
    shot(host, "reaction-menu-390x844")
    host.page.locator('#reaction-menu button[data-reaction="thanks"]').click()
    host.page.locator('.seat[data-seat="0"] .reaction', has_text="Thanks").wait_for(timeout=5000)
    # The muted friend: nothing beside the host's seat; his own reaction still shows on his page and the host's.
    friend.page.locator("#react-button").click()
    friend.page.locator('#reaction-menu button[data-reaction="sorry"]').click()
    friend.page.locator('.seat[data-seat="1"] .reaction', has_text="Sorry").wait_for(timeout=5000)
    host.page.locator('.seat[data-seat="1"] .reaction', has_text="Sorry").wait_for(timeout=5000)
    assert friend.page.locator('.seat[data-seat="0"] .reaction').inner_text() == ""
    # The server refuses one (429): a short word, nothing beside the seat.
    host.page.route("**/api/tables/*/reactions", lambda route: route.fulfill(
        status=429, headers={"Retry-After": "30"}, content_type="application/json",
        body='{"detail": "too many reactions"}'))
    host.page.locator("#react-button").click()
    host.page.locator('#reaction-menu button[data-reaction="oops"]').click()
    host.page.locator("#toast", has_text="Too many reactions").wait_for(timeout=5000)
    host.errors[:] = [e for e in host.errors if "status of 429" not in e]  # the browser logs the refusal itself
    assert server.room.store.table(table_id).game_id is not None
    # On a small phone the score bar's tools, React among them, fit the width.
    friend.page.set_viewport_size(SMALL_PHONE)
    fits_width(friend, SMALL_PHONE)
    assert friend.page.locator("#react-button").bounding_box()["width"] >= MIN_TAP
    shot(friend, "reaction-friend-360x640")


def test_play_with_anyone_seats_two_people_together_and_starts_on_time(held_server, people):
    server = held_server
    server.app.state.quick.wait = 4.0  # (15 s in service: the test does not wait that long)
    first, second = people(viewport=PHONE), people(viewport=DESKTOP)
    for p in (first, second):
        p.open("#/")
        p.page.select_option("#friends-game", "euchre")
        if p is first:
            p.page.locator("#quick-match").scroll_into_view_if_needed()
            shot(p, "home-friends-box-390x844")
        p.page.locator("#quick-match").click()
        p.page.wait_for_selector(".lobby-seat.you")
    assert first.page.url.split("#/table/")[1] == second.page.url.split("#/table/")[1]
    first.page.wait_for_selector('.lobby-seat.person[data-seat="1"]', timeout=5000)
    # Who sits, the countdown, and no host's controls (the table starts itself).
    countdown = first.page.locator("#quick-countdown").inner_text()
    assert "starts in" in countdown or "starting" in countdown
    assert first.page.locator("#start-table, #table-code, select[id^=move-]").count() == 0
    shot(first, "quick-lobby-390x844")
    assert violations(first.page) == []
    opened = time.monotonic()
    for p in (first, second):
        p.page.wait_for_selector(".table", timeout=15000)
    assert time.monotonic() - opened < 4.0 + 5  # within the wait and the lobby's look
    assert first.page.locator(".seat.south").get_attribute("data-seat") == "0"
    assert second.page.locator(".seat.south").get_attribute("data-seat") == "1"
    assert first.page.locator('.seat[data-seat="2"] .who').inner_text().startswith("Computer")
    small = [c for c in first.page.evaluate(CONTROL_SIZES) if c["height"] < MIN_TAP or c["width"] < MIN_TAP]
    assert small == []
