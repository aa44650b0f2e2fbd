"""A finished game as the play BG Stats takes from other apps, so a phone adds it without a
network between the table and the phone: the companion shows the link as a QR code, the phone's
camera opens it, and BG Stats (when installed) shows its import dialog.

The format is BG Stats' own "Push plays to BG Stats from other apps or websites" page,
https://www.bgstatsapp.com/support/push-plays-to-bg-stats-from-other-apps-or-websites/ :
a link ``https://app.bgstatsapp.com/createPlay.html?data=<data>`` (``bgstats://`` "works as
well", but a phone's camera opens only the https link, so the QR holds that one), where
``<data>`` is a url-encoded JSON string. The page's example object has these fields, and only
these are written here, with the example's types:

- ``sourceName`` (string): the app, "Table Companion"; ``sourcePlayId`` (string): the play's
  stable id (its UUID once games have one, else the database's game number);
- ``playDate`` (string, ``yyyy-MM-dd HH:mm:ss``); ``durationMin`` (integer minutes);
- ``game``: ``name`` (string), ``sourceGameId`` (string: the companion's game key),
  ``highestWins`` and ``noPoints`` (booleans);
- ``players``: ``name`` (string), ``score`` (number), ``winner``, ``startPlayer`` (booleans),
  ``rank`` (integer), ``role`` (string).

Where the page was not read or is silent, nothing is guessed:

- ``playDate``'s time zone: the readable part of the page gives only the format. Integrations
  that quote the page write the moment the play ended, in UTC; so does this module.
- The example's ``game.bggId`` is left out: the games' BoardGameGeek numbers are not kept here
  and a wrong one would file the play under another game. ``sourcePlayerId``, ``board``,
  ``location`` and ``comments`` are left out too (no stable player id yet; BG Stats sets the
  location to the sending app).
- A seat's colour and a "cooperative" flag are not in the documented format, so they are not
  sent. Cauldron Quest is a team game without points: ``noPoints`` true, no score, no rank,
  every seat the winner when the team won and none when the wizard did.
- Cauldron has no start player (turn order is rolled each Harvest), so ``startPlayer`` is left
  out there; Witch's Brew's is the setup's ``starter`` (else the first seat), Cauldron Quest's
  the first seat listed (the youngest, who begins).

One QR code holds at most 2,331 bytes at error correction M. A link longer than that loses
its optional fields (roles, ranks, start player, length) until it fits; ``dropped`` names them,
for the screen to say so. A play that still does not fit has no link: ``problem`` says why.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import datetime, timezone
from typing import Any
from urllib.parse import quote

from companion.games import all_games
from companion.history.plays import Play

SOURCE_NAME = "Table Companion"
CREATE_PLAY = "https://app.bgstatsapp.com/createPlay.html?data="
#: Bytes one QR code (version 40) holds in byte mode at error correction M.
QR_BYTES_M = 2331
#: Optional fields, dropped in this order while the link is too long for one QR code.
OPTIONAL = (("role", "players' roles"), ("rank", "places"),
            ("startPlayer", "start player"), ("durationMin", "length"))


@dataclass(frozen=True)
class PushLink:
    """What the QR code shows: the link (None when the play cannot be one), the play as BG
    Stats reads it, the optional fields left out to fit, and why there is no link."""

    url: str | None
    payload: dict[str, Any]
    dropped: tuple[str, ...] = ()
    problem: str = ""


def play_date(play: Play) -> str:
    """When the play ended (else began), in UTC, as ``yyyy-MM-dd HH:mm:ss``."""
    moment = datetime.fromisoformat(play.finished or play.started)
    if moment.tzinfo is None:
        moment = moment.astimezone()     # a local time without its offset
    return moment.astimezone(timezone.utc).strftime("%Y-%m-%d %H:%M:%S")


def _ranks(play: Play) -> dict[int, int]:
    """Seat -> place: Cauldron's own places; Witch's Brew's winners first, then by points and
    drops + gold left, equal seats sharing a place (1, 1, 3)."""
    seats = play.seats
    if all(isinstance(s.detail.get("place"), int) for s in seats):
        return {s.seat: s.detail["place"] for s in seats}

    def key(s) -> tuple:
        return (not s.winner, -(s.score or 0), -int(s.detail.get("tiebreak") or 0))

    ordered = sorted(seats, key=key)
    ranks: dict[int, int] = {}
    for n, s in enumerate(ordered):
        same = n > 0 and key(ordered[n - 1]) == key(s)
        ranks[s.seat] = ranks[ordered[n - 1].seat] if same else n + 1
    return ranks


def _start_seat(play: Play) -> int | None:
    """The seat that began: Witch's Brew's ``starter`` (else the first), Quest's first seat;
    None for Cauldron, whose turn order is rolled each Harvest."""
    if play.game == "cauldron":
        return None
    if play.game == "witchs_brew":
        starter = play.setup.get("starter")
        named = [s.seat for s in play.seats if s.name == starter]
        return named[0] if named else min(s.seat for s in play.seats)
    return min(s.seat for s in play.seats)


def _role(play: Play, detail: dict[str, Any]) -> str | None:
    """Cauldron: the seat's character, as the box names it."""
    if play.game != "cauldron" or not detail.get("character"):
        return None
    from companion.games.cauldron import data

    return data.label(detail["character"])


