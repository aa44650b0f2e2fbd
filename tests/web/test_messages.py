"""What a phone may send: declared per type, refused naming what is wrong."""

from __future__ import annotations

import json

import pytest

from ui.web.messages import MAX_BYTES, Refused, parse


def test_a_press_and_a_die_pass():
    assert parse('{"type":"press","button":"claim","seen":3,"id":1}') == {
        "type": "press", "button": "claim", "seen": 3, "id": 1}
    assert parse(json.dumps({"type": "die", "die": "magic1", "value": 4, "seen": 0,
                             "id": 2}))["value"] == 4


@pytest.mark.parametrize("text, named", [
    ("nonsense", "JSON"),
    ("[1, 2]", "object"),
    ('{"button": "claim"}', "type"),
    ('{"type": "undo"}', "'undo'"),
    ('{"type": "press", "button": "claim", "seen": 1, "player": "Barb"}', "'player'"),
    ('{"type": "press", "seen": 1}', "press.button"),
    ('{"type": "press", "button": "claim", "seen": 1}', "press.id: missing"),
    ('{"type": "press", "button": "claim", "seen": 1, "id": "3 4"}', "press.id"),
    ('{"type": "press", "button": "claim", "seen": 1, "id": ""}', "press.id"),
    ('{"type": "press", "button": "claim", "seen": 1, "id": 3.5}', "press.id"),
    ('{"type": "press", "button": 5, "seen": 1}', "press.button"),
    ('{"type": "press", "button": "claim", "seen": true}', "press.seen"),
    ('{"type": "press", "button": "claim", "seen": "1"}', "press.seen"),
    ('{"type": "die", "die": "d", "value": [1], "seen": 1}', "die.value"),
    ("[" * 5000, "bytes"),
    ('{"type": "press", "button": "' + "x" * MAX_BYTES + '", "seen": 1}', "bytes"),
])
def test_wrong_messages_are_refused_naming_what(text, named):
    with pytest.raises(Refused, match=named.replace("[", r"\[")):
        parse(text)


def test_deep_nesting_is_refused_not_raised():
    with pytest.raises(Refused):
        parse("[" * 1000 + "]" * 1000)
