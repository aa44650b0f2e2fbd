"""What became of each press a phone sent: the one record that makes a press played at most
once, whatever the network does.

A page that heard nothing back may send its press again, reconnect and ask, or be a second
page of the same link; before this, each arrival was a new press, and a press resent after a
stall was played a second time against a table its phone never saw. Now every press is known
by its key (``ui.web.clients.press_key``: the link's token and the page's id) from the moment
it arrives:

- ``received``: on the inbox, the table has not played it yet;
- ``played`` (the step) or ``refused`` (the words): the table's answer;
- ``lost``: a page asked after it and it had not arrived: from then on it is refused if it
  does arrive (a late copy from a stalled connection), so "it never reached the table" stays
  true and the page may offer to press again.

A press whose key is known is never put on the inbox again: its fate is the answer. The final
fates are kept in a small file beside the tokens (``phones-presses.json``), so a page that
pressed just before the app restarted can still learn that its press was played; one the
file does not hold, sent to the server before the restart, is "not known" (never "press
again"). Bounded: the newest :data:`KEPT` presses.
"""

from __future__ import annotations

import json
import logging
import secrets
import threading
from collections import OrderedDict
from pathlib import Path
from typing import Any

from companion.files.read import read_regular
from companion.files.write import write_whole

log = logging.getLogger(__name__)

#: Presses remembered (the oldest forgotten first): far more than a table presses in the time
#: a page may be away.
KEPT = 512
RECEIVED, PLAYED, REFUSED, LOST = "received", "played", "refused", "lost"
LOST_WORDS = "never reached the table: it was not played"


def fates_path(tokens_file: Path) -> Path:
    return tokens_file.with_name("phones-presses.json")


class Fates:
    """The fate of each press by key (thread-safe: the server's loop and the main thread)."""

    def __init__(self, path: Path | None = None) -> None:
        self.path = path
        self.boot = secrets.token_hex(8)     # this server's run: pages name it when they ask
        self._lock = threading.Lock()
        self._saving = threading.Lock()      # one writer of the file at a time
        self._fates: OrderedDict[str, tuple[str, Any]] = OrderedDict()
        self._before: dict[str, tuple[str, Any]] = self._load()   # earlier runs' final fates

    def get(self, key: str) -> tuple[str, Any] | None:
        with self._lock:
            return self._fates.get(key) or self._before.get(key)

    def arrive(self, key: str) -> tuple[str, Any] | None:
        """Record ``key`` as received unless it is known: returns its fate if known (then it
        is not to be played), None when it is new (now received)."""
        with self._lock:
            known = self._fates.get(key) or self._before.get(key)
            if known is None:
                self._put(key, (RECEIVED, None))
            return known

    def settle(self, key: str, fate: str, detail: Any = None) -> None:
        """The table's answer for ``key`` (PLAYED with the step's number, REFUSED with words);
        :meth:`save` keeps it on file for a restart (off the main thread: the server's)."""
        with self._lock:
            self._put(key, (fate, detail))

    def ask(self, key: str, boot: str) -> tuple[str, Any] | None:
        """What a page learns of ``key``, which it sent to the server run ``boot``: its fate;
        LOST when this run never got it (and never will play it); None when it was sent to an
        earlier run that kept no word of it (not known)."""
        with self._lock:
            known = self._fates.get(key) or self._before.get(key)
            if known is not None:
                return known
            if boot != self.boot:
                return None
            self._put(key, (LOST, None))
            return (LOST, None)

    def _put(self, key: str, fate: tuple[str, Any]) -> None:
        self._fates[key] = fate
        self._fates.move_to_end(key)
        while len(self._fates) > KEPT:
            self._fates.popitem(last=False)

    # -- the file ----------------------------------------------------------------------------
    def _load(self) -> dict[str, tuple[str, Any]]:
        if self.path is None:
            return {}
        try:
            data = json.loads(read_regular(self.path, "config").decode("utf-8"))
        except FileNotFoundError:
            return {}
        except (OSError, ValueError, UnicodeError) as problem:
            log.warning("phones: %s set aside (%s)", self.path, problem)
            return {}
        if not isinstance(data, dict):
            return {}
        out = {}
        for key, fate in list(data.items())[-KEPT:]:
            if isinstance(key, str) and isinstance(fate, list) and len(fate) == 2 \
                    and fate[0] in (PLAYED, REFUSED):
                out[key] = (fate[0], fate[1])
        return out

    def save(self) -> None:
        """Write the final fates (this run's and the earlier runs' still kept) to the file."""
        if self.path is None:
            return
        with self._saving:
            with self._lock:
                kept = {k: v for k, v in self._fates.items() if v[0] in (PLAYED, REFUSED)}
                merged = {**{k: v for k, v in self._before.items() if k not in kept}, **kept}
            self._write(merged)

    def _write(self, merged: dict[str, tuple[str, Any]]) -> None:
        try:
            write_whole(self.path, json.dumps({k: list(v) for k, v in
                                               list(merged.items())[-KEPT:]}),
                        mode=0o600, force=True, folder_mode=0o700)
        except OSError as problem:
            log.warning("phones: the presses' fates could not be kept in %s (%s)",
                        self.path, problem)

    def forget(self) -> None:
        """Stop sharing: the links end, and so does what their presses became."""
        with self._lock:
            self._fates.clear()
            self._before.clear()
        if self.path is not None:
            try:
                self.path.unlink()
            except FileNotFoundError:
                pass
            except OSError as problem:
                log.warning("phones: %s could not be removed (%s)", self.path, problem)
