"""A player's name is one line at every gate (the club refuses a name with a tab or
a line break, so a table that took one would keep a game the club refuses for ever): each
game's setup, a profile's rename and a profile brought down from the club refuse it, naming
the field, and take the same name on one line."""

from __future__ import annotations

import pytest

from companion.club.profiles import admitted
from companion.core.errors import RuleViolation, SetupError
from companion.games.cauldron.commands import SETUP_KEYS as CAULDRON
from companion.games.quest.commands import SETUP_KEYS as QUEST
from companion.games.witchs_brew.commands import SETUP_KEYS as BREW


@pytest.mark.parametrize("bad", ["Anna\nBen", "Anna\tBen", "Anna\r\nB"])
@pytest.mark.parametrize("spec", [BREW, QUEST, CAULDRON], ids=["brew", "quest", "cauldron"])
def test_setups_refuse_a_name_on_two_lines(spec, bad):
    players = spec["players"].spec
    names = [bad, "Carl", "Dana"]
    with pytest.raises(RuleViolation) as refused:
        players.check(names, "players", {})
    assert "players" in str(refused.value)
    assert players.check(["Anna Ben", "Carl", "Dana"], "players", {})


@pytest.mark.parametrize("bad", ["Anna\nBen", "Anna\tBen"])
def test_a_profile_from_the_club_is_one_line(bad):
    with pytest.raises(RuleViolation, match="name"):
        admitted(bad, None, None)
    assert admitted("Anna Ben", None, None)[0] == "Anna Ben"


def test_a_rename_is_one_line(tmp_path):
    from companion.store import Store

    with Store(tmp_path / "t.sqlite3") as store:
        store.conn.execute("INSERT INTO profiles (uuid, name, name_key, created_at) VALUES "
                           "('00000000-0000-4000-8000-000000000001', 'Anna', 'anna', "
                           "'2026-12-01T10:00:00+00:00')")
        with pytest.raises(SetupError, match="one line"):
            store.update_profile("00000000-0000-4000-8000-000000000001", name="An\nna")
