"""The kiosk unit never turns a failing companion into a silent loop or a reboot: a start
limit, an OnFailure unit that says so on the screen, and no reboot action."""

from __future__ import annotations

import configparser
from pathlib import Path

UNITS = Path(__file__).resolve().parents[1] / "systemd"


def _unit(name: str) -> configparser.ConfigParser:
    parser = configparser.ConfigParser(strict=False, interpolation=None)
    parser.optionxform = str  # systemd keys are case-sensitive
    parser.read(UNITS / name)
    return parser


def test_a_failing_companion_stops_after_a_start_limit_and_says_so():
    unit = _unit("table-companion.service")
    assert int(unit["Unit"]["StartLimitBurst"]) == 5
    assert int(unit["Unit"]["StartLimitIntervalSec"]) == 300
    assert unit["Service"]["Restart"] == "on-failure"
    assert unit["Unit"]["OnFailure"] == "table-companion-failed.service"
    for section in unit.sections():
        assert not any("reboot" in value for value in unit[section].values())
    failed = _unit(unit["Unit"]["OnFailure"])
    assert failed["Service"]["Type"] == "oneshot"
    assert "companion check --repair" in failed["Service"]["ExecStart"]
