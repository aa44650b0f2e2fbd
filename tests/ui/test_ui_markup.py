"""Player-entered text in markup labels shows as typed, in each of the three games.

A player named ``[b]Anna[/b]`` or ``[color=ff0000]x`` must not restyle the screen, and
``[ref=x]`` must not turn a name into a link: wherever a name goes into a label with markup it
is escaped (``ui.text.markup.plain``). Each game is started with such names; every markup label
that names a player carries the escaped form, none carries the raw one, and what Kivy shows for
it is the name as typed. Screenshots at 800x480 for a look.
"""

from __future__ import annotations

import re

import pytest
from kivy.core.text.markup import MarkupLabel
from kivy.uix.label import Label
from kivy.utils import escape_markup
from ui_helpers import close_dialogs, frames, play_out, shot, walk

NAMES = ["[b]Anna[/b]", "[color=ff0000]x", "[ref=x]Carl & co"]
# The tags Kivy's markup reads (kivy.core.text.markup); any other [..] is shown as text.
TAG = re.compile(r"\[/?(b|i|u|s|sub|sup|font|font_context|font_features|font_family|size|"
                 r"color|ref|anchor|text_language|font_blended|font_hinting|font_kerning)"
                 r"(=[^\]]*)?\]\Z")

MILESTONES = {"magik_overflow": 12, "rituals_of_power": 18, "the_breaking": 27}
SETUPS = {
    "witchs_brew": {"game": "witchs_brew", "players": NAMES},
    "cauldron": {"game": "cauldron", "milestones": MILESTONES, "players": [
        {"name": NAMES[0], "character": "witch"}, {"name": NAMES[1], "character": "druid"},
        {"name": NAMES[2]}]},
    "quest": {"game": "quest", "players": NAMES,
              "needed": ["rotten_egg", "horned_toad", "bat_wing"]},
}


def shown(text: str) -> str:
    """What a markup label shows: the text between its tags, unescaped as Kivy does."""
    parts = MarkupLabel(text=text).markup
    return "".join(p.replace("&bl;", "[").replace("&br;", "]").replace("&amp;", "&")
                   for p in parts if not TAG.match(p))


def check_names(where: str, names=NAMES) -> int:
    """Every name shows as typed on the window now; a markup label holds it escaped, never
    raw. Returns how many markup labels name a player."""
    labels = [w for w in walk() if isinstance(w, Label) and w.text
              and w.get_root_window() is not None and w.opacity > 0]
    in_markup = 0
    for name in names:
        raw = [w.text for w in labels if w.markup and name in w.text]
        assert not raw, f"{where}: {name!r} put into markup unescaped: {raw}"
        showing = [w for w in labels if name in (shown(w.text) if w.markup else w.text)]
        assert showing, f"{where}: {name!r} is not shown as typed anywhere"
        naming = [w for w in showing if w.markup]
        assert all(escape_markup(name) in w.text for w in naming)
        in_markup += len(naming)
    return in_markup


def play(app, game):
    from ui.games import GAMES

    if game not in GAMES:
        pytest.skip(f"{game} is not registered in ui/games.py")
    assert app.start_game(SETUPS[game]) is None
    frames(4)


def test_witchs_brew_names_at_the_table_and_in_the_history(app):
    from companion.core.model import Command

    play(app, "witchs_brew")
    check_names("Witch's Brew table")
    shot("markup_names_witchs_brew")
    for name, stack in zip(NAMES + NAMES[:1], ["copper", "silver", "iron", "gold_shelf"]):
        app.session.execute(Command("adjust", name, {"potion": {"stack": stack, "points": 3,
                                                                "raven": True}}))
    play_out(app)
    frames()
    assert app.screens.current == "result"
    check_names("result")
    app.go_home()
    frames(4)
    assert check_names("home history") >= len(NAMES)    # "[b][color=..]NAME 3 (won)..."
    shot("markup_names_history")


def test_cauldron_names_on_the_setup_buttons_and_a_potion_name(app):
    from companion.core.model import Command

    play(app, "cauldron")
    assert app.prompt["phase"] == "setup"
    assert check_names("Cauldron setup") >= len(NAMES)  # one FlatButton per seat
    shot("markup_names_cauldron")
    potion = {"name": "[i]Brew[/i] & [size=90]", "kind": "easy", "yield": 3,
              "ingredients": ["spider_web", "frog_legs"], "quick": False, "spell": False}
    app.session.execute(Command("add_potion", NAMES[0], {"potion": potion}))
    frames(2)
    app.screens.get_screen("cauldron").open_seat(0)     # the seat's card: its potions
    frames(4)
    labels = [w for w in walk() if isinstance(w, Label) and w.markup and w.text]
    assert not [w.text for w in labels if potion["name"] in w.text]
    assert [w for w in labels if potion["name"] in shown(w.text)], "potion name not shown"
    shot("markup_names_cauldron_potion")
    close_dialogs()
    app.go_home()
    frames()


def test_quest_names_at_the_table(app):
    play(app, "quest")
    check_names("Cauldron Quest table", [app.prompt["turn"]])   # it names the seat to play
    shot("markup_names_quest")
    app.go_home()
    frames()


def test_plain_escapes_only_what_markup_reads():
    from ui.text.markup import plain

    assert plain("[b]Anna[/b]") == "&bl;b&br;Anna&bl;/b&br;"
    assert plain("Tom & Jerry") == "Tom &amp; Jerry"
    assert plain("Zoë 3") == "Zoë 3"
    assert shown(f"[b]{plain('[ref=x]y')}[/b]") == "[ref=x]y"
