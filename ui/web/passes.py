"""The phones' tokens: one to watch, and one seat pass per player, kept across the app's restarts.

A seat pass belongs to a player, not to a seat number: it names the player (their name as the
table matches profiles: trimmed, NFC, case aside) and presses for the seat that player holds in
the game at the table now. When a new game starts, a pass whose player sits in it again follows
them to their new seat; a pass whose player is not in it ends, and its page says
``"This link was Barb's seat in the last game: scan the table's code again"``. A pass that
ended so comes back when the game it was last for is at the table again with its player in it
(a resumed game keeps its players' links); a new game never brings one back. A pass never
presses for anyone else, whatever the seats' order.

The tokens are kept in a file beside the settings (``phones.json``, mode 600, written the one
safe way: ``companion.files.write``), so a crash or a power cut does not end sharing: the next
start reads them back and the phones reconnect by themselves. Only Stop sharing ends them (the
file is removed). A file that cannot be read or is not what this module writes is set aside
in words (logged) and sharing starts with new tokens.
"""

from __future__ import annotations

import json
import logging
import os
import re
import secrets
import unicodedata
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, Sequence

from companion.files.read import read_regular
from companion.files.write import write_whole

log = logging.getLogger(__name__)

VERSION = 1
#: Ended passes remembered (so their pages can say why), the oldest forgotten first.
ENDED_KEPT = 64
_TOKEN = re.compile(r"[0-9a-f]{32}")


def player_key(name: str) -> str:
    """How a seat's player is recognised from game to game (as profiles match names)."""
    return unicodedata.normalize("NFC", str(name).strip()).casefold()


def new_token() -> str:
    return secrets.token_hex(16)          # 128 random bits


@dataclass(frozen=True)
class SeatPass:
    """A seat's link: ``player`` (player_key) and the name shown; ``game``: the game it last
    pressed in (None before the first)."""

    token: str
    player: str
    name: str
    game: Any = None


@dataclass(frozen=True)
class Ended:
    """A pass that ended, and the words its page shows; ``was``: the pass it was, when its
    player only left (it comes back if the game it was last for is resumed with them)."""

    token: str
    why: str
    was: SeatPass | None = None


@dataclass(frozen=True)
class Passes:
    """Every token of one sharing session (immutable: :meth:`seated` returns the next)."""

    watch: str
    seats: tuple[SeatPass, ...] = ()
    ended: tuple[Ended, ...] = ()

    @classmethod
    def new(cls) -> "Passes":
        return cls(new_token())

    def find(self, token: str) -> SeatPass | Ended | str | None:
        """"watch", the SeatPass or Ended the token is, or None (compared in constant time)."""
        found: SeatPass | Ended | str | None = None
        if secrets.compare_digest(token, self.watch):
            found = "watch"
        for item in (*self.seats, *self.ended):
            if secrets.compare_digest(token, item.token):
                found = item
        return found

    def for_player(self, name: str) -> SeatPass | None:
        key = player_key(name)
        return next((p for p in self.seats if p.player == key), None)

    def seated(self, names: Sequence[str], game: Any) -> "Passes":
        """The passes for a table of ``names`` in ``game``: each player's own (made if new,
        carried over if they played the last game), the others' ended with their words."""
        keys = [player_key(n) for n in names]
        seats, ended = [], []
        for p in self.seats:
            if p.player in keys:
                seats.append(replace(p, game=game))
            elif p.game is not None and p.game != game:
                ended.append(Ended(p.token, f"This link was {p.name}'s seat in the last game: "
                                            f"scan the table's code again", p))
            else:
                seats.append(p)       # made for this game, or before any: still theirs
        back = [e for e in self.ended if e.was is not None and e.was.game == game
                and e.was.player in keys and all(p.player != e.was.player for p in seats)]
        seats += [e.was for e in back]                   # a resumed game: its players' links
        ended = [e for e in self.ended if e not in back] + ended
        for key, name in zip(keys, names):
            if all(p.player != key for p in seats):
                seats.append(SeatPass(new_token(), key, name, game))
        if tuple(seats) == self.seats and tuple(ended) == self.ended:
            return self
        return Passes(self.watch, tuple(seats), tuple(ended[-ENDED_KEPT:]))

    # -- the file ---------------------------------------------------------------------------
    def to_json(self) -> str:
        return json.dumps({"v": VERSION, "watch": self.watch,
                           "seats": [[p.token, p.player, p.name, p.game] for p in self.seats],
                           "ended": [[e.token, e.why] + _was(e) for e in self.ended]})

    @classmethod
    def from_json(cls, text: str) -> "Passes":
        """The passes a file holds; ValueError naming what is wrong."""
        data = json.loads(text)
        if not isinstance(data, dict) or data.get("v") != VERSION:
            raise ValueError(f"v: must be {VERSION}")
        watch = _token(data.get("watch"), "watch")
        seats = [_seat(row, f"seats[{n}]")
                 for n, row in enumerate(_rows(data.get("seats"), "seats", (4,)))]
        ended = []
        for n, (token, why, *was) in enumerate(_rows(data.get("ended"), "ended", (2, 5))):
            if not isinstance(why, str):
                raise ValueError(f"ended[{n}]: the words must be text")
            ended.append(Ended(_token(token, f"ended[{n}]"), why,
                               _seat([token, *was], f"ended[{n}]") if was else None))
        return cls(watch, tuple(seats), tuple(ended[-ENDED_KEPT:]))


