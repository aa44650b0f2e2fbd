"""The dice reader on real pySerial backends: loop://, socket:// and a pseudo-terminal tray
(the simulator), including unplug/replug. Waits are on a Condition with timeouts."""

import logging
import os
import socket
import threading
import time

import pytest

from companion.core.model import InputEvent
from hardware.dice import DiceReader, DiceSimulator, DiceStatus, Faces
from hardware.inbox import Inbox

FAST = (0.02, 0.08)     # backoff for tests: first retry after 20 ms, never more than 80 ms


class Recorder:
    """emit and on_status for a reader; records from any thread and lets the test wait."""

    def __init__(self):
        self.cond = threading.Condition()
        self.events: list[InputEvent] = []
        self.statuses: list[DiceStatus] = []
        self.emit_threads: set[str] = set()

    def emit(self, event):
        with self.cond:
            self.events.append(event)
            self.emit_threads.add(threading.current_thread().name)
            self.cond.notify_all()

    def status(self, status):
        with self.cond:
            self.statuses.append(status)
            self.cond.notify_all()

    def wait(self, predicate, timeout=3.0):
        with self.cond:
            return self.cond.wait_for(predicate, timeout)

    def wait_state(self, state, after=0, timeout=3.0):
        """Index of the first status ``state`` at or after ``after``; fails on timeout."""
        def found():
            return next((i for i, s in enumerate(self.statuses) if i >= after
                         and s.state == state), None)
        assert self.wait(lambda: found() is not None, timeout), \
            f"no {state!r} status; got {[str(s) for s in self.statuses]}"
        return found()

    def wait_event(self, event, timeout=3.0):
        assert self.wait(lambda: event in self.events, timeout), \
            f"no {event}; got {self.events}"

    def states(self):
        with self.cond:
            return [s.state for s in self.statuses]


def die(id_, value):
    return InputEvent("die", id_, value, source="serial")


@pytest.fixture
def rec():
    return Recorder()


@pytest.fixture
def loop_reader(rec):
    reader = DiceReader("loop://", rec.emit, on_status=rec.status, backoff=FAST)
    rec.wait_state(DiceStatus.CONNECTED)
    yield reader
    reader.close()


# -- loop:// ----------------------------------------------------------------------------------
def test_loop_round_trip_of_every_kind_of_line(loop_reader, rec):
    for line in ("DIE d1 4", "ROLL a=1 b=6 c=3", "MOVING d2", "BTN seat2.claim", "BTN undo HOLD",
                 "# a comment", "DIE z 1"):
        assert loop_reader.send(line)
    rec.wait_event(die("z", 1))
    assert rec.events == [
        die("d1", 4), die("a", 1), die("b", 6), die("c", 3),
        InputEvent("die_moving", "d2", source="serial"),
        InputEvent("button", "seat2.claim", source="serial"),
        InputEvent("button", "undo", "hold", source="serial"),
        die("z", 1),
    ]
    assert loop_reader.connected and loop_reader.greeting is None


def test_moving_is_never_a_die_result(loop_reader, rec):
    loop_reader.send("MOVING d1")
    loop_reader.send("MOVING d1")
    loop_reader.send("DIE d1 5")
    rec.wait_event(die("d1", 5))
    assert [e.kind for e in rec.events] == ["die_moving", "die_moving", "die"]


def test_out_of_range_is_refused_and_reported_never_emitted(loop_reader, rec):
    loop_reader.send("DIE d1 7")
    loop_reader.send("ROLL a=2 b=0")
    loop_reader.send("DIE d1 6")
    rec.wait_event(die("d1", 6))
    refused = [s for s in rec.statuses if s.state == DiceStatus.REFUSED]
    assert len(refused) == 2
    assert "d1 reported 7" in str(refused[0]) and "1-6" in str(refused[0])
    assert "whole roll" in str(refused[1])
    assert rec.events == [die("d1", 6)]


