"""The known players: who sat at this table before, picked for a seat at setup instead of typed.

A table plays with the same people week after week; each stored game links its seats to player
profiles (``Store.profiles``, most recently played first). The picker lists them (a
RecycleView: a widget per row on screen, never one per profile), each with its colour and how
many games it played. Picking one fills the seat's name, and its colour when no other seat has
that colour (else the seat keeps its own and the screen says so in one line). A profile
already at another seat is shown "seated" and cannot be picked twice. "New player" only closes:
the name field stays free text, and the store makes a profile for a new name when the game
starts.

A seat picked here remembers its profile while it shows that profile's name: the game then links
the seat to that profile by uuid (``Store.new_game(..., picked=...)``), so two players who share
a name are told apart. A name retyped at the seat drops the pick: the store links it by name.

A profile is corrected from its row ("Correct": name, short name, colour) through
``Store.update_profile``; a refusal is said in the dialog, naming the field, and changes
nothing. A seat showing the old name follows a rename, so the game links to the same profile.

A table that joined a club lists the club's players too: its sync brings them into the store
(companion/club/profiles.py), and one who never sat at this table says so.

Also here: the last table's games as the setups read them (one game, or the latest of one
title, a page at a time), so no setup reads every stored game to fill in names."""

from __future__ import annotations

from typing import Any, Callable, Iterator, Sequence

from kivy.app import App
from kivy.properties import BooleanProperty, ObjectProperty, StringProperty
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.modalview import ModalView

from companion.core import palette
from companion.core.errors import CompanionError
from companion.core.gate import name_key
from ui import theme
from ui.widgets.common import ColourPicker, load_rules_once, paint, pick_colour, seat_word

#: the most profiles the picker lists (most recent first); anyone older is typed, and the
#: store links the typed name to its profile
SHOWN = 200
#: games read a page at a time while looking for the latest game of one title
PAGE = 20
#: the store's field names (its refusals start with one) -> the editor's words for them
FIELD_WORDS = {"name": "Name", "short_name": "Short name", "colour": "Colour"}


# -- the last table -------------------------------------------------------------------------
def last_game(store) -> Any | None:
    """The latest stored game's line (None without a store or a game)."""
    if store is None:
        return None
    games = store.games(limit=1)
    return games[0] if games else None


def newest_first(store) -> Iterator[Any]:
    """Stored games' lines, newest first, read a page at a time as they are asked for; each
    page twice the one before (PAGE, then 2 x PAGE...), so a title not played for a thousand
    games costs six reads, not fifty."""
    offset, size = 0, PAGE
    while store is not None:
        page = store.games(limit=size, offset=offset)
        yield from page
        if len(page) < size:
            return
        offset, size = offset + size, size * 2


def last_of(store, game: str) -> Any | None:
    """The latest stored game of one title (its rules' name), or None."""
    return next((info for info in newest_first(store) if info.game == game), None)


# -- seating a profile ------------------------------------------------------------------------
def colour_of(profile) -> palette.Colour | None:
    """The palette colour a profile chose (a name, an alias or a hex), or None."""
    return palette.find(profile.colour) if profile.colour else None


def seated_at(rows, row, profile) -> Any | None:
    """The other seat whose name is this profile's (names compared as the rules compare them)."""
    key = name_key(profile.name)
    return next((r for r in rows if r is not row and name_key(r.ids.name.text.strip()) == key),
                None)


def seat_player(rows, row, profile) -> str:
    """Seat ``profile`` at ``row``: its name, and its colour when no other seat has that colour.
    Returns the line the screen says when the seat keeps its own colour ('' otherwise). Rows
    without a ``colour`` (Cauldron Quest: shared pieces) only take the name."""
    row.ids.name.text = profile.name
    colour = colour_of(profile)
    if colour is None or not hasattr(row, "colour") or colour.name == row.colour:
        return ""
    owner = next((r for r in rows if r is not row and r.colour == colour.name), None)
    if owner is not None:
        return (f"{profile.name} keeps {row.colour}: {colour.name} is the colour of "
                f"{seat_word(owner)}.")
    row.colour = colour.name
    paint(row)
    return ""


