"""A hardware config of pasted giants: a 5,000-digit number (past Python's int limit, which
tomllib raises as a bare ValueError) and 4,000-character keys and numbers in every section.
Whatever the file holds, load_config raises a ConfigError of one line whose words are at
most MAX_WORD characters, and the doctor prints no line longer than its prefix and that."""

from __future__ import annotations

import pytest

from hardware.config import load_config
from hardware.config_check import SECTIONS
from hardware.errors import MAX_WORD, ConfigError

GIANT = "9" * 4000
KEY = "k" * 4000
PLACES = [f"[{section}]\n{key} = {value}\n" for section in SECTIONS
          for key in ("undo", "pin", "url", "baudrate", "scan_s", KEY)
          for value in (GIANT, f'"{KEY}"', f"[{GIANT}, {GIANT}]")]
PLACES += [f"[seats.{GIANT}]\nbutton = 17\n", f'[ble.dice."{KEY}"]\nmake = "pixels"\n',
           f"[buttons]\nundo = {'9' * 5000}\n", f"[dice]\ndie_faces.{KEY} = [1, 6]\n"]


@pytest.mark.parametrize("text", PLACES, ids=lambda t: t[:24].replace("\n", " "))
def test_a_giant_anywhere_is_one_short_line(tmp_path, text):
    path = tmp_path / "hardware.toml"
    path.write_text(text)
    try:
        load_config(path)
    except ConfigError as problem:
        said = str(problem)
        assert "\n" not in said and max(map(len, said.split(" "))) <= MAX_WORD, said[:300]
        assert len(said) < 3 * MAX_WORD, said[:300]
        return
    # a giant in a place the config does not read is no error (say, a string of a known key)


def test_a_number_past_python_s_digit_limit_is_named_not_a_traceback(tmp_path):
    path = tmp_path / "hardware.toml"
    path.write_text(f"[buttons]\nundo = {'9' * 5000}\n")
    with pytest.raises(ConfigError, match="not valid TOML: a value it cannot read"):
        load_config(path)