def test_per_die_faces_from_the_reader(rec):
    with DiceReader("loop://", rec.emit, on_status=rec.status, backoff=FAST,
                    faces=Faces((1, 6), {"d12": (1, 12)})) as reader:
        rec.wait_state(DiceStatus.CONNECTED)
        reader.send("DIE d12 11")
        reader.send("DIE d1 11")
        reader.send("DIE end 1")
        rec.wait_event(die("end", 1))
    assert rec.events == [die("d12", 11), die("end", 1)]


def test_garbage_bad_utf8_and_overlong_lines_are_logged_and_ignored(loop_reader, rec, caplog):
    caplog.set_level(logging.WARNING, logger="hardware.dice.reader")
    transport = loop_reader._thread          # write raw bytes, as a broken device would
    transport.write(b"\xff\xfe\xc3(DIE d1 2\n\x00\x01\x02\nFOO bar\nDIE d1\n")
    transport.write(b"x" * 5000)             # an overlong line, still without its end
    transport.write(b"DIE d1 3\n")           # ... ends here: this is not a result either
    transport.write(b"DIE d1 2\r\n")
    rec.wait_event(die("d1", 2))
    assert rec.events == [die("d1", 2)]
    text = caplog.text
    assert "not printable ASCII" in text and "unknown line 'FOO'" in text
    assert "longer than 80 bytes" in text
    assert loop_reader.connected


def test_emit_reaches_an_inbox_from_the_reader_thread(rec):
    woke = threading.Event()
    wake_threads = []

    def wake():
        wake_threads.append(threading.current_thread())
        woke.set()

    inbox = Inbox(wake=wake)
    with DiceReader("loop://", inbox.put, on_status=rec.status, backoff=FAST) as reader:
        rec.wait_state(DiceStatus.CONNECTED)
        reader.send("ROLL m1=2 m2=4 m3=6")
        assert woke.wait(3)
        assert all(t is not threading.main_thread() for t in wake_threads)
        deadline = time.monotonic() + 3
        got = []
        while len(got) < 3 and time.monotonic() < deadline:
            got += inbox.drain()
            woke.clear()
            if len(got) < 3:
                woke.wait(0.5)
    assert got == [die("m1", 2), die("m2", 4), die("m3", 6)]


def test_a_failing_emit_does_not_end_the_connection(rec, caplog):
    calls = []

    def emit(event):
        calls.append(event)
        if len(calls) == 1:
            raise RuntimeError("app bug")
        rec.emit(event)

    with DiceReader("loop://", emit, on_status=rec.status, backoff=FAST) as reader:
        rec.wait_state(DiceStatus.CONNECTED)
        reader.send("DIE d1 1")
        reader.send("DIE d1 2")
        rec.wait_event(die("d1", 2))
        assert reader.connected
    assert "emit failed" in caplog.text
    assert DiceStatus.DISCONNECTED not in rec.states()


def test_close_is_prompt_and_final(rec):
    reader = DiceReader("loop://", rec.emit, on_status=rec.status, backoff=FAST)
    rec.wait_state(DiceStatus.CONNECTED)
    reader.close()
    assert not reader._supervisor.is_alive()  # close() waited for its threads
    assert rec.statuses[-1].state == DiceStatus.CLOSED
    assert not reader.connected and reader.closed
    assert not reader.send("DIE d1 1")
    reader.close()                                       # twice is fine
    assert [s.state for s in rec.statuses].count(DiceStatus.CLOSED) == 1


def test_close_from_inside_emit(rec):
    holder = {}
    closed = threading.Event()

    def emit(event):
        holder["reader"].close()
        closed.set()

    reader = DiceReader("loop://", emit, on_status=rec.status, backoff=FAST)
    holder["reader"] = reader
    rec.wait_state(DiceStatus.CONNECTED)
    reader.send("DIE d1 1")
    assert closed.wait(3)
    assert reader.closed
    assert reader._supervisor.join(3) is None and not reader._supervisor.is_alive()


