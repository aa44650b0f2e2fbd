"""A press the card could not save waits for the card, and is applied once it works.

A full SD card, a read-only file or a lock held by another program refuse a step before it is
applied (``NotSaved``): nothing changed. The table should not have to notice when the card
works again and press once more; so the press is kept and tried again every few seconds (a
clock runs only while one waits), and before any new press. The same button or command pressed
again meanwhile is the same press, applied once. A different press waits behind it: it is
refused while the card still fails, so the order the table pressed in is the order stored.
Dice are never taken as a repeat: two readings of one face are two rolls."""

from __future__ import annotations

from typing import Any, Callable

from kivy.clock import Clock

from companion.core.errors import CompanionError, NotSaved
from companion.core.model import Command, InputEvent

#: How often a press the card could not save is tried again (only while one waits).
RETRY_SECONDS = 2.0


def same_press(key: Command | InputEvent) -> Any:
    """What makes two presses one: the command, or the button (never a die)."""
    if isinstance(key, InputEvent):
        return None if key.kind == "die" else ("button", key.id)
    return key


class CardWait:
    """At most one press waiting for the card; ``said`` gets the words for the banner ("" when
    nothing waits) and ``refused`` a press the rules no longer take once it can be saved."""

    def __init__(self, said: Callable[[str], None], refused: Callable[[str], None]) -> None:
        self.said, self.refused = said, refused
        self._waiting: tuple[Any, Any, Callable[[], Any]] | None = None  # session, key, play
        self._clock = None

    @property
    def busy(self) -> bool:
        return self._waiting is not None

    def play(self, session: Any, key: Command | InputEvent, play: Callable[[], Any]) -> Any:
        """``play()`` after the waiting press; NotSaved when the card cannot save (this press
        then waits, unless another already does); the waiting press's result for a repeat."""
        same = same_press(key)
        if self._waiting is not None:
            repeat = same is not None and self._waiting[:2] == (session, same)
            try:
                done = self._play_waiting()
            except NotSaved as problem:
                if not repeat:
                    self.said(f"{problem}. The first press is still waiting; this one was not "
                              "kept.")
                raise
            if repeat:
                return done
        try:
            return play()
        except NotSaved as problem:
            self._waiting = (session, same, play)
            self._clock = Clock.schedule_interval(self._retry, RETRY_SECONDS)
            self.said(f"{problem}. It is applied by itself as soon as it can be saved; new "
                      "presses wait until then.")
            raise

    def _play_waiting(self) -> Any:
        _, _, play = self._waiting
        try:
            done = play()
        except NotSaved:
            raise
        except CompanionError as refusal:  # the game moved on: say so, keep nothing
            self.cancel()
            self.refused(f"The press that waited for the card was not applied: {refusal}")
            return None
        self.cancel()
        return done

    def _retry(self, _dt) -> bool:
        try:
            self._play_waiting()
        except NotSaved:
            return True
        return False

    def cancel(self) -> None:
        """Give up on the waiting press (the table said so, or left the game)."""
        if self._clock is not None:
            self._clock.cancel()
            self._clock = None
        self._waiting = None
        self.said("")
