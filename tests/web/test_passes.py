"""A seat's link belongs to a player: carried to the same player's seat in the next
game, ended (with the page's words) when they are not in it, never a press for anyone else;
the tokens kept in a file of mode 600 survive the app killed outright, and only Stop sharing
ends them."""

from __future__ import annotations

import asyncio
import json
import os
import signal
import socket as sockets
import stat
import time
from dataclasses import replace

import aiohttp
from hypothesis import given, settings
from hypothesis import strategies as hs

from tests.support.fuzz import garbage
from tests.web import tables
from tests.web.serving import serve, socket
from tests.web.test_limits import Child, _join
from ui.web import passes as kept
from ui.web.passes import Ended, Passes, SeatPass

FIRST = tables.snapshot(tables.brew_answering(), 7)          # Anna, Barb, Carl, Dora


def _game(snapshot: dict, names: list[str], play: int, n: int) -> dict:
    """``snapshot`` as another game of ``names`` (the seats' names and their controls)."""
    old = [s["name"] for s in snapshot["seats"]]
    was = [old.index(name) if name in old else i % 4 for i, name in enumerate(names)]
    seats = [dict(snapshot["seats"][w], seat=i, name=name)
             for i, (w, name) in enumerate(zip(was, names))]
    controls = [dict(snapshot["controls"][w], seat=i) for i, w in enumerate(was)]
    return dict(snapshot, n=n, play=play, seats=seats, controls=controls)


def test_a_new_game_carries_a_link_to_the_same_player_and_ends_the_others():
    passes = Passes.new().seated(["Anna", "Barb", "Carl"], 1)
    barb, anna = passes.for_player("Barb"), passes.for_player("Anna")
    later = passes.seated(["Mia", " anna ", "Carl"], 2)          # Anna moved; Barb left
    assert later.for_player("ANNA").token == anna.token          # her link, her new seat
    assert later.for_player("Mia").token not in {p.token for p in passes.seats}
    ended = later.find(barb.token)
    assert isinstance(ended, Ended)
    assert ended.why == "This link was Barb's seat in the last game: scan the table's code again"
    assert later.seated(["Mia", "Anna", "Carl"], 2) is later     # nothing new: the same
    assert later.seated(["Barb"], 3).for_player("Barb").token != barb.token   # ended stays ended


def test_the_old_seat_link_presses_nothing_in_a_game_with_other_players():
    async def check(server, client, inbox):
        server.publish(dict(FIRST, play=1))
        barb_token = server.seat_tokens[1]
        ws, hello, _ = await socket(client, barb_token)
        assert dict(hello, boot=None) == {"type": "hello", "seat": 1, "name": "Barb",
                                          "boot": None}
        server.publish(_game(FIRST, ["Mia", "Anna", "Carl", "Dora"], play=2, n=8))
        told = await ws.receive_json(timeout=5)
        assert told == {"type": "ended", "why": "This link was Barb's seat in the last game: "
                                                 "scan the table's code again"}
        while (await ws.receive(timeout=5)).type not in (aiohttp.WSMsgType.CLOSE,
                                                          aiohttp.WSMsgType.CLOSED):
            pass
        assert ws.close_code == 4000
        again = await client.ws_connect(f"/t/{barb_token}/ws",
                                        origin=f"http://{client.host}:{client.port}")
        assert (await again.receive_json(timeout=5))["type"] == "ended"
        await asyncio.sleep(0.1)
        assert len(inbox) == 0 and barb_token not in server.seat_tokens
        page = await client.get(f"/t/{barb_token}")
        assert page.status == 200              # its page loads, to say why, and presses nothing
    serve(check, FIRST)


def test_a_carried_link_presses_for_its_player_at_their_new_seat():
    async def check(server, client, inbox):
        server.publish(dict(FIRST, play=1))
        anna = server.seat_tokens[0]
        server.publish(_game(FIRST, ["Barb", "Anna", "Carl", "Dora"], play=2, n=8))
        ws, hello, first = await socket(client, anna)
        assert hello["seat"] == 1 and first["table"]["you"]["name"] == "Anna"
        for button in ("claim", "so_be_it", "pass"):
            await ws.send_json({"type": "press", "button": button, "seen": 8, "id": 1})
            await ws.receive_json(timeout=5)
        await asyncio.sleep(0.1)
        pressed = inbox.drain()
        assert pressed and {e.source for e in pressed} == {"Anna's phone"}
        assert all(e.id.startswith("seat2.") for e in pressed)      # her seat now, no other
    serve(check, FIRST)


