"""Cauldron's Magik track draws its texts on the canvas (its axis numbers, its zones, the seats'
names and Magik, the milestones' tags), where the layout check, reading Label widgets, saw
none of them: the track says what it drew (``drawn_texts``) and the type scale's floor
judges each as it does a Label's, on every captured state the track is shown in."""

from __future__ import annotations

from kivy.uix.widget import Widget
from test_layout_check import alone
from test_ui_cauldron_screens import FOUR, SIX, screen
from test_ui_cauldron_seats_shown import to_market
from ui_helpers import LAYOUT, PLACES, frames, resize, shot

from layout_check import check
from layout_reading import capitals
from ui.games.cauldron.track import DrawnText


def test_a_text_drawn_on_a_canvas_is_held_to_the_floor(app):
    """A number drawn at 22 units (capitals of 15.6) is found, one at 24 is not; a seat's
    name drawn at 24 is found (a name is read from every chair: 30), and Large text's floor
    finds the 24-unit number too."""
    drawn = Widget(size_hint=(None, None), size=(300, 100), pos=(10, 10))
    drawn.drawn_texts = [DrawnText("12", 22, True), DrawnText("15", 24, True),
                         DrawnText("Anna", 24, True, far=True), DrawnText("Barb", 30, True,
                                                                            far=True)]
    with alone(drawn):
        normal = [f for f in check(1.0, table=True) if f.kind == "capitals"]
        large = [f for f in check(1.0, table=True, large=True) if f.kind == "capitals"]
        off_table = [f for f in check(1.0) if f.kind == "capitals"]
    assert sorted(f.where.split(" drawn ")[1] for f in normal) == ["'12'", "'Anna'"], normal
    assert sorted(f.where.split(" drawn ")[1] for f in large) == ["'12'", "'15'", "'Anna'",
                                                                  "'Barb'"], large
    assert off_table == []


def _track_texts(app) -> list[DrawnText]:
    track = screen(app).track
    assert track.get_root_window() is not None and track.opacity > 0
    return track.drawn_texts


def test_the_tracks_texts_are_read_by_the_check_at_both_sizes(app):
    """At the Market (the headline one line): six seats (the lanes' least room) and four, at
    800x480 and 1280x720: the track's every text is among what the check reads
    (``capitals``), and none is under the floor (a token's initial too small to read is left
    out: its colour says the seat). Large text's track at 800x480 has no room for its lanes
    yet (the tools take two rows): not captured here."""
    for players in (SIX, FOUR):
        to_market(app, players)
        PLACES.clear()          # another game: its controls are not the last one's
        screen(app).show_track = True
        frames()
        try:
            for size in ((800, 480), (1280, 720)):
                resize(*size)
                said = {t.text for t in _track_texts(app)}
                assert {p["name"] for p in players} | {"0", "35", "Enthusiasm", "Magik"} <= said
                read = {where.split(" drawn ")[1].strip("'") for _px, where in capitals(app.u)
                        if " drawn " in where}
                assert said <= read, said - read
                name = f"cauldron_track_read_{len(players)}"
                shot(name)
                assert not [f for f in LAYOUT[f"{name}_{size[0]}x{size[1]}"]
                            if f.kind == "capitals"]
        finally:
            screen(app).show_track = False
            resize(800, 480)
