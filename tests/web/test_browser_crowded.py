"""The phones' page in Chromium from an address already full of idle connections (a browser's
keep-alive ones, other tabs: five Chromium pages on one machine did it by themselves): the page,
its assets and its socket still get through, because a waiting connection gives way to a new
one of the same address (ui/web/limits.py). Before that rule the page and its CSS came, the
script was refused and the page said "Waiting for the table…" for ever."""

from __future__ import annotations

import socket
from urllib.parse import urlsplit

from tests.support.browser import text
from tests.web import tables
from ui.web.limits import PER_ADDRESS

from tests.web.test_browser import Table, current


def _idle_keep_alive(url: str, count: int) -> list[socket.socket]:
    """``count`` connections from 127.0.0.1, each asked for the page once and answered, then
    left open and silent as a browser leaves its keep-alive connections."""
    parts = urlsplit(url)
    held = []
    for _ in range(count):
        s = socket.create_connection((parts.hostname, parts.port), timeout=5)
        s.sendall(f"GET {parts.path} HTTP/1.1\r\nHost: {parts.netloc}\r\n\r\n".encode())
        answer = b""
        while b"</html>" not in answer:
            chunk = s.recv(65536)
            assert chunk, f"connection {len(held) + 1} was closed before its answer"
            answer += chunk
        assert answer.startswith(b"HTTP/1.1 200"), answer[:80]
        held.append(s)
    return held


def _closed(s: socket.socket) -> bool:
    s.settimeout(1.0)
    try:
        return s.recv(1) == b""
    except ConnectionResetError:
        return True
    except socket.timeout:
        return False


def test_the_page_loads_live_beside_its_own_address_s_idle_connections(browser):
    table = Table(tables.brew_answering())
    held: list[socket.socket] = []
    try:
        link = table.link(0)
        held = _idle_keep_alive(link, PER_ADDRESS)     # the address's whole allowance
        browser.get(link)
        current(browser, table)                        # script ran, socket open, snapshot in
        assert text(browser, "turn") == f"{table.view['turn']}'s turn"
        assert _closed(held[0])                        # the oldest gave way to the page
    finally:
        for s in held:
            s.close()
        table.close()
