"""Which dice tray URLs the app will open: an allow-list, checked wherever a URL comes in.

pySerial's ``serial_for_url`` opens far more than serial ports: ``spy://PORT?file=PATH`` opens
``PATH`` for writing (a URL typed on the Hardware screen once truncated the game database at
the next check), ``hwgrep://`` opens whichever port matches, ``rfc2217://`` and ``alt://`` pick
other backends and options after ``?`` change what they do. A dice tray needs none of that, so
only what a tray really is gets through:

* a serial device: ``/dev/tty*`` (``ttyACM0``, ``ttyUSB0``, ``ttyAMA0``, ``ttyS0``...),
  ``/dev/serial/by-id/NAME``, ``/dev/serial/by-path/NAME``, ``/dev/rfcommN`` (a Bluetooth
  tray), ``/dev/cu.NAME`` (macOS) and ``/dev/pts/N`` (the pseudo-terminal ``companion
  dicesim`` prints);
* another absolute path only while it leads (a symlink) to one of those: the link ``companion
  dicesim --link`` keeps, or a udev ``SYMLINK`` (a name right in ``/dev``, like
  ``/dev/dicetray``, also while it is missing: the tray is unplugged);
* ``loop://`` (tests and the demo) and ``socket://HOST:PORT`` (a tray on the network), with no
  options.

:func:`check_tray_url` is the one check: the config check (so the Hardware screen's Check and
Save, ``companion doctor`` and the app's start), the dice reader when it is made, and
:func:`hardware.dice.port.open_port` before every open (``resolve=False`` there: a link may be
missing while the tray is unplugged, and a path is opened without creating or truncating
anything). Pure: no pySerial, so reading a config stays light.
"""

from __future__ import annotations

import ipaddress
import os
import re
from typing import Any

from ..errors import ConfigError

KEY = "dice.url"
MAX_URL = 255
# What udev leaves in a by-id / by-path name (it escapes the rest as \xNN).
_NAME = r"(?!\.\.?\Z)[A-Za-z0-9#+.:=@_\\-]+"
DEVICE_PATH = re.compile(
    r"/dev/(?:tty[A-Za-z0-9_.-]+|serial/by-(?:id|path)/" + _NAME
    + r"|pts/[0-9]+|rfcomm[0-9]+|cu\.[A-Za-z0-9_.-]+)\Z")
# A name udev's SYMLINK+= makes directly in /dev (/dev/dicetray): accepted while missing.
UDEV_LINK = re.compile(r"/dev/[A-Za-z0-9_-][A-Za-z0-9_.-]*\Z")
LOOP = "loop://"
SOCKET = re.compile(r"socket://(?P<host>\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9.-]+)"
                    r":(?P<port>[1-9][0-9]{0,4})\Z")
_LABEL = re.compile(r"(?!-)[A-Za-z0-9-]{1,63}(?<!-)\Z")
PLAIN = re.compile(r"[\x21-\x7e]+\Z")     # printable ASCII, no spaces
# pySerial's other URL schemes, and why a tray URL may not use them.
REFUSED_SCHEMES = {
    "spy": "spy:// logs the port's traffic, and its file= option overwrites any file",
    "hwgrep": "hwgrep:// opens whichever port matches a pattern, not the tray",
    "rfc2217": "rfc2217:// takes options the app does not check; for a tray on the "
               "network use socket://HOST:PORT",
    "alt": "alt:// picks another pySerial backend by name",
    "cp2110": "cp2110:// opens a USB HID bridge, not a serial port",
}
EXAMPLES = "/dev/ttyACM0, /dev/serial/by-id/..., loop:// or socket://host:port"


def _refuse(url: str, why: str) -> ConfigError:
    return ConfigError(f"{KEY}: {url!r} {why}; use a serial device like {EXAMPLES}")


def check_tray_url(url: Any, *, resolve: bool = True) -> str:
    """``url`` if it is a dice tray this app may open, else :class:`ConfigError` (naming
    ``dice.url``, saying why). Raises nothing else, whatever ``url`` is.

    ``resolve``: an absolute path outside the device patterns is accepted only if it leads to
    a serial device now; with ``resolve=False`` (reopening a path already checked) any
    absolute path is, since opening a path never creates or truncates a file.
    """
    if not isinstance(url, str) or not url.strip():
        raise ConfigError(f"{KEY}: must be a device path or a serial URL, got {url!r}")
    if len(url) > MAX_URL:
        raise ConfigError(f"{KEY}: longer than {MAX_URL} characters; use a serial device like "
                          f"{EXAMPLES}")
    if not PLAIN.match(url):
        raise _refuse(url, "has spaces or characters no serial port name has")
    if "?" in url or "#" in url:
        raise _refuse(url, "has options after ? or #, which the tray does not use and some "
                           "of which write files")
    if "://" in url:
        return _check_scheme(url)
    if not url.startswith("/"):
        raise ConfigError(f"{KEY}: {url!r} is neither an absolute device path "
                          f"(/dev/ttyACM0, /dev/serial/by-id/...) nor a serial URL (loop://)")
    if DEVICE_PATH.match(url) or not resolve:
        return url
    try:
        target = os.path.realpath(url)
    except (OSError, ValueError):
        target = url
    if target != url and DEVICE_PATH.match(target):
        return url                       # a link to a tray: dicesim's, or a udev SYMLINK
    if UDEV_LINK.match(url) and not os.path.lexists(url):
        return url                       # a udev SYMLINK while its tray is unplugged
    if os.path.lexists(url):
        raise _refuse(url, f"is not a serial device (it leads to {target})")
    raise _refuse(url, "is not a serial device path and does not exist now (for the dice "
                       "simulator's link: start `companion dicesim` first)")


def _check_scheme(url: str) -> str:
    scheme = url.split("://", 1)[0]
    if url == LOOP:
        return url
    if scheme == "loop":
        raise _refuse(url, "has something after loop://")
    if scheme != "socket":
        why = REFUSED_SCHEMES.get(scheme.lower())
        raise ConfigError(
            f"{KEY}: {'refused' if why else 'unknown'} scheme {scheme!r} in {url!r} "
            f"({why or 'the app opens only loop:// and socket://HOST:PORT'}); use a serial "
            f"device like {EXAMPLES}")
    match = SOCKET.match(url)
    if match is None:
        raise _refuse(url, "is not socket://HOST:PORT (a host name or address, then a port "
                           "1-65535, nothing after)")
    host, port = match["host"], int(match["port"])
    if port > 65535:
        raise _refuse(url, f"has port {port}; ports are 1-65535")
    if not _host_ok(host):
        raise _refuse(url, f"has {host!r}, which is not a host name or an IP address")
    return url


def _host_ok(host: str) -> bool:
    if host.startswith("["):
        try:
            ipaddress.IPv6Address(host[1:-1])
        except ValueError:
            return False
        return True
    labels = host.split(".")
    if all(label.isdigit() for label in labels):
        try:
            ipaddress.IPv4Address(host)
        except ValueError:
            return False
        return True
    return len(host) <= 253 and all(_LABEL.match(label) for label in labels)


__all__ = ["DEVICE_PATH", "check_tray_url"]
