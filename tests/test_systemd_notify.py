"""The app's side of ``Type=notify``, against a real AF_UNIX datagram socket standing in for
systemd: READY=1 after the first frame, WATCHDOG=1 from the Kivy main loop (and none while it is
blocked, so a frozen screen is restarted), STOPPING=1 on stop, and SIGTERM ending
``companion run`` cleanly with the game resumable.

The apps run in subprocesses: a Kivy main loop of their own, signals of their own, and the
pytest process's window and handlers untouched. Nothing here is timed: what is asserted is the
order of the datagrams (one socket, one sender thread), never when they came.
"""

from __future__ import annotations

import os
import random
import signal
import socket
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from companion.games import get_rules
from companion.store import Store
from tests.support.autoplay import next_command
from ui.kiosk import systemd_notify

ROOT = Path(__file__).resolve().parents[1]
WAIT_S = 120  # a generous bound for a slow shared machine; only a hang ever reaches it


def _listener(path: Path | str) -> socket.socket:
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    sock.bind(path if isinstance(path, str) else str(path))
    sock.settimeout(WAIT_S)
    return sock


@pytest.fixture
def systemd(tmp_path):
    """A notify socket on a file path, as /run/systemd/notify is."""
    path = tmp_path / "notify"
    with _listener(path) as sock:
        yield str(path), sock


# -- the protocol ------------------------------------------------------------------------------
def test_each_message_arrives_as_one_datagram(systemd):
    name, sock = systemd
    env = {"NOTIFY_SOCKET": name}
    assert systemd_notify.notify("READY=1", env)
    assert sock.recv(4096) == b"READY=1"
    assert systemd_notify.notify("WATCHDOG=1", env)
    assert sock.recv(4096) == b"WATCHDOG=1"


def test_the_module_calls_use_notify_socket_from_the_environment(systemd, monkeypatch):
    name, sock = systemd
    monkeypatch.setenv("NOTIFY_SOCKET", name)
    sent = [systemd_notify.ready(), systemd_notify.watchdog(),
            systemd_notify.status("The game database\nis full"), systemd_notify.stopping()]
    assert sent == [True] * 4
    assert [sock.recv(4096) for _ in sent] == [
        b"READY=1", b"WATCHDOG=1", b"STATUS=The game database is full", b"STOPPING=1"]


def test_an_abstract_socket_is_named_with_an_at_sign():
    name = f"table-companion-test-{os.getpid()}-{random.randrange(10**9)}"
    with _listener("\0" + name) as sock:
        assert systemd_notify.notify("READY=1", {"NOTIFY_SOCKET": "@" + name})
        assert sock.recv(4096) == b"READY=1"


@pytest.mark.parametrize("env", [{}, {"NOTIFY_SOCKET": ""}, {"NOTIFY_SOCKET": "vsock:2:1"},
                                 {"NOTIFY_SOCKET": "/nonexistent/notify"}])
def test_without_systemd_nothing_is_sent_and_nothing_raises(env):
    assert systemd_notify.notify("READY=1", env) is False


@pytest.mark.parametrize("env, interval", [
    ({"WATCHDOG_USEC": "10000000"}, 5.0),                     # WatchdogSec=10: every 5 s
    ({"WATCHDOG_USEC": "3000000", "WATCHDOG_PID": str(os.getpid())}, 1.5),
    ({"WATCHDOG_USEC": "10000000", "WATCHDOG_PID": "1"}, None),   # another process's watchdog
    ({}, None), ({"WATCHDOG_USEC": "0"}, None), ({"WATCHDOG_USEC": "ten"}, None),
])
def test_the_watchdog_interval_is_half_of_watchdog_usec(env, interval):
    assert systemd_notify.watchdog_interval(env) == interval


# -- the running app ---------------------------------------------------------------------------
def _env(tmp_path: Path, notify: str, **extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items()  # Kivy logs to stderr, the test keeps it
           if k not in ("WATCHDOG_USEC", "WATCHDOG_PID", "KIVY_NO_CONSOLELOG")}
    env.update(NOTIFY_SOCKET=notify, SDL_VIDEODRIVER="offscreen", KIVY_NO_ARGS="1",
               KIVY_NO_FILELOG="1", KIVY_HOME=str(tmp_path / "kivy"),
               GPIOZERO_PIN_FACTORY="mock", COMPANION_SOUND="0",
               XDG_CONFIG_HOME=str(tmp_path / "config"), XDG_CACHE_HOME=str(tmp_path / "cache"),
               PYTHONPATH=str(ROOT))
    env.update(extra)
    return env


def _until(sock: socket.socket, proc: subprocess.Popen, last: bytes) -> list[bytes]:
    """Datagrams in order up to and including ``last``; a child that died or hangs is
    reported with its log."""
    got: list[bytes] = []
    sock.settimeout(1)
    for _second in range(WAIT_S):
        try:
            got.append(sock.recv(4096))
        except TimeoutError:
            if proc.poll() is not None:
                break
            continue
        if got[-1] == last:
            return got
    proc.kill()
    proc.wait()
    pytest.fail(f"no {last!r} after {len(got)} datagrams, the last {got[-5:]}; "
                f"exit {proc.returncode}: {proc.log.read_text()[-3000:]}")


def _start(tmp_path: Path, script: str, env: dict[str, str], *args: str) -> subprocess.Popen:
    """The app in a subprocess, its log in a file (a full pipe would block it). Kivy's App
    looks for its kv file beside its class's source, so the script is a file too."""
    path = tmp_path / "app_under_systemd.py"
    path.write_text(script)
    log = tmp_path / "app.log"
    with log.open("w") as stderr:
        proc = subprocess.Popen([sys.executable, str(path), *args], cwd=ROOT, env=env,
                                stdout=subprocess.DEVNULL, stderr=stderr)
    proc.log = log
    return proc


