"""How long a game took, from the store's ISO start and finish (``Store.played``), for the
result screens: one reading of the times and one way of writing hours and minutes."""

from __future__ import annotations

from datetime import datetime, timezone


def minutes_played(started: str | None, finished: str | None) -> int | None:
    """Whole minutes (rounded) from start to finish (to now while unfinished); None when the
    start cannot be read."""
    try:
        begin = datetime.fromisoformat(str(started).replace("Z", "+00:00"))
        end = (datetime.fromisoformat(finished.replace("Z", "+00:00")) if finished
               else datetime.now(timezone.utc))
        return max(0, round((end - begin).total_seconds() / 60))
    except (TypeError, ValueError):  # unreadable, or one time with a zone and one without
        return None


def hours_minutes(minutes: int) -> str:
    """'42 min', '1 h 05 min'."""
    return f"{minutes} min" if minutes < 60 else f"{minutes // 60} h {minutes % 60:02d} min"


def local_clock(iso: str) -> str:
    """'19:02' in the table's own time zone (the store keeps UTC)."""
    moment = datetime.fromisoformat(iso.replace("Z", "+00:00"))
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=timezone.utc)
    return f"{moment.astimezone():%H:%M}"
