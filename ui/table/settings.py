"""The table's own settings, kept per device: sound, text size, rotation, dimming, the screen
going off, sharing with the phones at the table and its port, and the turn limit.

Rotation is how the panel stands, in Kivy's degrees (``Window.rotation``, counter-clockwise):
0 upright, 180 upside down (turned for the far side of the table), 90 and 270 a landscape
panel stood on its side, which makes the window portrait (800x480 becomes 480x800) and the
screens take their portrait arrangements. Files written before portrait panels hold 0 or 180
and read as before.

They belong to the screen beside the board, not to a game, so they live in a small JSON file in
the user config directory (beside ``hardware.toml``; ``$COMPANION_SETTINGS`` names another file,
for tests). A person may have edited it by hand, or a power cut may have eaten it: reading never
fails. What is missing takes its default, and what is wrong (not JSON, a wrong type, an unknown
key, a value out of range) takes its default too, with a sentence naming the field for the
settings screen and the home notice; a notice names the file and the field, never what the
file holds (it is read by the one reader, companion/files/read.py: a link is refused, never
followed, and a leading byte order mark, which some editors write, is allowed). The file is
only written when the person changes a
setting, atomically (a temporary file, flushed to disk, renamed over the old one), so a bad file
stays as it was for them to look at until then.

The turn limit is not kept here: it lives in the hardware config (``[buzzer] turn_limit_s``),
where the Hardware screen edits it, and :func:`save_turn_limit` writes it with the same
``load_config``/``save_config`` code, so both screens always show the same limit.

No Kivy here, so the loader can be fuzzed without a window.
"""

from __future__ import annotations

import json
import os
from dataclasses import asdict, dataclass, fields, replace
from os import PathLike
from pathlib import Path
from typing import Any

from companion.files.read import read_regular

SETTINGS_ENV = "COMPANION_SETTINGS"
VOLUMES = (25, 50, 75, 100)               # the screen's choices; the file may hold any 0-100
#: Kivy's degrees (counter-clockwise) -> how the panel stands, in the table's words: the picture
#: is drawn turned the other way so it reads upright on that panel
ROTATIONS = {0: "Upright", 90: "Turned right", 180: "Upside down", 270: "Turned left"}
DIM_MINUTES = (0, 2, 5, 10, 20)           # 0: never dim
OFF_MINUTES = (0, 10, 20, 30, 60)         # 0: never off; else longer than dim_minutes
#: text size -> how much larger than normal every font is drawn (layouts keep their sizes)
TEXT_SIZES = {"normal": 1.0, "large": 1.25}   # Large adds a quarter
#: the phones' server's port, and the ports it may use (none a system's, below 1024)
PHONES_PORT = 8765
PHONES_PORTS = range(1024, 65536)


@dataclass(frozen=True)
class TableSettings:
    """What the settings screen changes. ``volume`` in percent; ``rotation`` in degrees
    (:data:`ROTATIONS`: 180 turned for the players on the far side, 90 and 270 a panel stood on
    its side, portrait); ``dim_minutes`` without input before the screen
    dims (0: never); ``text_size`` "normal" or "large" (:data:`TEXT_SIZES`); ``off_minutes``
    without input before the screen goes dark, backlight off (0: never; else longer than
    ``dim_minutes``, :func:`order_problem`); ``phones`` whether the table shares itself with
    the phones at the table (remembered: sharing starts again, with the same links, at the next
    start) on ``phones_port`` (:data:`PHONES_PORTS`)."""

    sound: bool = True
    volume: int = 75
    rotation: int = 0
    dim_minutes: int = 0
    text_size: str = "normal"
    off_minutes: int = 0
    phones: bool = False
    phones_port: int = PHONES_PORT
    #: hands on the phones: each seat chooses its hand on its phone (Witch's Brew)
    #: or keeps its potion cards there (Cauldron); the Pi's table screen says only how many
    hands: bool = False

    @property
    def font_factor(self) -> float:
        return TEXT_SIZES.get(self.text_size, 1.0)


DEFAULTS = TableSettings()
FIELDS = tuple(f.name for f in fields(TableSettings))


