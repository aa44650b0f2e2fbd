"""What the games' logs tell beyond their results, per title: Cauldron's Magik at each season's
end, its milestones and its purchases; Witch's Brew's full actions against favours for each
role and the ravens each player took; Cauldron Quest's spells (how often each worked, beside
its exact chance) and the paths left open.

Read with one SQL statement per title over the events of the finished games (filtered by
type, the fields taken with json_extract), never a fold: a fold of every game would cost
seconds over a long history, and these figures need a few events each. A step undone or
dropped is not part of its game: one more statement finds those steps (a few) and their events
are left out; the rest count in their order.
"""

from __future__ import annotations

import json
import sqlite3
from collections import defaultdict
from dataclasses import dataclass
from typing import Any, Callable, Iterable, Sequence

from companion.history.plays import Play

#: (play id, seat) -> the player's name as the figures show it (a profile's name, or as typed)
Who = Callable[[int, int], str]


def rate(part: int, whole: int) -> float | None:
    return round(part / whole, 3) if whole else None


def mean(values: Sequence[float]) -> float | None:
    return round(sum(values) / len(values), 1) if values else None


def _not_done(conn: sqlite3.Connection, ids: Iterable[int]) -> set[tuple[int, int]]:
    """The (game id, step) of these games' steps undone or dropped: a few, read in one pass
    (cheaper than looking each event's step up)."""
    return set(conn.execute("SELECT game_id, n FROM steps WHERE game_id IN (SELECT value FROM "
                            "json_each(?)) AND status != 'done'", (json.dumps(sorted(ids)),)))


def _events(conn: sqlite3.Connection, ids: Iterable[int], types: Sequence[str],
            fields: Sequence[str], skip: set[tuple[int, int]]) -> list[tuple[Any, ...]]:
    """(game id, type, *fields) of these games' events, in play order, leaving out those of
    the steps in ``skip`` (_not_done); a field is a JSON path into the event's data (absent:
    None). SQLite parses each event's data once, for all its fields (one json_extract of
    several paths gives them as one JSON array); Python parses those arrays in one call."""
    assert len(fields) > 1, "one path would come back as the value, not an array"
    wanted = json.dumps(sorted(set(ids)))
    paths = ", ".join(f"'{path}'" for path in fields)
    kinds = ", ".join("?" * len(types))
    rows = conn.execute(
        f"SELECT e.game_id, e.step, e.type, json_extract(e.data, {paths}) FROM events e "
        f"WHERE e.game_id IN (SELECT value FROM json_each(?)) AND e.type IN ({kinds}) "
        "ORDER BY e.game_id, e.step, e.seq", (wanted, *types)).fetchall()
    if skip:
        rows = [row for row in rows if (row[0], row[1]) not in skip]
    values = json.loads("[" + ",".join(row[3] for row in rows) + "]")
    return [(gid, kind, *found) for (gid, _, kind, _), found in zip(rows, values)]


# -- Cauldron -------------------------------------------------------------------------------
@dataclass(frozen=True)
class _Seasons:
    """Each seat's Magik at the end of each season of one game, while its events are read."""

    magik: list[int]
    ends: list[list[int]]

    def close(self) -> None:
        self.ends.append(list(self.magik))


def cauldron(conn: sqlite3.Connection, plays: Sequence[Play], who: Who,
             skip: set[tuple[int, int]]) -> dict[str, Any]:
    """Magik per season (the seats' average at each season's end: a Market closing, or the
    game's end for its last, shorter season), milestones (how often each was taken, in which
    season on average, by whom) and purchases by kind (how many, the Magik paid)."""
    from companion.games.cauldron import data as d

    rows = _events(conn, (p.id for p in plays),
                   ("omen_drawn", "brewed", "magik_adjusted", "bought", "milestone_reached",
                    "market_closed", "game_over"),
                   ("$.seat", "$.gain", "$.applied", "$.cost", "$.item", "$.magik",
                    "$.milestone"), skip)
    seasons = {p.id: _Seasons([d.QUICK_START_MAGIK if d.QUICK in p.variants else d.START_MAGIK]
                              * len(p.seats), []) for p in plays}
    milestones: dict[str, dict[str, Any]] = {m: {"seasons": [], "by": defaultdict(int)}
                                             for m in d.MILESTONES}
    bought: dict[str, list[int]] = {item: [] for item in d.ITEMS}
    for gid, kind, seat, gain, applied, cost, item, omen, milestone in rows:
        game = seasons[gid]
        if kind == "omen_drawn":
            for change in omen:
                game.magik[change["seat"]] += change["applied"]
        elif kind == "brewed":
            game.magik[seat] += gain
        elif kind == "magik_adjusted":
            game.magik[seat] += applied
        elif kind == "bought":
            game.magik[seat] -= cost
            bought.setdefault(item, []).append(cost)
        elif kind == "milestone_reached":
            milestones[milestone]["seasons"].append(len(game.ends) + 1)
            milestones[milestone]["by"][who(gid, seat)] += 1
        else:  # a Market closed, or the game ended
            game.close()
    by_season: dict[int, list[int]] = defaultdict(list)
    reached: dict[int, int] = defaultdict(int)  # season -> games that got to its end
    for game in seasons.values():
        for number, magik in enumerate(game.ends, 1):
            by_season[number] += magik
            reached[number] += 1
    return {
        "magik_by_season": [{"season": n, "games": reached[n], "seats": len(v),
                             "average": mean(v)} for n, v in sorted(by_season.items())],
        "milestones": {m: {"taken": len(v["seasons"]), "games": len(plays),
                           "share": rate(len(v["seasons"]), len(plays)),
                           "average_season": mean(v["seasons"]),
                           "by": dict(sorted(v["by"].items(), key=lambda kv: (-kv[1], kv[0])))}
                       for m, v in milestones.items()},
        "purchases": {item: {"count": len(costs), "magik": sum(costs),
                             "per_game": round(len(costs) / len(plays), 2) if plays else None}
                      for item, costs in bought.items()},
    }


