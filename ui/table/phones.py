"""The app's side of the phones at the table: start and stop sharing, hand the phones'
server a snapshot after every change, and keep the Pi's count of the phones connected.

A mixin of ``CompanionApp`` (as ``GameBarApp`` and ``TableSettingsApp`` are). The server
(``ui.web.server``, aiohttp) is imported only when sharing starts: the first frame waits for
neither. It runs on its own thread and touches nothing here: a phone's press arrives on the
devices' inbox like a GPIO button's (and is drained, mapped and gated on the main thread the
same way), and a phone connecting or leaving fires a Clock trigger that reads the counts here,
on the main thread. Nothing polls.

Sharing is remembered in the table settings (``phones``): a table that shared when it closed
shares again after the next start's first frame with the same tokens (kept in ``phones.json``
beside the settings, mode 600), so open pages reconnect by themselves after a restart, a crash
or a power cut. Only Stop sharing ends the links.

Each press from a phone is answered: the server says "received" at once, and after the main
thread played it (``phone_answered``, from the inbox's drain) "applied" or "refused" with the
words the Pi showed.
"""

from __future__ import annotations

from random import SystemRandom
from typing import Any

from kivy.clock import Clock
from kivy.properties import BooleanProperty, ListProperty, NumericProperty

from ui.table.snapshot import snapshot_now


