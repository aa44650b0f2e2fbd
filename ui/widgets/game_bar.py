"""The game bar under every game's table screen: on the left the last events
in words with who and where from, tap it for the whole game's log; on the right the turn clock
(amber near the table's limit, red at it), the awaited seat's time and the game's length, and
a pause button. Undo and redo say here, in large type, what they took back or put back.

The root gives the bar its room only while a table screen shows. The log dialog, grouped by
round or turn, and its Fix buttons for a misread die are ui/widgets/game_log.py.
The demo keyboard's "p" pauses too (a table button with the input id "pause" does the same
through app.handle)."""

from __future__ import annotations

import time
from functools import lru_cache

from kivy.app import App
from kivy.clock import Clock
from kivy.core.text import Label as CoreLabel
from kivy.core.window import Window
from kivy.event import EventDispatcher
from kivy.properties import BooleanProperty, StringProperty
from kivy.uix.label import Label
from kivy.uix.modalview import ModalView

from companion.core.engine import DONE, Step
from companion.core.errors import CompanionError
from companion.core.narrator import Narrator, line_sources
from ui.table.clock import TableClock, clock_words
from ui.kiosk.keyboard import typing_into
from ui.text.phrases import phrases, share_a_phrase
from ui.widgets.common import Box

#: How long undo and redo say what they did.
UNDO_SECONDS = 4.0
#: the last log lines the bar may show: three where the window has the room (a taller bar on a
#: larger panel, ui/root.kv), else two, else one
TAIL = 3
#: what the bar shows when each of the last lines is one the window says already: the button's
#: use (its tap opens the whole log)
NOTHING_NEW = "Game log"

#: Where a step's command came from, as the log says it; the screen, where most come from,
#: goes unsaid.
SOURCE_WORDS = {"gpio": "button", "serial": "dice tray", "ble": "smart die", "keyboard": "key",
                "script": "script"}



#: A seat's phone pressing as its buttons says whose it is ("Anna's phone", ui/web/server.py).
PHONE_SOURCE = "'s phone"


def source_words(source: str | None) -> str | None:
    """Where a step came from in the log's words, or None for nothing said."""
    if source and source.endswith(PHONE_SOURCE):
        return source
    return SOURCE_WORDS.get(source or "")


def log_line(n: int, line: str, source: str | None) -> str:
    came = source_words(source)
    return f"{line} ({came})" if came else line


#: units of bar width from which the game's clock has room beside the turn's
GAME_CLOCK_ROOM = 960


@lru_cache(maxsize=16)
def _width(text: str, font_size: float, bold: bool) -> int:
    """The width of ``text`` drawn at this size: the clocks' widest words are measured once
    a size, not three times a step."""
    core = CoreLabel(text=text, font_size=font_size, bold=bold)
    core.refresh()
    return core.texture.size[0]


