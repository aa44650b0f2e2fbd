"""Dice tray URLs: only what a tray really is gets opened, whichever way the URL comes in.

``spy://PORT?file=PATH`` made pySerial open PATH for writing: a URL typed on the Hardware
screen truncated the game database. Here every entry point (config check, the doctor, the
reader, ``open_port``) refuses it before anything is opened, and a fuzzer checks that nothing
outside the allow-list is ever accepted and that nothing but ``ConfigError`` comes out.
"""

import argparse
import io
import os
import re

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from hardware.commands import doctor as doctor_command
from hardware.config import DiceConfig, HardwareConfig, load_config, parse_config
from hardware.dice import DiceReader, DiceSimulator, check_tray_url
from hardware.dice.port import open_port
from hardware.doctor import Doctor
from hardware.errors import ConfigError

ACCEPTED = [
    "/dev/ttyACM0", "/dev/ttyUSB0", "/dev/ttyAMA0", "/dev/ttyS0", "/dev/ttyGS0",
    "/dev/serial/by-id/usb-Arduino__www.arduino.cc__0043_75833353035351E0D0A1-if00",
    "/dev/serial/by-id/usb-Tray\\x20A-if00",
    "/dev/serial/by-path/platform-3f980000.usb-usb-0:1.2:1.0",
    "/dev/pts/3", "/dev/rfcomm0", "/dev/cu.usbmodem1101",
    "loop://", "socket://127.0.0.1:7777", "socket://tray.local:4000", "socket://[::1]:7777",
    "socket://dice-tray:1", "socket://10.0.0.2:65535",
]

REFUSED = [
    ("spy:///dev/ttyACM0", "refused scheme 'spy'"),
    ("spy://loop://?file=/tmp/x", "options after ?"),
    ("hwgrep://0403:6001", "refused scheme 'hwgrep'"),
    ("rfc2217://tray.local:4000", "refused scheme 'rfc2217'"),
    ("alt:///dev/ttyACM0?class=PosixPollSerial", "options after ?"),
    ("alt:///dev/ttyACM0", "refused scheme 'alt'"),
    ("cp2110://0001:0002:00", "refused scheme 'cp2110'"),
    ("http://tray", "unknown scheme 'http'"),
    ("LOOP://", "unknown scheme 'LOOP'"),
    ("loop://?logging=debug", "options after ?"),
    ("loop://x", "something after loop://"),
    ("socket://tray:7777?logging=debug", "options after ?"),
    ("socket://tray:7777/", "is not socket://HOST:PORT"),
    ("socket://tray", "is not socket://HOST:PORT"),
    ("socket://tray:0", "is not socket://HOST:PORT"),
    ("socket://tray:70000", "ports are 1-65535"),
    ("socket://999.1.1.1:80", "not a host name or an IP address"),
    ("socket://-tray:80", "not a host name or an IP address"),
    ("socket://[::g]:80", "is not socket://HOST:PORT"),
    ("socket://[1::2::3]:80", "not a host name or an IP address"),
    ("socket://user@tray:80", "is not socket://HOST:PORT"),
    ("/dev/tty", "is not a serial device"),
    ("/dev/serial/by-id/..", "is not a serial device path"),
    ("/dev/serial/by-id/../../../etc/passwd", "is not a serial device"),
    ("/dev/ttyACM0#x", "options after ? or #"),
    ("/dev/tty ACM0", "has spaces"),
    ("/dev/ttyACM0\n", "has spaces"),
    ("/dev/tty\x00", "has spaces"),
    ("/dev/ttyé", "has spaces"),
    ("ttyACM0", "neither an absolute device path"),
    ("COM3", "neither an absolute device path"),
    ("/" + "a" * 300, "longer than 255"),
    ("", "must be a device path"),
    ("   ", "must be a device path"),
]


@pytest.mark.parametrize("url", ACCEPTED)
def test_what_a_tray_is_passes(url):
    assert check_tray_url(url) == url
    assert parse_config({"dice": {"url": url}}).dice.url == url


