"""Headless Kivy for the UI tests: one app per test session, a fresh database per test.

Kivy's Window is a singleton per process and reads its settings on first import, so the
environment and Config are set here, before anything imports kivy. The offscreen GL surface
cannot grow after creation, so the window is created at the largest size we render
(1280x720) and shrunk to 800x480 where a test needs it.
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

os.environ.setdefault("SDL_VIDEODRIVER", "offscreen")
os.environ.setdefault("KIVY_NO_ARGS", "1")
os.environ.setdefault("KIVY_NO_CONSOLELOG", "1")
os.environ.setdefault("KIVY_NO_FILELOG", "1")
os.environ.setdefault("KIVY_HOME", tempfile.mkdtemp(prefix="kivy-home-"))
# The table settings of this test run, never the developer's own; no cue sounds (and no WAV
# files written to the user cache) unless a test asks for them.
os.environ["COMPANION_SETTINGS"] = str(Path(tempfile.mkdtemp(prefix="companion-settings-"))
                                       / "settings.json")
os.environ.setdefault("COMPANION_SOUND", "0")
# No club unless a test joins one (ui/table/club.py): never the developer's own settings.
os.environ["COMPANION_CLUB"] = str(Path(tempfile.mkdtemp(prefix="companion-club-")) / "club.json")

import pytest  # noqa: E402

from ui.kiosk.command import configure_kivy  # noqa: E402

configure_kivy((1280, 720), fullscreen=False)
from kivy.config import Config  # noqa: E402

Config.set("graphics", "maxfps", "0")  # tests pump frames themselves: no frame-rate sleeps

ROOT = Path(__file__).resolve().parents[2]
SHOTS = ROOT / "screenshots"
SIZES = ((800, 480), (1280, 720))


@pytest.fixture(scope="session")
def kivy_app():
    """The app, built once and started without ``app.run()``: tests pump frames themselves."""
    from kivy.base import EventLoop

    EventLoop.ensure_window()
    from ui.app import CompanionApp

    db = Path(tempfile.mkdtemp(prefix="companion-ui-")) / "first.sqlite3"
    app = CompanionApp(db_path=db, demo=True)
    app._run_prepare()
    EventLoop.idle()  # the first frame, drawn: the devices start after it (ui/app.py)
    yield app
    app.stop()


@pytest.fixture
def app(kivy_app, tmp_path):
    """The shared app on a fresh database, at 800x480, no refusal showing."""
    from ui_helpers import frames, resize

    resize(800, 480)
    kivy_app.open_store(tmp_path / "companion.sqlite3")
    kivy_app.dismiss_refusal()
    frames()
    yield kivy_app
    from kivy.core.window import Window

    for child in list(Window.children):
        if child is not kivy_app.root and hasattr(child, "dismiss"):
            child.dismiss(animation=False)
    kivy_app.leave_session()


@pytest.fixture(autouse=True)
def layout_holds():
    """Every state a test captures with ``shot()`` passes the layout check: a finding fails
    the test that captured it, naming the shot and the widget. ``COMPANION_LAYOUT=report``
    only reports (the figures print either way)."""
    from ui_helpers import PLACES, RECENT

    RECENT.clear()
    PLACES.clear()
    yield
    bad = [f"{name}: {finding}" for name, found in RECENT for finding in found]
    RECENT.clear()
    if bad and os.environ.get("COMPANION_LAYOUT") != "report":
        pytest.fail(f"layout check, {len(bad)} finding(s):\n" + "\n".join(bad[:40]),
                    pytrace=False)


@pytest.hookimpl(tryfirst=True)
def pytest_sessionfinish(session) -> None:
    """The layout check's findings for the figures (tests/conftest.py prints them, gathered
    from every xdist worker); with COMPANION_LAYOUT_REPORT=FILE, every finding as JSON."""
    import json

    from tests.support.figures import LAYOUT_KINDS
    from ui_helpers import LAYOUT

    LAYOUT_KINDS.update({k: [f.kind for f in v] for k, v in LAYOUT.items()})
    _said_twice_figures()
    _floor_figures()
    out = os.environ.get("COMPANION_LAYOUT_REPORT")
    if out and LAYOUT:
        from ui_helpers import UNDER_FLOOR

        worker = getattr(session.config, "workerinput", {}).get("workerid")
        path = Path(out if worker is None else f"{out}.{worker}")
        found = {k: [str(f) for f in v] + UNDER_FLOOR.get(k, ("", []))[1]
                 for k, v in LAYOUT.items()}
        path.write_text(json.dumps(found, indent=1, ensure_ascii=False))


def _floor_figures() -> None:
    """The type scale's floor on the games not yet held to it (layout_reading.FLOOR_HELD):
    how many captured table states have a text under it, per game."""
    from collections import Counter

    from tests.support.figures import report
    from ui_helpers import UNDER_FLOOR

    states, texts = Counter(), Counter()
    for game, found in UNDER_FLOOR.values():
        states[game] += bool(found)
        texts[game] += len(found)
    for game in sorted(states):
        report("type floor", f"{game}: {states[game]} captured table states with text under "
                             f"the floor ({texts[game]} texts), not yet held to it")


def _said_twice_figures() -> None:
    """The table screens' repeats (layout_reading.said_twice): each fails the test that
    captured it (SAID_ONCE_HOLDS); the figure says how many states were looked at."""
    from collections import Counter

    from tests.support.figures import report
    from ui_helpers import SAID_TWICE

    if not SAID_TWICE:
        return
    repeats = Counter(f.split(": ", 2)[1].split(" is said already")[0]
                      for found in SAID_TWICE.values() for f in found)
    states = sum(1 for found in SAID_TWICE.values() if found)
    report("said twice", f"{sum(repeats.values())} repeats in {states} of {len(SAID_TWICE)} "
                         "table states captured (a repeat fails the test that captured it)")
    for said, n in repeats.most_common(8):
        report("said twice", f"  {n}x {said}")
