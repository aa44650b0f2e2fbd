"""The Kivy app: owns the store, the session and the devices.

Screens only read its properties and call its methods, so the rules stay in ``companion`` and
threads stay in ``ui.table.devices``: device threads ``put`` on the Inbox, a Clock trigger
drains it on the main thread and hands each input to ``handle`` here. Nothing polls; the only
repeating clock is the game bar's 1 Hz tick while a game runs unpaused (ui/widgets/game_bar.py).
"""

from __future__ import annotations

import gc
import os
import re
from pathlib import Path
from typing import Any

from kivy.app import App
from kivy.clock import Clock
from kivy.config import Config
from kivy.core.window import Window
from kivy.lang import Builder
from kivy.properties import (
    BooleanProperty, DictProperty, NumericProperty, ObjectProperty, StringProperty,
)

from companion.core.errors import CompanionError, NotSaved, SetupError, StoreError
from companion.core.values import shown
from companion.core.model import Command, InputEvent
from companion.games import get_rules
from companion.store import Store, default_path
from ui import theme
from ui.table import settings as table
from ui.kiosk import renderer, service
from ui.kiosk.touch import use_touch_inputs
from ui.table.devices import TableDevices
from ui.kiosk.dimmer import Dimmer
from ui.games import GAMES, table_screens
from ui.table.sound import ScreenSound
from ui.table.waiting import CardWait
from ui.table.phones import PhonesApp
from ui.table.club import ClubApp
from ui.table.settings_app import TableSettingsApp
from ui.table.stored import StoredGamesApp
from ui.widgets.game_bar import GameBarApp

HERE = Path(__file__).parent
KV_FILES = ["widgets/common.kv", "root.kv", "screens/home.kv", "widgets/game_bar.kv"]
# the games' and the settings screens' kv files load when first shown (ui/root.py)
REFUSAL_SECONDS = 5.0
#: Inputs from something a player pressed or rolled (not the screen): a refusal also beeps.
PHYSICAL_SOURCES = frozenset({"gpio", "serial", "ble", "keyboard"})
DICE_SOURCES = frozenset({"serial", "ble"})   # the tray and the smart dice: shown in the strip


def in_seat_words(problem: str) -> str:
    """The gate names a seat by its place in the list ("players[1]"); a setup screen by its
    row ("Seat 2"), as the table sees it."""
    return re.sub(r"players\[(\d+)\]", lambda m: f"Seat {int(m.group(1)) + 1}", problem)


def die_words(die: Any) -> str:
    """A die as the table calls it ("Action die A", "Magic die 2"), never the id a tray sends."""
    if isinstance(die, str) and die.startswith("action_") and len(die) == 8:
        return f"Action die {die[-1].upper()}"
    if isinstance(die, str) and die.startswith("magic") and die[5:].isdecimal() and len(die) == 6:
        return f"Magic die {die[5:]}"
    if isinstance(die, str) and die.isascii() and die.isalnum() and len(die) <= 8:
        return f"Die {die}"  # the tray's own label, as the dice strip shows it
    return "The die"


