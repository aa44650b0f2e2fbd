"""What a table typed in earlier games, offered again: Cauldron's potion cards and Omens are
printed cards that come back game after game (as are Witch's Brew's potion cards), so a card entered once is a tap the next time.

Read straight from the stored commands of the latest games of a title, in one statement: never
a game's whole log, never a fold, and never more than :data:`RECENT_GAMES` games, so opening a
Cauldron screen costs the same with 5 stored games or 5,000. A box holds a fixed set of cards;
a table that has not met a card in its last 30 games types it once more.
"""

from __future__ import annotations

import json
import sqlite3
from typing import Any, Callable, Hashable

from companion.core.model import Command

#: How many of a title's latest games are searched for earlier entries.
RECENT_GAMES = 30


def entered(conn: sqlite3.Connection, game: str, kinds: tuple[str, ...], *,
            exclude: int | None = None, games: int = RECENT_GAMES) -> list[tuple[int, Command]]:
    """(game id, command) for each accepted (done) command whose ``do`` is one of ``kinds`` in
    the latest ``games`` games of ``game`` other than ``exclude``: newest game first, in the
    order they were entered within a game. A row that is not a command (a damaged game's
    malformed step) is passed over: these are suggestions, and ``companion check`` names it."""
    if not kinds:
        return []
    marks = ",".join("?" * len(kinds))
    rows = conn.execute(
        "SELECT game_id, command FROM steps WHERE game_id IN "
        "(SELECT id FROM games WHERE game = ? AND id IS NOT ? ORDER BY id DESC LIMIT ?) "
        "AND status = 'done' AND json_valid(command) "
        f"AND json_extract(command, '$.do') IN ({marks}) ORDER BY game_id DESC, n",
        (game, exclude, games, *kinds)).fetchall()
    out = []
    for game_id, text in rows:
        data: Any = json.loads(text)
        if isinstance(data, dict) and isinstance(data.get("do"), str):
            out.append((game_id, Command.from_dict(data)))
    return out


def newest_once(entries: list[tuple[int, Command]], read: Callable[[Command], Any],
                key: Callable[[Any], Hashable]) -> list:
    """What ``read`` makes of each entered command (``companion.history.entered``: newest game
    first, in entry order within a game), newest entry first and once per ``key`` (the latest
    entry wins); a command ``read`` turns into None is passed over."""
    by_game: dict[int, list] = {}
    for game_id, command in entries:
        item = read(command)
        if item is not None:
            by_game.setdefault(game_id, []).append(item)
    seen: dict[Hashable, Any] = {}
    for items in by_game.values():
        for item in reversed(items):
            seen.setdefault(key(item), item)
    return list(seen.values())
