"""A PhoneServer started as the app starts it (its own thread, the connection gate, the limits)
on 127.0.0.1 at a free port, and a client for the tests on their own loop; and raw connections,
requests, upgrades and WebSocket frames byte for byte, as a hostile device sends them."""

from __future__ import annotations

import asyncio
import socket as socket_module
import struct
from typing import Any, Awaitable, Callable

import aiohttp

from hardware.inbox import Inbox
from ui.web.server import PhoneServer


class Client:
    """What the tests use of the server: its host and port, and requests by path."""

    def __init__(self, session: aiohttp.ClientSession, port: int) -> None:
        self.session, self.host, self.port = session, "127.0.0.1", port

    def url(self, path: str) -> str:
        return f"http://{self.host}:{self.port}{path}"

    def get(self, path: str, **kwargs: Any):
        return self.session.get(self.url(path), allow_redirects=False, **kwargs)

    def post(self, path: str, **kwargs: Any):
        return self.session.post(self.url(path), **kwargs)

    def request(self, method: str, path: str, **kwargs: Any):
        return self.session.request(method, self.url(path), **kwargs)

    def ws_connect(self, path: str, **kwargs: Any):
        return self.session.ws_connect(self.url(path), **kwargs)


Check = Callable[[PhoneServer, Client, Inbox], Awaitable[Any]]


def serve(check: Check, snapshot: dict | None = None, **options: Any) -> Any:
    inbox = Inbox()
    server = PhoneServer(inbox, **options)
    server.start(port=0, addresses=["127.0.0.1"])
    try:
        if snapshot is not None:
            server.publish(snapshot)

        async def main() -> Any:
            async with aiohttp.ClientSession() as session:
                return await check(server, Client(session, server.port), inbox)

        return asyncio.run(main())
    finally:
        server.stop()


def origin(client: Client) -> str:
    return f"http://{client.host}:{client.port}"


async def socket(client: Client, token: str, **kwargs):
    """A WebSocket as the page opens it, past its hello and first snapshot."""
    ws = await client.ws_connect(f"/t/{token}/ws", origin=origin(client), **kwargs)
    hello = await ws.receive_json(timeout=5)
    assert hello["type"] == "hello"
    first = await ws.receive_json(timeout=5)
    assert first["type"] == "snapshot"
    return ws, hello, first


# -- raw connections: what a hostile device sends, byte for byte --------------------------------
def raw(port: int, data: bytes, wait: float = 1.0, rcvbuf: int | None = None,
        upto: bytes | None = None) -> bytes:
    """What the server answers ``data`` on a connection of its own, read until it closes, is
    quiet for ``wait`` seconds (a reset counts as closed) or has sent ``upto``."""
    with connect(port, rcvbuf) as s:
        s.sendall(data)
        return read_all(s, wait, upto)


def request(port: int, target: str, *headers: str, method: str = "GET", host: str | None = None,
            body: bytes = b"", version: str = "HTTP/1.1") -> bytes:
    """A request as sent: Host (``host``, default the served one; "" for none) and
    ``Connection: close`` first, then ``headers``."""
    host = f"127.0.0.1:{port}" if host is None else host
    lines = [f"{method} {target} {version}", *([f"Host: {host}"] if host else []),
             "Connection: close", *headers]
    return ("\r\n".join(lines) + "\r\n\r\n").encode() + body


def upgrade(port: int, token: str, *headers: str) -> bytes:
    """A WebSocket upgrade as the page's browser sends it (``headers`` added)."""
    host = f"127.0.0.1:{port}"
    lines = [f"GET /t/{token}/ws HTTP/1.1", f"Host: {host}", f"Origin: http://{host}",
             "Upgrade: websocket", "Connection: Upgrade", "Sec-WebSocket-Version: 13",
             "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==", *headers]
    return ("\r\n".join(lines) + "\r\n\r\n").encode()


def connect(port: int, rcvbuf: int | None = None) -> socket_module.socket:
    """A plain TCP connection to the server (``rcvbuf``: a small window, as a phone that
    reads slowly or not at all)."""
    s = socket_module.socket()
    if rcvbuf is not None:                    # before connecting: the window is set then
        s.setsockopt(socket_module.SOL_SOCKET, socket_module.SO_RCVBUF, rcvbuf)
    s.settimeout(5)
    s.connect(("127.0.0.1", port))
    return s


def read_all(s: socket_module.socket, wait: float, upto: bytes | None = None) -> bytes:
    """What ``s`` receives until it closes, is quiet for ``wait`` s or has received ``upto``."""
    s.settimeout(wait)
    got = b""
    try:
        while chunk := s.recv(65536):
            got += chunk
            if upto is not None and upto in got:
                break
    except (socket_module.timeout, ConnectionResetError):
        pass
    return got


# -- raw WebSocket frames: a page's socket by hand ----------------------------------------------
def frame(opcode: int, payload: bytes, fin: bool = True, rsv: int = 0,
          length: int | None = None) -> bytes:
    """A client's frame (masked, as a browser's), ``length`` announced if given."""
    n = len(payload) if length is None else length
    first = (0x80 if fin else 0) | rsv | opcode
    if n < 126:
        head = struct.pack("!BB", first, 0x80 | n)
    elif n < 65536:
        head = struct.pack("!BBH", first, 0x80 | 126, n)
    else:
        head = struct.pack("!BBQ", first, 0x80 | 127, n)
    key = b"\x11\x22\x33\x44"
    return head + key + bytes(b ^ key[i % 4] for i, b in enumerate(payload))


def frames(data: bytes) -> list[tuple[int, bytes]]:
    """The server's frames (unmasked) in ``data``: (opcode, payload)."""
    out, i = [], 0
    while len(data) - i >= 2:
        n, j = data[i + 1] & 0x7F, i + 2
        if n in (126, 127):
            width = 2 if n == 126 else 8
            n, j = int.from_bytes(data[j:j + width], "big"), j + width
        if len(data) - j < n:
            break
        out.append((data[i] & 0x0F, data[j:j + n]))
        i = j + n
    return out


class Page:
    """A WebSocket opened by hand on ``token``'s link, past the upgrade's answer."""

    def __init__(self, port: int, token: str, *headers: str, rcvbuf: int | None = None):
        self.s = connect(port, rcvbuf)
        self.s.sendall(upgrade(port, token, *headers))
        got = b""
        while b"\r\n\r\n" not in got:
            got += self.s.recv(65536)
        self.head, self.rest = got.split(b"\r\n\r\n", 1)

    def send(self, *sent: bytes, wait: float = 1.0) -> list[tuple[int, bytes]]:
        """Send ``sent``; every frame the server sent (hello and snapshot first), read until it
        closed or was quiet for ``wait`` s."""
        for data in sent:
            try:
                self.s.sendall(data)
            except (BrokenPipeError, ConnectionResetError):
                break
        found = frames(self.rest + read_all(self.s, wait))
        self.rest = b""
        return found

    def close(self) -> None:
        self.s.close()
