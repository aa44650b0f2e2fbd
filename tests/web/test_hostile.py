"""Generated and hostile messages (wrong tokens, another seat's command, oversized, malformed,
floods): the server never raises, answers every path without a valid token with 404, and puts
on the inbox only what that seat's buttons may do now, which the game then accepts."""

from __future__ import annotations

import asyncio
import json

from hypothesis import given, settings
from hypothesis import strategies as hs

from companion.core import InputEvent, Session
from companion.view.snapshot import seat_choices
from tests.support.fuzz import garbage
from tests.web import tables
from tests.web.serving import serve, socket
from ui.web.passes import Passes, SeatPass
from ui.web.server import WATCH, Client, PhoneServer

TABLES = [tables.brew_answering(), tables.brew(40), tables.brew(0), tables.brew(4), tables.cauldron(3), tables.cauldron(12),
          tables.quest(0), tables.quest(9)]
SNAPSHOTS = [tables.snapshot(s, 7) for s in TABLES]
WORDS = hs.sampled_from(["claim", "so_be_it", "pass", "undo", "redo", "next", "die",
                         "action_a", "magic1", "seat1.claim", "", "Anna"])
CHOICES = hs.sampled_from(["role:witch", "role:wolf_keeper", "no_thanks", "role:", "witch",
                           "seat1.role:witch", "abstain", "play_role"])
VALUES = hs.one_of(hs.integers(-3, 9), hs.sampled_from(["bottle", "hat", "spell", "3"]),
                   hs.none(), hs.booleans(), garbage(3))


@hs.composite
def messages(draw) -> str:
    """Mostly well-formed presses and dice (right and wrong), the rest anything at all."""
    kind = draw(hs.sampled_from(["press", "die", "choose", "other", "junk", "big"]))
    if kind == "junk":
        return draw(hs.one_of(hs.text(max_size=60), garbage(4).map(json.dumps)))
    if kind == "big":
        return json.dumps({"type": "press", "button": "x" * draw(hs.integers(4000, 9000)),
                           "seen": 7, "id": 1})
    message: dict = {"type": kind if kind != "other" else draw(hs.text(max_size=8))}
    if kind == "press":
        message["button"] = draw(hs.one_of(WORDS, VALUES))
    if kind == "choose":
        message["choice"] = draw(hs.one_of(CHOICES, VALUES))
    if kind == "die":
        message["die"] = draw(hs.one_of(WORDS, VALUES))
        message["value"] = draw(VALUES)
    message["seen"] = draw(hs.one_of(hs.sampled_from([7, 7, 7, 6, 8]), VALUES))
    message["id"] = draw(hs.one_of(hs.integers(0, 99), VALUES))
    if draw(hs.booleans()) and draw(hs.booleans()):
        message[draw(hs.sampled_from(["seat", "player", "source", "type2"]))] = draw(VALUES)
    return json.dumps(message)


def _allowed(snapshot: dict, seat: int) -> set[tuple]:
    if seat == WATCH or seat >= len(snapshot["controls"]):
        return set()
    controls = snapshot["controls"][seat]
    return ({("button", f"seat{seat + 1}.{b['button']}", None) for b in controls["buttons"]}
            | {("die", d["die"], face) for d in controls["dice"] for face in d["faces"]}
            | {("choice", f"seat{seat + 1}.{c['choice']}", None) for c in controls["choices"]})


def _accepted(session: Session, event: InputEvent) -> None:
    trial = Session(session.rules, session.setup)
    for step in session.done_steps():
        trial.execute(step.command, source=step.source)
    if event.kind == "choice":      # the app finds the choice's command on the table now
        seat, _, key = event.id.partition(".")
        (command,) = [c for k, _, c in seat_choices(trial, int(seat[4:]) - 1) if k == key]
        trial.execute(command, source=event.source)   # a RuleViolation here fails the test
        return
    trial.handle_input(event)       # a RuleViolation here fails the test


def _server(inbox, snapshot: dict) -> PhoneServer:
    server = PhoneServer(inbox)
    server.passes = Passes.new()
    server.publish(snapshot)
    return server


def _client(server: PhoneServer, seat: int) -> Client:
    """A phone on ``seat``'s link (nothing is sent to it); a seat beyond the table: a player's
    link who is not at it."""
    if seat == WATCH:
        return Client(ws=None, seat=WATCH)     # type: ignore[arg-type]
    names = [s["name"] for s in server._snapshot["seats"]]
    own = server.passes.for_player(names[seat]) if seat < len(names) else \
        SeatPass("0" * 32, "zed", "Zed")
    return Client(ws=None, seat=own)           # type: ignore[arg-type]


