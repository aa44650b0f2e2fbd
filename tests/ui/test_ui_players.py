"""Known players at setup: each seat's "Who?" lists the profiles seen before,
most recent first; picking one fills the seat's name and takes the profile's colour when no
other seat has it (else says so); a profile at another seat cannot be picked twice; a profile
is corrected from the list, a refusal naming the field and changing nothing. Shot at both
landscape sizes and in portrait, with zero layout findings."""

from __future__ import annotations

import uuid

import pytest
from ui_helpers import (
    both_sizes, close_dialogs, dialogs, find, frames, resize, shot, tall_shot, tap, tap_title,
)

from companion.games import get_rules
from companion.history.plays import read_plays
from companion.store.profiles import Profile as Person  # as Store.profiles() gives it
from ui.widgets.common import ColourPicker, ColourSwatch
from ui.widgets.players import KnownPlayerRow, KnownPlayers, ProfileEditor, last_of


class Book:
    """Profiles built by the test, in the order given (most recent first)."""

    def __init__(self, people: list[Person]) -> None:
        self.people = people

    def profiles(self, limit: int = 50) -> list[Person]:
        return self.people[:limit]


def people(count: int) -> list[Person]:
    colours = ("Orange", "Sky blue", "Bluish green", "Yellow", "Blue", None)
    return [Person(f"u{i}", f"Player {i + 1:02d}", "P%d" % i if i % 3 == 0 else None,
                   colours[i % len(colours)], 60 - i, "2026-11-30T12:00:00Z")
            for i in range(count)]


def store_game(app, game: str, players: list, colours: list[str] | None = None,
               at: str | None = None, monkeypatch=None) -> None:
    """A game stored as started (``at``: when, so that "most recent" is told apart)."""
    if at is not None:
        monkeypatch.setattr("companion.store.utc_now", lambda: at)
    setup = {"players": players}
    if game == "quest":
        setup["needed"] = ["rotten_egg", "newt_eye", "bat_wing"]
    if colours:
        setup["colours"] = colours
    app.store.new_game(get_rules(game), setup)


def picker() -> KnownPlayers:
    found = [d for d in dialogs() if isinstance(d, KnownPlayers)]
    assert len(found) == 1, found
    return found[0]


def editor() -> ProfileEditor:
    found = [d for d in dialogs() if isinstance(d, ProfileEditor)]
    assert len(found) == 1, found
    return found[0]


def row_of(name: str, profile_uuid: str | None = None) -> KnownPlayerRow:
    """The list row that shows ``name`` (of that profile, when two share a name), scrolled
    into view (a finger taps what it sees)."""
    listing = picker().ids.list

    bottom = listing.to_window(listing.x, listing.y)[1]

    def shown() -> list[KnownPlayerRow]:
        return [r for r in find(lambda w: isinstance(w, KnownPlayerRow), picker())
                if r.name == name and r.parent is not None
                and profile_uuid in (None, r.uuid)
                and bottom - 1 <= r.to_window(r.x, r.y)[1]
                and r.to_window(r.x, r.top)[1] <= bottom + listing.height + 1]

    listing.scroll_y = 1
    frames()
    while not shown():
        assert listing.scroll_y > 0, f"no row {name!r}"
        listing.scroll_y = max(0.0, listing.scroll_y - 0.1)
        frames()
    return shown()[0]


def data_of(name: str) -> dict:
    return next(d for d in picker().ids.list.data if d["name"] == name)


@pytest.fixture
def brew(app, monkeypatch):
    """Two stored Witch's Brew tables: Anna, Barb, Carl (Black, Sky blue, White), then an hour
    later Eve, Finn, Gus in the default colours; the setup screen opened with the latest one
    seated."""
    store_game(app, "witchs_brew", ["Anna", "Barb", "Carl"], ["Black", "Sky blue", "White"],
               "2026-11-30T10:00:00Z", monkeypatch)
    store_game(app, "witchs_brew", ["Eve", "Finn", "Gus"], ["Orange", "Sky blue", "Bluish green"],
               "2026-11-30T11:00:00Z", monkeypatch)
    monkeypatch.undo()
    app.new_game("witchs_brew")
    frames()
    setup = app.screens.get_screen("setup")
    assert setup.names() == ["Eve", "Finn", "Gus"]
    assert [r.colour for r in setup.rows[:3]] == ["Orange", "Sky blue", "Bluish green"]
    return setup