class GameBar(Box):
    #: What the left of the bar shows: the newest two events when both fit in its two rows,
    #: else the newest alone (the log dialog has every event whole), of those the window does
    #: not say already (the headline, a panel, the messages' band): each thing said once.
    shown = StringProperty("")
    #: the events' place says what undo or redo just did (drawn in amber)
    news = BooleanProperty(False)

    def on_kv_post(self, _base) -> None:
        Window.bind(on_key_down=self._on_key)
        app = App.get_running_app()
        # the bar leaves out what the window says already, so it looks after the screen has
        # shown a change (the app calls fit_now), a tap that opened a panel (no change of the
        # game) and the messages' band; the size of its words at once
        self.refit = Clock.create_trigger(self._fit, 0)
        app.bind(u=self._fit, log_tail=self.refit, undo_words=self.refit, refusal=self.refit,
                 table_showing=self.refit)
        self.ids.events.bind(size=self._fit)
        Window.bind(on_touch_up=lambda *_a: self.refit())
        self._fit()

    def fit_now(self) -> None:
        """After the table screen showed a change: the bar's lines at once, in the same frame."""
        self.refit.cancel()
        self._fit()

    def _said_around(self) -> set[str]:
        """The phrases the window shows outside the bar (the headline, the panels, the
        messages' band): the bar does not say them again."""
        said: set[str] = set()
        stack = list(Window.children)
        while stack:
            w = stack.pop()
            # by opacity alone: a text just given (the band's) has no size until the next frame;
            # not a dialog's words (the bar lies dimmed under it, and one closing still fades)
            if w is self or w.opacity <= 0.01 or isinstance(w, ModalView):
                continue
            if isinstance(w, Label) and w.text:
                said.update(phrases(w.text))
            stack.extend(w.children)
        return said

    def _fit(self, *_args) -> None:
        app, events = App.get_running_app(), self.ids.events
        for label, widest in ((self.ids.turn_clock, ("Turn +59:59", "Paused 59:59")),
                              (self.ids.game_clock, ("Game 9:59:59",))):
            label.width = max(_width(text, label.font_size, label.bold)
                              for text in widest) + app.u * 6
        # On a bar too narrow for both clocks at the type scale's sizes (the 7-inch panel, a
        # portrait screen), the game's time is the one left out: it is detail, and the log a
        # tap away heads with it.
        narrow = self.width < app.u * GAME_CLOCK_ROOM
        game_clock = self.ids.game_clock
        game_clock.opacity = 0 if narrow else 1
        if narrow:
            game_clock.width = 0
        # the last lines the window does not say already ("Carl rolled 2 for turn order" under
        # "Roll for turn order: Daniel" and the dice panel's "Rolled: Anna 5, Carl 2", a redo's
        # line under the band saying "Redone: ..."); none: the bar names what its tap opens
        # What undo or redo just did takes the events' place for its seconds, in amber: a
        # place kept for it, so nothing on the screen moves when it comes or goes.
        self.news = bool(app.undo_words)
        said = self._said_around() if app.table_showing else set()
        lines = ([app.undo_words] if app.undo_words else
                 [line for line in app.log_tail.splitlines() if said.isdisjoint(phrases(line))])
        if not lines:
            self.shown = NOTHING_NEW if app.log_tail else ""
            return
        width = max(1, events.width - app.u * 10)
        room = events.height - app.u * 2

        def fits(text: str) -> bool:
            # measured at the table's text size (Large included), so the words chosen are
            # drawn at it and never fall back to the smaller size
            core = CoreLabel(text=text, font_size=app.fu * events.fs, bold=True,
                             text_size=(width, None), line_height=events.line_height)
            core.refresh()
            return core.texture is not None and core.texture.size[1] <= room

        # the newest lines that fit and say nothing twice ("Anna rolled 5 for turn order"
        # over "Barb rolled 2 for turn order": the newest alone; the log has them all)
        for n in range(TAIL, 0, -1):
            shown = "\n".join(lines[-n:])
            if fits(shown) and (n == 1 or not share_a_phrase(lines[-n:])):
                break
        else:
            # One line too long for the bar even alone (a narrow bar, a long line): its first
            # words with an ellipsis, never lines cut in half; a tap shows it whole in the log.
            words = shown.split(" ")
            low, high = 1, len(words)
            while low < high:
                mid = (low + high + 1) // 2
                if fits(" ".join(words[:mid]) + "…"):
                    low = mid
                else:
                    high = mid - 1
            shown = " ".join(words[:low]) + "…"
        self.shown = shown

    def _on_key(self, _window, key, _scancode, codepoint, modifiers) -> bool:
        app = App.get_running_app()
        if (app is None or not app.demo or not app.table_showing or codepoint != "p"
                or set(modifiers) & {"ctrl", "alt", "meta"} or typing_into() is not None):
            return False
        app.toggle_pause()
        return True

    def open_log(self) -> None:
        from ui.widgets.game_log import GameLog   # its rules load with the first log opened

        GameLog().open()


