"""What the server owes one phone, sent one frame at a time, bounded whatever the phone does.

A page that stops reading (a phone asleep with its socket open, a hostile device that never
reads) must not make the server keep everything it would have sent: before this, every
snapshot was a task of its own writing into the socket's buffer, and a watcher that read
nothing held 7 MB after 6,000 changes of the table, growing without end, while Stop sharing
waited for it and gave up with a TimeoutError. The rules here (docs/security.md):

- One frame in flight per phone; what waits behind it is at most :data:`ANSWERS_KEPT` answers
  in order (the oldest dropped: its press then says "Not received") and *one* snapshot, the
  newest (a newer one replaces the one waiting, since a page only ever draws the newest). A
  beat is only queued when nothing else waits: anything sent tells the page the table is there.
- A frame the phone has not taken within :data:`STUCK_S` ends the connection (aborted: no
  close handshake to wait for), and so does a close that does not finish within
  :data:`CLOSE_S` (:func:`close_within`), so nothing the server does waits on a phone for ever.
"""

from __future__ import annotations

import asyncio
from collections import deque
from typing import Any

#: Seconds a phone may take to take one frame (as long as a page goes without a word before it
#: says "Not connected"): after that its connection is aborted.
STUCK_S = 20.0
#: Answers (and the hello) kept waiting for a phone that is slow to read; a snapshot is one more.
ANSWERS_KEPT = 16
#: Seconds a close may take (the close frame sent, the phone's reply) before it is aborted.
CLOSE_S = 3.0


def abort(ws: Any) -> None:
    """End ``ws``'s connection now: its buffer is dropped and its handler sees it gone."""
    request = getattr(ws, "_req", None)
    transport = request.transport if request is not None else None
    if transport is not None:
        transport.abort()


async def close_within(ws: Any, code: int, message: bytes, seconds: float = CLOSE_S) -> None:
    """Close ``ws`` with ``code``, or abort it when the phone does not take the close in time
    (it reads nothing: the close frame would wait behind what it never took)."""
    abort_later = asyncio.get_running_loop().call_later(seconds, abort, ws)
    try:
        await ws.close(code=code, message=message)   # in this task: no extra turn of the loop
    except (ConnectionError, RuntimeError):
        pass                               # it went away meanwhile: nothing to close
    finally:
        abort_later.cancel()


class Outbox:
    """The frames owed to one phone's ``ws``; the first one queued starts the sender."""

    def __init__(self, ws: Any) -> None:
        self.ws = ws
        self.answers: deque[str] = deque()
        self.snapshot: str | None = None
        self.dropped = 0                   # answers dropped for a phone that did not read
        self._task: asyncio.Future | None = None

    @property
    def waiting(self) -> int:
        """Frames queued and not yet handed to the socket (not counting the one in flight)."""
        return len(self.answers) + (self.snapshot is not None)

    def answer(self, text: str) -> None:
        """An answer (or the hello, or a beat): sent in order, after those before it."""
        if len(self.answers) >= ANSWERS_KEPT:
            self.answers.popleft()
            self.dropped += 1
        self.answers.append(text)
        self._wake()

    def table(self, text: str) -> None:
        """The table as this phone sees it now: replaces a snapshot still waiting."""
        self.snapshot = text
        self._wake()

    def beat(self, text: str) -> None:
        """A beat, only when nothing else waits or is in flight (that says as much)."""
        if self._task is None and not self.waiting:
            self.answer(text)

    def _wake(self) -> None:
        if self._task is None and self.ws is not None and not self.ws.closed:
            self._task = asyncio.ensure_future(self._drain())

    async def _drain(self) -> None:
        try:
            while not self.ws.closed:
                if self.answers:
                    text = self.answers.popleft()
                elif self.snapshot is not None:
                    text, self.snapshot = self.snapshot, None
                else:
                    break
                await asyncio.wait_for(self.ws.send_str(text), STUCK_S)
        except asyncio.TimeoutError:       # it took nothing for STUCK_S: it is not reading
            abort(self.ws)
        except (ConnectionError, RuntimeError):
            pass                           # it went away: its handler cleans up
        finally:
            self._task = None