def _whole(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


#: field -> (is the value good, what a good value is, in words)
RULES = {
    "sound": (lambda v: isinstance(v, bool), "true or false"),
    "volume": (lambda v: _whole(v) and 0 <= v <= 100, "a whole number from 0 to 100"),
    "rotation": (lambda v: _whole(v) and v in ROTATIONS,
                 ", ".join(map(str, list(ROTATIONS)[:-1])) + f" or {list(ROTATIONS)[-1]}"),
    "dim_minutes": (lambda v: _whole(v) and v in DIM_MINUTES,
                    "one of " + ", ".join(map(str, DIM_MINUTES)) + " (0: never)"),
    "text_size": (lambda v: isinstance(v, str) and v in TEXT_SIZES,
                  " or ".join(f'"{size}"' for size in TEXT_SIZES)),
    "off_minutes": (lambda v: _whole(v) and v in OFF_MINUTES,
                    "one of " + ", ".join(map(str, OFF_MINUTES)) + " (0: never)"),
    "phones": (lambda v: isinstance(v, bool), "true or false"),
    "hands": (lambda v: isinstance(v, bool), "true or false"),
    "phones_port": (lambda v: _whole(v) and v in PHONES_PORTS,
                    f"a whole number from {PHONES_PORTS[0]} to {PHONES_PORTS[-1]}"),
}


def order_problem(settings: TableSettings, rows: bool = False) -> str:
    """"" when the screen dims before it goes off (or one of them never happens), else the
    sentence naming the field: ``off_minutes`` for the file, or with ``rows`` the settings
    screen's rows as the table reads them."""
    off, dim = settings.off_minutes, settings.dim_minutes
    if not (off and dim and off <= dim):
        return ""
    if rows:
        return f"Off after must be longer than Dim after ({dim} min), or Never; not {off} min"
    return f"off_minutes must be more than dim_minutes ({dim}) or 0 (never), not {off}"


def settings_path() -> Path:
    """The settings file: ``$COMPANION_SETTINGS``, else ``settings.json`` in the user config
    directory (``~/.config/table-companion/settings.json`` on Linux)."""
    named = os.environ.get(SETTINGS_ENV)
    if named:
        return Path(named)
    from platformdirs import user_config_dir

    return Path(user_config_dir("table-companion", appauthor=False)) / "settings.json"


def _shown(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def refusal(name: str, value: Any, *, quote: bool = True) -> str:
    """"" when ``value`` is good for the setting ``name``, else the sentence naming the field
    and what a good value is (with ``quote``, what was given too: the screen's own values,
    never a file's)."""
    if name not in RULES:
        return f"unknown setting {_shown(name)}" if quote else "an unknown setting"
    ok, words = RULES[name]
    if ok(value):
        return ""
    return f"{name} must be {words}, not {_shown(value)}" if quote else f"{name} must be {words}"


def flipped(rotation: int) -> int:
    """The rotation for the far side of the table: upright and upside down swap, and a panel
    on its side turns to its other side (90 and 270)."""
    return (rotation + 180) % 360


def parse_settings(data: Any) -> tuple[TableSettings, list[str]]:
    """Settings from parsed JSON: every good field kept, every bad one at its default, and a
    sentence for each problem naming the field."""
    if not isinstance(data, dict):
        return DEFAULTS, [f"not a JSON object (found {type(data).__name__}); "
                          "every setting is at its default"]
    unknown = sum(1 for key in data if key not in RULES)   # counted, never quoted
    problems = [f"{unknown} unknown setting{'' if unknown == 1 else 's'} ignored"] if unknown \
        else []
    good: dict[str, Any] = {}
    for name in RULES:
        if name not in data:
            continue
        problem = refusal(name, data[name], quote=False)
        if problem:
            problems.append(f"{problem}; using {_shown(getattr(DEFAULTS, name))}")
        else:
            good[name] = data[name]
    settings = replace(DEFAULTS, **good)
    order = order_problem(settings)
    if order:
        problems.append(f"{order}; using {DEFAULTS.off_minutes}")
        settings = replace(settings, off_minutes=DEFAULTS.off_minutes)
    return settings, problems


def load_settings(path: str | PathLike[str] | None = None) -> tuple[TableSettings, str]:
    """(the settings, "" or the problems in one message naming the file and each field).
    A missing file is no problem; nothing here raises."""
    path = Path(path) if path is not None else settings_path()
    try:
        # a link, a pipe or a device: refused; a byte order mark is not the file's content
        text = read_regular(path, "config").decode("utf-8").removeprefix("\ufeff")
    except FileNotFoundError:
        return DEFAULTS, ""
    except (OSError, UnicodeDecodeError) as problem:
        reason = getattr(problem, "reason", None) or (
            problem.strerror if isinstance(problem, OSError) and problem.strerror
            else str(problem))
        return DEFAULTS, f"Settings file {path} cannot be read ({reason}): using the defaults."
    try:
        data = json.loads(text)
    except (ValueError, RecursionError) as problem:
        return DEFAULTS, (f"Settings file {path} is not JSON ({_first_line(problem)}): using "
                          "the defaults until you change a setting.")
    settings, problems = parse_settings(data)
    if not problems:
        return settings, ""
    return settings, (f"Settings file {path}: " + "; ".join(problems)
                      + ". It is rewritten when you change a setting.")


def _first_line(problem: Exception) -> str:
    return str(problem).splitlines()[0][:80] if str(problem) else type(problem).__name__


def save_settings(settings: TableSettings, path: str | PathLike[str] | None = None) -> Path:
    """Write the settings atomically, readable by the owner only (0600); a crash leaves the
    old file or the new one, never half of one. Raises OSError when the card cannot take it."""
    path = Path(path) if path is not None else settings_path()
    text = json.dumps(asdict(settings), indent=1, sort_keys=True) + "\n"
    from hardware.config_write import write_atomically

    return write_atomically(path, text, mode=0o600, folder_mode=0o700)


def save_turn_limit(path: str | PathLike[str], seconds: int):
    """Set ``[buzzer] turn_limit_s`` in the hardware config at ``path`` with the Hardware
    screen's own load and save code, and return the config as saved. A config that does not
    load is refused (a ConfigError naming the key): it is never overwritten from here."""
    from hardware.config import config_to_data, load_config, parse_config, save_config

    config = load_config(path, missing_ok=True)
    if config.turn_limit_s == seconds:
        return config
    data = config_to_data(replace(config, turn_limit_s=seconds))
    config = parse_config(data)        # the limit within the config's own bounds
    save_config(config, path)
    return config
