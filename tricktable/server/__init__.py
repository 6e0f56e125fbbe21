"""The web card room's server: the referee's HTTP API and the static page."""

from __future__ import annotations

from tricktable.server.http.app import create_app

__all__ = ["create_app"]
