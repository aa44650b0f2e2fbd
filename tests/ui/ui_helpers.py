"""Helpers for driving the headless app: pump frames, resize, screenshot, find and tap."""

from __future__ import annotations

import contextlib
import os
import time
from pathlib import Path
from typing import Callable, Iterator

from kivy.base import EventLoop
from kivy.clock import Clock
from kivy.core.window import Window
from kivy.lang import Builder
from kivy.uix.widget import Widget

SHOTS = Path(__file__).resolve().parents[2] / "screenshots"
#: whether shot() writes PNGs (people look at screenshots/); CI sets COMPANION_SHOTS=0
SAVE_SHOTS = os.environ.get("COMPANION_SHOTS", "1") != "0"
#: shot name -> what the layout check found there (the figures)
LAYOUT: dict[str, list] = {}
#: shot name -> the phrases a table screen said twice there (the figures, tests/conftest.py)
SAID_TWICE: dict[str, list[str]] = {}
#: (shot name, findings) captured by the test running now: what it fails on (tests/ui/conftest.py)
RECENT: list[tuple[str, list]] = []


#: (screen, window size, phase, the messages' band height) -> the controls' places in the
#: last state captured there by the test running now (cleared with RECENT)
PLACES: dict[tuple, dict] = {}


def _kept_in_place(app, name: str) -> None:
    """A control in this state and the last one captured of the same phase (same screen,
    window size and message band) is where it was; else a ``moved`` finding."""
    from layout_reading import controls, moved

    phase = (app.prompt or {}).get("phase")
    screen = app.root.ids.sm.current_screen
    view = (getattr(screen, "mode", None), getattr(screen, "show_track", None),
            getattr(getattr(screen, "market", None), "marking", None))   # a view a tap opens
    key = (screen.name, tuple(Window.size), phase, view, round(app.root.ids.messages.height))
    now = controls()
    if key in PLACES:
        found = moved(PLACES[key], now, app.u)
        if found:
            LAYOUT[name] = LAYOUT[name] + found
            RECENT[-1] = (name, LAYOUT[name])
    PLACES[key] = now


#: shot name -> (the game's table screen, the floor's findings there), for the table states
#: of a game not yet held to the floor (tests/ui/layout_reading.py)
UNDER_FLOOR: dict[str, tuple[str, list[str]]] = {}


def looked_at(name: str) -> None:
    """Run the layout check on the window as it is now, under ``name``."""
    from kivy.app import App

    from kivy.uix.modalview import ModalView
    from layout_check import check
    from layout_reading import FLOOR_HELD, capitals, said_twice, text_sizes, under_floor

    from tests.support.figures import TEXT_SIZES

    app = App.get_running_app()
    dialog = any(isinstance(w, ModalView) for w in Window.children)
    table = bool(app.table_showing) and not dialog
    large = app.font_factor > 1
    game = app.root.ids.sm.current.removesuffix("_result")
    held = game in FLOOR_HELD
    LAYOUT[name] = check(app.u, table=bool(app.table_showing), dialog=dialog, large=large,
                         floor=held)
    if app.table_showing and not held:
        UNDER_FLOOR[name] = (game, [str(f) for f in under_floor(app.u, large)])
    RECENT.append((name, LAYOUT[name]))
    if table:
        SAID_TWICE[name] = [str(f) for f in said_twice()]
        _kept_in_place(app, name)
    screen = app.root.ids.sm.current + (" with a dialog" if dialog else "")
    TEXT_SIZES[name] = [screen, bool(app.table_showing) and not dialog, text_sizes(app.u),
                        [round(px, 1) for px, _w in capitals(app.u)]]


#: seconds: a one-off Clock event of at most this delay (a tap a scroll view hands on, a
#: button's release) is waited for by frames(); repeating ones (the game clock, a cursor's
#: blink) and the scroll bars' fade (0.5 s after a scroll) are not
SOON = 0.3


#: seconds Kivy's clock has been moved ahead of real time while frames() waited (STEP a frame:
#: a dialog's 0.1 s fade takes two frames, not a tenth of a second asleep); threads' events
#: are still waited for in real time (wait_for)
AHEAD = [0.0]
STEP = 0.05
_real_time = Clock.time
Clock.time = lambda: _real_time() + AHEAD[0]


def _tick() -> None:
    """One pass of EventLoop.idle() (clock, input, kv rules, layout, text) without drawing."""
    Clock.tick()
    EventLoop.dispatch_input()
    Builder.sync()
    Clock.tick_draw()
    Builder.sync()


