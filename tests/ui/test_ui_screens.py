"""Every screen and panel renders at 800x480 and 1280x720; the screenshots are saved in
screenshots/ at the repo root to be looked at (README names that folder)."""

from __future__ import annotations

from companion.core.model import Command
from ui_helpers import both_sizes, dialogs, frames, play_out, tap, tap_title, texts

FIVE = ["Anna", "Barb", "Carl", "Daniel", "Emma"]
RAVENS = [{"stack": stack, "points": 4, "raven": True}
          for stack in ("copper", "silver", "iron", "gold_shelf")]


def start(app, players=FIVE, **extra):
    assert app.start_game({"game": "witchs_brew", "players": list(players), **extra}) is None
    frames()
    return app.session


def table(app):
    return app.screens.get_screen("witchs_brew")


def role_card(title: str):
    """The role card titled ``title`` on the sheet of cards, opened from the table (it lies
    over the table: twelve cards at a size read from a chair do not fit under the seats)."""
    from ui_helpers import button

    if not dialogs():
        tap_title("Choose the role card")
    (sheet,) = dialogs()
    return button(title, sheet)


def announce(title: str) -> None:
    """The starter announces ``title``: the sheet opened, the card tapped (the sheet closes)."""
    from ui_helpers import tap

    tap(role_card(title))


def test_home_and_setup_render(app):
    s = start(app)
    s.execute(Command("play_role", "Anna", {"role": "warlock"}))
    app.go_home()
    frames()
    assert "Unfinished games" in texts(app.root)
    both_sizes("home")
    app.show("setup")
    frames()
    both_sizes("setup")
    setup = app.screens.get_screen("setup")
    setup.rows[1].ids.name.text = "anna"
    setup.start()
    frames()
    assert setup.rows[1].error == '"anna" is already at another seat' and setup.error == ""
    both_sizes("setup_error")
    setup.change_count(+1)
    setup.rows[1].ids.name.text = "Barb"
    frames()
    both_sizes("setup_six_seats")


def test_home_shows_history_and_a_moved_aside_database(app, tmp_path):
    s = start(app, ["Anna", "Barb", "Carl"])
    for name, stack in zip(["Anna", "Barb", "Carl", "Anna"], ["copper", "silver", "iron", "gold_shelf"]):
        s.execute(Command("adjust", name, {"potion": {"stack": stack, "points": 3, "raven": True}}))
    play_out(app)
    start(app, ["Dora", "Emil", "Finn", "Greta"]).execute(
        Command("play_role", "Dora", {"role": "druid"}))
    app.go_home()
    frames()
    both_sizes("home_history")
    broken = tmp_path / "broken.sqlite3"
    broken.write_bytes(b"this is not a database" * 100)
    app.open_store(broken)
    frames()
    assert "could not be read" in app.notice and "moved to" in app.notice
    assert app.notice in texts(app.root)
    both_sizes("home_notice")


def test_table_phases_render(app):
    s = start(app)
    assert table(app).mode == "play"
    both_sizes("witchs_brew_role_picker")
    s.execute(Command("play_role", "Anna", {"role": "warlock"}))
    s.execute(Command("so_be_it", "Barb"))
    s.execute(Command("claim", "Carl"))
    frames()
    assert table(app).mode == "answer"
    # the call said once, by the claim button, not by the card's box as well
    assert sum("I am the Warlock!" in t for t in texts(app.root)) == 1
    both_sizes("witchs_brew_table")
    assert table(app).turn_text == "Claim it, agree or pass"    # the role box: Warlock
    assert not any("Use the spell" in t for t in texts(app.root))  # too long for a button
    tap(table(app).ids.role_box)                                   # the role's card, read
    assert "Full action: Use the spell on the top spell book (read it aloud)" in texts()
    assert "Favor: Take 1 gold" in texts()
    both_sizes("witchs_brew_card_text", before=table(app).show_card_text)
    s.execute(Command("pass", "Daniel"))
    s.execute(Command("pass", "Emma"))
    frames()
    assert table(app).mode == "resolve"
    assert not dialogs()
    assert table(app).turn_text == "Carry out the full action"
    both_sizes("witchs_brew_resolve_table_effect")
    panel = table(app).resolve_panel
    both_sizes("witchs_brew_dialog_table_effect", before=panel.open_entry)
    app.refuse("It is Carl's turn to resolve an action or favor, not Anna's")
    both_sizes("witchs_brew_refusal")
    app.dismiss_refusal()
    s.execute(Command("abstain", "Carl"))
    s.execute(Command("play_role", "Carl", {"role": "witch"}))
    for name in ("Daniel", "Emma", "Anna", "Barb"):
        s.execute(Command("pass", name))
    frames()
    both_sizes("witchs_brew_resolve_brew")
    both_sizes("witchs_brew_dialog_brew", before=table(app).resolve_panel.open_entry)
    s.execute(Command("abstain", "Carl"))
    s.execute(Command("play_role", "Carl", {"role": "alchemist"}))
    for name in ("Daniel", "Emma", "Anna", "Barb"):
        s.execute(Command("pass", name))
    frames()
    both_sizes("witchs_brew_resolve_alchemist")
    s.execute(Command("resolve", "Carl", {"drop": "green"}))
    s.execute(Command("play_role", "Carl", {"role": "assistant"}))
    for name in ("Daniel", "Emma", "Anna", "Barb"):
        s.execute(Command("pass", name))
    both_sizes("witchs_brew_dialog_assistant", before=table(app).resolve_panel.open_entry)
    s.execute(Command("abstain", "Carl"))
    s.execute(Command("adjust", "Anna", {"potion": {"stack": "silver", "points": 5}}))
    both_sizes("witchs_brew_adjust", before=lambda: table(app).open_adjust(0))


def test_six_players_and_variant_render(app):
    s = start(app, FIVE + ["Fiona"])
    s.execute(Command("play_role", "Anna", {"role": "herb_collector"}))
    s.execute(Command("claim", "Barb"))
    frames()
    both_sizes("witchs_brew_six_seats")
    app.go_home()
    s = start(app, ["Anna", "Barb", "Carl"], variants=["excluded_roles"])
    assert table(app).mode == "reveal"
    both_sizes("witchs_brew_variant_reveal")
    s.execute(Command("reveal_excluded", args={"roles": ["witch", "druid"]}))
    frames()
    assert "Face up: Witch, Druid" in texts(app.root)
    both_sizes("witchs_brew_variant_role_picker")


def test_game_over_renders_podium_and_shared_victory(app):
    s = start(app, ["Anna", "Barb", "Carl", "Daniel"])
    for name, raven in zip(("Anna", "Barb", "Carl", "Daniel"), RAVENS):
        s.execute(Command("adjust", name, {"potion": raven}))
    s.execute(Command("adjust", "Anna", {"potion": {"stack": "iron", "points": 9}}))
    play_out(app)
    frames()
    assert app.screens.current == "result"
    assert "WINNER" in texts(app.root)
    both_sizes("result")
    anna, barb = (p for p in s.summary()["players"] if p["name"] in ("Anna", "Barb"))
    changes = {c: anna[c] - barb[c] for c in ("red", "white", "green", "gold", "vials")}
    s.execute(Command("adjust", "Barb", {"changes": {c: v for c, v in changes.items() if v},
                                         "potion": {"stack": "iron", "points": 9}}))
    frames()
    assert "SHARED VICTORY" in texts(app.root)
    assert "Anna and Barb share the victory" in app.screens.get_screen("result").headline
    both_sizes("result_shared_victory")