def test_picking_fills_the_name_and_the_colour_when_it_is_free(app, brew):
    tap(brew.rows[0].ids.who)
    assert picker().title == "Who sits at seat 1?"
    names = [d["name"] for d in picker().ids.list.data]
    assert set(names) == {"Anna", "Barb", "Carl", "Eve", "Finn", "Gus"}
    assert set(names[:3]) == {"Eve", "Finn", "Gus"}              # most recent first
    assert data_of("Eve")["here"] and "at this seat" in data_of("Eve")["caption"]
    assert data_of("Anna")["colour_name"] == "Black" and "1 game" in data_of("Anna")["caption"]
    both_sizes("players_picker", before=lambda: tap(brew.rows[0].ids.who))
    tap(brew.rows[0].ids.who)
    tap(row_of("Anna").ids.pick)
    assert not dialogs()
    assert brew.rows[0].ids.name.text == "Anna" and brew.rows[0].colour == "Black"
    assert brew.rows[0].ids.colour.title == "Black" and brew.note == ""
    tap(brew.rows[2].ids.who)                                     # Gus's seat
    tap(row_of("Barb").ids.pick)                                  # Sky blue is Finn's
    assert brew.rows[2].ids.name.text == "Barb" and brew.rows[2].colour == "Bluish green"
    assert brew.note == "Barb keeps Bluish green: Sky blue is the colour of Finn (seat 2)."
    both_sizes("players_brew_setup_picked")
    tap(brew.rows[2].ids.colour)
    tap(next(s for s in find(lambda w: isinstance(w, ColourSwatch), dialogs()[0])
             if s.colour_name == "Reddish purple"))
    assert brew.rows[2].colour == "Reddish purple" and brew.note == ""   # the note has gone
    tap_title("Start the game")
    assert app.session.setup["players"] == ["Anna", "Finn", "Barb"]
    assert app.session.setup["colours"] == ["#000000", "#56B4E9", "#CC79A7"]
    assert [p.name for p in app.store.profiles()][:3] == ["Anna", "Barb", "Finn"]


def seat_profiles(app) -> list[str]:
    """The profile uuid each seat of the game just started is linked to."""
    play = next(p for p in read_plays(app.store.conn, unfinished=True)
                if p.id == app.session.game_id)
    return [s.profile for s in play.seats]


def test_of_two_annas_the_one_picked_is_the_one_linked(app, brew):
    """Another table's Anna (as an import keeps her apart): picked, her seat links to her
    profile, not to this table's Anna; a pick retyped links by name again."""
    other = str(uuid.uuid4())
    app.store.conn.execute("INSERT INTO profiles (uuid, name, name_key, created_at) VALUES "
                           "(?, 'Anna', 'anna', '2026-01-01T00:00:00+00:00')", (other,))
    ours = next(p.uuid for p in app.store.profiles() if p.name == "Anna" and p.uuid != other)
    tap(brew.rows[0].ids.who)
    assert sorted(d["uuid"] for d in picker().ids.list.data if d["name"] == "Anna") == \
        sorted([ours, other])
    tap(row_of("Anna", other).ids.pick)
    assert brew.names() == ["Anna", "Finn", "Gus"]
    brew.rows[0].ids.name.text = "anna"                           # retyped: by name
    tap_title("Start the game")
    assert app.session.setup["players"] == ["anna", "Finn", "Gus"]
    by_name = seat_profiles(app)
    assert by_name[0] == ours
    app.new_game("witchs_brew")
    frames()
    assert brew.names() == ["anna", "Finn", "Gus"]
    tap(brew.rows[0].ids.who)
    tap(row_of("Anna", other).ids.pick)
    tap_title("Start the game")
    assert app.session.setup["players"] == ["Anna", "Finn", "Gus"]
    assert seat_profiles(app) == [other, *by_name[1:]]            # the others by their names