def _settling() -> bool:
    """Whether something is about to change: an animation (a dialog's fade; not a scroll bar's,
    nor the window's room for an on-screen keyboard) or a one-off Clock event of at most SOON
    seconds still to come (a tap that a scroll view hands on to its child)."""
    from kivy.animation import Animation
    from kivy.core.window import WindowBase
    from kivy.uix.scrollview import ScrollView

    if any(not isinstance(w["widget"], (ScrollView, WindowBase))
           for anim in Animation._instances for w in anim._widgets.values()):
        return True
    return any(not ev.loop and ev.timeout <= SOON for ev in Clock.get_events())


def frames(n: int = 3, timeout: float = 2.0) -> None:
    """Let Kivy lay out: ``n`` passes of what EventLoop.idle() does, except drawing the window,
    then more until nothing is about to happen (``_settling``), each of them moving Kivy's clock
    STEP ahead instead of sleeping. A software-GL draw of the whole window cost about 0.1 s on
    every frame a test pumped, and those draws were what gave fades their time; the window is
    drawn when a test captures it (``shot``). ``timeout`` is in Kivy's seconds."""
    for _ in range(n):
        _tick()
    for _ in range(int(timeout / STEP)):
        if not _settling():
            return
        AHEAD[0] += STEP  # a frame's time passes on Kivy's clock, not on the test's
        _tick()


def draw() -> None:
    """Draw the window as EventLoop.idle() does, if anything on it changed."""
    if Window.canvas.needs_redraw:
        Window.dispatch("on_draw")
        Window.dispatch("on_flip")


def resize(width: int, height: int) -> None:
    if tuple(Window.size) != (width, height):
        Window.size = (width, height)
    frames(4)


def shot(name: str) -> Path:
    """Draw the window and save it as screenshots/<name>_<W>x<H>.png (the path is returned).
    Every state a test captures also goes through the layout check (tests/ui/layout_check.py).
    ``COMPANION_SHOTS=0`` (CI) draws and checks the same, but writes no PNG."""
    frames(3)
    draw()
    w, h = Window.size
    looked_at(f"{name}_{w}x{h}")
    target = SHOTS / f"{name}_{w}x{h}.png"
    if SAVE_SHOTS:
        SHOTS.mkdir(exist_ok=True)
        made = Window.screenshot(name=str(SHOTS / f".tmp_{name}.png"))
        os.replace(made, target)
    return target


def tall_shot(name: str) -> Path:
    """``shot()`` for the portrait 720x1280 window. The test window's GL surface is made
    1280x720 (tests/ui/conftest.py) and does not grow, so the window is drawn into an offscreen
    buffer of its own size instead of read back from the screen; the layout check is the same."""
    from kivy.core.image import Image as CoreImage
    from kivy.graphics import ClearBuffers, ClearColor, Fbo

    frames(3)
    draw()
    w, h = Window.size
    looked_at(f"{name}_{w}x{h}")
    fbo = Fbo(size=(w, h), with_stencilbuffer=True)
    with fbo:
        ClearColor(*Window.clearcolor)
        ClearBuffers()
    drawn = [(Window.canvas.indexof(c.canvas), c.canvas) for c in reversed(Window.children)]
    for _index, canvas in drawn:
        Window.canvas.remove(canvas)
        fbo.add(canvas)
    try:
        fbo.draw()
    finally:
        for index, canvas in sorted(drawn, key=lambda pair: pair[0]):
            fbo.remove(canvas)
            Window.canvas.insert(index, canvas)
    target = SHOTS / f"{name}_{w}x{h}.png"
    if SAVE_SHOTS:
        SHOTS.mkdir(exist_ok=True)
        CoreImage(fbo.texture).save(str(target), flipped=True)
    return target


def walk(root: Widget | None = None) -> Iterator[Widget]:
    """Every widget under the window (dialogs included), depth first."""
    stack = [root] if root is not None else list(Window.children)
    while stack:
        w = stack.pop()
        yield w
        stack.extend(w.children)


def texts(root: Widget | None = None) -> list[str]:
    return [w.text for w in walk(root) if isinstance(getattr(w, "text", None), str) and w.text]


def find(pred: Callable[[Widget], bool], root: Widget | None = None) -> list[Widget]:
    return [w for w in walk(root) if pred(w)]


def button(title: str, root: Widget | None = None) -> Widget:
    """The one visible, enabled button whose title is ``title``."""
    found = [w for w in walk(root) if getattr(w, "title", None) == title
             and hasattr(w, "trigger_action") and w.get_root_window() is not None
             and w.opacity > 0]
    assert found, f"no button titled {title!r}; texts: {texts(root)[:40]}"
    assert len(found) == 1, f"{len(found)} buttons titled {title!r}"
    return found[0]