def test_a_missing_port_backs_off_exponentially_and_says_so_once(rec):
    url = "/dev/serial/by-id/usb-no-such-tray-if00"
    reader = DiceReader(url, rec.emit, on_status=rec.status, backoff=(0.01, 0.04))
    rec.wait(lambda: len([s for s in rec.statuses if s.state == DiceStatus.RECONNECTING]) >= 5)
    reader.close()
    assert not reader._supervisor.is_alive()  # close() waited for its threads
    states = rec.states()
    assert states[0] == DiceStatus.UNAVAILABLE and states.count(DiceStatus.UNAVAILABLE) == 1
    assert "not plugged in" in str(rec.statuses[0]) and url in str(rec.statuses[0])
    delays = [str(s).rsplit("in ", 1)[1] for s in rec.statuses
              if s.state == DiceStatus.RECONNECTING]
    assert delays[:5] == ["0.01 s", "0.02 s", "0.04 s", "0.04 s", "0.04 s"]


def test_bad_backoff_is_refused(rec):
    with pytest.raises(ValueError):
        DiceReader("loop://", rec.emit, backoff=(0, 1))


# -- socket:// (no cancel_read: stop shuts the socket down to end the read) -----------------
def test_a_silent_socket_tray_is_read_without_polling_and_close_ends_the_read(rec):
    server = socket.create_server(("127.0.0.1", 0))
    conns = []
    acceptor = threading.Thread(target=lambda: conns.append(server.accept()[0]), daemon=True)
    acceptor.start()
    reader = DiceReader(f"socket://127.0.0.1:{server.getsockname()[1]}", rec.emit,
                        on_status=rec.status, backoff=FAST, ask_greeting=False)
    try:
        rec.wait_state(DiceStatus.CONNECTED)
        with reader._lock:
            thread = reader._thread
        assert thread.serial.timeout is None     # the read sleeps until a byte or close()
        reader.close()
        assert not thread.is_alive() and not reader._supervisor.is_alive()
    finally:
        reader.close()
        acceptor.join(3)
        for c in conns:
            c.close()
        server.close()


def test_socket_reconnects_after_the_server_drops(rec):
    server = socket.create_server(("127.0.0.1", 0))
    port = server.getsockname()[1]
    conns = []

    def serve_two():
        # Answer the reader's HELLO? like a tray; pySerial's socket:// drops whatever
        # arrived before its open() finished, so greeting unasked would race.
        for n in range(2):
            conn, _ = server.accept()
            conns.append(conn)
            with conn.makefile("rb") as f:
                assert f.readline() == b"HELLO?\n"
            conn.sendall(b"HELLO sockettray 0.1\n" + (b"DIE d1 1\n" if n == 0 else b""))

    acceptor = threading.Thread(target=serve_two, daemon=True)
    acceptor.start()
    reader = DiceReader(f"socket://127.0.0.1:{port}", rec.emit, on_status=rec.status,
                        backoff=FAST)
    try:
        rec.wait_event(die("d1", 1))
        ready = rec.wait_state(DiceStatus.READY)
        assert "sockettray 0.1" in str(rec.statuses[ready])
        conns[0].close()                                # the device goes away
        gone = rec.wait_state(DiceStatus.DISCONNECTED)
        again = rec.wait_state(DiceStatus.READY, after=gone)
        acceptor.join(3)
        conns[1].sendall(b"DIE d1 2\n")
        rec.wait_event(die("d1", 2))
        assert again > gone
    finally:
        reader.close()
        assert not reader._supervisor.is_alive()  # close() waited for its threads
        for c in conns:
            c.close()
        server.close()


# -- a pseudo-terminal tray ------------------------------------------------------------------
@pytest.fixture
def sim(tmp_path):
    with DiceSimulator(link=tmp_path / "dicetray", name="dicesim", version="2.1") as s:
        yield s


@pytest.fixture
def pty_reader(sim, rec):
    reader = DiceReader(sim.url, rec.emit, on_status=rec.status, backoff=FAST)
    rec.wait_state(DiceStatus.READY)
    yield reader
    reader.close()