def picked_profiles(rows: Sequence, book) -> list[str | None]:
    """Per seat: the uuid of the profile picked for it from ``book`` (the store), while the
    seat still shows that profile's name (None for a typed or retyped name, or a pick from
    another database: the store links it by name)."""
    picked = []
    for row in rows:
        chosen = getattr(row, "picked_profile", None)
        live = (chosen is not None and chosen[2] is book
                and row.ids.name.text.strip() == chosen[1])
        picked.append(chosen[0] if live else None)
    return picked


def start_game(setup: dict[str, Any], rows: Sequence) -> str | None:
    """Start the setup's game (``App.start_game``: its problem, or None), each seat picked in
    "Who?" linked to its profile."""
    app = App.get_running_app()
    picked = picked_profiles(rows, app.store)
    return app.start_game(setup, picked=picked) if any(picked) else app.start_game(setup)


def games_words(count: int) -> str:
    return "no games yet" if count == 0 else f"{count} game" + ("" if count == 1 else "s")


# -- the dialogs -------------------------------------------------------------------------------
class KnownPlayerRow(BoxLayout):
    """One profile in the picker's list (a RecycleView row): its colour, its name in big type
    with its games, and "Correct"."""

    uuid = StringProperty("")
    name = StringProperty("")
    caption = StringProperty("")
    colour_name = StringProperty("")
    fill = ObjectProperty(theme.SURFACE_HI)
    ink = ObjectProperty(theme.INK)
    seated = BooleanProperty(False)     # at another seat: cannot be picked again
    here = BooleanProperty(False)       # already this seat's name
    picker = ObjectProperty(None, allownone=True)


class KnownPlayers(ModalView):
    """The known players for one seat. ``book`` has ``profiles(limit)`` and
    ``update_profile(uuid, *, name, short_name, colour)`` (the Store); ``rows`` are the setup's
    seats in play, ``row`` the one being filled; ``seated(note)`` is called after a pick with
    the line to say ('' when there is none)."""

    title = StringProperty("")
    message = StringProperty("")
    empty = BooleanProperty(False)

    def __init__(self, rows: Sequence, row, book, seated: Callable[[str], None],
                 **kwargs) -> None:
        load_rules_once(__file__)
        super().__init__(**kwargs)
        # the rows themselves (a kv rule's ``root`` is a weak proxy: never ``is`` a row)
        self.row = getattr(row, "__self__", row)
        self.rows = [getattr(r, "__self__", r) for r in rows]
        self.book, self.seated = book, seated
        self.title = f"Who sits at seat {row.seat + 1}?"
        self.profiles: list = []
        self.reload()

    def reload(self) -> None:
        """Read the profiles again (after a correction) and show them, most recent first."""
        if self.book is None:
            self.profiles = []
            self.message = "The game database is not open: type the name at the seat."
        else:
            self.profiles = list(self.book.profiles(limit=SHOWN))
        self.empty = not self.profiles
        self.ids.list.data = [self.row_data(p) for p in self.profiles]

    def row_data(self, profile) -> dict[str, Any]:
        colour = colour_of(profile)
        owner = seated_at(self.rows, self.row, profile)
        here = name_key(self.row.ids.name.text.strip()) == name_key(profile.name)
        words = [games_words(profile.games)]
        if not profile.games and profile.last_played:   # brought by the club's sync
            words = ["a club player, no games here yet"]
        if profile.short_name:
            words.append(f"short name {profile.short_name}")
        if owner is not None:
            words.append(f"seated: {seat_word(owner)}")
        elif here:
            words.append("at this seat")
        return {"uuid": profile.uuid, "name": profile.name, "caption": ", ".join(words),
                "colour_name": colour.name if colour else "no colour",
                "fill": theme.rgba(colour.hex) if colour else theme.SURFACE_HI,
                "ink": theme.ink_on(colour.hex) if colour else theme.INK,
                "seated": owner is not None, "here": here, "picker": self}

    def profile(self, uuid: str):
        return next(p for p in self.profiles if p.uuid == uuid)

    def pick(self, uuid: str) -> None:
        """Seat this profile here, unless another seat has it (then say so, change nothing)."""
        profile = self.profile(uuid)
        owner = seated_at(self.rows, self.row, profile)
        if owner is not None:
            self.message = f"{profile.name} is already seated: {seat_word(owner)}."
            return
        note = seat_player(self.rows, self.row, profile)
        self.row.picked_profile = (profile.uuid, profile.name, self.book)
        self.dismiss()
        self.seated(note)

    def correct(self, uuid: str) -> None:
        ProfileEditor(self, self.profile(uuid)).open()

    def corrected(self, before, after_name: str) -> None:
        """After a correction: a seat showing the old name shows the new one (the game then
        links to the same profile), and the list is read again."""
        if after_name != before.name:
            for r in self.rows:
                if name_key(r.ids.name.text.strip()) == name_key(before.name):
                    r.ids.name.text = after_name
                if getattr(r, "picked_profile", (None,))[0] == before.uuid:
                    r.picked_profile = (before.uuid, after_name, self.book)
        self.message = ""
        self.reload()


