"""The page's own files, and nothing else from the web folder."""

from __future__ import annotations

from pathlib import PurePosixPath
from typing import Any

from fastapi.staticfiles import StaticFiles
from starlette.exceptions import HTTPException
from starlette.responses import Response

PAGE_SUFFIXES = frozenset({".html", ".css", ".js", ".json", ".svg", ".md", ".png", ".woff2"})
"""What the page is made of; a Python file (``/__init__.py``) or anything else
that happens to sit in the package folder is not served."""


class PageFiles(StaticFiles):
    async def get_response(self, path: str, scope: Any) -> Response:
        suffix = PurePosixPath(path).suffix
        if suffix and suffix not in PAGE_SUFFIXES:
            raise HTTPException(status_code=404)
        return await super().get_response(path, scope)


__all__ = ["PageFiles", "PAGE_SUFFIXES"]