# -- Witch's Brew ---------------------------------------------------------------------------
def witchs_brew(conn: sqlite3.Connection, plays: Sequence[Play], who: Who,
                skip: set[tuple[int, int]]) -> dict[str, Any]:
    """For each role, the full actions and the favours it gave (carried out, abstained from or
    skipped for want of what they cost: each was won by a claim or a "so be it"), and the
    ravens: the raven potions each player held at the end (a correction that put a potion
    back is not counted), in all and per game."""
    from companion.games.witchs_brew.roles import ROLES

    rows = _events(conn, (p.id for p in plays),
                   ("effect_applied", "effect_skipped", "effect_abstained", "adjusted"),
                   ("$.seat", "$.role", "$.kind", "$.potion.raven", "$.remove_potion"), skip)
    roles: dict[str, list[int]] = {key: [0, 0] for key in ROLES}
    potions: dict[tuple[int, int], list[bool]] = defaultdict(list)  # raven or not, in order
    for gid, kind, seat, role, effect, raven, remove in rows:
        if kind != "adjusted":
            roles.setdefault(role, [0, 0])[effect != "action"] += 1
        held = potions[gid, seat]
        if kind == "adjusted" and remove is not None:
            held.pop(remove)
        if raven is not None and kind in ("effect_applied", "adjusted"):
            held.append(bool(raven))
    ravens: dict[str, int] = defaultdict(int)
    for (gid, seat), held in potions.items():
        if any(held):
            ravens[who(gid, seat)] += sum(held)
    total = sum(ravens.values())
    return {
        "roles": {key: {"actions": a, "favours": f, "action_share": rate(a, a + f)}
                  for key, (a, f) in roles.items()},
        "ravens": {"taken": total, "per_game": round(total / len(plays), 2) if plays else None,
                   "by": dict(sorted(ravens.items(), key=lambda kv: (-kv[1], kv[0])))},
    }


# -- Cauldron Quest -------------------------------------------------------------------------
def quest(conn: sqlite3.Connection, plays: Sequence[Play], who: Who,
          skip: set[tuple[int, int]]) -> dict[str, Any]:
    """The paths left open at the end (a game is lost when all six are blocked) and, for each
    spell, how often it was tried, how often it worked (its last judged roll: a fixed roll is
    judged again) and the exact chance of it working over three rolls, played best."""
    from companion.games.quest.board import PATHS
    from companion.games.quest.odds import SPELLS, announce_odds

    rows = _events(conn, (p.id for p in plays),
                   ("spell_announced", "spell_judged", "path_blocked", "obstacle_removed"),
                   ("$.spell", "$.success"), skip)
    blocked = {p.id: 0 for p in plays}
    tried: dict[str, list[bool]] = {spell: [] for spell in SPELLS}
    attempt: tuple[str, int] | None = None  # the spell being cast, and its game
    for gid, kind, spell, success in rows:
        if kind == "path_blocked":
            blocked[gid] += 1
        elif kind == "obstacle_removed":
            blocked[gid] -= 1
        elif kind == "spell_announced":
            tried.setdefault(spell, []).append(False)
            attempt = (spell, gid)
        elif attempt is not None and attempt == (spell, gid):
            tried[spell][-1] = bool(success)
    odds = announce_odds()
    open_paths = [len(PATHS) - n for n in blocked.values()]
    counts = defaultdict(int)
    for n in open_paths:
        counts[n] += 1
    won = [len(PATHS) - blocked[p.id] for p in plays if p.winners]
    return {
        "paths_open": {"average": mean(open_paths), "average_when_won": mean(won),
                       "games": {str(n): counts[n] for n in sorted(counts)}},
        "spells": {spell: {"cast": len(results), "worked": sum(results),
                           "rate": rate(sum(results), len(results)),
                           "chance": round(float(odds[spell]), 3) if spell in odds else None,
                           "exact": (f"{odds[spell].numerator}/{odds[spell].denominator}"
                                     if spell in odds else None)}
                   for spell, results in tried.items()},
    }