class CompanionApp(GameBarApp, TableSettingsApp, PhonesApp, ClubApp, StoredGamesApp, App):
    """One table: one store, at most one session in play, the buttons and lights."""

    title = "Table companion"
    u = NumericProperty(1.0)
    portrait = BooleanProperty(False)     # taller than wide: the screens' portrait arrangements
    session = ObjectProperty(None, allownone=True)
    summary = ObjectProperty({})
    prompt = ObjectProperty({})
    revision = NumericProperty(0)
    can_undo = BooleanProperty(False)
    can_redo = BooleanProperty(False)
    refusal = StringProperty("")
    waiting = StringProperty("")          # a press waiting for the card: why, for the banner
    notice = StringProperty("")
    hardware_status = StringProperty("")
    hardware_problem = StringProperty("")
    dice_status = StringProperty("")      # the dice tray, for the status strip; "" = no tray
    dice_ok = BooleanProperty(False)      # the tray is connected
    dice_activity = StringProperty("")    # the last thing a die did: "die d1 rolling..."
    demo = BooleanProperty(False)
    key_labels = DictProperty({})
    turn_seconds = NumericProperty(0)
    #: the games and their table screens, handed to the parts and widgets that never import them
    games, table_screens = GAMES, frozenset(table_screens())

    def __init__(self, db_path: str | Path | None = None, demo: bool = False,
                 hardware_path: str | None = None, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.db_path = str(db_path or default_path())
        self.demo = demo
        self.hardware_path = hardware_path
        self.store: Store | None = None
        self.devices = TableDevices(self)
        self.sound = ScreenSound()
        self.table_settings, self.settings_problem = table.DEFAULTS, ""
        self.dimmer: Dimmer | None = None
        self._cue: tuple = (None, None, False)   # (session, awaited seat, over) last cued for
        self._timer = None
        self.init_game_bar()
        self.init_phones()
        self.init_club()
        self.card_wait = CardWait(self._say_waiting, self.refuse)
        self._clear_refusal = Clock.create_trigger(lambda *_: self.dismiss_refusal(),
                                                   REFUSAL_SECONDS)

    # -- life cycle ----------------------------------------------------------------------
    def build(self):
        for name in KV_FILES:
            Builder.load_file(str(HERE / name))
        Window.clearcolor = theme.BG
        Window.bind(size=self._on_window_size)
        self._on_window_size(Window, Window.size)
        self.devices.listen()
        self.dimmer = Dimmer()
        self.load_table_settings()
        from ui.root import Root

        return Root()

    def run(self) -> None:
        """The input providers are read when the app runs (not in the tests, which pump
        frames themselves): one per touch panel (ui/kiosk/touch.py)."""
        use_touch_inputs(Config, console=os.environ.get("SDL_VIDEODRIVER") == "kmsdrm")
        super().run()

    def open_settings(self, *_args) -> bool:
        """No Kivy settings panel on F1: this is a kiosk, not a developer's window."""
        return False

    def on_start(self) -> None:
        self.open_store(self.db_path)
        # the kiosk drawing with the processor says so on the home screen (ui/kiosk/renderer.py)
        renderer.check(self.screens.get_screen("home"))
        if self.settings_problem:
            self.notice = f"{self.notice} {self.settings_problem}".strip()
        service.attach(self)  # systemd: READY=1 on the first frame, the watchdog, STOPPING=1
        # The devices (gpiozero, pyserial and their threads) start once the home screen has
        # drawn: the first frame waits for none of them, and touch works from the first.
        Window.bind(on_flip=self._after_first_frame)

    def _after_first_frame(self, *_args) -> None:
        Window.unbind(on_flip=self._after_first_frame)
        self.devices.start()
        # A table that shared with its phones when it closed shares again, with new links,
        # after the first frame: aiohttp and the server's thread wait until then.
        Clock.schedule_once(self.share_remembered)
        Clock.schedule_once(self.start_club)   # a club joined: its sync thread (ui/table/club.py)
        # What start-up built (modules, kv rules, the home screen) lives as long as the app:
        # the garbage collector no longer walks it on every collection, nor at exit.
        gc.freeze()

    def on_stop(self) -> None:
        self.close_sharing()   # the phones are told it restarts; links and the choice stay
        self.stop_club()
        self.devices.stop()
        self._stop_timer()
        self.keep_clocks()  # closing the app: the clocks go on from here on resume
        if self.store is not None:
            self.store.close()
            self.store = None

    @property
    def screens(self):
        return self.root.ids.sm

    def show(self, name: str) -> None:
        self.screens.current = name

    def _on_window_size(self, _window, size) -> None:
        portrait, unit = theme.is_portrait(*size), theme.unit(*size)
        turned = portrait != self.portrait
        self.portrait = portrait
        if turned and unit == self.u:   # 1280x720 <-> 720x1280: the sizes in units are laid again
            self.property("u").dispatch(self)
        self.u = unit

    # -- store and sessions --------------------------------------------------------------
    def start_game(self, setup: dict[str, Any], *,
                   picked: list[str | None] | None = None) -> str | None:
        """Start the game the setup names; returns the SetupError's message (seats named as the
        screen shows them), or None when the game is on. ``picked``: per seat, the profile
        chosen in "Who?" (its uuid) or None (Store.new_game)."""
        try:
            session = self.store.new_game(get_rules(setup["game"]), setup, picked=picked)
        except SetupError as problem:
            return in_seat_words(str(problem))
        except StoreError as problem:  # a full or write-protected card: said on the setup screen
            return str(problem)
        self._play(session)
        return None

    def resume(self, game_id: int) -> None:
        try:
            session = self.store.open_session(game_id)
        except CompanionError as problem:
            self.notice = str(problem)
            return
        self._play(session)

    def leave_session(self) -> None:
        self.card_wait.cancel()
        self.keep_clocks()  # the game's clocks go on from here when it is resumed
        self.session = self.clock = None
        self.summary, self.prompt = {}, {}
        self.can_undo = self.can_redo = False
        self._stop_timer()
        self.devices.show_seat(None)
        self.publish_table()        # no game in play: the phones' seats have no buttons
        self.club_changed(None)

    def new_game(self, game: str = "witchs_brew") -> None:
        self.leave_session()
        self.show(GAMES[game].setup_screen)

    def play_again(self) -> None:
        """From a result screen: the same game's setup screen, filled in with the same seats
        and variants (its ``prefill``), to check and start."""
        if self.session is None:
            return
        setup, game = dict(self.session.setup), self.session.rules.name
        self.new_game(game)
        self.screens.get_screen(GAMES[game].setup_screen).prefill(setup)

    def bg_stats(self) -> None:
        """From a result screen: the game just finished as a QR code for BG Stats."""
        from ui.widgets.qr import show_stored_play   # segno: only when a play is shown

        show_stored_play(self.store, getattr(self.session, "game_id", None))

    def open_hardware(self) -> None:
        """The Hardware screen (from home): the wiring, editable, and a test of every input."""
        self.leave_session()
        self.dismiss_refusal()
        self.show("hardware_settings")

    def go_home(self) -> None:
        self.leave_session()
        self.dismiss_refusal()
        if self.screens.current == "home":      # entering it refreshes it (on_pre_enter)
            self.screens.get_screen("home").refresh()
        self.show("home")

    def _play(self, session) -> None:
        self.session = session
        self.start_clocks(session)
        session.add_listener(self._on_change)
        self._on_change(session, None)

    def _on_change(self, session, step) -> None:
        """Every change, from any input, ends here: what the screens bind to, then the game's
        screen that shows. ``revision`` counts the changes (a press is one per change)."""
        if session is not self.session:
            return
        self.summary = session.summary()
        self.prompt = session.prompt()
        self.can_undo, self.can_redo = session.can_undo, session.can_redo
        # The turn timer restarts when the game moves on to another turn, phase or round.
        key = tuple(self.summary.get(k) for k in ("set", "round", "season_number", "turn_no")) \
            + (self.prompt.get("phase"), self.prompt.get("seat"), self.prompt.get("turn"))
        seat = self.prompt.get("seat")
        self.bar_changed(session, step, key, seat)  # the log, undo's words, the clocks
        self.revision += 1
        self.publish_table()   # after the bar: the log it tells the phones is the bar's own
        self.club_changed(session)
        self.devices.show_seat(seat)
        if session is self._cue[0] and seat is not None and seat != self._cue[1]:
            self.cue("turn")   # the awaited seat changed (not on starting, resuming)
        if session is self._cue[0] and session.over and not self._cue[2]:
            self.cue("over")   # the game ended now (not a finished game opened)
        self._cue = (session, seat, session.over)
        game = GAMES[session.rules.name]
        if session.over:
            self._stop_timer()
            self.keep_clocks()
        elif not self.paused:
            self._start_timer()
        # Only the screen of the game in play that shows now is refreshed (loaded the first
        # time): no other game's screens hear of the change.
        shown = game.result_screen if session.over else game.table_screen
        self.screens.get_screen(shown).refresh()
        self.show(shown)
        if self.root is not None:   # after the screen: the bar says nothing the screen says
            self.root.ids.game_bar.fit_now()

    # -- commands and inputs -------------------------------------------------------------
    def send(self, command: Command, source: str = "touch") -> bool:
        """Play a command from the screen (or a choice a phone made there: ``source``); a
        refusal, or a card that cannot save it (full, read-only, failing), is shown and changes
        nothing: the app goes on."""
        if self.session is None:
            return False
        session = self.session
        try:
            self.card_wait.play(session, command, lambda: session.execute(command, source))
        except NotSaved:  # it waits for the card, and the banner says so
            return False
        except CompanionError as refusal:
            self.refuse(getattr(refusal, "screen", None) or str(refusal))  # players' words
            return False
        return True

    def press(self, input_id: str, source: str = "touch") -> None:
        """An on-screen seat or table button: the same path as a physical one."""
        self.handle(InputEvent("button", input_id, source=source))

    def handle(self, event: InputEvent):
        """Any input, on the main thread: the game's input map gives it meaning. A refusal is
        shown (and beeped, for a physical input) and changes nothing. A die from the tray is
        shown in the status strip whether or not the game takes it. The ``menu`` button goes
        home (the game is saved and offered for resume). Returns the step played, or None."""
        self.dimmer.stir()   # a button or die wakes a dim screen and is played as usual
        from_tray = event.kind == "die" and event.source in DICE_SOURCES
        if from_tray:
            self.dice_activity = f"die {event.id}: {event.value}"
        if event.kind == "button" and event.id == "pause":  # a table button, when wired
            self.toggle_pause()
            return None
        if event.kind == "button" and event.id == "menu":
            self.go_home()
            return None
        if self.session is None:
            if from_tray:
                self.dice_activity += " (no game in play)"
            return None
        session = self.session
        if event.kind == "button" and event.id in ("undo", "redo"):  # the bar says what it did
            self._announce = "Undone" if event.id == "undo" else "Redone"
        try:
            return self.card_wait.play(session, event, lambda: session.handle_input(event))
        except NotSaved:  # the card cannot save it now: it waits and is tried again
            if event.source in PHYSICAL_SOURCES:
                self.cue("refused")
            return None
        except CompanionError as refusal:  # a rule the press breaks
            reason = getattr(refusal, "screen", None) or str(refusal)
            if event.kind == "die":
                face = shown(event.value)
                face = face[1:-1] if isinstance(event.value, str) else face
                reason = f"{die_words(event.id)} showed {face}: {reason}"
                if from_tray:
                    self.dice_activity += ", not applied"
            self.refuse(reason)
            if event.source in PHYSICAL_SOURCES:
                self.cue("refused")
            return None

    def undo(self) -> None:
        self._announce = "Undone"
        if not self.send(Command("undo")):
            self._announce = ""

    def redo(self) -> None:
        self._announce = "Redone"
        if not self.send(Command("redo")):
            self._announce = ""

    def cancel_waiting(self) -> None:
        """The table gives up on the press waiting for the card: it is not applied."""
        self.card_wait.cancel()

    def _say_waiting(self, words: str) -> None:
        self.waiting = words
        if words:
            self.refuse(words)
        elif self.refusal.startswith("Not saved"):
            self.dismiss_refusal()

    def refuse(self, message: str) -> None:
        self.refusal = message
        self._clear_refusal.cancel()
        self._clear_refusal()

    def dismiss_refusal(self) -> None:
        self.refusal = ""

    # -- turn timer (1 Hz, only while a game runs) ----------------------------------------
    def _start_timer(self) -> None:
        if self._timer is None:
            self._timer = Clock.schedule_interval(self._tick, 1.0)

    def _stop_timer(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None

    def _tick(self, _dt) -> None:
        self.tick_clocks()  # the bar's labels; the cue once at the table's limit
