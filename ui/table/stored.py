"""The app's side of the game database: opening it, and what the home screen does to a stored
game other than play it (repair it, save its rows as stored, abandon it).

A mixin of ``CompanionApp`` (as ``ClubApp`` is): the app's own module keeps the one flow of
inputs and sessions, and a card that is full, read-only or failing is met here, where the store
is opened, so that the table still plays (in memory, and says so) and a damaged game can be
cared for from the screen, a kiosk having no shell for ``companion check --repair``.
"""

from __future__ import annotations

import sqlite3
import time
from pathlib import Path

from companion.core.errors import CompanionError, StoreError
from companion.files.write import family, write_whole
from companion.store import Store, default_path


class StoredGamesApp:
    """Opens the store and repairs, saves or abandons a stored game (from the home screen)."""

    store: Store | None

    def open_store(self, path: str | Path) -> None:
        """Use the game database at ``path`` (the tests give each test its own)."""
        club = self.stop_club()     # the club's thread follows the store (ui/table/club.py)
        self.leave_session()
        if self.store is not None:
            self.store.close()
        self.db_path = str(path)
        try:
            self.store = Store(path)
            self.notice = self.store.notice or ""
        except StoreError as problem:  # full card, read-only, already running: still play
            self.store = Store(":memory:")
            self.notice = f"{problem}. Games played now are NOT saved."
        except (OSError, sqlite3.Error) as problem:
            self.store = Store(":memory:")
            self.notice = (f"The game database {path} cannot be used ({problem}). "
                           "Games played now are NOT saved.")
        self.show("home")
        self.screens.get_screen("home").refresh()
        if club:
            self.start_club()

    def repair(self, game_id: int) -> None:
        """A damaged game from the home screen (a kiosk has no shell for ``companion check
        --repair``): its bad steps kept in the file but left out, so it resumes as it stood."""
        try:
            done = self.store.repair(game_id)
        except CompanionError as problem:
            self.notice = f"Game #{game_id} was not repaired: {problem}"
        else:
            said = "; ".join(done) or f"game #{game_id} needed no repair"
            self.notice = said[0].upper() + said[1:]
        self.screens.get_screen("home").refresh()

    def save_raw_log(self, game_id: int) -> None:
        """A damaged game's rows exactly as stored, to a file beside the database, so whatever
        happens to the game next, what the table entered can still be read."""
        folder = Path(self.db_path if self.db_path != ":memory:" else default_path()).parent
        path = folder / "exports" / f"game-{game_id}-log-{time.strftime('%Y%m%d-%H%M%S')}.jsonl"
        try:
            text = "\n".join(self.store.raw_log(game_id)) + "\n"
            write_whole(path, text, mode=0o600, folder_mode=0o700,
                        protect=family(self.db_path))
        except (CompanionError, OSError, sqlite3.Error) as problem:
            self.notice = f"The log of game #{game_id} was not saved: {problem}"
            return
        self.notice = f"The log of game #{game_id}, as stored, is saved in {path}"

    def abandon(self, game_id: int) -> None:
        try:
            self.store.abandon(game_id)
        except StoreError as problem:
            self.notice = str(problem)
        self.screens.get_screen("home").refresh()
