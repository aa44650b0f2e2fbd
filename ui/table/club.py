"""The app's side of the club: the sync thread, the table's live status handed to it,
and what the Settings screen says of the club.

A mixin of ``CompanionApp`` (as ``PhonesApp`` is). When this companion has joined a club (the
settings ``companion club join`` keeps: companion/club/access.py), a thread of its own runs
``ClubSync.run`` on a SQLite connection of its own (psycopg is imported there, never before the
first frame). The main thread only hands it plain data: the status (``status_of`` over the
phones' snapshot, built at most once a second by a Clock trigger) and a nudge when a game starts
or finishes. What the thread found reaches the main thread only through the devices' inbox, as
an input of kind ``club`` the drain hands to ``club_heard``. Play never waits on the club.
"""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Any

from kivy.clock import Clock
from kivy.properties import BooleanProperty, NumericProperty, StringProperty

from companion.core.model import InputEvent
from ui.table.snapshot import snapshot_now


#: libpq's hint after a refused connection, and its prefix: the screen keeps the cause only.
_HINT, _PREFIX = " Is the server running", "connection failed: "


def club_words(name: str, connected: bool, waiting: int, error: str, clock: str = "",
               conflicts: int = 0, refused: int = 0, permanent: bool = False) -> str:
    """The Settings' line on the club: connected or not, the games waiting, the last error.

    A refusal (the club's checks or grants) is told apart from the club being away: a retry
    will not change it, so the line never promises that the games are sent later."""
    games = f"{waiting} game{'' if waiting == 1 else 's'} waiting"
    if connected:
        said = f"Club {name}: connected, {games}."
    elif error and permanent:
        error = error.split(_HINT)[0].removeprefix(_PREFIX)
        said = (f"Club {name}: the club refused this table, {games}; a sync will not change "
                f"that: ask the club's admin. The club said: {error}")
    elif error:
        error = error.split(_HINT)[0].removeprefix(_PREFIX)
        said = (f"Club {name}: not connected, {games} (sent when the club is back). "
                f"Last error: {error}")
    else:
        said = f"Club {name}: connecting, {games}."
    if conflicts:
        said += (f" {conflicts} game{'' if conflicts == 1 else 's'} the club holds otherwise "
                 "(see companion club status).")
    if refused:
        said += (f" {refused} game{'' if refused == 1 else 's'} refused by the club: kept "
                 "here, nothing is lost (companion club sync names what to correct).")
    if clock:
        said += f" This table's clock is {clock} the club's: its games are dated by the club's."
    return said


