"""The table's clocks, as plain arithmetic on times it is given (no Kivy, no wall clock of its
own, so tests feed it times): the turn clock (count-up, or a countdown against the table's
limit), each seat's time over the whole game (a chess clock: the awaited seat's clock runs) and
the game's length. Paused, nothing runs. ``to_dict``/``from_dict`` are what the store keeps, so
a resumed game's clocks go on where they stood (the time the app was closed does not count).
"""

from __future__ import annotations

from typing import Any, Sequence

#: The turn clock turns amber in the last fifth of the table's limit, red at it.
AMBER_SHARE = 0.2


def clock_words(seconds: float) -> str:
    """0:42, 12:03, 1:02:11."""
    s = max(0, int(seconds))
    h, m, s = s // 3600, s // 60 % 60, s % 60
    return f"{h}:{m:02d}:{s:02d}" if h else f"{m}:{s:02d}"


class TableClock:
    def __init__(self, seats: int, now: float) -> None:
        self.game = 0.0
        self.seats = [0.0] * seats
        self.turn = 0.0
        self.turn_key: list[Any] | None = None
        self.seat: int | None = None
        self.paused = False
        self.cued = False          # the limit's cue sounded for this turn
        self._since = now

    # -- time passing ----------------------------------------------------------------------
    def advance(self, now: float) -> None:
        """Count the time since the last call on every running clock."""
        spent = max(0.0, now - self._since)
        self._since = now
        if self.paused:
            return
        self.game += spent
        self.turn += spent
        if self.seat is not None and 0 <= self.seat < len(self.seats):
            self.seats[self.seat] += spent

    def turn_changed(self, key: Sequence[Any], seat: int | None, now: float) -> bool:
        """The game moved on: the time so far goes to the seat that was awaited; a new turn
        (``key``) restarts the turn clock. Returns whether it was a new turn."""
        self.advance(now)
        self.seat = seat if isinstance(seat, int) else None
        key = list(key)
        if key == self.turn_key:
            return False
        self.turn_key, self.turn, self.cued = key, 0.0, False
        return True

    def pause(self, now: float) -> None:
        self.advance(now)
        self.paused = True

    def resume(self, now: float) -> None:
        self.advance(now)  # counts nothing: it was paused
        self.paused = False

    # -- reading ---------------------------------------------------------------------------
    def level(self, limit: int) -> str:
        """"" (plenty of time or no limit), "amber" (the last fifth), "red" (at or past it)."""
        if not limit:
            return ""
        if self.turn >= limit:
            return "red"
        return "amber" if self.turn >= limit * (1 - AMBER_SHARE) else ""

    def turn_words(self, limit: int) -> str:
        """Count-up without a limit; the time left with one; "+0:05" once it has passed."""
        if not limit:
            return clock_words(self.turn)
        if self.turn >= limit:
            return "+" + clock_words(self.turn - limit)
        return clock_words(limit - int(self.turn))

    def reached_limit(self, limit: int) -> bool:
        """True once per turn, the first time it is asked at or past the limit (the cue)."""
        if limit and not self.cued and self.turn >= limit:
            self.cued = True
            return True
        return False

    # -- keeping ---------------------------------------------------------------------------
    def to_dict(self) -> dict[str, Any]:
        return {"game": round(self.game, 1), "seats": [round(s, 1) for s in self.seats],
                "turn": round(self.turn, 1), "turn_key": self.turn_key, "seat": self.seat,
                "paused": self.paused, "cued": self.cued}

    @classmethod
    def from_dict(cls, data: dict[str, Any] | None, seats: int, now: float) -> "TableClock":
        """The clocks as kept (a new game's, or an unreadable record's: all at zero)."""
        clock = cls(seats, now)
        if not isinstance(data, dict):
            return clock
        try:
            kept = [float(s) for s in data.get("seats", [])][:seats]
            clock.seats[:len(kept)] = kept
            clock.game, clock.turn = float(data.get("game", 0)), float(data.get("turn", 0))
            key = data.get("turn_key")
            clock.turn_key = list(key) if isinstance(key, list) else None
            seat = data.get("seat")
            clock.seat = seat if isinstance(seat, int) and 0 <= seat < seats else None
            clock.paused, clock.cued = bool(data.get("paused")), bool(data.get("cued"))
        except (TypeError, ValueError):
            return cls(seats, now)
        return clock
