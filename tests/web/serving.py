"""An aiohttp test server around a PhoneServer on 127.0.0.1 (a free port), for the tests."""

from __future__ import annotations

import asyncio
from typing import Any, Awaitable, Callable

from aiohttp.test_utils import TestClient, TestServer

from hardware.inbox import Inbox
from ui.web.server import PhoneServer

Check = Callable[[PhoneServer, TestClient, Inbox], Awaitable[Any]]


def serve(check: Check, snapshot: dict | None = None) -> Any:
    async def main() -> Any:
        inbox = Inbox()
        server = PhoneServer(inbox)
        async with TestClient(TestServer(server.make_app(), host="127.0.0.1")) as client:
            if snapshot is not None:
                server.publish(snapshot)
            return await check(server, client, inbox)

    return asyncio.run(main())


def origin(client: TestClient) -> str:
    return f"http://{client.host}:{client.port}"


async def socket(client: TestClient, token: str, **kwargs):
    """A WebSocket as the page opens it, past its hello and first snapshot."""
    ws = await client.ws_connect(f"/t/{token}/ws", origin=origin(client), **kwargs)
    hello = await ws.receive_json(timeout=5)
    assert hello["type"] == "hello"
    first = await ws.receive_json(timeout=5)
    assert first["type"] == "snapshot"
    return ws, hello, first
