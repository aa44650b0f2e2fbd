import pytest

from companion.core.errors import CompanionError
from hardware.config import (
    DEMO_CONFIG,
    KEYBOARD_MAP,
    RESERVED_PINS,
    SEAT_BUTTONS,
    HardwareConfig,
    input_for_key,
    key_label,
    load_config,
    parse_config,
)
from hardware.errors import ConfigError
from tests.support.wiring import hardware_toml, seat

GOOD = hardware_toml(
    "[buttons]\nundo = 5            # table buttons\nredo = 6\n", seat(1, led=True),
    seat(2, (24, 25, 8)), "[options]\nbounce_ms = 40\nhold_s = 2\npull_up = false\n")


def write(tmp_path, text, name="hardware.toml"):
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def test_good_config(tmp_path):
    config = load_config(write(tmp_path, GOOD))
    assert config.buttons == {
        "undo": 5, "redo": 6,
        "seat1.claim": 17, "seat1.so_be_it": 27, "seat1.pass": 22,
        "seat2.claim": 24, "seat2.so_be_it": 25, "seat2.pass": 8,
    }
    assert config.leds == {"seat1.led": 23}
    assert config.seat_leds() == {1: 23}
    assert config.seats == (1, 2)
    assert config.bounce_s == pytest.approx(0.040)
    assert config.hold_s == 2.0
    assert config.pull_up is False
    assert not config.is_empty


def test_defaults_and_empty():
    config = parse_config({})
    assert config == HardwareConfig.empty()
    assert config.is_empty and config.seats == ()
    assert (config.bounce_s, config.hold_s, config.pull_up) == (0.030, 1.5, True)


def test_python_dict_with_int_seat_keys():
    assert parse_config({"seats": {3: {"claim": 17}}}).buttons == {"seat3.claim": 17}


@pytest.mark.parametrize("data, key, also", [
    ({"lights": {}}, "lights", "allowed: buttons, seats, options"),
    ({"buttons": {"shuffle": 5}}, "buttons.shuffle", "allowed: undo, redo, menu"),
    ({"seats": {"2": {"clame": 17}}}, "seat2.clame", "allowed: claim, so_be_it, pass, led"),
    ({"options": {"debounce": 3}}, "options.debounce", "allowed: bounce_ms, hold_s, pull_up"),
    ({"seats": {"1": {"claim": "17"}}}, "seat1.claim", "BCM GPIO number"),
    ({"seats": {"1": {"claim": True}}}, "seat1.claim", "BCM GPIO number"),
    ({"seats": {"1": {"claim": 17.0}}}, "seat1.claim", "BCM GPIO number"),
    ({"buttons": {"undo": 0}}, "buttons.undo", "pin 0 is not a GPIO pin (use BCM 2-27)"),
    ({"buttons": {"redo": 28}}, "buttons.redo", "pin 28 is not a GPIO pin"),
    ({"seats": {"0": {"claim": 17}}}, "seats.0", "seat numbers are 1-6"),
    ({"seats": {"7": {"claim": 17}}}, "seats.7", "seat numbers are 1-6"),
    ({"seats": {"x": {"claim": 17}}}, "seats.x", "seat numbers are 1-6"),
    ({"seats": {"01": {"claim": 17}}}, "seats.01", "seat numbers are 1-6"),
    ({"seats": {"1": 17}}, "seats.1", "expected a table"),
    ({"seats": 3}, "seats", "expected a table"),
    ({"buttons": [5, 6]}, "buttons", "expected a table"),
    ({"options": {"bounce_ms": -1}}, "options.bounce_ms", "at least 0"),
    ({"options": {"bounce_ms": 5000}}, "options.bounce_ms", "at most 1000"),
    ({"options": {"bounce_ms": "30"}}, "options.bounce_ms", "milliseconds"),
    ({"options": {"bounce_ms": True}}, "options.bounce_ms", "milliseconds"),
    ({"options": {"hold_s": 0}}, "options.hold_s", "more than 0"),
    ({"options": {"hold_s": 11}}, "options.hold_s", "at most 10"),
    ({"options": {"pull_up": "yes"}}, "options.pull_up", "true or false"),
])
def test_bad_config_names_the_key(data, key, also):
    with pytest.raises(ConfigError) as info:
        parse_config(data)
    message = str(info.value)
    assert message.startswith(f"{key}: "), message
    assert also in message