class ProfileEditor(ModalView):
    """Correct a profile: its name, short name and colour, saved by ``update_profile``. The
    store's refusal (naming the field) is shown here and nothing changes."""

    title = StringProperty("")
    message = StringProperty("")
    colour_name = StringProperty("")

    def __init__(self, picker: KnownPlayers, profile, **kwargs) -> None:
        super().__init__(**kwargs)
        self.picker, self.before = picker, profile
        self.title = f"Correct {profile.name}"
        self.ids.name.text = profile.name
        self.ids.short.text = profile.short_name or ""
        colour = colour_of(profile)
        self.colour_name = colour.name if colour else ""
        self.show_colour()

    def show_colour(self) -> None:
        button = self.ids.colour
        colour = palette.find(self.colour_name)
        button.title = colour.name if colour else "No colour"
        button.fill = theme.rgba(colour.hex) if colour else theme.GREY_BTN
        button.ink = theme.ink_on(colour.hex) if colour else theme.INK

    def choose_colour(self) -> None:
        def chosen(name: str) -> None:
            self.colour_name = name
            self.show_colour()

        ColourPicker(self.ids.name.text.strip() or self.before.name, self.colour_name, {},
                     chosen).open()

    def changes(self) -> dict[str, str]:
        """What differs from the stored profile (only that is sent to the store)."""
        before, fields = self.before, {}
        name, short = self.ids.name.text.strip(), self.ids.short.text.strip()
        if name != before.name:
            fields["name"] = name
        if short != (before.short_name or ""):
            fields["short_name"] = short
        if self.colour_name and self.colour_name != getattr(colour_of(before), "name", ""):
            fields["colour"] = self.colour_name
        return fields

    def save(self) -> None:
        fields = self.changes()
        if not fields:
            self.dismiss()
            return
        try:
            self.picker.book.update_profile(self.before.uuid, **fields)
        except (CompanionError, ValueError) as refused:
            field, said, why = str(refused).partition(": ")
            self.message = (f"Nothing changed. {FIELD_WORDS[field]}: {why}"
                            if said and field in FIELD_WORDS else f"Nothing changed: {refused}")
            return
        self.dismiss()
        self.picker.corrected(self.before, fields.get("name", self.before.name))


def pick_player(rows: Sequence, row, seated: Callable[[str], None]) -> None:
    """The known players for ``row`` of a setup screen (``rows``: the seats in play)."""
    KnownPlayers(rows, row, App.get_running_app().store, seated).open()


class ColouredSeats:
    """A setup's seats with colours, each open to a known player: the two pickers and the note
    a pick can leave ("Barb keeps Bluish green: ..."). The screen has ``rows`` (each with
    ``colour`` and a name field), ``count`` seats in use, a ``note`` property and
    ``_recheck()``."""

    def pick_colour(self, row) -> None:
        pick_colour(self.rows[: self.count], row, self._colour_chosen)

    def _colour_chosen(self) -> None:
        self.note = ""                   # a note about a seat's colour is out of date now
        self._recheck()

    def pick_player(self, row) -> None:
        """A player seen before for this seat."""
        pick_player(self.rows[: self.count], row, self._seated)

    def _seated(self, note: str) -> None:
        self.note = note
        self._recheck()


def seat_field(field, name: str, seat: int) -> None:
    """A seat's name field holding ``name`` (a name from the last game, a profile), or empty
    with "Player N" as its hint: a tap and typing gives "Anna", never "PlayerAnna 1"."""
    field.hint_text = f"Player {seat + 1}"
    field.text = name if name and name != field.hint_text else ""


def typed_name(field) -> str:
    """The name a seat's field gives: what was typed, else its hint ("Player 2")."""
    return field.text.strip() or field.hint_text