class ClubApp:
    """Needs from the app: ``store``, ``devices`` (its inbox), ``session``, ``clock``,
    ``turn_limit`` and the game bar's narrator (``_narrator_of``)."""

    club_on = BooleanProperty(False)       # this companion has joined a club
    club_connected = BooleanProperty(False)
    club_waiting = NumericProperty(0)      # finished games not at the club yet
    club_error = StringProperty("")        # the last error, in words (never a password)
    club_said = StringProperty("")         # the Settings' line

    def init_club(self) -> None:
        self.club_sync = None
        self._club_name = ""
        self._club_path = None                          # the settings file started from
        self.club_backoff = None                        # the sync's Backoff (a test's quicker)
        self._club_thread: threading.Thread | None = None
        self._club_stop, self._club_wake = threading.Event(), threading.Event()
        self._club_seen: tuple = (None, None)          # (game id, over) last told
        self._club_offer = None           # made with the sync: Home imports no club module

    def start_club(self, *_args, path: Any = None) -> None:
        """After the first frame: start the sync thread when club settings exist (``path``,
        else where ``join`` keeps them) and the table's store is a file (a store in memory
        keeps no outbox to send)."""
        from companion.club import access
        from companion.club.sync import ClubSync, counts, side_connection

        if self.club_sync is not None or self.store is None or self.store.path == ":memory:":
            return
        path = Path(path if path is not None else self._club_path or access.default_path())
        self._club_path = path
        if not path.exists():
            return
        self.club_on = True
        try:
            settings = access.load(path)
        except access.ClubRefused as problem:
            self.club_error = access.words(problem)
            self.club_said = f"Club: not used. {self.club_error}"
            return
        self._club_name = settings.club
        self.club_waiting = counts(self.store.conn)["waiting"]
        conn = side_connection(self.store.path)
        sync = ClubSync(conn, self.store.device_id, settings)
        self.club_sync = sync
        self._club_stop.clear()
        self._club_seen = (None, None)
        if self._club_offer is None:     # the status at most once a MIN_GAP
            from companion.club.status import MIN_GAP

            self._club_offer = Clock.create_trigger(self._offer_status, MIN_GAP)
        self.club_changed(self.session)
        sync.offer(self._status_now())
        self._club_thread = threading.Thread(
            target=sync.run, args=(self._club_stop, self._club_wake, self.club_backoff),
            kwargs={"reported": self._club_reported}, name="club-sync", daemon=True)
        self._club_thread.start()
        self._show_club(None)

    def stop_club(self, wait: float = 1.0) -> bool:
        """Closing (or another store): the thread ends (a send in hand is cut off and sent
        again next time); waited for ``wait`` seconds at most (a connection being opened to a
        server that does not answer is left to its daemon thread); whether it ran."""
        if self._club_offer is not None:
            self._club_offer.cancel()
        thread, self._club_thread = self._club_thread, None
        self._club_stop.set()
        self._club_wake.set()
        if thread is not None:
            thread.join(wait)
        if self.club_sync is not None and (thread is None or not thread.is_alive()):
            self.club_sync.conn.close()
        ran, self.club_sync = self.club_sync is not None, None
        self.club_on = self.club_connected = False
        return ran

    # -- from the table -------------------------------------------------------------------
    def club_changed(self, session) -> None:
        """Every change (and leaving a game): the status at most once a second; a game
        that starts or ends asks for a send (its profiles, the game)."""
        sync = self.club_sync
        if sync is None:
            return
        seen = (getattr(session, "game_id", None), getattr(session, "over", None))
        if session is not None and seen != self._club_seen and (
                seen[0] != self._club_seen[0] or session.over):
            sync.ask_send()
        self._club_seen = seen
        self._club_offer()

    def _offer_status(self, *_dt) -> None:
        if self.club_sync is not None:
            self.club_sync.offer(self._status_now())

    def _status_now(self) -> dict[str, Any]:
        from companion.club.status import IDLE, status_of

        session = self.session
        view = None if session is None else snapshot_now(self, session, 0, "club")
        return dict(IDLE) if view is None else status_of(view, session.game_id)

    # -- from the thread, through the inbox -----------------------------------------------
    def _club_reported(self, report) -> None:
        """The sync thread: hand the report over, touch nothing."""
        self.devices.inbox.put(InputEvent("club", "report", value=report, source="club"))

    def club_heard(self, report) -> None:
        """Main thread (the inbox's drain): what the last send or failure found."""
        self._show_club(report)

    def _show_club(self, report) -> None:
        from companion.club.sync import CLOCK_TOLERANCE, clock_words

        if report is not None:
            self.club_connected = report.error is None
            self.club_waiting = report.waiting
            if report.error:
                self.club_error = report.error
        clock = ""
        skew = getattr(report, "skew", None)
        if skew is not None and abs(skew) > CLOCK_TOLERANCE:
            clock = clock_words(skew)
        conflicts = len(getattr(report, "conflicts", []) or [])
        refused = [r for r in getattr(report, "refused", []) or []
                   if not r.startswith("this table's status")]
        self.club_said = club_words(self._club_name, self.club_connected, self.club_waiting,
                                    "" if self.club_connected else self.club_error, clock,
                                    conflicts, len(refused),
                                    bool(getattr(report, "permanent", False)))