def test_pin_out_of_range_message_is_exact():
    with pytest.raises(ConfigError, match=r"^seat2\.claim: pin 99 is not a GPIO pin \(use BCM 2-27\)$"):
        parse_config({"seats": {"2": {"claim": 99}}})


@pytest.mark.parametrize("pin, use", [(2, "I2C"), (3, "I2C"), (14, "UART"), (15, "UART")])
def test_reserved_pins_are_refused_with_their_use(pin, use):
    with pytest.raises(ConfigError) as info:
        parse_config({"seats": {"3": {"pass": pin}}})
    message = str(info.value)
    assert message.startswith(f"seat3.pass: pin {pin} is reserved for {use}")


def test_duplicate_pin_names_both_keys():
    with pytest.raises(ConfigError) as info:
        parse_config({"seats": {"1": {"claim": 17}, "2": {"pass": 17}}})
    assert str(info.value) == "seat2.pass: pin 17 is already used by seat1.claim"


def test_led_may_not_share_a_button_pin():
    with pytest.raises(ConfigError, match="seat1.led: pin 5 is already used by buttons.undo"):
        parse_config({"buttons": {"undo": 5}, "seats": {"1": {"led": 5}}})


def test_errors_are_value_errors_of_the_companion():
    with pytest.raises(ValueError):
        parse_config({"nope": 1})
    assert issubclass(ConfigError, CompanionError)


def test_file_errors_name_the_path_and_key(tmp_path):
    path = write(tmp_path, "[seats.2]\nclaim = 99\n")
    with pytest.raises(ConfigError) as info:
        load_config(path)
    assert str(path) in str(info.value)
    assert "seat2.claim: pin 99" in str(info.value)


def test_toml_syntax_error_names_path_and_line(tmp_path):
    path = write(tmp_path, "[buttons]\nundo = 5\nredo = \n")
    with pytest.raises(ConfigError) as info:
        load_config(path)
    message = str(info.value)
    assert str(path) in message
    assert "line 3" in message


def test_not_utf8_is_a_config_error(tmp_path):
    path = tmp_path / "hardware.toml"
    path.write_bytes(b"[buttons]\nundo = 5 # \xff\n")
    with pytest.raises(ConfigError, match="UTF-8"):
        load_config(path)


def test_missing_file(tmp_path):
    missing = tmp_path / "absent.toml"
    assert load_config(missing) == HardwareConfig.empty()
    assert load_config(missing, missing_ok=True).is_empty
    with pytest.raises(ConfigError, match="absent.toml: hardware config not found"):
        load_config(missing, missing_ok=False)


def test_directory_is_a_config_error(tmp_path):
    with pytest.raises(ConfigError, match="cannot read"):
        load_config(tmp_path)


def test_demo_config_has_six_full_seats_on_safe_distinct_pins():
    assert DEMO_CONFIG.seats == (1, 2, 3, 4, 5, 6)
    expected = {f"seat{s}.{role}" for s in range(1, 7) for role in SEAT_BUTTONS}
    assert set(DEMO_CONFIG.buttons) == expected | {"undo", "redo"}
    pins = list(DEMO_CONFIG.buttons.values()) + list(DEMO_CONFIG.leds.values())
    assert len(pins) == len(set(pins))
    assert all(2 <= p <= 27 and p not in RESERVED_PINS for p in pins)
    # It survives the same validation as a file would.
    seats = {}
    for key, pin in DEMO_CONFIG.buttons.items():
        if key.startswith("seat"):
            seat, role = key[4:].split(".")
            seats.setdefault(seat, {})[role] = pin
    buttons = {k: v for k, v in DEMO_CONFIG.buttons.items() if not k.startswith("seat")}
    assert parse_config({"buttons": buttons, "seats": seats}) == DEMO_CONFIG


def test_keyboard_map_covers_the_demo_table():
    assert set(KEYBOARD_MAP.values()) == set(DEMO_CONFIG.buttons)
    assert len(KEYBOARD_MAP) == len(set(KEYBOARD_MAP))
    assert KEYBOARD_MAP["q"] == "seat1.claim"
    assert KEYBOARD_MAP["a"] == "seat1.so_be_it"
    assert KEYBOARD_MAP["z"] == "seat1.pass"
    assert KEYBOARD_MAP["n"] == "seat6.pass"
    assert KEYBOARD_MAP["backspace"] == "undo"
    assert KEYBOARD_MAP["u"] == "undo"
    assert KEYBOARD_MAP["i"] == "redo"


