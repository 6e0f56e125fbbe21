"""The UTC day: the daily deal's, the leaderboard's and the ranking's clock."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone


def utc_day(now: datetime | None = None) -> str:
    return (now or datetime.now(timezone.utc)).strftime("%Y-%m-%d")


def day_start(day: str) -> datetime:
    """When the UTC day ``day`` (``YYYY-MM-DD``) began."""
    return datetime.strptime(day, "%Y-%m-%d").replace(tzinfo=timezone.utc)


def previous_day(day: str) -> str:
    return utc_day(day_start(day) - timedelta(days=1))


__all__ = ["day_start", "previous_day", "utc_day"]