# A minimal Kivy app with the service link: the pinger and the main loop are the app's own
# (ui/kiosk/service.py); the app blocks its main thread on the third ping, for three intervals,
# between two markers sent from that same thread; it stops itself after three more pings.
PINGER_APP = textwrap.dedent("""
    import time
    from kivy.app import App
    from kivy.clock import Clock
    from kivy.core.window import Window
    from kivy.uix.label import Label
    from ui.kiosk import service, systemd_notify

    pings = []
    real_watchdog = systemd_notify.watchdog

    def watchdog():
        real_watchdog()
        pings.append(1)
        if len(pings) == 3:
            Clock.schedule_once(block)
        if len(pings) == 6:
            Clock.schedule_once(lambda dt: App.get_running_app().stop())

    def block(_dt):
        interval = systemd_notify.watchdog_interval()
        systemd_notify.notify("X_BLOCK=start")
        time.sleep(3 * interval)       # the main loop is frozen
        systemd_notify.notify("X_BLOCK=end")

    systemd_notify.watchdog = watchdog

    class Pinger(App):
        def build(self):
            return Label(text="pinger")

        def on_start(self):
            link = service.attach(self)
            timeout = "none" if link._pinger is None else repr(link._pinger.timeout)
            systemd_notify.notify("X_PINGER=" + timeout)
            if link._pinger is None:   # no watchdog asked for: stop after the first frame
                Window.bind(on_flip=self.stop_soon)

        def stop_soon(self, *_):
            Clock.schedule_once(lambda dt: self.stop())   # None: the other on_flip handlers run

    Pinger().run()
""")


def test_watchdog_pings_come_from_the_main_loop_and_stop_while_it_is_blocked(systemd, tmp_path):
    name, sock = systemd
    proc = _start(tmp_path, PINGER_APP, _env(tmp_path, name, WATCHDOG_USEC="200000"))
    got = _until(sock, proc, b"STOPPING=1")
    assert proc.wait(WAIT_S) == 0, proc.log.read_text()[-3000:]
    assert got[0] == b"X_PINGER=0.1"          # half of WATCHDOG_USEC, in seconds
    assert b"READY=1" in got
    start, end = got.index(b"X_BLOCK=start"), got.index(b"X_BLOCK=end")
    assert got[:start].count(b"WATCHDOG=1") == 3
    assert got[start + 1:end] == []           # a frozen main loop says nothing
    assert got[end + 1:].count(b"WATCHDOG=1") == 3  # and pings again once it runs
    assert got.count(b"STOPPING=1") == 1      # once, though Kivy dispatches on_stop twice


def test_without_watchdog_usec_the_app_schedules_no_pings(systemd, tmp_path):
    name, sock = systemd
    proc = _start(tmp_path, PINGER_APP, _env(tmp_path, name))
    got = _until(sock, proc, b"STOPPING=1")
    assert proc.wait(WAIT_S) == 0, proc.log.read_text()[-3000:]
    assert got == [b"X_PINGER=none", b"READY=1", b"STOPPING=1"]


# ``companion run`` itself, the game of a stored table resumed on start (as a player would).
# SDL's own SIGTERM handler turns the signal into a window close request; the window here
# refuses close requests (as a kiosk guarding against Alt+F4 would), so what stops the app is
# the app's own handler (ui/kiosk/service.py), whatever the window provider does.
RUN_APP = textwrap.dedent("""
    import sys
    from kivy.core.window import Window
    from ui.kiosk import systemd_notify
    from ui.app import CompanionApp

    started = CompanionApp.on_start

    def on_start(self):
        started(self)
        Window.bind(on_request_close=lambda *args, **kwargs: True)
        self.resume(int(sys.argv[2]))
        systemd_notify.notify(f"X_PLAYING={self.session.game_id}")

    CompanionApp.on_start = on_start
    from companion.cli.main import main
    sys.exit(main(["run", "--db", sys.argv[1]]))
""")


def test_sigterm_stops_companion_run_cleanly_and_the_game_resumes(systemd, tmp_path):
    name, sock = systemd
    db = tmp_path / "companion.sqlite3"
    with Store(db) as store:
        session = store.new_game(get_rules("witchs_brew"), {"players": ["Anna", "Barb", "Carl"]})
        rng = random.Random(13)
        for _ in range(12):
            session.execute(next_command(session, rng))
        game_id, before = session.game_id, session.prompt()
    proc = _start(tmp_path, RUN_APP, _env(tmp_path, name, WATCHDOG_USEC="400000"),
                  str(db), str(game_id))
    got = _until(sock, proc, b"READY=1")
    assert f"X_PLAYING={game_id}".encode() in got
    got = _until(sock, proc, b"WATCHDOG=1")
    proc.send_signal(signal.SIGTERM)
    got = _until(sock, proc, b"STOPPING=1")
    assert proc.wait(WAIT_S) == 0, proc.log.read_text()[-3000:]  # not -15: killed at once
    assert not Path(f"{db}-wal").exists()      # the store was closed (the WAL folded in)
    with Store(db) as store:
        assert [g.id for g in store.games("running")] == [game_id]
        assert store.clocks(game_id) is not None   # on_stop kept the clocks of the game in play
        assert store.open_session(game_id).prompt() == before
