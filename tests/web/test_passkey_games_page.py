"""A passkey used in a browser that already has an identity with games: the
page says first how many games stay behind and offers to bring them along;
brought, they are the passkey identity's ("My games" lists them).  A browser
whose identity has a passkey of its own is told its games stay with it, and
may cancel.  Screenshots of the question on a 390×844 phone and a desktop."""

from __future__ import annotations

import random

from tricktable.catalog import get_spec
from tricktable.core.record import record_of
from tricktable.store import Store
from tests.web.conftest import DESKTOP, PHONE, SCREENSHOTS
from tests.web.test_stats_page import (identity_cookie, open_local, small_controls, overflows, violations,
                                       virtual_authenticator)


def own_games(p, seeds: list[str]) -> list[str]:
    """Finished Euchre matches (random legal play) owned by this profile's identity: their ids."""
    owner = identity_cookie(p).split(".")[0]
    store = Store(p.server.database)
    made = []
    try:
        for seed in seeds:
            spec = get_spec("euchre")
            state = spec.new_match(seed, spec.normalize_options({}))
            rng = random.Random(seed)
            while not state.is_terminal():
                state.apply_any(rng.choice(list(state.legal_actions())))
            made.append(store.create_game({**record_of(state).to_json(), "level": "normal"}, "over", owner=owner).id)
    finally:
        store.close()
    return made


def authenticator_of(p) -> tuple[object, str]:
    """``p``'s virtual authenticator (one per browser), made on first use."""
    if not hasattr(p, "authenticator"):
        p.authenticator = virtual_authenticator(p)
    return p.authenticator


def passkey_of(p, nickname: str) -> dict:
    """A passkey registered in Settings to ``p``'s identity (named ``nickname``): the credential."""
    cdp, authenticator = authenticator_of(p)
    open_local(p)
    page = p.page
    assert page.evaluate("name => fetch('api/nickname', {method: 'PUT', headers: {'Content-Type': 'application/json'},"
                         " body: JSON.stringify({nickname: name})}).then(r => r.status)", nickname) == 200
    page.locator("#settings-button").click()
    page.locator("#passkey-add").click()
    page.wait_for_selector("#passkey-list li[data-passkey]")
    page.keyboard.press("Escape")
    return cdp.send("WebAuthn.getCredentials", {"authenticatorId": authenticator})["credentials"][0]


def holding(p, credential: dict) -> None:
    """``p``'s device holds ``credential`` too (a synced passkey)."""
    cdp, authenticator = authenticator_of(p)
    cdp.send("WebAuthn.addCredential", {"authenticatorId": authenticator, "credential": credential})


def start_sign_in(p) -> None:
    page = p.page
    if not page.locator("#passkey-sign-in").is_visible():
        page.locator(".identity-panel summary").click()  # an identity with games: in the "another device" box
    page.locator("#passkey-sign-in").click()
    page.wait_for_selector("dialog[open] #passkey-games")


def history_ids(p) -> set[str]:
    return {g["id"] for g in p.page.evaluate("fetch('api/history?limit=50').then(r => r.json())")["games"]}


def test_the_page_warns_and_brings_the_browsers_games_along(make_page):
    for viewport, name in ((PHONE, "phone"), (DESKTOP, "desktop")):
        # (A passkey of its own each time: a copy of one that signed in already reports a stale counter.)
        owner = make_page(viewport=PHONE)
        credential = passkey_of(owner, f"Pia {name}")
        kept = own_games(owner, [f"pia-{name}"])
        browser = make_page(viewport=viewport)
        holding(browser, credential)
        open_local(browser)
        games = own_games(browser, [f"{name}-1", f"{name}-2"])
        start_sign_in(browser)
        page = browser.page
        question = page.locator("#passkey-games").inner_text()
        assert "2 games played on this browser" in question and "bring them along" in question
        assert page.locator("#passkey-bring").is_visible() and page.locator("#passkey-leave").is_visible()
        assert small_controls(page, "dialog[open]") == [] and not overflows(page) and violations(page) == []
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(SCREENSHOTS / f"passkey-bring-games-{name}.png"))
        before = identity_cookie(browser)
        if name == "phone":
            page.locator("#passkey-bring").click()
            page.wait_for_selector("#toast.show")
            assert page.locator("#toast").inner_text() == "Welcome back, Pia phone. 2 games came along."
            assert identity_cookie(browser) == identity_cookie(owner)
            assert history_ids(browser) >= set(games) | set(kept)
            open_local(browser, "#/games")  # (the passkey's site: localhost)
            for game_id in games:
                page.wait_for_selector(f'.history-entry[data-id="{game_id}"]')
        else:  # left here: they stay with the browser's identity, the passkey's has none of them
            page.locator("#passkey-leave").click()
            page.wait_for_selector("#toast.show")
            assert page.locator("#toast").inner_text() == "Welcome back, Pia desktop."
            assert identity_cookie(browser) == identity_cookie(owner) != before
            assert not history_ids(browser) & set(games)
        assert browser.errors == []


def test_a_browser_whose_identity_has_its_own_passkey_keeps_its_games(make_page):
    owner = make_page(viewport=DESKTOP)
    credential = passkey_of(owner, "Ravi")
    other = make_page(viewport=PHONE)
    own = passkey_of(other, "Mira")  # this browser's identity has a passkey of its own
    # Ravi's passkey on this device; the person picks it (the virtual authenticator, with no chooser,
    # would answer with the first it holds: Mira's is taken off it, still registered to her identity).
    cdp, authenticator = authenticator_of(other)
    cdp.send("WebAuthn.removeCredential", {"authenticatorId": authenticator, "credentialId": own["credentialId"]})
    holding(other, credential)
    games = own_games(other, ["mira-1"])
    before = identity_cookie(other)
    open_local(other)
    start_sign_in(other)
    page = other.page
    assert "has a passkey of its own" in page.locator("#passkey-games").inner_text()
    assert page.locator("#passkey-bring").count() == 0
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / "passkey-own-passkey-phone.png"))
    page.locator("#passkey-cancel").click()  # cancelled: nothing happens
    page.wait_for_selector("dialog[open]", state="detached")
    assert identity_cookie(other) == before and history_ids(other) >= set(games)
    start_sign_in(other)
    page.locator("#passkey-leave").click()
    page.wait_for_selector("#toast.show")
    assert page.locator("#toast").inner_text() == "Welcome back, Ravi."
    assert identity_cookie(other) == identity_cookie(owner) and not history_ids(other) & set(games)
    assert other.errors == []