def test_pty_greeting_and_results(sim, pty_reader, rec):
    assert str(pty_reader.greeting) == "dicesim 2.1"
    assert any(str(s) == "dice reader connected: dicesim 2.1" for s in rec.statuses)
    assert "HELLO?" in sim.received
    sim.moving("d1")
    sim.die("d1", 3)
    sim.roll({"d1": 2, "d2": 5})
    sim.button("seat1.pass")
    rec.wait_event(InputEvent("button", "seat1.pass", source="serial"))
    assert rec.events == [InputEvent("die_moving", "d1", source="serial"), die("d1", 3),
                          die("d1", 2), die("d2", 5),
                          InputEvent("button", "seat1.pass", source="serial")]
    assert rec.emit_threads and "MainThread" not in rec.emit_threads


def test_pty_ping(sim, pty_reader):
    assert pty_reader.ping(timeout=2.0)
    assert any(line.startswith("PING") for line in sim.received)


def test_unplug_replug_reports_and_picks_up_the_next_roll(sim, pty_reader, rec):
    sim.die("d1", 1)
    rec.wait_event(die("d1", 1))
    old_path = sim.path
    sim.send_raw(b"DIE d1")                 # half a line when the cable goes
    sim.unplug()
    gone = rec.wait_state(DiceStatus.DISCONNECTED)
    assert str(rec.statuses[gone]) == "dice reader disconnected"
    retry = rec.wait_state(DiceStatus.RECONNECTING, after=gone)
    assert "reconnecting in" in str(rec.statuses[retry])
    assert not os.path.exists(sim.link)
    rec.wait_state(DiceStatus.UNAVAILABLE, after=gone)    # tried while unplugged
    new_path = sim.replug()
    back = rec.wait_state(DiceStatus.READY, after=gone)
    assert os.path.realpath(sim.link) == new_path
    assert str(rec.statuses[back]) == "dice reader connected: dicesim 2.1"
    sim.die("d2", 6)
    rec.wait_event(die("d2", 6))
    assert rec.events == [die("d1", 1), die("d2", 6)]
    assert pty_reader.connected and old_path  # the app never restarted: same reader object


def test_unplug_replug_twice(sim, pty_reader, rec):
    for n in range(2):
        mark = len(rec.statuses)
        sim.unplug()
        rec.wait_state(DiceStatus.DISCONNECTED, after=mark)
        sim.replug()
        rec.wait_state(DiceStatus.READY, after=mark)
        sim.die("d1", n + 1)
        rec.wait_event(die("d1", n + 1))


def test_exclusive_open_refuses_a_second_reader(sim, pty_reader):
    other = Recorder()
    second = DiceReader(sim.url, other.emit, on_status=other.status, backoff=(5, 5))
    try:
        first = other.wait_state(DiceStatus.UNAVAILABLE)
        assert "in use by another program" in str(other.statuses[first])
    finally:
        second.close()


def test_faults_garbage_and_partial_lines_lose_nothing(tmp_path, rec):
    import random

    with DiceSimulator(link=tmp_path / "faulty", garbage=1.0, partial=True,
                       rng=random.Random(7)) as sim:
        with DiceReader(sim.url, rec.emit, on_status=rec.status, backoff=FAST):
            rec.wait_state(DiceStatus.READY)
            expected = []
            for n in range(12):
                value = n % 6 + 1
                sim.die(f"d{n}", value)
                expected.append(die(f"d{n}", value))
            rec.wait_event(expected[-1], timeout=5)
    assert rec.events == expected


def test_pty_close_is_prompt(sim, rec):
    reader = DiceReader(sim.url, rec.emit, on_status=rec.status, backoff=FAST)
    rec.wait_state(DiceStatus.READY)
    reader.close()
    assert not reader._supervisor.is_alive()  # close() waited for its threads
    sim.die("d1", 4)                        # nobody listens now: nothing arrives, no error
    assert rec.events == []