def test_key_label_and_input_for_key():
    assert key_label("seat1.claim") == "Q"
    assert key_label("seat4.so_be_it") == "F"
    assert key_label("seat6.pass") == "N"
    assert key_label("undo") == "U"
    assert key_label("menu") is None
    assert input_for_key("Q") == "seat1.claim"
    assert input_for_key("backspace") == "undo"
    assert input_for_key("f12") is None
    for input_id in DEMO_CONFIG.buttons:
        assert input_for_key(key_label(input_id)) == input_id


# -- [dice] -----------------------------------------------------------------------------------
DICE = """\
[seats.1]
claim = 17

[dice]
url = "/dev/serial/by-id/usb-Table_dicetray_01-if00"
baudrate = 57600
faces = [1, 6]

[dice.die_faces]
d8 = [1, 8]
action = [0, 5]
"""


def test_dice_section(tmp_path):
    config = load_config(write(tmp_path, DICE))
    dice = config.dice
    assert dice.url == "/dev/serial/by-id/usb-Table_dicetray_01-if00"
    assert dice.baudrate == 57600
    assert dice.faces == (1, 6)
    assert dice.die_faces == {"d8": (1, 8), "action": (0, 5)}
    assert config.buttons == {"seat1.claim": 17}


def test_dice_defaults_and_urls():
    for url in ("loop://", "socket://127.0.0.1:7777", "/dev/ttyACM0", "socket://tray.local:4000",
                "/dev/serial/by-path/platform-3f980000.usb-usb-0:1.2:1.0"):
        dice = parse_config({"dice": {"url": url}}).dice
        assert (dice.url, dice.baudrate, dice.faces, dice.die_faces) == (url, 115200, (1, 6), {})
    assert parse_config({}).dice is None
    assert DEMO_CONFIG.dice is None


def test_a_dice_tray_alone_is_not_gpio():
    config = parse_config({"dice": {"url": "loop://"}})
    assert config.is_empty and config.dice is not None


@pytest.mark.parametrize("dice, message", [
    ({"url": "loop://", "baudrate": 1234}, "dice.baudrate: 1234 is not a standard baud rate"),
    ({"url": "loop://", "baudrate": "fast"}, "dice.baudrate: must be a whole number"),
    ({"url": "loop://", "baudrate": True}, "dice.baudrate: must be a whole number"),
    ({"baudrate": 9600}, "dice.url: missing"),
    ({"url": ""}, "dice.url: must be a device path or a serial URL"),
    ({"url": 5}, "dice.url: must be a device path or a serial URL"),
    ({"url": "ttyACM0"}, "dice.url: 'ttyACM0' is neither an absolute device path"),
    ({"url": "http://tray"}, "dice.url: unknown scheme 'http'"),
    ({"url": "loop://", "speed": 9600}, "dice.speed: unknown key; allowed: url, baudrate"),
    ({"url": "loop://", "faces": [6, 1]}, "dice.faces: must be [lowest, highest] face"),
    ({"url": "loop://", "faces": 6}, "dice.faces: must be [lowest, highest] face"),
    ({"url": "loop://", "faces": [1, 1000]}, "dice.faces: must be [lowest, highest] face"),
    ({"url": "loop://", "die_faces": {"d8": [1]}}, "dice.die_faces.d8: must be [lowest"),
    ({"url": "loop://", "die_faces": {"8d": [1, 8]}}, "dice.die_faces.8d: not a die id"),
    ({"url": "loop://", "die_faces": [1, 8]}, "dice.die_faces: expected a table"),
])
def test_bad_dice_section_names_the_key(dice, message):
    with pytest.raises(ConfigError) as error:
        parse_config({"dice": dice})
    assert str(error.value).startswith(message), str(error.value)


def test_dice_section_must_be_a_table():
    with pytest.raises(ConfigError, match=r"^dice: expected a table"):
        parse_config({"dice": "loop://"})