class GameBarApp(EventDispatcher):
    """The app's side of the bar (mixed into CompanionApp): the log in words, kept up to date
    step by step (rebuilt only after an undo or redo), the clocks, pause, and what undo and redo
    say. The clocks are kept in the store when the turn changes, on pause and on leaving the
    game; the 1 Hz tick only updates the bar's labels."""

    table_showing = BooleanProperty(False)    # a table screen shows: the root gives the bar its room
    paused = BooleanProperty(False)
    clock_turn = StringProperty("0:00")
    clock_level = StringProperty("")     # "", "amber", "red"
    clock_game = StringProperty("0:00")
    clock_seats = StringProperty("")
    log_tail = StringProperty("")
    undo_words = StringProperty("")

    def init_game_bar(self) -> None:
        self.clock: TableClock | None = None
        self._log: list[str] = []
        self._log_ends: list[int] = []   # len(self._log) after each told step
        self._narrator: Narrator | None = None
        self._announce = ""
        self._clear_undo = Clock.create_trigger(lambda *_: setattr(self, "undo_words", ""),
                                                UNDO_SECONDS)
        # ... and goes when the table screen does (home, a new game's setup)
        self.fbind("table_showing", lambda *_: self.table_showing or self.forget_undo())
        # A turn change keeps the clocks after the frame that shows the change: their own
        # transaction (a sync of the card) does not hold up the table's next picture.
        self._keep_clocks_soon = Clock.create_trigger(lambda *_: self.keep_clocks(), 0.3)

    def log_all(self) -> list[str]:
        return list(self._log)

    def log_steps(self) -> list[Step]:
        """The steps the log tells (the done ones), in order, with ``log_entries``."""
        return [step for step, _ in self._narrator.entries] if self._narrator else []

    def log_entries(self) -> list[list[str]]:
        """Each told step's lines as the log shows them (with where they came from)."""
        starts = [0, *self._log_ends[:-1]]
        return [self._log[a:b] for a, b in zip(starts, self._log_ends)]

    def start_clocks(self, session) -> None:
        kept = self.store.clocks(session.game_id) if session.game_id is not None else None
        self.clock = TableClock.from_dict(kept, len(session.names), time.monotonic())
        self.paused = self.clock.paused
        self._narrator = None     # a new game's log: told afresh (_narrator_of)
        self._narrator_of(session)
        # what undo took back in the last game is no news in this one (and its toast lies in the
        # bar's place: it would take the first tap meant for the bar)
        self.forget_undo()

    def forget_undo(self) -> None:
        """What undo or redo said goes with the game it was said in (home, a new setup)."""
        self._clear_undo.cancel()
        self.undo_words = ""

    def keep_clocks(self) -> None:
        session, clock = self.session, self.clock
        if (session is None or clock is None or session.game_id is None
                or self.store is None):  # on_stop may come twice: the store is closed
            return
        clock.advance(time.monotonic())
        try:
            self.store.keep_clocks(session.game_id, clock.to_dict())
        except CompanionError:  # a full card: the clocks are not worth stopping the game for
            pass

    def bar_changed(self, session, step, key, seat) -> None:
        """From the app's _on_change: the log, what undo/redo did, and the clocks."""
        self._log_step(session, step)
        if self._announce and step is not None and (step.status == DONE) == (
                self._announce == "Redone"):
            # the command's own line (its first), redone as undone: the lines after it say
            # what followed from it, such as the next prompt the headline shows already
            said = (self._log[self._log_ends[-2] if len(self._log_ends) > 1 else 0]
                    if step.status == DONE and self._log
                    else log_line(step.n, self._narrator_of(session).words(step)[0],
                                  step.source))
            self.undo_words = f"{self._announce}: {said}"
            self._clear_undo.cancel()
            self._clear_undo()
        elif step is not None and not self._announce and self.undo_words:
            # a new press after an undo: what undo took back is old news, and the band would
            # name it beside the log line of what was played since (said twice)
            self._clear_undo.cancel()
            self.undo_words = ""
        self._announce = ""
        if self.clock is not None and self.clock.turn_changed(key, seat, time.monotonic()):
            self._keep_clocks_soon()
        self.show_clocks()

    def _narrator_of(self, session) -> Narrator:
        if self._narrator is None or self._narrator.session is not session:
            self._log, self._log_ends, self._narrator = [], [], Narrator(session)
        return self._narrator

    def _log_step(self, session, step) -> None:
        """The log in words after a change: the lines of the steps still done are kept, those
        of an undone step taken off, a new step's added (the narrator tells only those)."""
        kept, added = self._narrator_of(session).sync()
        if kept < len(self._log_ends):
            del self._log[self._log_ends[kept - 1] if kept else 0:]
            del self._log_ends[kept:]
        for told, lines in added:
            self._log += [log_line(told.n, line, came)
                          for line, came in zip(lines, line_sources(told, lines))]
            self._log_ends.append(len(self._log))
        self.log_tail = "\n".join(self._log[-TAIL:]) or "Nothing played yet"

    def show_clocks(self) -> None:
        clock, limit = self.clock, self.turn_limit
        if clock is None:
            return
        self.turn_seconds = int(clock.turn)
        self.clock_turn = clock.turn_words(limit)
        self.clock_level = clock.level(limit)
        self.clock_game = clock_words(clock.game)
        names = self.session.names if self.session is not None else []
        self.clock_seats = "   ".join(f"{name} {clock_words(s)}"
                                      for name, s in zip(names, clock.seats))
        self.clock_seats += f"   -   game {self.clock_game}"

    @property
    def _turn_started(self) -> float:
        """When the turn began on the monotonic clock, as if it never paused (the dice tests
        set it to put a turn at a given age)."""
        return time.monotonic() - (self.clock.turn if self.clock is not None else 0.0)

    @_turn_started.setter
    def _turn_started(self, started: float) -> None:
        if self.clock is not None:
            now = time.monotonic()
            self.clock.advance(now)
            self.clock.turn = now - started

    def toggle_pause(self) -> None:
        """Pause or go on (the bar's button, a table button, the demo key "p"). Paused, no
        clock runs and the app sets no timer at all."""
        if self.clock is None or self.session is None or self.session.over:
            return
        now = time.monotonic()
        if self.clock.paused:
            self.clock.resume(now)
            self._start_timer()
        else:
            self.clock.pause(now)
            self._stop_timer()
        self.paused = self.clock.paused
        self.keep_clocks()
        self.show_clocks()
        self.publish_table()   # the phones' clocks stop and go on with the table's

    def tick_clocks(self) -> None:
        if self.clock is None:
            return
        self.clock.advance(time.monotonic())
        self.show_clocks()
        if self.clock.reached_limit(self.turn_limit):
            self.cue("time")  # once, when the turn reaches the table's limit
