"""The app as a systemd service (``Type=notify``): READY=1, WATCHDOG=1, STOPPING=1, SIGTERM.

Why from the Kivy main loop: READY=1 is sent on the first frame flip, so "started" means a
player can see the screen, not merely that Python is running; WATCHDOG=1 is sent by a Kivy
Clock interval on the main thread, so a frozen UI (a blocked callback, a deadlock) stops the
pings and systemd restarts the kiosk after WatchdogSec=. A thread would keep pinging while the
screen is frozen, which is exactly what the watchdog must not do.

Outside systemd (``$NOTIFY_SOCKET`` and ``$WATCHDOG_USEC`` unset) nothing is bound or scheduled:
the app stays idle between frames as before.
"""

from __future__ import annotations

import signal
from typing import Any

from kivy.clock import Clock
from kivy.core.window import Window

from ui.kiosk import systemd_notify


class ServiceLink:
    """What the app tells systemd over its life; one per running app (see :func:`attach`)."""

    def __init__(self, app: Any) -> None:
        self.app = app
        self._pinger = None
        self._stopping = False

    def start(self) -> None:
        Window.bind(on_flip=self._first_frame)
        interval = systemd_notify.watchdog_interval()
        if interval is not None:
            self._pinger = Clock.schedule_interval(self._ping, interval)
        self.app.fbind("on_stop", self.stop)

    def _first_frame(self, *_args: Any) -> None:
        Window.unbind(on_flip=self._first_frame)
        systemd_notify.ready()
        notice = getattr(self.app, "notice", "")
        if notice:  # a database that cannot be used: shown by `systemctl status` too
            systemd_notify.status(notice)

    @staticmethod
    def _ping(_dt: float) -> None:
        systemd_notify.watchdog()

    def stop(self, *_args: Any) -> None:
        """STOPPING=1 once (Kivy dispatches on_stop twice on App.stop(): from stop() and after
        the loop ends), and no more pings."""
        if self._pinger is not None:
            self._pinger.cancel()
            self._pinger = None
        if not self._stopping:
            self._stopping = True
            systemd_notify.stopping()


def attach(app: Any) -> ServiceLink:
    """Call from the app's on_start: READY=1 on the first frame, the watchdog when systemd
    asks for one, STOPPING=1 on stop."""
    link = ServiceLink(app)
    link.start()
    return link


def stop_on_sigterm(app: Any) -> None:
    """SIGTERM (``systemctl stop``, a restart, shutdown) ends the app through App.stop(), so
    on_stop closes the store and keeps the clocks: the game resumes where it was.

    Python's default for SIGTERM is to die at once, without on_stop. The handler only schedules
    the stop on the main loop's next tick: it may run between any two bytecodes, in the middle
    of a step being saved, so it must not close anything itself. Only for ``companion run``:
    a test's or an embedding program's own SIGTERM handling is left alone."""
    def _terminate(_signum: int, _frame: Any) -> None:
        Clock.schedule_once(lambda _dt: app.stop())

    signal.signal(signal.SIGTERM, _terminate)
