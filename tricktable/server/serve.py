"""``tricktable serve``: run the app under uvicorn."""

from __future__ import annotations

import uvicorn

from tricktable.server.app import create_app
from tricktable.store import default_database_url


def serve(host: str = "127.0.0.1", port: int = 8000, database: str | None = None) -> None:
    url = database or default_database_url()
    app = create_app(url)
    shown = "[::1]" if host == "::1" else host
    # Printed before uvicorn starts so scripts (and people) know where to go.
    print(f"tricktable: serving the card room at http://{shown}:{port}/ (database: {_safe(url)})", flush=True)
    uvicorn.run(app, host=host, port=port, log_level="warning")


def _safe(url: str) -> str:
    """The URL without a password, for printing."""
    if "@" in url and "://" in url:
        scheme, rest = url.split("://", 1)
        return f"{scheme}://…@{rest.split('@', 1)[1]}"
    return url
