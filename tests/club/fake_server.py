"""A machine that answers in the club server's place, for tests/club/test_wire.py: it refuses
TLS and asks for the password in clear, as a PostgreSQL server whose pg_hba.conf says
``password`` does, and keeps every byte a client sends it.

What it sends is PostgreSQL's own protocol (postgres/postgres at
16735af3e39eeb6e3a2c2bcc1e4a17eabc74d377, src/include/libpq/protocol.h: ``'R'``
PqMsg_AuthenticationRequest with AUTH_REQ_PASSWORD 3, ``'p'`` PqMsg_PasswordMessage, ``'E'``
PqMsg_ErrorResponse; at 4af446e7cd0b37bb5d7fa9b73193c68e14239499, src/include/libpq/pqcomm.h:
NEGOTIATE_SSL_CODE PG_PROTOCOL(1234,5679) and NEGOTIATE_GSS_CODE PG_PROTOCOL(1234,5680)); the
answer to an SSL or GSS request it cannot take is the single byte ``N`` (the protocol's "Message
Flow": the server responds with a single byte, S or N)."""

from __future__ import annotations

import socket
import struct
import threading

SSL_REQUEST = (1234 << 16) | 5679
GSS_REQUEST = (1234 << 16) | 5680
AUTH_CLEARTEXT = 3


def _exactly(conn: socket.socket, n: int, kept: bytearray) -> bytes:
    data = b""
    while len(data) < n:
        part = conn.recv(n - len(data))
        if not part:
            raise ConnectionError("closed")
        data += part
    kept.extend(data)
    return data


class ClearTextServer:
    """Listens on 127.0.0.1 (``port``); ``received``: every byte sent to it, ``passwords``: the
    password messages it was sent, ``asked``: how many times it asked for one."""

    def __init__(self) -> None:
        self.sock = socket.socket()
        self.sock.bind(("127.0.0.1", 0))
        self.sock.listen(8)
        self.port = self.sock.getsockname()[1]
        self.received = bytearray()
        self.passwords: list[bytes] = []
        self.asked = 0
        self._thread = threading.Thread(target=self._serve, daemon=True)
        self._thread.start()

    def _serve(self) -> None:
        while True:
            try:
                conn, _ = self.sock.accept()
            except OSError:
                return
            with conn:
                try:
                    self._one(conn)
                except (ConnectionError, OSError, struct.error):
                    pass

    def _one(self, conn: socket.socket) -> None:
        conn.settimeout(10)
        while True:
            (length,) = struct.unpack("!i", _exactly(conn, 4, self.received))
            body = _exactly(conn, length - 4, self.received)
            (code,) = struct.unpack("!i", body[:4])
            if code in (SSL_REQUEST, GSS_REQUEST):
                conn.sendall(b"N")                     # no TLS here
                continue
            break                                      # the startup message
        conn.sendall(b"R" + struct.pack("!ii", 8, AUTH_CLEARTEXT))
        self.asked += 1
        kind = _exactly(conn, 1, self.received)
        (length,) = struct.unpack("!i", _exactly(conn, 4, self.received))
        body = _exactly(conn, length - 4, self.received)
        if kind == b"p":
            self.passwords.append(body)
        message = b"SFATAL\0C28P01\0Mpassword authentication failed\0\0"
        conn.sendall(b"E" + struct.pack("!i", len(message) + 4) + message)

    def close(self) -> None:
        self.sock.close()
