"""The table settings file (ui/table/settings.py): a good file, a missing one, each bad field,
generated garbage (never a traceback), the atomic 0600 save, and the turn limit written into
the hardware config with the Hardware screen's own code."""

from __future__ import annotations

import json
import os
import stat

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ui.table import settings as table
from ui.table.settings import DEFAULTS, TableSettings, load_settings, save_settings


def write(path, data) -> None:
    path.write_text(data if isinstance(data, str) else json.dumps(data), encoding="utf-8")


def test_a_good_file_is_read_whole(tmp_path):
    path = tmp_path / "settings.json"
    write(path, {"sound": False, "volume": 50, "rotation": 180, "dim_minutes": 10,
                 "text_size": "large"})
    assert load_settings(path) == (TableSettings(False, 50, 180, 10, "large"), "")
    assert load_settings(path)[0].font_factor == table.TEXT_SIZES["large"] > 1


def test_a_missing_file_gives_the_defaults_without_a_word(tmp_path):
    assert load_settings(tmp_path / "nowhere" / "settings.json") == (DEFAULTS, "")


def test_the_path_comes_from_the_environment(tmp_path, monkeypatch):
    monkeypatch.setenv("COMPANION_SETTINGS", str(tmp_path / "mine.json"))
    assert table.settings_path() == tmp_path / "mine.json"
    monkeypatch.delenv("COMPANION_SETTINGS")
    assert table.settings_path().name == "settings.json"
    assert table.settings_path().parent.name == "table-companion"


@pytest.mark.parametrize("field, bad", [
    ("sound", "yes"), ("sound", 1), ("volume", 101), ("volume", -1), ("volume", 50.5),
    ("volume", True), ("volume", "loud"), ("rotation", 45), ("rotation", "180"),
    ("dim_minutes", 3), ("dim_minutes", None), ("dim_minutes", [5]),
    ("text_size", "huge"), ("text_size", "Large"), ("text_size", 1.15), ("text_size", None),
])
def test_each_bad_field_takes_its_default_and_is_named(tmp_path, field, bad):
    path = tmp_path / "settings.json"
    good = {"sound": False, "volume": 50, "rotation": 180, "dim_minutes": 10,
            "text_size": "large"}
    write(path, {**good, field: bad})
    before = path.read_bytes()
    settings, problem = load_settings(path)
    assert getattr(settings, field) == getattr(DEFAULTS, field)
    for other, value in good.items():          # the good fields are kept
        if other != field:
            assert getattr(settings, other) == value
    assert f"{field} must be" in problem and str(path) in problem
    assert path.read_bytes() == before         # reading never rewrites the file


def test_an_unknown_key_is_named_and_the_rest_kept(tmp_path):
    path = tmp_path / "settings.json"
    write(path, {"volume": 25, "font": "huge"})
    settings, problem = load_settings(path)
    assert settings == TableSettings(volume=25)
    assert "1 unknown setting ignored" in problem and "font" not in problem


@pytest.mark.parametrize("text, words", [
    ("{not json", "is not JSON"), ("", "is not JSON"), ("[1, 2]", "not a JSON object"),
    ("null", "not a JSON object"), ('"volume"', "not a JSON object"),
])
def test_a_file_that_is_not_a_settings_object_gives_the_defaults(tmp_path, text, words):
    path = tmp_path / "settings.json"
    write(path, text)
    settings, problem = load_settings(path)
    assert settings == DEFAULTS and words in problem


def test_a_file_that_is_not_utf8_or_not_a_file_is_said(tmp_path):
    path = tmp_path / "settings.json"
    path.write_bytes(b"\xff\xfe{}")
    assert load_settings(path)[0] == DEFAULTS and "cannot be read" in load_settings(path)[1]
    folder = tmp_path / "folder.json"
    folder.mkdir()
    assert load_settings(folder)[0] == DEFAULTS and "cannot be read" in load_settings(folder)[1]


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=True) | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=12), inner,
                                                                max_size=5),
    max_leaves=12,
)
near_settings = st.dictionaries(
    st.sampled_from([*table.FIELDS, "extra", ""]), json_values, max_size=6)


@settings(max_examples=300, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(raw=st.binary(max_size=200) | st.text(max_size=200).map(str.encode)
       | near_settings.map(lambda d: json.dumps(d).encode()))
def test_garbage_never_raises_and_gives_valid_settings(tmp_path, raw):
    path = tmp_path / "settings.json"
    path.write_bytes(raw)
    settings, problem = load_settings(path)
    assert isinstance(problem, str)
    assert table.parse_settings(json.loads(json.dumps(settings.__dict__)))[1] == []


def test_deeply_nested_json_is_refused_not_a_crash(tmp_path):
    path = tmp_path / "settings.json"
    write(path, "[" * 100_000 + "]" * 100_000)
    assert load_settings(path)[0] == DEFAULTS


def test_save_is_atomic_owner_only_and_reads_back(tmp_path, monkeypatch):
    path = tmp_path / "deeper" / "settings.json"
    wanted = TableSettings(sound=False, volume=25, rotation=180, dim_minutes=5,
                           text_size="large")
    save_settings(wanted, path)
    assert load_settings(path) == (wanted, "")
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert [p.name for p in path.parent.iterdir()] == ["settings.json"]   # no temp left

    def torn(*_args, **_at):   # the power goes between writing the temp file and the rename
        raise OSError(5, "Input/output error")

    monkeypatch.setattr(os, "rename", torn)   # the one writer renames by the folder's fd
    with pytest.raises(OSError):
        save_settings(DEFAULTS, path)
    assert load_settings(path) == (wanted, "")                          # the old file whole
    assert [p.name for p in path.parent.iterdir()] == ["settings.json"]


HARDWARE = """[buzzer]
pin = 12
turn_limit_s = 90
"""


def test_the_turn_limit_goes_into_the_hardware_config(tmp_path):
    from hardware.config import ConfigError, load_config

    path = tmp_path / "hardware.toml"
    path.write_text(HARDWARE)
    assert table.save_turn_limit(path, 180).turn_limit_s == 180
    assert load_config(path).turn_limit_s == 180 and load_config(path).buzzer == 12
    assert table.save_turn_limit(path, 0).turn_limit_s == 0
    assert load_config(path).turn_limit_s == 0
    # no buzzer: the limit is kept all the same (the screen sounds the time cue)
    bare = tmp_path / "bare.toml"
    assert table.save_turn_limit(bare, 60).turn_limit_s == 60
    assert load_config(bare).turn_limit_s == 60 and load_config(bare).buzzer is None
    # a config that does not load is never overwritten from the settings screen
    broken = tmp_path / "broken.toml"
    broken.write_text("[buzzer\npin = 12\n")
    with pytest.raises(ConfigError):
        table.save_turn_limit(broken, 60)
    assert broken.read_text() == "[buzzer\npin = 12\n"