class Recorder:
    def __init__(self) -> None:
        self.items: list[InputEvent] = []

    def put(self, event: InputEvent) -> None:
        self.items.append(event)


@settings(max_examples=300)
@given(table=hs.integers(0, len(TABLES) - 1), seat=hs.sampled_from([WATCH, 0, 1, 2, 3, 5]),
       sent=hs.lists(messages(), min_size=1, max_size=12))
def test_only_what_the_seat_may_do_reaches_the_inbox(table, seat, sent):
    inbox = Recorder()
    server = _server(inbox, SNAPSHOTS[table])
    client = _client(server, seat)
    for text in sent:
        answer = server.received(client, text)
        assert answer is None or json.loads(answer)["type"] == "answer"
    allowed = _allowed(SNAPSHOTS[table], seat)
    for event in inbox.items:
        value = event.value if event.kind == "die" else None
        assert (event.kind, event.id, value) in allowed
        assert event.source == f"{SNAPSHOTS[table]['seats'][seat]['name']}'s phone"
    for event in inbox.items[:2]:
        _accepted(TABLES[table], event)


@settings(max_examples=25)
@given(seat=hs.sampled_from([WATCH, 0, 1]), sent=hs.lists(messages(), min_size=1, max_size=20))
def test_hostile_messages_over_a_real_socket_change_nothing_outside_the_seat(seat, sent):
    snapshot = SNAPSHOTS[0]

    async def check(server, client, inbox):
        token = server.watch_token if seat == WATCH else server.seat_tokens[seat]
        ws, _, _ = await socket(client, token)
        for text in sent:
            if ws.closed:
                break
            try:
                await ws.send_str(text)
            except ConnectionError:             # closed for a message too big: as it should
                break
        await ws.close()
        for _ in range(20):                   # the server reads what was sent before closing
            await asyncio.sleep(0.01)
        other, _, _ = await socket(client, server.watch_token)   # it still serves
        await other.close()
        return inbox.drain()

    passed = serve(check, snapshot)
    allowed = _allowed(snapshot, seat)
    assert all((e.kind, e.id, e.value if e.kind == "die" else None) in allowed for e in passed)


@settings(max_examples=40)
@given(path=hs.one_of(hs.text(alphabet="0123456789abcdef", min_size=0, max_size=40)
                      .map(lambda t: f"/t/{t}"),
                      hs.text(alphabet="abcdef/._-%0123456789tws", max_size=60).map(
                          lambda t: "/" + t.lstrip("/"))))   # "//x" names a host
def test_wrong_tokens_see_nothing(path):
    async def check(server, client, inbox):
        if any(token in path for token in [server.watch_token, *server.seat_tokens]):
            return
        answer = await client.get(path)
        assert answer.status in (404, 400), path
    serve(check, SNAPSHOTS[0])


def test_a_press_for_another_seat_is_never_taken():
    inbox = Recorder()
    server = _server(inbox, SNAPSHOTS[0])     # Anna answers; Barb's phone tries Anna's buttons
    barb = _client(server, 1)
    for text in ('{"type":"press","button":"claim","seen":7,"id":1}',
                 '{"type":"press","button":"seat1.claim","seen":7,"id":1}',
                 '{"type":"press","button":"claim","seen":7,"seat":0,"id":1}'):
        answer = json.loads(server.received(barb, text))
        assert answer["type"] == "answer" and answer["applied"] is False
    assert inbox.items == []


@settings(max_examples=40)
@given(host=hs.one_of(hs.text(alphabet="abcdefghijklmnopqrstuvwxyz0123456789.:-[]", max_size=30),
                      hs.sampled_from(["127.0.0.1", "localhost", "127.0.0.1:1", "[::1]",
                                       "127.0.0.1.nip.io", "127.0.0.2"])))
def test_a_page_reached_by_another_host_gets_nothing(host):
    """Every Host but an address served at its port: refused, valid token or not."""
    async def check(server, client, inbox):
        if host in server.hosts():
            return
        for path in (f"/t/{server.watch_token}", f"/t/{server.seat_tokens[0]}/table.js"):
            answer = await client.get(path, headers={"Host": host})
            assert answer.status in (400, 421), (host, answer.status)
            assert "Server" not in answer.headers
    serve(check, SNAPSHOTS[0])