def test_the_tokens_file_is_mode_600_and_stop_sharing_removes_it(tmp_path):
    path = tmp_path / "phones.json"

    async def check(server, client, inbox):
        assert stat.S_IMODE(os.stat(path).st_mode) == 0o600
        kept_now = Passes.from_json(path.read_text())
        assert kept_now.watch == server.watch_token
        assert [p.token for p in kept_now.seats] == server.seat_tokens
        return server.watch_token

    serve(check, FIRST, tokens_file=path)
    assert not path.exists()                  # serve() ends with Stop sharing


def test_a_link_is_never_written_through_nor_over(tmp_path, caplog):
    """The files rule (docs/security.md): a link planted at the kept name is neither followed
    nor replaced; the links are then not kept (said in the log) and sharing goes on."""
    target, elsewhere = tmp_path / "phones.json", tmp_path / "elsewhere"
    elsewhere.write_text("mine")
    os.symlink(elsewhere, target)
    kept.save(target, Passes.new())
    assert elsewhere.read_text() == "mine"
    assert target.is_symlink() and os.readlink(target) == str(elsewhere)
    assert "could not be kept" in caplog.text
    target.unlink()
    kept.save(target, Passes.new())
    assert not target.is_symlink() and Passes.from_json(target.read_text())


@settings(max_examples=200)
@given(junk=hs.one_of(garbage(3).map(json.dumps), hs.binary(max_size=200).map(
    lambda b: b.decode("latin-1"))))
def test_a_broken_tokens_file_is_set_aside_never_raised(junk, tmp_path_factory):
    path = tmp_path_factory.mktemp("tokens") / "phones.json"
    path.write_text(junk, encoding="utf-8", errors="surrogateescape")
    found = kept.load(path)
    assert found is None or isinstance(found, Passes)


def _free_port() -> int:
    with sockets.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def test_an_open_phone_is_current_again_after_the_app_is_killed(tmp_path):
    """SIGKILL, no goodbye: the next start reads the same tokens, the same link joins again."""
    path, port = tmp_path / "phones.json", _free_port()

    def start():
        child = Child(256, str(path), str(port))
        return child.proc, child.info

    first, info = start()
    try:
        assert asyncio.run(_join(port, info["seats"][1])) < 2.0
        first.send_signal(signal.SIGKILL)
        first.wait(10)
        assert path.exists()
        again, info2 = start()
        try:
            assert info2["watch"] == info["watch"] and info2["seats"] == info["seats"]
            assert asyncio.run(_join(port, info["seats"][1])) < 2.0
        finally:
            again.kill()
            again.wait(10)
    finally:
        if first.poll() is None:
            first.kill()


def test_a_resumed_game_keeps_its_players_links_and_a_new_game_brings_none_back():
    """Anna and Barb's game, then Carl and Anna's (Barb's link ends), then Anna and Barb's
    resumed: Barb's own link presses again; a new game of Barb's would give her a new one.
    The file keeps what an ended pass was, so a restart in between changes nothing."""
    first = Passes.new().seated(["Anna", "Barb"], "game-1")
    barb = first.for_player("Barb")
    other = first.seated(["Carl", "Anna"], "game-2")
    assert isinstance(other.find(barb.token), Ended)
    other = Passes.from_json(other.to_json())                     # a restart between
    resumed = other.seated(["Anna", "Barb"], "game-1")
    assert resumed.find(barb.token) == replace(barb, game="game-1")
    assert resumed.for_player("Barb").token == barb.token
    assert not any(e.token == barb.token for e in resumed.ended)
    assert other.seated(["Barb"], "game-3").for_player("Barb").token != barb.token
    assert Passes.from_json(resumed.to_json()) == resumed


def test_a_tokens_file_from_before_ended_passes_kept_what_they_were_still_reads():
    old = json.dumps({"v": 1, "watch": "a" * 32, "seats": [["b" * 32, "anna", "Anna", 1]],
                      "ended": [["c" * 32, "This link was Barb's seat in the last game"]]})
    passes = Passes.from_json(old)
    assert passes.ended == (Ended("c" * 32, "This link was Barb's seat in the last game"),)
