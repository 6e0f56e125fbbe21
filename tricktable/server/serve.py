"""``tricktable serve``: run the app under uvicorn."""

from __future__ import annotations

import os

import uvicorn

from tricktable.bots import BOTS
from tricktable.server.app import create_app
from tricktable.server.scheduler import BotFactory, default_bot_factory, forced_bot
from tricktable.store import default_database_url

GRACEFUL_SHUTDOWN_SECONDS = 3
"""Open event streams never end by themselves; on shutdown they get this long."""


def bot_factory_from_environment() -> BotFactory:
    """``TRICKTABLE_BOT`` (e.g. ``random`` for fast tests) seats that bot at
    every level; unset, the levels' own players sit."""
    forced = os.environ.get("TRICKTABLE_BOT")
    if not forced:
        return default_bot_factory
    if forced not in BOTS:
        raise SystemExit(f"TRICKTABLE_BOT={forced!r} is not a bot; known: {', '.join(BOTS)}")
    return forced_bot(forced)


def serve(host: str = "127.0.0.1", port: int = 8000, database: str | None = None) -> None:
    url = database or default_database_url()
    app = create_app(url, bot_factory=bot_factory_from_environment())
    shown = "[::1]" if host == "::1" else host
    # Printed before uvicorn starts so scripts (and people) know where to go.
    print(f"tricktable: serving the card room at http://{shown}:{port}/ (database: {_safe(url)})", flush=True)
    uvicorn.run(app, host=host, port=port, log_level="warning", timeout_graceful_shutdown=GRACEFUL_SHUTDOWN_SECONDS)


def _safe(url: str) -> str:
    """The URL without a password, for printing."""
    if "@" in url and "://" in url:
        scheme, rest = url.split("://", 1)
        return f"{scheme}://…@{rest.split('@', 1)[1]}"
    return url