def test_a_seated_profile_cannot_be_picked_twice(app, brew):
    tap(brew.rows[0].ids.who)
    finn = data_of("Finn")
    assert finn["seated"] and "seated: Finn (seat 2)" in finn["caption"]
    assert row_of("Finn").ids.pick.disabled
    tap(row_of("Finn").ids.pick)                                  # a disabled button: nothing
    assert brew.rows[0].ids.name.text == "Eve" and picker() is not None
    picker().pick(finn["uuid"])                                   # asked anyway: refused
    assert picker().message == "Finn is already seated: Finn (seat 2)."
    assert brew.names() == ["Eve", "Finn", "Gus"]
    shot("players_picker_seated")
    tap_title("New player")                                       # only closes
    assert not dialogs() and brew.names() == ["Eve", "Finn", "Gus"]
    brew.rows[0].ids.name.text = "  finn "                        # typed: the rules' key
    frames()
    tap(brew.rows[1].ids.who)
    assert data_of("Finn")["seated"] and "seated: finn (seat 1)" in data_of("Finn")["caption"]


def test_no_one_and_sixty_known_players(app, brew):
    seat, noted = brew.rows[1], []
    for count in (0, 1, 60):
        KnownPlayers(brew.rows[:3], seat, Book(people(count)), noted.append).open()
        frames()
        shown = [r for r in find(lambda w: isinstance(w, KnownPlayerRow), picker())
                 if r.parent is not None and r.name]
        assert len(picker().ids.list.data) == count and picker().empty == (count == 0)
        assert picker().ids.nobody.opacity == (1 if count == 0 else 0)
        if count == 60:
            assert 4 <= len(shown) < 20                          # a screenful, not one each
            assert shown[0].name and shown[0].ids.pick.fs == 24
        else:
            assert len(shown) == count
        close_dialogs()
    KnownPlayers(brew.rows[:3], seat, None, noted.append).open()       # no database open
    frames()
    assert picker().empty and picker().message.startswith("The game database is not open")
    close_dialogs()

    def opened(count: int):
        return lambda: KnownPlayers(brew.rows[:3], seat, Book(people(count)), noted.append).open()

    both_sizes("players_picker_empty", before=opened(0))
    both_sizes("players_picker_sixty", before=opened(60))
    opened(60)()
    frames()
    picker().ids.list.scroll_y = 0                                # the oldest, at the end
    frames()
    assert row_of("Player 60").ids.pick.caption == "1 game"
    shot("players_picker_sixty_end")
    tap(row_of("Player 60").ids.pick)
    assert seat.ids.name.text == "Player 60" and seat.colour == "Sky blue"   # no colour: kept
    assert brew.names() == ["Eve", "Player 60", "Gus"] and noted == [""]


def test_a_profile_corrected_from_the_picker(app, brew):
    tap(brew.rows[0].ids.who)
    anna = data_of("Anna")["uuid"]
    tap(row_of("Finn").ids.correct)
    assert editor().title == "Correct Finn" and editor().ids.name.text == "Finn"
    both_sizes("players_profile_editor", before=lambda: (
        tap(brew.rows[0].ids.who), tap(row_of("Finn").ids.correct)))
    tap(brew.rows[0].ids.who)
    tap(row_of("Finn").ids.correct)
    editor().ids.name.text = "anna"                               # Anna's name: refused
    tap_title("Save")
    assert editor().message == ("Nothing changed. Name: another player profile is already "
                                "called 'Anna'; choose another name")
    shot("players_profile_refused")
    editor().ids.name.text = "Finn"
    editor().ids.short.text = "Finnegan"                          # 8 letters: refused
    tap_title("Save")
    assert editor().message.startswith("Nothing changed. Short name: 'Finnegan' has 8 letters")
    finn = next(p for p in app.store.profiles() if p.name == "Finn")
    assert (finn.short_name, finn.colour) == (None, "Sky blue")   # nothing changed
    editor().ids.name.text = "Finnley"
    editor().ids.short.text = "Fin"
    tap(editor().ids.colour)
    swatches = find(lambda w: isinstance(w, ColourSwatch),
                    next(d for d in dialogs() if isinstance(d, ColourPicker)))
    tap(next(s for s in swatches if s.colour_name == "Reddish purple"))
    assert editor().ids.colour.title == "Reddish purple"
    tap_title("Save")
    assert not [d for d in dialogs() if isinstance(d, ProfileEditor)]
    finn = next(p for p in app.store.profiles() if p.uuid == finn.uuid)
    assert (finn.name, finn.short_name, finn.colour) == ("Finnley", "Fin", "Reddish purple")
    assert data_of("Finnley")["caption"].startswith("1 game, short name Fin, seated: Finnley")
    assert brew.names() == ["Eve", "Finnley", "Gus"]              # the seat follows the rename
    assert next(p for p in app.store.profiles() if p.uuid == anna).name == "Anna"
    close_dialogs()
    tap_title("Start the game")
    assert [p.name for p in app.store.profiles()].count("Finnley") == 1