@pytest.mark.parametrize("url, why", REFUSED)
def test_anything_else_is_refused_with_the_reason(url, why):
    with pytest.raises(ConfigError) as error:
        check_tray_url(url)
    assert str(error.value).startswith("dice.url: ")
    assert why in str(error.value)
    with pytest.raises(ConfigError, match=r"^dice\.url: "):
        parse_config({"dice": {"url": url}})


@pytest.mark.parametrize("value", [None, 5, b"/dev/ttyACM0", ["loop://"], True, 1.5])
def test_a_url_that_is_not_text_is_refused(value):
    with pytest.raises(ConfigError, match=r"^dice\.url: must be a device path"):
        check_tray_url(value)


def test_a_link_counts_while_it_leads_to_a_serial_device(tmp_path):
    link = tmp_path / "dicetray"
    link.symlink_to("/dev/ttyACM0")               # as a udev SYMLINK, plugged in or not
    assert check_tray_url(str(link)) == str(link)
    database = tmp_path / "games.db"
    database.write_bytes(b"SQLite format 3\0")
    elsewhere = tmp_path / "elsewhere"
    elsewhere.symlink_to(database)
    for path in (database, elsewhere):
        with pytest.raises(ConfigError, match="is not a serial device .it leads to"):
            check_tray_url(str(path))
    assert check_tray_url("/dev/dicetray-not-plugged") == "/dev/dicetray-not-plugged"
    for there in ("/dev/null", "/dev/zero"):      # in /dev, there, and not a serial device
        with pytest.raises(ConfigError, match="is not a serial device .it leads to"):
            check_tray_url(there)
    missing = tmp_path / "gone"
    with pytest.raises(ConfigError, match="start `companion dicesim` first"):
        check_tray_url(str(missing))
    # Reopening does not resolve: a tray's link is missing while it is unplugged.
    assert check_tray_url(str(missing), resolve=False) == str(missing)
    with pytest.raises(ConfigError, match="refused scheme 'spy'"):
        check_tray_url("spy:///dev/ttyACM0", resolve=False)


def test_the_simulators_link_and_pty_pass(tmp_path):
    with DiceSimulator(link=tmp_path / "tray") as sim:
        assert check_tray_url(sim.url) == sim.url
        assert re.fullmatch(r"/dev/pts/[0-9]+", sim.path)
        assert check_tray_url(sim.path) == sim.path


# -- the spy://?file= that truncated the database ------------------------------------------
@pytest.fixture
def victim(tmp_path):
    """A file that must survive, and a path that must not appear."""
    database = tmp_path / "games.db"
    database.write_bytes(b"SQLite format 3\0 precious")
    return database, tmp_path / "new.log"


def spy_urls(database, new):
    return [f"spy://loop://?file={database}", f"spy:///dev/ttyACM0?file={database}",
            f"spy://loop://?file={new}", f"loop://?file={new}", f"socket://h:1?file={new}"]


def untouched(database, new):
    return database.read_bytes() == b"SQLite format 3\0 precious" and not new.exists()


def test_spy_file_is_never_opened_by_the_config_check(victim, tmp_path):
    database, new = victim
    for url in spy_urls(database, new):
        with pytest.raises(ConfigError, match=r"^dice\.url: "):
            parse_config({"dice": {"url": url}})
        toml = tmp_path / "hardware.toml"
        toml.write_text(f'[dice]\nurl = "{url}"\n', encoding="utf-8")
        with pytest.raises(ConfigError, match=r"hardware\.toml: dice\.url: "):
            load_config(toml)
    assert untouched(database, new)


def test_spy_file_is_never_opened_by_the_reader_or_open_port(victim):
    database, new = victim
    for url in spy_urls(database, new):
        with pytest.raises(ConfigError, match=r"^dice\.url: "):
            DiceReader(url, lambda event: None)
        with pytest.raises(ConfigError, match=r"^dice\.url: "):
            DiceReader.from_config(DiceConfig(url=url), lambda event: None)
        with pytest.raises(ConfigError, match=r"^dice\.url: "):
            open_port(url, 115200)
    assert untouched(database, new)


