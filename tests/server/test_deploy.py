"""The example nginx configuration of docs/deploy.md (deploy/nginx.conf):
nginx accepts it, and two server processes on one database behind it serve a
game and its live stream (the stream is not buffered: an event arrives while
the connection stays open)."""

from __future__ import annotations

import re
import shutil
import subprocess
import time
from pathlib import Path

import httpx

from tests.server.conftest import need
from tests.harness import ServerProcess, free_port, read_events

CONFIG = Path(__file__).resolve().parents[2] / "deploy" / "nginx.conf"


def configured(folder: Path, upstreams: list[int], port: int) -> Path:
    """The example with this test's upstreams and port (and nothing else changed)."""
    text = CONFIG.read_text()
    servers = "".join(f"        server 127.0.0.1:{p} max_fails=3 fail_timeout=10s;\n" for p in upstreams)
    text, count = re.subn(r"(        server 10\.0\.0\.\d+:80\d\d[^\n]*\n)+", servers, text)
    assert count == 1
    text = text.replace("listen 80;", f"listen 127.0.0.1:{port};")
    path = folder / "nginx.conf"
    path.write_text(text)
    return path


def nginx(folder: Path, config: Path, *args: str, directives: str = "") -> list[str]:
    """An nginx command line with its pid file and error log in ``folder``."""
    return ["nginx", "-p", str(folder), "-c", str(config),
            "-g", f"pid {folder}/nginx.pid; error_log {folder}/error.log; {directives}", *args]


def test_the_example_nginx_configuration_proxies_requests_and_live_streams(tmp_path):
    need(shutil.which("nginx") is not None, "nginx is not installed (apt-get install nginx-light)")
    (tmp_path / "logs").mkdir()
    url = f"sqlite:///{tmp_path / 'shared.db'}"
    servers = [ServerProcess(url), ServerProcess(url)]
    port = free_port()
    config = configured(tmp_path, [s.port for s in servers], port)
    checked = subprocess.run(nginx(tmp_path, config, "-t"), capture_output=True, text=True)
    assert checked.returncode == 0, checked.stderr
    proxy = subprocess.Popen(nginx(tmp_path, config, directives="daemon off;"), stderr=subprocess.PIPE)
    try:
        for server in servers:
            server.start()
        http = httpx.Client(base_url=f"http://127.0.0.1:{port}", timeout=30)
        deadline = time.monotonic() + 20
        while True:
            try:
                if http.get("/healthz").status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            assert time.monotonic() < deadline, "nginx did not come up"
            time.sleep(0.1)
        state = http.post("/api/games", json={"game": "euchre"}).json()
        while state["thinking"] is not None or not state["view"]["legal"]:
            time.sleep(0.05)
            state = http.get(f"/api/games/{state['id']}").json()
        with http.stream("GET", f"/api/games/{state['id']}/events", params={"version": state["version"]}) as stream:
            assert stream.headers["content-type"].startswith("text/event-stream")
            answer = http.post(f"/api/games/{state['id']}/actions",
                               json={"action": state["view"]["legal"][0], "version": state["version"]})
            assert answer.status_code == 200, answer.text
            for kind, data in read_events(stream):
                if kind == "step":
                    assert data["version"] == state["version"] + 1  # the person's step, live through nginx
                    break
    finally:
        proxy.terminate()
        proxy.wait(10)
        for server in servers:
            server.stop()
