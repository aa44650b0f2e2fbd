"""Earlier entries (potion cards, Omens) are read from the latest games of a title only, in one
statement: the cost of opening a Cauldron screen does not grow with the history."""

from __future__ import annotations

from companion.core.model import Command
from companion.games import get_rules
from companion.history.entered import RECENT_GAMES, entered
from companion.store import Store


def potion(name):
    return {"name": name, "kind": "basic", "yield": 4, "ingredients": ["frog_legs"] * 2,
            "quick": False, "spell": False}


def stored(store, game, names, undone=()):
    s = store.new_game(get_rules(game), {"game": game, "players": ["Anna", "Barb", "Cleo"]})
    for name in names:
        if game == "cauldron":
            s.execute(Command("add_potion", "Anna", {"potion": potion(name), "source": "omen"}))
            if name in undone:
                s.execute(Command("undo"))
    return s.game_id


def test_the_latest_games_of_the_title_newest_first_done_steps_only():
    store = Store()
    old = stored(store, "cauldron", ["Ancient"])
    for i in range(RECENT_GAMES - 1):
        stored(store, "cauldron", [f"Tonic {i}"])
    stored(store, "witchs_brew", [])                    # another title: never searched
    last = stored(store, "cauldron", ["Zest", "Mistake", "Aqua"], undone=("Mistake",))
    found = entered(store.conn, "cauldron", ("add_potion", "buy"))
    names = [(gid, c.args["potion"]["name"]) for gid, c in found]
    assert names[:2] == [(last, "Zest"), (last, "Aqua")]  # newest game first, in order
    assert "Mistake" not in dict(names).values()        # undone: not an entry
    assert (old, "Ancient") not in names                # the 31st game back is not searched
    assert len({gid for gid, _ in found}) == RECENT_GAMES
    without = entered(store.conn, "cauldron", ("add_potion",), exclude=last)
    assert old in {gid for gid, _ in without}           # the game in play left out: one more


def test_a_row_that_is_not_a_command_is_passed_over():
    store = Store()
    gid = stored(store, "cauldron", ["Zest"])
    for n, text in ((900, "{broken"), (901, '["add_potion"]'), (902, '{"do": 7}')):
        store.conn.execute("INSERT INTO steps (game_id, n, command, status, created_at) "
                           "VALUES (?, ?, ?, 'done', '2026-11-30T18:00:00+00:00')",
                           (gid, n, text))
    assert [c.args["potion"]["name"] for _, c in
            entered(store.conn, "cauldron", ("add_potion",))] == ["Zest"]
    assert entered(store.conn, "cauldron", ()) == []

