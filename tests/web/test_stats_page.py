"""The "My statistics" page (figures, the inline SVG chart, the game's own
counters) and passkeys in the browser: one registered in Settings through
Chromium's virtual authenticator brings the identity and its nickname back in
a second, cleared browser profile."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from axe_playwright_python.sync_playwright import Axe

from tricktable import catalog
from tricktable.server.trust.identity import COOKIE
from tests.web.conftest import DESKTOP, PHONE, SCREENSHOTS, SMALL_PHONE

AXE = Axe()
WEB = Path(__file__).resolve().parents[2] / "tricktable" / "web"


def violations(page) -> list[str]:
    results = AXE.run(page)
    return [f"{v['id']}: {v['help']} at {[n['target'] for n in v['nodes']][:3]}"
            for v in results.response["violations"]]


def small_controls(page, scope: str) -> list[str]:
    """The visible links and buttons in ``scope`` smaller than 44×44 px."""
    return page.evaluate("""scope => [...document.querySelectorAll(`${scope} a, ${scope} button`)]
        .filter(e => e.offsetParent !== null)
        .map(e => [e.textContent.trim(), e.getBoundingClientRect()])
        .filter(([, r]) => r.width < 44 || r.height < 44).map(([t, r]) => `${t}: ${r.width}x${r.height}`)""", scope)


def finish_matches(p, game: str, seeds: list[str], options: dict | None = None) -> None:
    """Matches of ``game`` (with ``options``) played to their end by random
    legal actions, one per seed, owned by this profile's identity as if it had played them."""
    import random

    from tricktable.core.record import record_of
    from tricktable.store import Store

    owner = p.identity()
    store = Store(p.server.database)
    try:
        for seed in seeds:
            spec = catalog.get_spec(game)
            state = spec.new_match(seed, spec.normalize_options(options or {}))
            rng = random.Random(seed)
            while not state.is_terminal():
                state.apply_any(rng.choice(list(state.referee_actions() or state.legal_actions())))
            store.create_game(record_of(state).to_json(), "over", owner=owner)
    finally:
        store.close()


def overflows(page) -> bool:
    return page.evaluate("document.documentElement.scrollWidth > document.documentElement.clientWidth")


def test_every_counter_of_every_game_has_words_in_every_language():
    names = {name for entry in catalog.ENTRIES for name in entry.facts.counters}
    for lang in ("en", "de", "hi", "th"):
        words = json.loads((WEB / "i18n" / f"{lang}.json").read_text(encoding="utf-8"))
        assert {f"stats.counter.{name}" for name in names} <= set(words), lang


@pytest.mark.parametrize("viewport", [PHONE, DESKTOP, SMALL_PHONE], ids=["phone", "desktop", "small-phone"])
def test_my_statistics_from_the_home_page(make_page, viewport):
    p = make_page(viewport=viewport)
    p.open("#/")
    finish_matches(p, "euchre", [f"stats-{n}" for n in range(5)])
    page = p.page
    page.locator("#my-stats").click()  # (the first game's statistics; the page links every game's)
    page.wait_for_selector("#stats .figures")
    figures = page.locator(".figures dd").all_text_contents()
    assert figures[0] == "5" and int(figures[1]) > 0
    assert page.locator("svg.chart circle").count() == 5
    assert page.locator("svg.chart polyline.accuracy").count() == 0  # no analyses yet: no made-up line
    assert page.locator('.counters tr[data-counter="called"]').count() == 1
    assert violations(page) == []
    assert small_controls(page, "#stats") == []
    assert not overflows(page)
    p.shot(f"stats-euchre-{viewport['width']}x{viewport['height']}")
    page.screenshot(path=str(SCREENSHOTS / f"stats-euchre-{viewport['width']}-full.png"), full_page=True)
    page.select_option("#lang-select", "hi")
    page.wait_for_function("() => document.documentElement.lang === 'hi'")
    page.wait_for_selector("#stats .figures")
    assert not overflows(page) and "stats." not in page.locator("#stats").inner_text()
    page.screenshot(path=str(SCREENSHOTS / f"stats-euchre-hi-{viewport['width']}-full.png"), full_page=True)
    page.select_option("#lang-select", "en")
    # Another game, not played yet: said plainly.
    page.locator('.stats-games a[href="#/stats/doppelkopf"]').click()
    page.wait_for_selector("#stats-empty")
    for lang in ("de", "hi", "th"):
        page.select_option("#lang-select", lang)
        page.wait_for_function("lang => document.documentElement.lang === lang", arg=lang)
        page.wait_for_selector("#stats-empty")
        assert "stats." not in page.locator("#stats").inner_text()
    page.select_option("#lang-select", "en")


def local(p) -> str:
    """The server as ``localhost``: a passkey's RP id must be a host name, not an address."""
    return p.server.url.replace("127.0.0.1", "localhost")


def open_local(p, hash_: str = "#/") -> None:
    p.page.goto(f"{local(p)}/?speed=0.05{hash_}")
    p.page.wait_for_selector("body[data-ready]")


def virtual_authenticator(p) -> tuple[object, str]:
    cdp = p.context.new_cdp_session(p.page)
    cdp.send("WebAuthn.enable")
    found = cdp.send("WebAuthn.addVirtualAuthenticator", {"options": {
        "protocol": "ctap2", "transport": "internal", "hasResidentKey": True, "hasUserVerification": True,
        "isUserVerified": True, "automaticPresenceSimulation": True}})
    return cdp, found["authenticatorId"]


