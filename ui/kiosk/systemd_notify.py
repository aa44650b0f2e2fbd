"""The sd_notify protocol, spoken without a library: a few datagrams to systemd.

Why our own: the protocol is one AF_UNIX datagram of ``KEY=value`` lines to the socket named in
``$NOTIFY_SOCKET`` (a path, or an abstract-namespace name written with a leading ``@``), and a
dependency (python-systemd, sdnotify) would need a C build or a wheel on the Pi for five lines of
socket code. Outside systemd (a laptop, ``scripts/demo``, the tests) ``$NOTIFY_SOCKET`` is unset
and every call does nothing, so the app can call these unconditionally.

Failures to send are swallowed on purpose: a notification that cannot be delivered must never
stop a game; systemd then restarts the unit (no READY=1, no WATCHDOG=1), which is the right
outcome for a companion that cannot talk to its service manager.
"""

from __future__ import annotations

import os
import socket

__all__ = ["notify", "ready", "watchdog", "stopping", "status", "watchdog_interval"]


def _address(name: str) -> str | bytes:
    """``@name`` is Linux's abstract namespace: a leading NUL byte, not a file."""
    if name.startswith("@"):
        return b"\0" + name[1:].encode()
    return name


def notify(state: str, environ: os._Environ[str] | dict[str, str] | None = None) -> bool:
    """Send ``state`` (``KEY=value`` lines) to systemd; False when not under systemd or when
    the datagram could not be sent (never raises)."""
    env = os.environ if environ is None else environ
    name = env.get("NOTIFY_SOCKET", "")
    if not name or name[0] not in "/@":  # unset, or a form this code does not speak (vsock:)
        return False
    try:
        with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM | socket.SOCK_CLOEXEC) as sock:
            sock.connect(_address(name))
            sock.sendall(state.encode())
    except OSError:
        return False
    return True


def ready() -> bool:
    """The first frame is on the screen: Type=notify's start is done."""
    return notify("READY=1")


def watchdog() -> bool:
    """The main loop is alive (WatchdogSec= restarts the unit when these stop coming)."""
    return notify("WATCHDOG=1")


def stopping() -> bool:
    """The app is closing on purpose (the store is being closed), not freezing."""
    return notify("STOPPING=1")


def status(text: str) -> bool:
    """One line for ``systemctl status`` (a newline would end the STATUS field, so none)."""
    return notify("STATUS=" + " ".join(text.split()))


def watchdog_interval(environ: os._Environ[str] | dict[str, str] | None = None) -> float | None:
    """Seconds between WATCHDOG=1 pings (half of ``$WATCHDOG_USEC``, as sd_watchdog_enabled
    advises), or None when systemd asks for no watchdog for this process (unset, not a positive
    number, or ``$WATCHDOG_PID`` naming another process)."""
    env = os.environ if environ is None else environ
    usec = env.get("WATCHDOG_USEC", "")
    pid = env.get("WATCHDOG_PID", "")
    if pid and pid != str(os.getpid()):
        return None  # inherited from a parent that is the watched one
    try:
        value = int(usec)
    except ValueError:
        return None
    if value <= 0:
        return None
    return value / 1_000_000 / 2