def _seat(row: list[Any], where: str) -> SeatPass:
    token, player, name, game = row
    if not isinstance(player, str) or not isinstance(name, str):
        raise ValueError(f"{where}: player and name must be text")
    if not (game is None or isinstance(game, (int, str))) or isinstance(game, bool):
        raise ValueError(f"{where}: game must be a number, text or null")
    return SeatPass(_token(token, where), player, name, game)


def _was(ended: Ended) -> list[Any]:
    """An ended pass's row after its words: the pass it was (player, name, game), if any."""
    was = ended.was
    return [] if was is None else [was.player, was.name, was.game]


def _token(value: Any, where: str) -> str:
    if not isinstance(value, str) or not _TOKEN.fullmatch(value):
        raise ValueError(f"{where}: a token is 32 hex digits")
    return value


def _rows(value: Any, where: str, widths: tuple[int, ...]) -> list[list[Any]]:
    if not isinstance(value, list) or not all(isinstance(r, list) and len(r) in widths
                                              for r in value):
        raise ValueError(f"{where}: must be a list of [{' or '.join(map(str, widths))} values]")
    return value


def tokens_path(settings_file: Path) -> Path:
    """The tokens' file, beside the settings."""
    return settings_file.with_name("phones.json")


def load(path: Path | None) -> Passes | None:
    """The passes kept in ``path``, or None (no file, or one that is not ours: logged)."""
    if path is None or not os.path.lexists(path):
        return None
    try:
        return Passes.from_json(read_regular(path, "config").decode("utf-8"))
    except (OSError, ValueError, UnicodeError) as problem:
        log.warning("phones: %s set aside, sharing starts with new links (%s)", path, problem)
        return None


def save(path: Path | None, passes: Passes) -> None:
    """Write ``passes`` to ``path`` (mode 600, never in place); a failure is logged: sharing
    goes on, only a restart would need new codes."""
    if path is None:
        return
    try:
        write_whole(path, passes.to_json(), mode=0o600, force=True, folder_mode=0o700)
    except OSError as problem:
        log.warning("phones: the links could not be kept in %s (%s)", path, problem)


def forget(path: Path | None) -> None:
    """Stop sharing: the kept tokens are gone, so no old link works after a restart either."""
    if path is None:
        return
    try:
        os.unlink(path)
    except FileNotFoundError:
        pass
    except OSError as problem:
        log.warning("phones: %s could not be removed (%s)", path, problem)
