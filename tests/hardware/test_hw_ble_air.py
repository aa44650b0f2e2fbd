"""The simulated air between processes: ``companion dicesim --ble`` serves fake smart dice on
a Unix socket only its user may reach, and the app's source reads them through it as from
the radio: scan, connect, rolls, a die going away and back, and a peer that sends garbage."""

from __future__ import annotations

import asyncio
import os
import stat
import threading

import pytest

from hardware.dice.ble import BleDiceSource, BleDie, scan
from hardware.dice.ble_air import MAX_LINE, AirServer, AirTransport
from hardware.dice.ble_fake import FakeDie
from hardware.dice.recorded import pixels

pytest.importorskip("godice", reason="the ble extra (godice) is not installed")

PIXEL, GODICE = "C4:5E:00:00:00:01", "C4:5E:00:00:00:02"


@pytest.fixture
def air(tmp_path):
    dice = [FakeDie(PIXEL, "pixels", battery=40), FakeDie(GODICE, "godice")]
    server = AirServer(dice, tmp_path / "sim" / "air")
    yield server, dice
    server.close()


def test_the_socket_is_its_users_alone(air):
    server, _dice = air
    assert stat.S_IMODE(os.stat(server.path.parent).st_mode) == 0o700
    assert stat.S_IMODE(os.stat(server.path).st_mode) == 0o600


def test_scan_and_rolls_through_the_socket(air, wait_until):
    server, (pixel, godice) = air
    transport = AirTransport(server.path)
    found = {a.address: a for a in scan(0.5, transport)}
    assert found[PIXEL].make == "pixels" and found[PIXEL].battery == 40
    assert found[GODICE].colour == "red"
    got = []
    with BleDiceSource([BleDie(PIXEL, "pixels"), BleDie(GODICE, "godice")], got.append,
                       transport=transport, backoff=(0.05, 0.2)) as source:
        assert wait_until(lambda: len(source.connected) == 2, 5)
        assert scan(0.5, transport) == []             # a connected die does not advertise
        pixel.roll(5)
        godice.roll(3)
        assert wait_until(lambda: sorted((e.id, e.value) for e in got if e.kind == "die")
                          == [(PIXEL, 5), (GODICE, 3)], 5)
        assert wait_until(lambda: source.battery.get(PIXEL) == 40, 5)
        pixel.drop()                                  # out of range, then back
        assert wait_until(lambda: PIXEL not in source.connected, 5)
        assert wait_until(lambda: PIXEL in source.connected and pixel.connects == 2, 5)
        pixel.roll(2)
        assert wait_until(lambda: (PIXEL, 2) in [(e.id, e.value) for e in got], 5)


def test_no_simulator_is_a_die_not_reachable(tmp_path, wait_until):
    statuses = []
    with BleDiceSource([BleDie(PIXEL, "pixels")], lambda e: None,
                       transport=AirTransport(tmp_path / "nothing"), on_status=statuses.append,
                       backoff=(0.05, 0.1)):
        assert wait_until(lambda: any("no simulated air at" in s.text for s in statuses), 3)


def test_garbage_from_the_air_is_dropped(tmp_path, wait_until):
    """A peer on the socket that answers OK, then sends an overlong line, non-hex and a good
    notification: the app keeps only the good one and then hears the die go."""
    path = tmp_path / "rogue"
    ready = threading.Event()

    async def rogue(reader, writer):
        await reader.readline()
        iam = pixels.I_AM_A_DIE_BY_NAME["d6 today"].data.hex().encode()
        writer.write(b"OK pixels\nN " + iam + b"\nN zz\nX 0301\nN " + b"03" * 50
                     + b"\nN 030302\nN 030102\n")
        writer.write(b"N " + b"0" * (MAX_LINE * 2) + b"\n")
        await writer.drain()
        writer.close()

    def serve():
        loop = asyncio.new_event_loop()
        loop.run_until_complete(asyncio.start_unix_server(rogue, str(path)))
        ready.set()
        loop.run_forever()

    threading.Thread(target=serve, daemon=True).start()
    assert ready.wait(3)
    got, statuses = [], []
    with BleDiceSource([BleDie(PIXEL, "pixels")], got.append, transport=AirTransport(path),
                       on_status=statuses.append, backoff=(5, 5)) as source:
        assert wait_until(lambda: any(s.state == "disconnected" for s in statuses), 3)
        assert [(e.kind, e.value) for e in got] == [("die_moving", "rolling"), ("die", 3)]
        assert source.garbage == 1                   # 50 x 03: not a RollState


def test_dicesim_ble_serves_rolling_dice_until_its_count(tmp_path, wait_until, capsys):
    from hardware.commands import dicesim
    from hardware.dice.ble_air import AirTransport

    parser = __import__("argparse").ArgumentParser()
    dicesim.add_arguments(parser)
    path = tmp_path / "air"
    written = tmp_path / "demo.toml"
    args = parser.parse_args(["--ble", "pixels,godice", "--air", str(path), "--interval",
                              "0.05", "--count", "3", "--seed", "1", "--write-config",
                              str(written)])
    codes = []
    command = threading.Thread(target=lambda: codes.append(dicesim.run(args)))
    command.start()
    assert wait_until(path.is_socket, 3)
    got = []
    with BleDiceSource([BleDie("C4:5E:00:00:00:01", "pixels"),
                        BleDie("C4:5E:00:00:00:02", "godice")], got.append,
                       transport=AirTransport(path), backoff=(0.05, 0.2)):
        command.join(10)
    assert codes == [0]
    assert len([e for e in got if e.kind == "die"]) >= 2
    out = capsys.readouterr().out
    assert f'[ble]\nair = "{path}"' in out and 'make = "godice"' in out
    assert not path.exists()
    from hardware.config import load_config

    ble = load_config(written).ble
    assert ble.air == str(path) and [d.make for d in ble.dice] == ["pixels", "godice"]


def test_dicesim_ble_refuses_an_unknown_make(capsys):
    from hardware.commands import dicesim

    parser = __import__("argparse").ArgumentParser()
    dicesim.add_arguments(parser)
    assert dicesim.run(parser.parse_args(["--ble", "pixels,d20"])) == 2
    assert "--ble takes 1-12 makes of pixels, godice; got 'pixels,d20'" in capsys.readouterr().err


@pytest.mark.parametrize("mode", [0o1777, 0o755, 0o770])
def test_a_shared_folder_is_refused_and_left_as_it_was(tmp_path, mode):
    """The simulator never chmods a folder it did not make: `--air /tmp/air` (as root) would
    otherwise close /tmp to everyone. A folder others may enter or write is refused, naming
    the rule, and keeps its mode."""
    shared = tmp_path / "shared"
    shared.mkdir()
    os.chmod(shared, mode)
    with pytest.raises(PermissionError, match="0700"):
        AirServer([FakeDie(PIXEL, "pixels")], shared / "air")
    assert stat.S_IMODE(os.stat(shared).st_mode) == mode
    assert not (shared / "air").exists()


def test_a_link_for_the_folder_is_refused(tmp_path):
    (tmp_path / "real").mkdir(mode=0o700)
    (tmp_path / "link").symlink_to(tmp_path / "real")
    with pytest.raises(PermissionError, match="not a folder"):
        AirServer([FakeDie(PIXEL, "pixels")], tmp_path / "link" / "air")