def test_dice_error_in_a_file_names_the_path(tmp_path):
    path = write(tmp_path, '[dice]\nurl = "loop://"\nbaudrate = 1234\n')
    with pytest.raises(ConfigError, match=r"hardware.toml: dice.baudrate: 1234 is not"):
        load_config(path)


def test_dice_config_builds_a_reader(tmp_path):
    from hardware.dice import DiceReader

    dice = parse_config({"dice": {"url": "loop://", "baudrate": 9600,
                                  "die_faces": {"d8": [1, 8]}}}).dice
    with DiceReader.from_config(dice, lambda event: None, backoff=(0.05, 0.1)) as reader:
        assert reader.baudrate == 9600
        assert reader.faces.range_of("d8") == (1, 8)
        assert reader.faces.range_of("d1") == (1, 6)


# -- writing a config back -----------------------------------------------------------------
FULL = {
    "buttons": {"next": 10, "undo": 4, "menu": 11},
    "seats": {"2": {"pass": 13, "claim": 5, "led": 24}, "1": {"led": 23, "claim": 17}},
    "options": {"bounce_ms": 7, "hold_s": 0.35, "pull_up": False},
    "buzzer": {"pin": 9},
    "dice": {"url": "/dev/serial/by-id/usb-Tray\\x20A-if00", "baudrate": 57600, "faces": [0, 5],
             "die_faces": {"d8": [1, 8]}, "ids": {"d2": "action_b", "d1": "action_a"},
             "face_names": {"d1": ["bottle", "bottle", "bottle", "hat", "hat", 6]}},
}


@pytest.mark.parametrize("config", [DEMO_CONFIG, parse_config(FULL), parse_config({}),
                                    parse_config({"dice": {"url": "loop://"}})],
                         ids=["demo", "full", "empty", "dice-only"])
def test_dump_reads_back_as_the_same_config(config):
    import tomllib

    from hardware.config import dump_config

    text = dump_config(config)
    assert parse_config(tomllib.loads(text)) == config
    assert dump_config(parse_config(tomllib.loads(text))) == text


def test_dump_is_in_a_fixed_order_with_comments_naming_sections():
    from hardware.config import dump_config

    text = dump_config(parse_config(FULL))
    # Whatever order the keys came in, the file reads in the documented order.
    reordered = {k: FULL[k] for k in ("dice", "buzzer", "options", "seats", "buttons")}
    assert dump_config(parse_config(reordered)) == text
    headers = [line for line in text.splitlines() if line.startswith("[")]
    assert [h.split("]")[0] + "]" for h in headers] == [
        "[buttons]", "[seats.1]", "[seats.2]", "[options]", "[buzzer]", "[dice]",
        "[dice.die_faces]", "[dice.ids]", "[dice.face_names]"]
    assert all("  # " in h for h in headers)           # each section says what it is
    assert "[seats.2]  # seat 2:" in text
    buttons = text.split("[buttons]")[1].split("\n\n")[0].splitlines()[1:]
    assert buttons == ["undo = 4", "menu = 11", "next = 10"]
    assert "bounce_ms = 7\nhold_s = 0.35\npull_up = false" in text
    assert text.startswith("# The table companion's hardware config")


def test_save_writes_a_file_load_reads_back(tmp_path):
    from hardware.config import save_config

    path = tmp_path / "new" / "dir" / "hardware.toml"
    config = parse_config(FULL)
    assert save_config(config, path) == path
    assert load_config(path, missing_ok=False) == config
    assert sorted(p.name for p in path.parent.iterdir()) == ["hardware.toml"]   # no temp left


def test_a_failed_save_leaves_the_old_file_whole(tmp_path, monkeypatch):
    import os

    from hardware.config import save_config

    path = write(tmp_path, GOOD)

    def crash(src, dst, **at):   # the one writer renames by the folder's descriptor
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "rename", crash)
    with pytest.raises(OSError, match="No space left"):
        save_config(DEMO_CONFIG, path)
    assert path.read_text(encoding="utf-8") == GOOD
    assert [p.name for p in tmp_path.iterdir()] == ["hardware.toml"]   # the temp file is gone


def test_default_config_path_is_in_the_user_config_dir(tmp_path, monkeypatch):
    from hardware.config import default_config_path

    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path))
    assert default_config_path() == tmp_path / "table-companion" / "hardware.toml"