def tap(widget: Widget) -> None:
    """A real touch at the widget's centre (down and up), as a finger would do it: a
    deliberate tap, never the second tap of a double one (which the window drops where the
    first changed the view: ui/widgets/second_tap.py; tests of that touch twice by hand)."""
    from kivy.app import App
    from kivy.tests.common import UnitTestTouch

    frames(2)
    guard = getattr(getattr(App.get_running_app(), "root", None), "second_tap", None)
    if guard is not None:
        guard.forget()
    x, y = widget.to_window(*widget.center)
    touch = UnitTestTouch(x, y)
    touch.touch_down()
    touch.touch_up()
    frames(2)


def tap_title(title: str, root: Widget | None = None) -> None:
    tap(button(title, root))


def wait_for(pred: Callable[[], bool], timeout: float = 3.0) -> bool:
    """Pump frames until ``pred()`` holds (events from other threads arrive asynchronously)."""
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        frames(1)
        if pred():
            return True
        time.sleep(0.01)
    return pred()


def dialogs() -> list[Widget]:
    """Open modal dialogs (they sit on the Window, not in the screens)."""
    from kivy.uix.modalview import ModalView

    return [w for w in Window.children if isinstance(w, ModalView)]


def close_dialogs() -> None:
    for d in dialogs():
        d.dismiss(animation=False)
    frames(2)


def both_sizes(name: str, before: Callable[[], None] | None = None,
               portrait: bool = False) -> list[Path]:
    """Screenshot the current screen at 800x480 and 1280x720, and with ``portrait`` at 720x1280
    too (``before`` re-opens a dialog after each resize, since a dialog is laid out for the
    size it was opened at)."""
    paths = []
    for size in ((800, 480), (1280, 720)) + (((720, 1280),) if portrait else ()):
        if before:
            close_dialogs()
        resize(*size)
        if before:
            before()
        paths.append((tall_shot if size[1] > size[0] else shot)(name))
    if before:
        close_dialogs()
    resize(800, 480)
    return paths


def play_out(app, until: Callable[[dict], bool] = lambda p: False, limit: int = 500) -> None:
    """Play quickly by commands: the starter announces the first role it has, everyone else
    passes, every effect is abstained, the variant turns over the first free roles. Stops when
    the game is over or ``until(prompt)`` holds."""
    from companion.core.model import Command
    from companion.games.witchs_brew import state as st
    from companion.games.witchs_brew.roles import ROLES

    for _ in range(limit):
        s = app.session
        p = s.prompt()
        if s.over or until(p):
            return
        who = p["turn"]
        if p["phase"] == "play":
            summary = s.summary()
            mine = set(summary["players"][p["seat"]]["roles_played"])
            played = {k for pl in summary["players"] for k in pl["roles_played"]}
            free = [k for k in ROLES if k not in played and k not in summary["excluded"]]
            if free:
                s.execute(Command("play_role", who, {"role": free[0]}))
            else:
                late = next(k for k in ROLES if k in played and k not in mine)
                s.execute(Command("forfeit", who, {"role": late}))
        elif p["phase"] == "answer":
            s.execute(Command("pass", who))
        elif p["phase"] == "resolve":
            s.execute(Command("abstain", who))
        elif p["phase"] == "reveal":
            shown = st.shown_this_cycle(s.state)
            free = [k for k in ROLES if k not in shown][: st.excluded_per_set(s.state)]
            s.execute(Command("reveal_excluded", args={"roles": free}))
    raise AssertionError("play_out did not finish")


def stepper(label: str, root: Widget | None = None) -> Widget:
    from ui.widgets.common import Stepper

    found = [w for w in walk(root) if isinstance(w, Stepper) and w.label == label]
    assert len(found) == 1, f"{len(found)} steppers labelled {label!r}"
    return found[0]


def panel(app, name: str) -> Widget:
    """The seat panel of the named player on the table screen."""
    panels = app.screens.get_screen("witchs_brew").panels
    return next(p for p in panels if p.player == name)


def panel_texts(app, name: str) -> list[str]:
    return texts(panel(app, name))


@contextlib.contextmanager
def on_hardware(app, path, *, home: bool = True) -> Iterator[None]:
    """The app without --demo on the hardware config at ``path`` (its devices started), and
    back on the demo table after, whatever the test did (``home``: go to Home first)."""
    app.hardware_path = str(path)
    try:
        app.devices.start()
        yield
    finally:
        if home:
            app.go_home()
        app.devices.stop()
        app.hardware_path = None
        app.demo = True
        app.devices.start()
        frames()
