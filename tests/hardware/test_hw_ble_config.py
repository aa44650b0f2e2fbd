"""The [ble] section of hardware.toml: dice kept by address, each with its make, name, the
game's die (or "any"), a face map for stickered faces and a GoDice's shell (D6 unless said). Every mistake names its key and
nothing half-works; what the app writes reads back the same; garbage is refused by name."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hardware.config import ConfigError, dump_config, parse_config, parse_toml
from hardware.config_data import BleDieConfig

QUEST = {"ble": {"low_battery": 25, "dice": {
    "c4:5e:11:22:33:01": {"make": "pixels", "name": "Pixel01", "die": "magic1"},
    "C4:5E:11:22:33:02": {"make": "godice", "name": "GoDice_2_R_v03", "die": "action_a",
                          "face_names": ["bottle", "bottle", "bottle", "bottle", "hat", "hat"]},
    "C4:5E:11:22:33:03": {"make": "godice"},
    "C4:5E:11:22:33:04": {"make": "godice", "shell": "d20"},
}}}


def test_paired_dice_by_address_with_their_game_dice():
    ble = parse_config(QUEST).ble
    assert ble.low_battery == 25
    assert [d.address for d in ble.dice] == ["C4:5E:11:22:33:01", "C4:5E:11:22:33:02",
                                             "C4:5E:11:22:33:03", "C4:5E:11:22:33:04"]
    assert ble.die("C4:5E:11:22:33:03") == BleDieConfig("C4:5E:11:22:33:03", "godice")
    assert ble.die("C4:5E:11:22:33:03").shell == "d6"                  # the default
    assert ble.die("C4:5E:11:22:33:04").shell == "d20"
    action = ble.die("C4:5E:11:22:33:02")
    assert [action.game_value(f) for f in range(1, 8)] == \
        ["bottle", "bottle", "bottle", "bottle", "hat", "hat", 7]
    assert ble.die("C4:5E:11:22:33:01").game_value(4) == 4


def test_what_the_app_writes_reads_back_the_same():
    config = parse_config(QUEST)
    text = dump_config(config)
    assert '[ble.dice."C4:5E:11:22:33:01"]' in text
    assert text.count("shell = ") == 1 and 'shell = "d20"' in text   # only one not a D6
    assert parse_config(parse_toml(text)) == config
    assert parse_config(parse_toml(dump_config(parse_config({"ble": {}})))).ble.dice == ()
    demo = parse_config({"ble": {"air": "/run/user/1000/dicesim-ble/air"}})
    assert parse_config(parse_toml(dump_config(demo))) == demo
    assert demo.ble.transport().path == "/run/user/1000/dicesim-ble/air"
    assert config.ble.transport() is None              # the radio


@pytest.mark.parametrize("ble, message", [
    ({"dice": {"not-an-address": {"make": "pixels"}}},
     'ble.dice."not-an-address": not a Bluetooth address'),
    ({"dice": {"AA:BB:CC:DD:EE:FF": {"make": "d20"}}},
     'ble.dice."AA:BB:CC:DD:EE:FF".make: one of pixels, godice'),
    ({"dice": {"AA:BB:CC:DD:EE:FF": {}}}, '.make: one of pixels, godice; got None'),
    ({"dice": {"AA:BB:CC:DD:EE:FF": {"make": "pixels", "colour": "red"}}},
     '"AA:BB:CC:DD:EE:FF".colour: unknown key'),
    ({"dice": {"AA:BB:CC:DD:EE:FF": {"make": "pixels", "die": "magic 1"}}}, ".die: the game's die"),
    ({"dice": {"AA:BB:CC:DD:EE:FF": {"make": "pixels", "name": "x" * 33}}}, ".name: the die's name"),
    ({"dice": {"AA:BB:CC:DD:EE:FF": {"make": "pixels", "name": "caf\u00e9"}}}, ".name: the die's name"),
    ({"dice": {"AA:BB:CC:DD:EE:FF": {"make": "pixels", "face_names": ["hat"]}}},
     ".face_names: must list what each of the die's 6 faces"),
    ({"dice": {"AA:BB:CC:DD:EE:01": {"make": "pixels", "die": "magic1"},
               "AA:BB:CC:DD:EE:02": {"make": "godice", "die": "magic1"}}},
     "magic1 is already the die at AA:BB:CC:DD:EE:01"),
    ({"dice": {"aa:bb:cc:dd:ee:01": {"make": "pixels"}, "AA:BB:CC:DD:EE:01": {"make": "pixels"}}},
     "AA:BB:CC:DD:EE:01 is listed twice"),
    ({"dice": {f"AA:BB:CC:DD:EE:{n:02X}": {"make": "pixels"} for n in range(13)}},
     "ble.dice: at most 12 smart dice"),
    ({"low_battery": 101}, "ble.low_battery: a percentage from 0 to 100"),
    ({"low_battery": True}, "ble.low_battery"),
    ({"scan_s": 5}, "ble.scan_s: unknown key"),
    ({"air": "relative/air"}, "ble.air: the socket of companion dicesim --ble, an absolute path"),
    ({"air": 5}, "ble.air: the socket"),
    ({"dice": []}, "ble.dice: expected a table"),
    ({"dice": {"AA:BB:CC:DD:EE:FF": {"make": "godice", "shell": "d100"}}},
     ".shell: the shell the GoDice wears, one of d6, d20, d10, d10x, d4, d8, d12; got 'd100'"),
    ({"dice": {"AA:BB:CC:DD:EE:FF": {"make": "pixels", "shell": "d6"}}},
     ".shell: only a GoDice wears a shell (a Pixels says its own type)"),
])
def test_mistakes_name_their_key(ble, message):
    with pytest.raises(ConfigError, match=None) as caught:
        parse_config({"ble": ble})
    assert message in str(caught.value)


def test_two_dice_may_both_be_any_die():
    ble = parse_config({"ble": {"dice": {
        "AA:BB:CC:DD:EE:01": {"make": "pixels"}, "AA:BB:CC:DD:EE:02": {"make": "pixels"}}}}).ble
    assert [d.die for d in ble.dice] == ["any", "any"]


_values = st.recursive(st.none() | st.booleans() | st.integers() | st.text(max_size=8),
                       lambda inner: st.lists(inner, max_size=4)
                       | st.dictionaries(st.text(max_size=18), inner, max_size=4),
                       max_leaves=12)


@settings(max_examples=300, deadline=None)
@given(st.dictionaries(st.sampled_from(["low_battery", "dice", "x"]), _values, max_size=3))
def test_fuzz_any_ble_table_is_a_config_or_a_named_error(table):
    try:
        config = parse_config({"ble": table})
    except ConfigError as problem:
        assert str(problem).startswith("ble")
    else:
        assert parse_config(parse_toml(dump_config(config))) == config


def test_the_benchmarks_table_passes_the_check():
    """benchmarks/smart_dice.py pairs a tray and five smart dice to Quest's dice."""
    from benchmarks.smart_dice import GAME_DICE, config_text

    config = parse_config(parse_toml(config_text("/dev/serial/by-id/usb-bench")))
    assert [d.die for d in config.ble.dice] == list(GAME_DICE)
    assert config.dice.ids == {f"d{n}": die for n, die in enumerate(GAME_DICE, 1)}
