"""The dice tray's serial port: opening it, and reading it on pySerial's thread.

:class:`DiceProtocol` turns the bytes pySerial reads into parsed lines with a bounded buffer;
:class:`DiceReaderThread` makes sure the protocol hears of every end of the connection, even
ones pySerial 3.5 misses. One connection, start to end: reconnecting after an unplug is
:class:`hardware.dice.reader.DiceReader`'s job, which is why it stays out of here.
"""

from __future__ import annotations

import errno
import logging
import os
import socket
from typing import Callable

import serial
from serial.threaded import LineReader, ReaderThread

from .protocol import MAX_LINE, Faces, LineSplitter, Overlong, Parsed, parse_line
from .urls import check_tray_url

# The reader's logger: one name for everything the dice reader logs, however it is split.
log = logging.getLogger(__package__ + ".reader")

POLL_S = 0.1          # read timeout for a backend whose read can be neither cancelled nor woken


def open_port(url: str, baudrate: int) -> serial.SerialBase:
    """Open ``url`` for this program alone: a tray URL :func:`check_tray_url` allows (checked
    again here, so no caller can reach ``spy://...?file=`` and its kin; a path is not resolved:
    the link of an unplugged tray may be missing between attempts)."""
    check_tray_url(url, resolve=False)
    kwargs = {"baudrate": baudrate, "do_not_open": True}
    if os.name == "posix":
        kwargs["exclusive"] = True     # a second program on the port would steal lines
    port = serial.serial_for_url(url, **kwargs)
    port.open()
    return port


class DiceProtocol(LineReader):
    """``LineReader`` for the dice protocol, with a bounded buffer: pySerial's own
    ``Packetizer`` buffer grows without limit on a line that never ends; this one never holds
    more than ``max_len`` bytes. Each line goes to :func:`parse_line` and the result to
    ``on_parsed``; ``on_lost(exc)`` is called when the port goes away or is closed.

    Host -> device lines end in LF (``write_line``).
    """

    TERMINATOR = b"\n"
    ENCODING = "ascii"
    UNICODE_HANDLING = "strict"

    def __init__(self, on_parsed: Callable[[Parsed], object], *, faces: Faces | None = None,
                 on_made: Callable[["DiceProtocol"], object] | None = None,
                 on_lost: Callable[[BaseException | None], object] | None = None,
                 max_len: int = MAX_LINE) -> None:
        super().__init__()
        self.faces = faces or Faces()
        self.splitter = LineSplitter(max_len)
        self._on_parsed = on_parsed
        self._on_made = on_made
        self._on_lost = on_lost

    def connection_made(self, transport: ReaderThread) -> None:
        super().connection_made(transport)
        port = transport.serial
        # ReaderThread sets a 1 s read timeout where a read cannot be cancelled (socket://).
        # A socket's read is woken by shutting the socket down (DiceReaderThread.stop), so it
        # needs no timeout, and an idle tray wakes nothing; any other such backend polls.
        if not hasattr(port, "cancel_read"):
            port.timeout = None if _socket_of(port) is not None else POLL_S
        if self._on_made is not None:
            self._on_made(self)

    def data_received(self, data: bytes) -> None:
        for item in self.splitter.feed(data):
            self._on_parsed(item.error() if isinstance(item, Overlong)
                            else parse_line(item, self.faces))

    def handle_line(self, line: str) -> None:  # LineReader's hook, for completeness
        self._on_parsed(parse_line(line, self.faces))

    def connection_lost(self, exc: BaseException | None) -> None:
        self.transport = None
        self.splitter.reset()
        if self._on_lost is not None:
            self._on_lost(exc)


class DiceReaderThread(ReaderThread):
    """pySerial's ``ReaderThread``, made sure to call ``connection_lost`` however its loop ends.

    pySerial 3.5 catches only ``SerialException`` around the read; but on an unplugged USB
    tty ``in_waiting`` (an ioctl, evaluated before ``read``) raises a plain ``OSError``
    (EIO), which would kill the thread silently and leave the protocol never told
    (pyserial/pyserial#401). Here any exception out of the loop becomes ``connection_lost(exc)``.
    """

    def stop(self) -> None:
        """Stop reading: a socket:// read has no ``cancel_read``, so shut the socket down to
        end it at once (the supervisor still closes the port)."""
        self.alive = False
        sock = _socket_of(self.serial)
        if sock is not None and not hasattr(self.serial, "cancel_read"):
            try:
                sock.shutdown(socket.SHUT_RDWR)
            except OSError:   # gone already: the read has ended or is ending
                pass
        super().stop()

    def run(self) -> None:
        try:
            super().run()
        except Exception as exc:
            self.alive = False
            protocol, self.protocol = self.protocol, None
            log.debug("reader loop ended by %r", exc)
            if protocol is not None:
                protocol.connection_lost(exc)


def _socket_of(port: serial.SerialBase) -> socket.socket | None:
    """The socket under a socket:// port (pySerial keeps it in ``_socket``), or None."""
    sock = getattr(port, "_socket", None)
    return sock if isinstance(sock, socket.socket) else None


_ERRNO_REASONS = {
    errno.ENOENT: "no such device (not plugged in?)",
    errno.ENODEV: "no such device (not plugged in?)",
    errno.ENXIO: "no such device (not plugged in?)",
    errno.EACCES: "permission denied (is the user in the dialout group?)",
    errno.EPERM: "permission denied (is the user in the dialout group?)",
    errno.EAGAIN: "in use by another program",
    errno.EBUSY: "in use by another program",
    errno.EIO: "input/output error (unplugged?)",
}


def port_error_reason(exc: BaseException) -> str:
    """A short reason for the screen; pySerial's own texts repeat the path and the errno."""
    code = getattr(exc, "errno", None)
    if code in _ERRNO_REASONS:
        return _ERRNO_REASONS[code]
    text = str(exc) or type(exc).__name__
    return text.rsplit("] ", 1)[-1] if text.startswith("[Errno") else text


__all__ = ["DiceProtocol", "DiceReaderThread", "open_port", "port_error_reason"]