def test_spy_file_is_never_opened_by_the_doctor(victim, tmp_path, factory, capsys,
                                                monkeypatch):
    database, new = victim
    monkeypatch.setenv("GPIOZERO_PIN_FACTORY", "mock")
    for url in spy_urls(database, new):
        toml = tmp_path / "hardware.toml"
        toml.write_text(f'[dice]\nurl = "{url}"\n', encoding="utf-8")
        parser = argparse.ArgumentParser()
        doctor_command.add_arguments(parser)
        code = doctor_command.run(parser.parse_args(["--hardware", str(toml), "--no-gl",
                                                     "--dice-wait", "0.3"]))
        out = capsys.readouterr().out
        assert code == 1 and "dice.url: " in out, out
        # A config built in code never passed the check; the doctor checks it itself.
        report = io.StringIO()
        config = HardwareConfig(dice=DiceConfig(url=url))
        code = Doctor(config, source="t", pin_factory=factory, out=report, gl=False,
                      dice_wait=0.3).run()
        assert code == 1 and "dice.url: " in report.getvalue(), report.getvalue()
    assert untouched(database, new)


# -- fuzz ---------------------------------------------------------------------------------
DEVICE = re.compile(r"/dev/(tty[A-Za-z0-9_.-]+|serial/by-(id|path)/[A-Za-z0-9#+.:=@_\\-]+"
                    r"|pts/\d+|rfcomm\d+|cu\.[A-Za-z0-9_.-]+)")


def allowed(url: str) -> bool:
    """The allow-list, written again independently of hardware.dice.urls."""
    if url == "loop://":
        return True
    if url.startswith("socket://"):
        host, _, port = url[len("socket://"):].rpartition(":")
        return (bool(host) and port.isdigit() and port[0] != "0" and int(port) <= 65535
                and not set(host) & set("/?#@ \t\n") and host.isascii())
    if "?" in url or "#" in url or "://" in url or not url.isascii() or not url.isprintable():
        return False
    if " " in url or "/../" in url + "/" or "/./" in url + "/":
        return False
    if DEVICE.fullmatch(url):
        return True
    if re.fullmatch(r"/dev/[A-Za-z0-9_-][A-Za-z0-9_.-]*", url) and not os.path.lexists(url):
        return True                       # a udev SYMLINK while the tray is unplugged
    return url.startswith("/") and bool(DEVICE.fullmatch(os.path.realpath(url)))


PIECES = st.sampled_from(["/dev/tty", "/dev/ttyACM", "/dev/serial/by-id/", "/dev/pts/",
                          "/dev/serial/by-path/", "loop://", "socket://", "spy://", "?file=",
                          "?logging=debug", "hwgrep://", "rfc2217://", "alt://", "..", "/",
                          ":", "[", "]", "#", "@", "0", "7777", "\x00", "\n", " ", "é"])
URLS = st.one_of(
    st.text(max_size=40),
    st.lists(st.one_of(PIECES, st.text(max_size=6)), max_size=8).map("".join),
    st.builds(lambda p, t: p + t, PIECES, st.text(alphabet=st.characters(
        min_codepoint=0x20, max_codepoint=0x7e), max_size=20)),
)


@settings(max_examples=1500, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(URLS)
def test_fuzzed_urls_pass_only_if_allowed_and_raise_only_config_errors(url):
    try:
        result = check_tray_url(url)
    except ConfigError as error:
        assert str(error).startswith("dice.url: ")
        clearly_a_tray = url == "loop://" or DEVICE.fullmatch(url)
        assert not (clearly_a_tray and allowed(url) and len(url) <= 255), url
    else:
        assert result == url and allowed(url), url


@settings(max_examples=200, deadline=None)
@given(st.one_of(st.none(), st.integers(), st.floats(), st.binary(), st.booleans(),
                 st.lists(st.text(max_size=3), max_size=2), st.dictionaries(st.text(), st.text())))
def test_fuzzed_non_text_raises_only_config_errors(value):
    with pytest.raises(ConfigError, match=r"^dice\.url: "):
        check_tray_url(value)