def payload(play: Play) -> dict[str, Any]:
    """The play as BG Stats' documented push-play JSON (see the module's docstring)."""
    if play.status != "finished":
        raise ValueError(f"Game {play.id} is not finished (status: {play.status}): only a "
                         "finished game goes to BG Stats.")
    if not play.seats:
        raise ValueError(f"Game {play.id} has no players stored (players), so there is no "
                         "play to send.")
    rules = all_games().get(play.game)
    points = not (rules is not None and rules.cooperative)   # the team wins or loses together
    ranks = _ranks(play) if points else {}
    start = _start_seat(play)
    players = []
    for s in play.seats:
        player: dict[str, Any] = {"name": s.name, "winner": bool(s.winner)}
        if points and s.score is not None:
            player["score"] = s.score
            player["rank"] = ranks[s.seat]
        if start is not None:
            player["startPlayer"] = s.seat == start
        role = _role(play, s.detail)
        if role:
            player["role"] = role
        players.append(player)
    game: dict[str, Any] = {"name": play.title, "sourceGameId": play.game,
                            "noPoints": not points}
    if points:
        game["highestWins"] = True
    data: dict[str, Any] = {"sourceName": SOURCE_NAME,
                            "sourcePlayId": str(play.uuid or play.id),
                            "playDate": play_date(play), "game": game, "players": players}
    if play.minutes is not None:
        data["durationMin"] = int(round(play.minutes))
    return data


def compact(data: dict[str, Any]) -> str:
    """The JSON as sent: no spaces, letters as they are (url-encoding makes them ASCII)."""
    return json.dumps(data, ensure_ascii=False, separators=(",", ":"))


def link_for(data: dict[str, Any]) -> str:
    """The link: the JSON url-encoded as JavaScript's encodeURIComponent does it (what the web
    integrations send), except ``:`` and ``,``, which a query may hold as they are and which
    JSON is full of: a shorter link is a smaller code."""
    return CREATE_PLAY + quote(compact(data), safe=":,!'()*")


def push_link(play: Play, limit: int = QR_BYTES_M) -> PushLink:
    """The link for one QR code, dropping optional fields while it is longer than ``limit``
    bytes; no link (and the reason) when even the bare play is too long."""
    data = payload(play)
    dropped: list[str] = []
    for field, words in OPTIONAL:
        if len(link_for(data)) <= limit:
            break
        found = field in data or any(field in p for p in data["players"])
        data.pop(field, None)
        for p in data["players"]:
            p.pop(field, None)
        if found:
            dropped.append(words)
    url = link_for(data)
    if len(url) > limit:
        return PushLink(None, data, tuple(dropped),
                        f"This play is too long for one QR code ({len(url)} characters, "
                        f"{limit} fit): shorter player names would fit.")
    return PushLink(url, data, tuple(dropped))
