"""The page's own files, and nothing else from the web folder."""

from __future__ import annotations

from pathlib import PurePosixPath
from fastapi.staticfiles import StaticFiles
from starlette.exceptions import HTTPException
from starlette.responses import Response
from starlette.routing import Match, Mount
from starlette.types import Scope

PAGE_SUFFIXES = frozenset({".html", ".css", ".js", ".json", ".svg", ".md", ".png", ".woff2"})
"""What the page is made of; a Python file (``/__init__.py``) or anything else
that happens to sit in the package folder is not served."""


API_PREFIXES = ("/api/", "/healthz", "/openapi.json")
"""Paths of the API: never the page's files, so that a wrong method on an API
path is the API's 405 (with its own ``Allow``), an unknown API path its 404."""


class PageMount(Mount):
    """The page's files at ``/``, for every path but the API's."""

    def matches(self, scope: Scope) -> tuple[Match, Scope]:
        if scope.get("type") == "http" and scope.get("path", "").startswith(API_PREFIXES):
            return Match.NONE, {}
        return super().matches(scope)


class PageFiles(StaticFiles):
    async def get_response(self, path: str, scope: Scope) -> Response:
        suffix = PurePosixPath(path).suffix
        if suffix and suffix not in PAGE_SUFFIXES:
            raise HTTPException(status_code=404)
        return await super().get_response(path, scope)


__all__ = ["PageFiles", "PageMount", "PAGE_SUFFIXES"]
