"""A PhoneServer started as the app starts it (its own thread, the connection gate, the limits)
on 127.0.0.1 at a free port, and a client for the tests on their own loop."""

from __future__ import annotations

import asyncio
import socket as socket_module
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
    with _connected(port, rcvbuf) as s:
        s.sendall(data)
        return _read(s, wait, upto)


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


def _connected(port: int, rcvbuf: int | None = None) -> socket_module.socket:
    s = socket_module.socket()
    if rcvbuf is not None:                    # before connecting: the window is set then
        s.setsockopt(socket_module.SOL_SOCKET, socket_module.SO_RCVBUF, rcvbuf)
    s.settimeout(5)
    s.connect(("127.0.0.1", port))
    return s


def _read(s: socket_module.socket, wait: float, upto: bytes | None = None) -> bytes:
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
