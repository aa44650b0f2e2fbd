"""A PhoneServer started as the app starts it (its own thread, the connection gate, the limits)
on 127.0.0.1 at a free port, and a client for the tests on their own loop."""

from __future__ import annotations

import asyncio
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
