"""A dice tray URL that could write a file is refused on the Hardware screen and at start.

``spy://PORT?file=PATH`` typed on the Hardware screen once truncated the game database at the
next Check. Here Check and Save refuse it naming ``dice.url`` (and light the URL field), the
app's start refuses a config holding it, and the device layer refuses one that never passed
the config check; the file it names is never created or truncated.
"""

from __future__ import annotations

import pytest

from hardware.config import DiceConfig
from ui_helpers import frames, on_hardware, tap, tap_title

PRECIOUS = b"SQLite format 3\0 precious"


@pytest.fixture
def victim(tmp_path):
    database = tmp_path / "games.db"
    database.write_bytes(PRECIOUS)
    return database, tmp_path / "new.log"


def untouched(database, new) -> bool:
    return database.read_bytes() == PRECIOUS and not new.exists()


@pytest.fixture
def real_table(app, tmp_path, monkeypatch):
    """The app without --demo on a small config in a tmp file, pins from a MockFactory."""
    import gpiozero
    from gpiozero.pins.mock import MockFactory

    app.devices.stop()
    monkeypatch.setattr(app, "demo", False)
    monkeypatch.setattr(gpiozero.Device, "pin_factory", MockFactory())
    path = tmp_path / "conf" / "hardware.toml"
    path.parent.mkdir()
    path.write_text("[buttons]\nundo = 4\n", encoding="utf-8")
    with on_hardware(app, path):
        assert not app.hardware_problem, app.hardware_problem
        yield app, path


def test_check_and_save_refuse_a_url_that_writes_a_file(real_table, victim):
    app, path = real_table
    database, new = victim
    before = path.read_text(encoding="utf-8")
    app.go_home()
    frames()
    tap(app.screens.get_screen("home").ids.hardware)
    screen = app.screens.get_screen("hardware_settings")
    for url in (f"spy://loop://?file={database}", f"spy:///dev/ttyACM0?file={new}",
                f"loop://?logging=debug&file={new}", "rfc2217://tray.local:4000"):
        screen.ids.url.text = url
        screen.set_dice("url", url)
        tap_title("Check")
        assert screen.message.startswith(f"dice.url: {url!r} ") or screen.message.startswith(
            "dice.url: refused scheme"), screen.message
        assert screen.url_bad and screen.tone == "bad"
        assert screen.save() is False
        assert "Nothing was saved" in screen.message
    assert path.read_text(encoding="utf-8") == before
    assert untouched(database, new)
    screen.ids.url.text = "/dev/ttyACM0"
    screen.set_dice("url", "/dev/ttyACM0")
    tap_title("Check")
    assert screen.tone == "good" and not screen.url_bad, screen.message


def test_the_app_refuses_such_a_config_at_start(real_table, victim):
    app, path = real_table
    database, new = victim
    path.write_text(f'[buttons]\nundo = 4\n[dice]\nurl = "spy://loop://?file={database}"\n',
                    encoding="utf-8")
    app.devices.stop()
    app.devices.start()
    assert "dice.url: " in app.hardware_problem and "Touch still works" in app.hardware_problem
    assert app.devices.dice_reader is None
    # A DiceConfig that never passed the check: the reader refuses it, the app goes on.
    problems = app.devices._start_dice(DiceConfig(url=f"spy://loop://?file={new}"))
    assert len(problems) == 1 and "dice.url: " in problems[0], problems
    assert app.devices.dice_reader is None
    assert untouched(database, new)
