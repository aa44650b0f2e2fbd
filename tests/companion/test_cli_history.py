"""``companion history``: one line per stored game, with its players and result."""

from __future__ import annotations

from companion.games import get_rules
from companion.store import Store


def test_companion_history_says_a_cooperative_game_was_won_or_lost_together(tmp_path, capsys):
    """Cauldron Quest keeps no points (its rules are ``cooperative``): ``companion history``
    says the team's result, not everyone's 0; a scored game keeps its points and winner."""
    from companion.cli.main import main
    from tests.support.history import build_history

    db = tmp_path / "c.sqlite3"
    with Store(db) as store:
        build_history(store, {"quest": 3, "witchs_brew": 1})
    assert get_rules("quest").cooperative and not get_rules("cauldron").cooperative
    assert main(["history", "--db", str(db)]) == 0
    lines = capsys.readouterr().out.splitlines()
    quest = [line for line in lines if "Cauldron Quest" in line]
    brew = [line for line in lines if "Witch's Brew" in line]
    assert len(quest) == 3 and all(line.endswith(("won together", "lost together"))
                                   for line in quest)
    assert not any(" 0" in line.split("finished", 1)[1] for line in quest)
    assert brew and " *" in brew[0]                      # the winner marked beside a score
