"""Abuse cases against a real server process, with figures.

Starts ``tricktable serve`` on a free loopback port with its own SQLite file and
the production limits, then: a 50 MB body (four at once) with the server's
memory before and after; a locked database (one write, then 24 actions at
once while the file is held for 10 s); 300 nickname writes; 300 new games in
5 s; 30 throwaway identities from one address; another identity (or none)
at someone's game on every route; a fresh identity at the daily; bad cookies,
``Last-Event-ID`` values and nicknames; 40 hints at once; floods of transfer
codes, commitments and event streams; creations refused while the database
is locked.  Prints one JSON object (``--json``) or lines.  Takes about a minute.

    .venv/bin/python scripts/abuse.py
"""

from __future__ import annotations

import argparse
import json
import sqlite3
import sys
import tempfile
import threading
import time
from pathlib import Path

import httpx

from collections import Counter
from typing import Callable

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # the repository root: the tests' server harness
from tests.harness import ServerProcess, backdate_identities  # noqa: E402
from tricktable.server.trust.identity import COOKIE  # noqa: E402
from tricktable.store import Store  # noqa: E402


def rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


def big_bodies(url: str, pid: int) -> dict:
    body = b'{"game": "euchre", "pad": "' + b"x" * (50 * 1024 * 1024) + b'"}'
    before, codes, times = rss_mb(pid), [], []

    def send() -> None:
        started = time.monotonic()
        try:
            answer = httpx.post(f"{url}/api/games", content=body, headers={"Content-Type": "application/json"}, timeout=30)
            codes.append(answer.status_code)
        except httpx.HTTPError as error:  # the server may close the connection after its 413
            codes.append(type(error).__name__)
        times.append(time.monotonic() - started)

    threads = [threading.Thread(target=send) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return {"statuses": codes, "max_seconds": round(max(times), 2), "rss_mb_before": round(before, 1),
            "rss_mb_after": round(rss_mb(pid), 1)}


def nickname_flood(url: str) -> dict:
    with httpx.Client(timeout=10) as http:
        codes = [http.put(f"{url}/api/nickname", json={"nickname": f"Name {i}"}).status_code for i in range(300)]
    return {"accepted": codes.count(200), "refused_429": codes.count(429)}


def game_flood(url: str) -> dict:
    codes, started = [], time.monotonic()
    with httpx.Client(timeout=10) as http:
        while len(codes) < 300 and time.monotonic() - started < 5:
            codes.append(http.post(f"{url}/api/games", json={"game": "euchre"}).status_code)
    return {"sent": len(codes), "created": codes.count(201), "refused_429": codes.count(429),
            "seconds": round(time.monotonic() - started, 2)}


def throwaway_identities(url: str) -> dict:
    issued, practice, refused = 0, 0, 0
    for _ in range(30):
        with httpx.Client(timeout=10) as http:  # a fresh private window each time
            answer = http.post(f"{url}/api/daily/euchre")
            if answer.status_code == 429:
                refused += 1
                continue
            issued += 1
            practice += answer.json()["daily"]["ranked"] is False
    return {"tried": 30, "issued": issued, "practice": practice, "refused_429": refused}


def locked_database(url: str, path: str) -> dict:
    locker = sqlite3.connect(path, timeout=1, isolation_level=None)
    locker.execute("BEGIN EXCLUSIVE")
    try:
        with httpx.Client(timeout=10) as http:
            started = time.monotonic()
            answer = http.post(f"{url}/api/games", json={"game": "euchre"})  # issuing its identity must write too
            took = time.monotonic() - started
            health = http.get(f"{url}/healthz").status_code
    finally:
        locker.execute("ROLLBACK")
        locker.close()
    return {"status": answer.status_code, "retry_after": answer.headers.get("retry-after"),
            "seconds": round(took, 2), "healthz": health}


def tally(codes: list[int]) -> dict[str, int]:
    return {str(code): count for code, count in sorted(Counter(codes).items())}


def person(url: str) -> httpx.Client:
    http = httpx.Client(base_url=url, timeout=30)
    http.post("/api/identity").raise_for_status()
    return http


def open_game(http: httpx.Client, game: str = "euchre") -> dict:
    """A new game once the person may act in it."""
    state = http.post("/api/games", json={"game": game}).json()
    for _ in range(200):
        if state["thinking"] is None and state["view"]["legal"]:
            return state
        time.sleep(0.05)
        state = http.get(f"/api/games/{state['id']}").json()
    raise RuntimeError("the computer players never handed the turn over")


def strangers(url: str) -> dict:
    """Identity A's game asked by identity B and by a client without any,
    on every route: the statuses."""
    owner = person(url)
    state = open_game(owner)
    game = f"/api/games/{state['id']}"
    action = {"action": state["view"]["legal"][0], "version": state["version"]}
    codes = []
    for http in (person(url), httpx.Client(base_url=url, timeout=30)):
        codes += [http.get(game).status_code, http.post(f"{game}/actions", json=action).status_code,
                  http.post(f"{game}/actions", json={**action, "via": "route"}).status_code,
                  http.get(f"{game}/hint", params={"version": state["version"]}).status_code,
                  http.get(f"{game}/record").status_code, http.post(f"{game}/share").status_code]
        with http.stream("GET", f"{game}/events", params={"version": state["version"]}) as stream:
            codes.append(stream.status_code)
    unchanged = owner.get(game).json()["version"] == state["version"]
    return {"requests": len(codes), "statuses": tally(codes), "game_unchanged": unchanged}


def daily_preview(url: str, database: str) -> dict:
    """A regular's ranked attempt and a fresh identity's practice attempt:
    the days they are dealt from, and whether the first hands are equal."""
    regular = person(url)
    store = Store(database)
    try:
        backdate_identities(store, 2, regular.cookies[COOKIE])
    finally:
        store.close()
    ranked = regular.post("/api/daily/euchre").json()
    fresh = httpx.Client(base_url=url, timeout=30).post("/api/daily/euchre").json()
    return {"ranked": ranked["daily"]["ranked"], "ranked_deals_day": ranked["daily"]["deals_day"],
            "practice": not fresh["daily"]["ranked"], "practice_deals_day": fresh["daily"]["deals_day"],
            "practice_reason": fresh["daily"].get("practice_reason"),
            "same_first_hand": ranked["view"]["hand"] == fresh["view"]["hand"]}


def bad_input(url: str) -> dict:
    """Non-ASCII cookies on every route that reads the identity, bad
    ``Last-Event-ID`` values, a nickname of one letter and 65 accents,
    look-alike and invisible nicknames: the statuses."""
    owner = person(url)
    state = open_game(owner)
    routes = [("POST", "/api/daily/euchre", None), ("PUT", "/api/nickname", {"nickname": "Anna"}),
              ("POST", "/api/games", {"game": "euchre"}), ("GET", "/api/nickname", None),
              ("POST", "/api/identity/transfer", None), ("POST", "/api/commitments", None),
              ("GET", f"/api/games/{state['id']}", None), ("GET", f"/api/games/{state['id']}/record", None),
              ("POST", f"/api/games/{state['id']}/actions", {"action": "pass", "version": 1})]
    cookie_codes = []
    for value in ("caf\u00e9.c2ln", "\u00b2", "x.\u00ff"):
        raw = {"cookie": f"{COOKIE}=".encode() + value.encode()}
        with httpx.Client(base_url=url, timeout=30) as http:
            cookie_codes += [http.request(method, path, json=body, headers=raw).status_code
                             for method, path, body in routes]
            cookie_codes.append(http.post("/api/identity", headers=raw).status_code)
    stream_codes = []
    for value in ("\u00b2".encode(), b"9" * 5000, b"-1"):
        with owner.stream("GET", f"/api/games/{state['id']}/events", params={"version": state["version"]},
                          headers={"last-event-id": value}) as stream:
            stream_codes.append(stream.status_code)
    nickname_codes = []
    for taken, attempt in (("ABE", "\u0391\u0392\u0395"), ("Ada", "Ada\ufe0f"), ("Lil", "LiI")):
        nickname_codes.append(person(url).put("/api/nickname", json={"nickname": taken}).status_code)
        nickname_codes.append(person(url).put("/api/nickname", json={"nickname": attempt}).status_code)
    accents = person(url).put("/api/nickname", json={"nickname": "e" + "\u0301" * 65}).status_code
    return {"bad_cookies": tally(cookie_codes), "bad_last_event_ids": tally(stream_codes),
            "look_alike_pairs_first_then_second": nickname_codes, "one_letter_65_accents": accents}


def locked_actions(url: str, path: str) -> dict:
    """24 actions at once while another process holds the SQLite file for 10 s."""
    people = [person(url), person(url)]
    games = [(http, open_game(http)) for http in people for _ in range(12)]
    answers: list[tuple[int, float]] = []

    def send(http: httpx.Client, state: dict) -> None:
        started = time.monotonic()
        answer = http.post(f"/api/games/{state['id']}/actions",
                           json={"action": state["view"]["legal"][0], "version": state["version"]})
        answers.append((answer.status_code, time.monotonic() - started))

    locker = sqlite3.connect(path, timeout=1, isolation_level=None)
    locker.execute("BEGIN EXCLUSIVE")
    try:
        threads = [threading.Thread(target=send, args=game) for game in games]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        time.sleep(max(0.0, 10 - max(took for _status, took in answers)))
    finally:
        locker.execute("ROLLBACK")
        locker.close()
    lost = doubled = 0
    for (http, state), (status, _took) in zip(games, answers):
        now = http.get(f"/api/games/{state['id']}").json()["version"]
        lost += status == 200 and now == state["version"]
        doubled += status != 200 and now != state["version"]
    return {"actions": len(answers), "statuses": tally([status for status, _took in answers]),
            "max_seconds": round(max(took for _status, took in answers), 2), "lost": lost, "doubled": doubled}


def hint_flood(url: str) -> dict:
    """40 hints at once from one client over its games, and ``/healthz`` meanwhile."""
    http = person(url)
    games = [open_game(http, "doppelkopf") for _ in range(8)]
    codes: list[int] = []
    times: list[float] = []

    def ask(state: dict) -> None:
        started = time.monotonic()
        codes.append(http.get(f"/api/games/{state['id']}/hint", params={"version": state["version"]}).status_code)
        times.append(time.monotonic() - started)

    threads = [threading.Thread(target=ask, args=(games[n % len(games)],)) for n in range(40)]
    for thread in threads:
        thread.start()
    started = time.monotonic()
    health = httpx.get(f"{url}/healthz", timeout=30).status_code
    health_seconds = time.monotonic() - started
    for thread in threads:
        thread.join()
    return {"hints": tally(codes), "slowest_seconds": round(max(times), 2), "healthz": health,
            "healthz_seconds": round(health_seconds, 2)}


def floods(url: str, path: str) -> dict:
    """Transfer codes, commitments and event streams from one identity, and
    game creations refused while the database is locked."""
    http = person(url)
    transfer = [http.post("/api/identity/transfer").status_code for _ in range(10)]
    commitments = [http.post("/api/commitments").status_code for _ in range(40)]
    state = open_game(http)
    streams, opened = [], []
    for _ in range(12):
        stream = http.stream("GET", f"/api/games/{state['id']}/events", params={"version": state["version"]})
        answer = stream.__enter__()
        streams.append(answer.status_code)
        opened.append(stream)
    for stream in opened:
        stream.__exit__(None, None, None)
    creator = person(url)
    locker = sqlite3.connect(path, timeout=1, isolation_level=None)
    locker.execute("BEGIN EXCLUSIVE")
    try:
        refused = [creator.post("/api/games", json={"game": "euchre"}).status_code for _ in range(40)]
    finally:
        locker.execute("ROLLBACK")
        locker.close()
    after = [creator.post("/api/games", json={"game": "euchre"}).status_code for _ in range(3)]
    return {"transfer_codes_10": tally(transfer), "commitments_40": tally(commitments),
            "event_streams_12": tally(streams), "creations_while_locked_40": tally(refused),
            "creations_after": tally(after)}


def on_fresh_server(case: "Callable[[str, str], dict]") -> dict:
    """``case(url, database path)`` on a new server process with the production limits."""
    folder = tempfile.mkdtemp(prefix="tricktable-abuse-")
    path = f"{folder}/abuse.db"
    server = ServerProcess(f"sqlite:///{path}", limit_scale=1).start()
    try:
        return case(server.url, path)
    finally:
        server.stop()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    folder = tempfile.mkdtemp(prefix="tricktable-abuse-")
    path = f"{folder}/abuse.db"
    # Production limits (scale 1), the uniform random bot to keep it quick.
    server = ServerProcess(f"sqlite:///{path}", limit_scale=1).start()
    try:
        assert server.process is not None
        results = {
            "body_50mb_x4": big_bodies(server.url, server.process.pid),
            "locked_database": locked_database(server.url, path),
            "nicknames_300": nickname_flood(server.url),
            "games_300_in_5s": game_flood(server.url),
            "throwaway_identities_30": throwaway_identities(server.url),
        }
    finally:
        server.stop()
    # Each of these on a server of its own: together they need more identities
    # than one address may make in an hour.
    results["another_identity_or_none"] = on_fresh_server(lambda url, _path: strangers(url))
    results["daily_preview"] = on_fresh_server(lambda url, path: daily_preview(url, f"sqlite:///{path}"))
    results["bad_input"] = on_fresh_server(lambda url, _path: bad_input(url))
    results["locked_10s_24_actions"] = on_fresh_server(locked_actions)
    results["hints_40_at_once"] = on_fresh_server(lambda url, _path: hint_flood(url))
    results["floods"] = on_fresh_server(floods)
    if args.json:
        print(json.dumps(results))
    else:
        for name, figures in results.items():
            print(f"{name}: {figures}")


if __name__ == "__main__":
    main()