TALLIES: dict[str, Callable[..., dict[str, Any]]] = {
    "cauldron": cauldron, "witchs_brew": witchs_brew, "quest": quest}


def tally(conn: sqlite3.Connection, plays: Sequence[Play],
          who: Who | None = None) -> dict[str, dict[str, Any]]:
    """Per title of the finished ``plays``, what its log tells (see each title's function:
    each takes the steps to leave out, ``skip``); ``who`` names a seat (default: the name
    typed at setup)."""
    if who is None:
        names = {(p.id, s.seat): s.name for p in plays for s in p.seats}

        def who(gid: int, seat: int) -> str:
            return names[gid, seat]

    by_title: dict[str, list[Play]] = defaultdict(list)
    for p in plays:
        if p.status == "finished" and p.game in TALLIES:
            by_title[p.game].append(p)
    skip = _not_done(conn, [p.id for games in by_title.values() for p in games])
    return {game: TALLIES[game](conn, games, who, skip)
            for game, games in sorted(by_title.items())}


# -- in words --------------------------------------------------------------------------------
def labels(game: str) -> dict[str, str]:
    """The words for a title's keys, as its box prints them: roles, milestones, items, spells."""
    if game == "cauldron":
        from companion.games.cauldron import data as d

        # "a Field", "an Advanced Spell" as a name: Field, Advanced Spell
        return {**d.MILESTONE_TEXT, **{k: v.split(" ", 1)[1] for k, v in d.ITEM_TEXT.items()}}
    if game == "witchs_brew":
        from companion.games.witchs_brew.roles import ROLES

        return {key: role.title for key, role in ROLES.items()}
    if game == "quest":
        from companion.games.quest.state import SPELL_TITLES

        return dict(SPELL_TITLES)
    return {}


def _pct(rate: float | None) -> str:
    return "-" if rate is None else f"{rate:.0%}"


def _by(counts: dict[str, int]) -> str:
    return ", ".join(f"{name} {n}" for name, n in counts.items()) or "nobody"


def lines(game: str, told: dict[str, Any]) -> list[str]:
    """A title's tally as ``companion stats`` prints it, one line a figure (indented)."""
    if not told:
        return []
    words = labels(game)
    out = []
    if game == "cauldron":
        seasons = ", ".join(f"{s['season']}: {s['average']:g}" for s in told["magik_by_season"])
        out.append(f"Magik at each season's end, average per seat: {seasons or 'none'}")
        for key, m in told["milestones"].items():
            when = (f", in season {m['average_season']:g} on average"
                    if m["average_season"] is not None else "")
            out.append(f"{words.get(key, key)}: taken in {m['taken']} of {m['games']} games"
                       f"{when} ({_by(m['by'])})")
        bought = ", ".join(f"{words.get(k, k)} {v['count']} ({v['magik']} Magik)"
                           for k, v in told["purchases"].items())
        out.append(f"Purchases: {bought}")
    elif game == "witchs_brew":
        for key, r in told["roles"].items():
            out.append(f"{words.get(key, key)}: {r['actions']} full actions, {r['favours']} "
                       f"favours ({_pct(r['action_share'])} full actions)")
        ravens = told["ravens"]
        out.append(f"Ravens taken: {ravens['taken']}, {ravens['per_game']:g} a game "
                   f"({_by(ravens['by'])})")
    elif game == "quest":
        paths = told["paths_open"]
        won = paths["average_when_won"]
        out.append(f"Paths left open: {paths['average']:g} on average"
                   + (f", {won:g} in the games won" if won is not None else ""))
        for key, sp in told["spells"].items():
            out.append(f"{words.get(key, key)}: cast {sp['cast']} times, worked {sp['worked']} "
                       f"({_pct(sp['rate'])}; exact chance {_pct(sp['chance'])}, "
                       f"{sp['exact']})")
    return out
