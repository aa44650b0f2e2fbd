"""A game's times, from the store's ISO start and finish (``Store.played``): how long it took
(the result screens), when it was played (Home, History, a game's detail, each through
:func:`game_when`); one reading of the times and one way of writing hours and minutes."""

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


def when(iso: str) -> str:
    """'today 14:32', 'yesterday 09:05' or 'Sat 3 May 2025 14:32', in local time."""
    try:
        moment = datetime.fromisoformat(iso.replace("Z", "+00:00"))
    except (AttributeError, ValueError):
        return str(iso)
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=timezone.utc)
    moment = moment.astimezone()
    days = (datetime.now().astimezone().date() - moment.date()).days
    day = {0: "today", 1: "yesterday"}.get(days, f"{moment:%a} {moment.day} {moment:%b %Y}")
    return f"{day} {moment:%H:%M}"


def game_when(game) -> str:
    """When a game was played, the same on every screen that names it: when it began (a
    History row's ``Play.started``, a store row's ``GameInfo.created_at``; once Home
    said 14:50, the last step, and History 14:43, the start, for the same game). A game in
    play says when it was last played beside it, in those words."""
    started = getattr(game, "started", None) or getattr(game, "created_at")
    return when(started)