def identity_cookie(p) -> str:
    return next(c["value"] for c in p.context.cookies() if c["name"] == COOKIE)


def test_a_passkey_brings_the_identity_back_in_a_cleared_browser(make_page):
    first = make_page(viewport=PHONE)
    cdp, authenticator = virtual_authenticator(first)
    open_local(first)
    page = first.page
    page.wait_for_selector("#passkey-sign-in")  # a fresh identity is offered its passkey
    assert small_controls(page, ".home") == [] and not overflows(page)
    first.shot("home-passkey-sign-in-390x844")
    assert page.evaluate("fetch('api/nickname', {method: 'PUT', headers: {'Content-Type': 'application/json'},"
                         " body: JSON.stringify({nickname: 'Passkey Pia'})}).then(r => r.status)") == 200
    page.locator("#settings-button").click()
    page.wait_for_selector("dialog[open] #passkey-add")
    page.locator("#passkey-add").click()
    page.wait_for_selector("#passkey-list li[data-passkey]")
    assert violations(page) == []
    assert small_controls(page, "dialog[open] .passkeys") == []
    first.shot("settings-passkey-390x844")
    credentials = cdp.send("WebAuthn.getCredentials", {"authenticatorId": authenticator})["credentials"]
    assert len(credentials) == 1 and credentials[0]["isResidentCredential"] and credentials[0]["rpId"] == "localhost"

    # A cleared browser (a fresh profile: no cookie, no storage) on a device
    # that holds the same passkey (as a synced passkey would be).
    second = make_page(viewport=DESKTOP)
    cdp2, authenticator2 = virtual_authenticator(second)
    cdp2.send("WebAuthn.addCredential", {"authenticatorId": authenticator2, "credential": credentials[0]})
    open_local(second)
    assert identity_cookie(second) != identity_cookie(first)
    second.page.wait_for_selector("#passkey-sign-in")
    assert violations(second.page) == []
    second.shot("home-passkey-sign-in-desktop")
    second.page.locator("#passkey-sign-in").click()
    second.page.wait_for_selector("#toast.show")
    assert "Passkey Pia" in second.page.locator("#toast").inner_text()
    assert identity_cookie(second) == identity_cookie(first)
    assert second.page.evaluate("fetch('api/nickname').then(r => r.json())") == {"nickname": "Passkey Pia"}
    second.page.wait_for_selector("#passkey-sign-in", state="detached")  # the identity is an old one now

    # The same answer cannot sign in twice, and a removed passkey signs in nobody.
    page.locator("#passkey-list li[data-passkey] button").click()
    page.wait_for_selector("#passkey-list li.empty")
    third = make_page(viewport=DESKTOP)
    cdp3, authenticator3 = virtual_authenticator(third)
    cdp3.send("WebAuthn.addCredential", {"authenticatorId": authenticator3, "credential": credentials[0]})
    open_local(third)
    third.page.locator("#passkey-sign-in").click()
    third.page.wait_for_function("() => document.querySelector('#passkey-sign-in-out').textContent.length > 0")
    assert third.page.locator("#passkey-sign-in-out").inner_text() == "The server refused the passkey. Try again."
    assert identity_cookie(third) != identity_cookie(first)
    assert third.errors == ["Failed to load resource: the server responded with a status of 400 (Bad Request)"]
    third.errors.clear()  # the refusal this test asked for


def test_the_chart_draws_accuracy_once_games_have_an_analysis(make_page):
    """The analyses will fill ``accuracy``; the chart's second line is drawn
    from it (here the server's answer is given an accuracy for two games)."""
    p = make_page(viewport=PHONE)
    p.open("#/")
    finish_matches(p, "euchre", ["accuracy-1", "accuracy-2", "accuracy-3"])
    page = p.page

    def with_accuracy(route):
        stats = route.fetch().json()
        games = [g["game_id"] for g in stats["recent"]]
        stats["accuracy"] = [{"game_id": games[0], "accuracy": 0.62}, {"game_id": games[2], "accuracy": 0.81}]
        route.fulfill(json=stats)

    page.route("**/api/stats?game=euchre", with_accuracy)
    p.open("#/stats/euchre")
    page.wait_for_selector("svg.chart polyline.accuracy")
    assert len(page.locator("svg.chart polyline.accuracy").get_attribute("points").split()) == 2
    assert page.locator(".legend .key.accuracy").count() == 1
    assert violations(page) == []
    p.shot("stats-accuracy-390x844")


def test_an_older_identity_finds_its_passkey_sign_in_in_the_another_device_box(make_page):
    p = make_page(viewport=SMALL_PHONE)
    open_local(p)
    p.age_identity(days=1)
    page = p.page
    page.reload()
    page.wait_for_selector("body[data-ready] .identity-panel")
    assert page.locator(".home > .passkey-sign-in").count() == 0  # not at the top: this identity is no fresh one
    page.locator(".identity-panel summary").click()
    page.wait_for_selector(".identity-panel #passkey-sign-in")
    assert small_controls(page, ".identity-panel") == [] and not overflows(page)
    assert violations(page) == []
