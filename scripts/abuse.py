"""Abuse cases against a real server process, with figures: what the limits must hold.

Starts ``tricktable serve`` on a free loopback port with its own SQLite file and
the production limits, then: a 50 MB body (four at once) with the server's
memory before and after; a locked database; 300 nickname writes; 300 new
games in 5 s; 30 throwaway identities from one address.  Prints one JSON
object (``--json``) or lines.  Takes well under a minute.

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

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # the repository root: the tests' server harness
from tests.harness import ServerProcess  # noqa: E402


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
    if args.json:
        print(json.dumps(results))
    else:
        for name, figures in results.items():
            print(f"{name}: {figures}")


if __name__ == "__main__":
    main()