class PhonesApp:
    """Needs from the app: ``devices`` (its inbox), ``session``, ``clock``, ``turn_limit``,
    ``store``, ``table_settings``, ``change_table_settings``, ``demo``, the game bar's
    narrator (``_narrator_of``) and ``games`` (ui.games' table: what each game's UI adds to a
    snapshot, handed here rather than imported)."""

    phones_on = BooleanProperty(False)        # the server runs: the table is shared
    phones_watching = NumericProperty(0)      # phones open on the watch link
    phones_seats = ListProperty([])           # the seats (0-based) with a phone as buttons

    def init_phones(self) -> None:
        self.phone_server = None
        # the snapshots' numbers, rising for ever from a random start: a page still showing a
        # table from before a restart never presses on a number this run gives another table
        self._phones_n = SystemRandom().randrange(1 << 40)
        self._bgstats: tuple[Any, str | None] = (None, None)   # (game id, its link)
        self._phones_play: tuple[Any, Any] = (None, None)      # (session, the game it is)
        self._count_phones = Clock.create_trigger(self._phones_counted)

    # -- sharing --------------------------------------------------------------------------
    def start_sharing(self, remember: bool = True) -> str:
        """Start the phones' server on the table's port (the kept tokens, else new ones); "" or
        why not, in the table's words. ``remember``: keep the choice in the table settings."""
        if self.phone_server is not None:
            return ""
        from ui.web.server import PhoneServer   # aiohttp: only once a table shares

        from ui.table.settings import settings_path
        from ui.web.passes import tokens_path

        port = self.table_settings.phones_port
        server = PhoneServer(self.devices.inbox, on_change=self._count_phones,
                             tokens_file=tokens_path(settings_path()))
        try:
            server.start(port=port)
        except OSError as problem:
            return (f"Phones not shared: port {port} cannot be used ({problem.strerror or problem})"
                    f". Choose another phones_port in the table settings.")
        self.phone_server, self.phones_on = server, True
        self.publish_table()
        self._phones_counted()
        return self.change_table_settings(phones=True) if remember else ""

    def stop_sharing(self) -> str:
        """Stop sharing: every phone's connection and every link end at once; remembered."""
        server, self.phone_server = self.phone_server, None
        if server is not None:
            server.stop()
        self.phones_on = False
        self._phones_counted()
        return self.change_table_settings(phones=False)

    def close_sharing(self) -> None:
        """The app closing: the phones are told it restarts; the links stay for the next start."""
        server, self.phone_server = self.phone_server, None
        if server is not None:
            server.stop(keep_tokens=True)

    def phone_answered(self, event, step) -> None:
        """Main thread, after the inbox's drain played ``event``: a phone's press is answered
        applied (``step``) or refused with the Pi's words (or the words for its phone alone)."""
        server = self.phone_server
        if server is None or not getattr(event, "press", ""):
            return
        private, self._private_refusal = getattr(self, "_private_refusal", ""), ""
        why = "" if step is not None else (private or self.refusal
                                           or "The table did not take it now")
        server.answered(event, why, step=getattr(step, "n", None))

    def phone_input(self, event) -> Any:
        """Main thread: a die, press, choice or form from a seat's phone, played only as that
        seat's and only while the table is still at the snapshot its page showed
        (``ui.web.commands``): a table that moved on is told to that phone alone, and nothing
        is played for any other seat. Returns the step played, or None."""
        from companion.core.errors import CompanionError
        from companion.view.hands import HAND_KEYS, refused_privately
        from ui.web.commands import MovedOn, phone_command

        self.dimmer.stir()                    # as any other press: a dim screen wakes
        session = self.session
        try:
            command = phone_command(session, event, self._phones_n)
        except MovedOn as moved:              # the phone's own news: the Pi shows nothing
            self._private_refusal = str(moved)
            return None
        except CompanionError as refusal:
            self.refuse(getattr(refusal, "screen", None) or str(refusal))
            return None
        key = str(event.id).partition(".")[2]
        if event.kind == "choice" and key.startswith(tuple(HAND_KEYS.values())):
            why = refused_privately(session, command)   # its words may quote the hand
            if why:
                self._private_refusal = why
                return None
        before = session.done_steps_view()[-1:] if session is not None else []
        if not self.send(command, source=event.source):
            return None
        after = session.done_steps_view()[-1:]
        return after[0] if after and after != before else None

    def open_phones(self) -> None:
        """The game bar's Phones button: share (if not yet), then the codes to scan."""
        problem = self.start_sharing()
        if self.phone_server is None:
            self.refuse(problem)
            return
        from ui.widgets.phones import PhonesDialog

        PhonesDialog().open()

    def share_remembered(self, *_args) -> None:
        """After the first frame: share again if the table shared when it closed."""
        if self.table_settings.phones and self.phone_server is None:
            problem = self.start_sharing(remember=False)
            if problem:
                self.notice = f"{self.notice} {problem}".strip()

    def phone_links(self) -> dict[str, Any]:
        """The server's join links a phone can open: without the loopback ones (kept only when
        nothing else is left: a machine on no network), each seat with its colour."""
        if self.phone_server is None:
            return {"watch": [], "seats": []}
        links = self.phone_server.links()
        return {"watch": reachable(links["watch"]),
                "seats": [dict(seat, urls=reachable(seat["urls"])) for seat in links["seats"]]}

    # -- what the phones see --------------------------------------------------------------
    def publish_table(self) -> None:
        """The table as it stands, to every phone (after every change, a pause, a game's start
        and end); no game in play: nothing to show, and no seat can press."""
        server = self.phone_server
        if server is None:
            return
        session = self.session
        if session is None:
            server.publish(None)
            return
        self._phones_n += 1
        snapshot = snapshot_now(self, session, self._phones_n, "phones",
                                bgstats=self._bgstats_link(session),
                                hands_offered=self.table_settings.hands)
        if snapshot is not None:
            if self._phones_play[0] is not session:       # a seat's link follows its player
                self._phones_play = (session, session.game_id if session.game_id is not None
                                     else f"{self._phones_n}")
            snapshot["play"] = self._phones_play[1]
            game = self.games.get(session.rules.name)       # what the game's UI adds
            if game is not None and game.phone_extras is not None and self.store is not None:
                game.phone_extras(self, snapshot)
            server.publish(snapshot)

    def _bgstats_link(self, session) -> str | None:
        if not session.over or session.game_id is None or self.store is None:
            return None
        if self._bgstats[0] != session.game_id:
            from companion.history.bgstats import push_link
            from companion.history.plays import read_play

            play = read_play(self.store.conn, session.game_id)
            try:
                url = push_link(play).url if play is not None else None
            except ValueError:          # a play too long for a link: the phones show none
                url = None
            self._bgstats = (session.game_id, url)
        return self._bgstats[1]

    def _phones_counted(self, *_args) -> None:
        """Main thread (the server's on_change trigger): who has the page open now."""
        server = self.phone_server
        now = server.connected() if server is not None else {"watching": 0, "seats": []}
        self.phones_watching, self.phones_seats = now["watching"], list(now["seats"])


def reachable(urls: list[str]) -> list[str]:
    """``urls`` less the loopback ones (no phone reaches them), unless nothing else is left."""
    others = [url for url in urls if not url.startswith(("http://127.", "http://[::1]"))]
    return others or urls