def test_cauldron_and_quest_seats_pick_known_players(app):
    store_game(app, "witchs_brew", ["Anna", "Barb", "Carl"], ["Black", "Sky blue", "White"])
    app.new_game("cauldron")
    frames()
    setup = app.screens.get_screen("cauldron_setup")
    assert [r.ids.name.text for r in setup.rows[:setup.count]] == ["Anna", "Barb", "Carl"]
    setup.rows[2].ids.name.text = "Dora"
    setup.rows[2].colour = "Yellow"
    tap(setup.rows[2].ids.who)
    tap(row_of("Carl").ids.pick)
    assert setup.rows[2].ids.name.text == "Carl" and setup.rows[2].colour == "White"
    both_sizes("players_cauldron_setup_picked")
    app.new_game("quest")
    frames()
    quest = app.screens.get_screen("quest_setup")
    assert quest.names() == ["Anna", "Barb", "Carl"]
    tap(quest.rows[1].ids.who)
    assert data_of("Anna")["seated"]
    tap_title("New player")
    quest.rows[1].ids.name.text = "Dora"
    tap(quest.rows[1].ids.who)
    tap(row_of("Barb").ids.pick)
    assert quest.names() == ["Anna", "Barb", "Carl"] and not any(r.problem for r in quest.rows)
    both_sizes("players_quest_setup_picked")


def test_the_setups_read_one_game_for_their_names(app, monkeypatch):
    """Entering a setup reads the latest game (and, for a title's own last table, a page at a
    time), never every stored game. (The Cauldron potion cards of earlier games are a catalogue
    of every game, read on its own: ui/games/cauldron/potion.py; left out here.)"""
    import ui.games.cauldron.setup as cauldron_setup

    monkeypatch.setattr(cauldron_setup, "earlier_catalogue", lambda *_a, **_k: [])
    store_game(app, "cauldron", [{"name": "Anna"}, {"name": "Barb"}])
    for _ in range(45):
        store_game(app, "witchs_brew", ["Eve", "Finn", "Gus"])
    asked = []
    games = app.store.games
    monkeypatch.setattr(app.store, "games", lambda *a, **k: asked.append(k) or games(*a, **k))
    for screen in ("witchs_brew", "cauldron", "quest"):
        asked.clear()
        app.new_game(screen)
        frames()
        assert asked and all(k.get("limit", -1) > 0 for k in asked), (screen, asked)
        if screen == "witchs_brew":
            assert asked == [{"limit": 1}]
        else:          # pages of 20, then 40 (46 games: the Cauldron one the oldest, no Quest)
            assert [k["limit"] for k in asked if "offset" in k] == [20, 40], asked
    cauldron = app.screens.get_screen("cauldron_setup")
    assert [r.ids.name.text for r in cauldron.rows[: cauldron.count]] == ["Anna", "Barb"]
    assert last_of(app.store, "cauldron").players == ["Anna", "Barb"]
    assert last_of(app.store, "quest") is None


def test_portrait_picker_and_setup(app):
    store_game(app, "witchs_brew", ["Anna", "Barb", "Carl"], ["Black", "Sky blue", "White"])
    store_game(app, "witchs_brew", ["Eve", "Finn", "Gus"])
    close_dialogs()
    resize(720, 1280)
    try:
        for game, name in (("witchs_brew", "setup"), ("cauldron", "cauldron_setup"),
                           ("quest", "quest_setup")):
            app.new_game(game)
            frames()
            setup = app.screens.get_screen(name)
            tap(setup.rows[0].ids.who)
            if game == "witchs_brew":
                tall_shot("portrait_players_picker")
                tap(row_of("Finn").ids.correct)
                tall_shot("portrait_players_profile_editor")
                close_dialogs()
                tap(setup.rows[0].ids.who)
            tap(row_of("Anna").ids.pick)
            assert setup.rows[0].ids.name.text == "Anna"
            tall_shot(f"portrait_players_{game}_setup_picked")
    finally:
        close_dialogs()
        resize(800, 480)
