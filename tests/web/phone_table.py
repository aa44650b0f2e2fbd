"""A table with its phones' server and two pages per seat's link, without sockets: what a page
sends goes through the server's own ``received`` (its parse, its seat check, the presses'
fates), and what reaches the inbox is played as the app's main thread plays it
(``ui.web.commands.phone_command``, then the gate), each step recorded with the link that
pressed. The server can be restarted from its kept files, as a power cut restarts the app."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from companion.core import CompanionError, Session
from companion.core.values import seat_of
from companion.core.narrator import Narrator
from companion.view.snapshot import table_view
from hardware.inbox import Inbox
from ui.web.clients import Client
from ui.web.commands import phone_command
from ui.web.server import PhoneServer


@dataclass
class Played:
    """A step played from a phone: the press's key, the link's seat, the seat the step is
    the table's for (its player, or the team's current player), and its source."""

    press: str
    link: int
    seat: int | None
    source: str | None
    step: int


def step_seat(session: Session, command: Any, prompt_seat: Any) -> int | None:
    """Whose step a command is, as the log tells it: its player's seat; for a command of no
    player in a cooperative game, the seat whose turn it was."""
    if command.player is not None:
        return seat_of(session.names, command.player)
    return prompt_seat if session.rules.cooperative else None


class PhoneTable:
    def __init__(self, session: Session, folder: Path | None = None) -> None:
        self.session, self.narrator = session, Narrator(session)
        self.folder = folder
        self.n = 1000
        self.inbox = Inbox()
        self.played: list[Played] = []
        self.answers: list[dict[str, Any]] = []
        self._serve()

    def _serve(self) -> None:
        tokens = self.folder / "phones.json" if self.folder is not None else None
        self.server = PhoneServer(self.inbox, tokens_file=tokens)
        from ui.web import fates, passes

        self.server.passes = passes.load(tokens) or passes.Passes.new()
        self.server.fates = fates.Fates(fates.fates_path(tokens) if tokens else None)
        self.publish()
        passes.save(tokens, self.server.passes)
        self.pages = {seat: [self._page(p), self._page(p)]
                      for seat, p in enumerate(self.server._seat_passes())}
        self.link_of = {p.token: seat for seat, p in enumerate(self.server._seat_passes())}

    @staticmethod
    def _page(seat_pass: Any) -> Client:
        page = Client(None, seat_pass)
        page.allowed = lambda now: True        # no flood here: every message is read
        return page

    def restart(self) -> None:
        """The app killed and started again: the inbox is lost, the kept files read back, the
        snapshots numbered from elsewhere (as the app's random start does)."""
        self.inbox.drain()
        self.n += 10_000
        self._serve()

    def publish(self) -> dict[str, Any]:
        self.n += 1
        self.snapshot = table_view(self.session, self.n, self.narrator)
        self.server.publish(self.snapshot)
        return self.snapshot

    def send(self, seat: int, page: int, message: dict[str, Any]) -> dict[str, Any]:
        answer = json.loads(self.server.received(self.pages[seat][page], json.dumps(message)))
        self.answers.append(answer)
        return answer

    def drain(self) -> None:
        """The main thread's turn: every input queued, played as the app plays it."""
        for event in self.inbox.drain():
            session = self.session
            try:
                command = phone_command(session, event, self.n)
                seat = step_seat(session, command, session.prompt().get("seat"))
                step = session.execute(command, source=event.source)
            except CompanionError as refusal:
                self.server.answered(event, str(refusal))
                continue
            link = self.link_of[event.press.partition(":")[0]]   # the test's own knowledge
            self.played.append(Played(event.press, link, seat, step.source, step.n))
            self.server.answered(event, "", step=step.n)
            self.server.fates.save()           # the server's executor does it in the app
            self.publish()
