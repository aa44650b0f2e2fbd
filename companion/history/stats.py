"""The figures players ask for first: per player and per title, games, wins, win rate, average
and best score, average length and the longest run of wins; per title what its results keep
beside the score (Cauldron: the characters that win, brews per seat; Witch's Brew: shared wins
and wins decided by the tie-break; Cauldron Quest: how often the team wins).

Counted in plain Python over the plays (companion.history.plays: a few SQL statements over the
rows kept for the lists), never a fold; what only a game's log tells (Magik per season, roles,
spells...) comes from companion.history.tally, one SQL statement per title over the events.
A player is a profile where the seats link to one (shown by the profile's name today, however
it was typed at each game), else a name as typed at setup (a file from before profiles).
Cauldron Quest is cooperative and keeps no points, so it has no score figures; the team wins or
loses together, so each seat of a won game counts a win.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import asdict, dataclass, field
from datetime import datetime
from typing import Any, Iterable, Sequence

from companion.core.errors import CompanionError
from companion.games import all_games
from companion.history.plays import Play, Seat, read_plays
from companion.history.tally import lines as log_lines, mean, rate, tally
from companion.store.schema import has_column


def keeps_points(game: str) -> bool:
    """Whether a title's scores are points a player makes: a co-operative one (its rules say
    so) keeps 0 for everyone."""
    rules = all_games().get(game)
    return rules is not None and not rules.cooperative


@dataclass(frozen=True)
class Figures:
    games: int
    wins: int
    win_rate: float | None
    #: None where scores mean nothing: across titles, or for a title without points.
    average_score: float | None
    best_score: int | None
    average_minutes: float | None
    longest_streak: int


@dataclass(frozen=True)
class PlayerStats:
    name: str
    overall: Figures
    #: game name -> the player's figures at that title
    titles: dict[str, Figures]
    #: The profile's uuid; None for a name from a file before profiles.
    profile: str | None = None


@dataclass(frozen=True)
class TitleStats:
    game: str
    title: str
    #: Per game: wins are the games somebody won (for Cauldron Quest, the team), the streak
    #: the longest run of those; scores over every seat (winners and losers alike).
    figures: Figures
    #: What this title's results keep beside the score, counted (see the module docstring).
    extra: dict[str, Any] = field(default_factory=dict)
    #: What its games' logs tell (companion.history.tally); empty when not read.
    from_log: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class Stats:
    games: int
    players: tuple[PlayerStats, ...]
    titles: tuple[TitleStats, ...]

    def as_dict(self) -> dict[str, Any]:
        return {"games": self.games,
                "players": [{"name": p.name, "profile": p.profile,
                             "overall": asdict(p.overall),
                             "titles": {g: asdict(f) for g, f in p.titles.items()}}
                            for p in self.players],
                "titles": [{"game": t.game, "title": t.title, **asdict(t.figures),
                            "extra": t.extra, "from_log": t.from_log} for t in self.titles]}


def longest_streak(won: Iterable[bool]) -> int:
    """The longest run of wins in a row, in the order given."""
    best = run = 0
    for w in won:
        run = run + 1 if w else 0
        best = max(best, run)
    return best


def _order(play: Play) -> tuple[datetime, int]:
    """Streaks run in the order games ended (a game started earlier may end later); compared
    as moments, since local times on either side of a clock change do not sort as text."""
    return (datetime.fromisoformat(play.finished or play.started), play.id)


def figures(entries: Sequence[tuple[Play, bool, int | None]], scored: bool) -> Figures:
    """Figures over (play, won, score) entries, already in the order the games ended."""
    wins = sum(1 for _, won, _ in entries if won)
    scores = [s for _, _, s in entries if s is not None] if scored else []
    minutes = [p.minutes for p, _, _ in entries if p.minutes is not None]
    return Figures(len(entries), wins, rate(wins, len(entries)), mean(scores),
                   max(scores) if scores else None, mean(minutes),
                   longest_streak(won for _, won, _ in entries))


def find_game(titles: dict[str, str], wanted: str) -> str:
    """``--game``: a game's name or title, any case; CompanionError naming the choices."""
    key = wanted.strip().casefold()
    for name, title in titles.items():
        if key in (name.casefold(), title.casefold()):
            return name
    choices = ", ".join(f"{t} ({n})" for n, t in titles.items())
    raise CompanionError(f"--game: there is no game {wanted!r}; the games are {choices}")


def player_key(seat: Seat) -> str:
    """Who sat in a seat, for counting: the profile's uuid, else the name as typed."""
    return seat.profile or seat.name


def profile_names(conn: Any) -> dict[str, str]:
    """Each profile's name today, by uuid (a profile renamed after its games is shown by its
    new name); empty for a file from before profiles."""
    if not has_column(conn, "profiles", "uuid"):
        return {}
    return dict(conn.execute("SELECT uuid, name FROM profiles"))


def players(plays: Sequence[Play], names: dict[str, str] | None = None) -> dict[str, str]:
    """Every player of these plays, key (player_key) -> the name shown: the profile's name
    today, else the name typed at the player's latest game; sorted by name."""
    shown: dict[str, str] = {}
    for play in sorted(plays, key=lambda p: p.id):
        for seat in play.seats:
            shown[player_key(seat)] = seat.name
    if names:
        shown = {key: names.get(key, name) for key, name in shown.items()}
    return dict(sorted(shown.items(), key=lambda kv: (kv[1].casefold(), kv[0])))


def find_player(plays: Sequence[Play], wanted: str, names: dict[str, str] | None = None) -> str:
    """``--player``: a player's key (player_key) from the name shown, a profile's uuid or a
    name typed at a game, in any case; CompanionError naming the players when none or two
    players match."""
    everyone = players(plays, names)
    if wanted in everyone:  # a profile's uuid (or a name, in a file before profiles)
        return wanted
    key = wanted.strip().casefold()
    found = {k for k, name in everyone.items() if name.casefold() == key}
    if not found:  # a spelling a profile was typed as at one of its games
        found = {player_key(s) for p in plays for s in p.seats if s.name.casefold() == key}
    if len(found) == 1:
        return found.pop()
    if found:
        which = ", ".join(sorted(found))
        raise CompanionError(f"--player: {len(found)} players are named {wanted!r}; give the "
                             f"profile's uuid: {which}")
    shown = sorted(set(everyone.values()), key=str.casefold)
    listed = ", ".join(shown[:20]) + (" ..." if len(shown) > 20 else "")
    raise CompanionError(f"--player: nobody named {wanted!r} played these games"
                         + (f"; the players are {listed}" if shown else " (there are none)"))


def _extra(game: str, plays: Sequence[Play]) -> dict[str, Any]:
    seats = [s for p in plays for s in p.seats]
    winners = [s for s in seats if s.winner]
    if game == "cauldron":
        characters: dict[str, list[int]] = defaultdict(lambda: [0, 0])
        for s in seats:
            if "character" in s.detail:
                counted = characters[str(s.detail["character"])]
                counted[0] += 1
                counted[1] += int(s.winner)
        brews = [s.detail["brews"] for s in seats if isinstance(s.detail.get("brews"), int)]
        return {"average_winning_magik": mean([s.score for s in winners
                                                if s.score is not None]),
                "average_brews": mean(brews),
                "characters": {c: {"seats": n, "wins": w, "win_rate": rate(w, n)}
                               for c, (n, w) in sorted(characters.items())}}
    if game == "witchs_brew":
        shared = tiebreak = 0
        for p in plays:
            scores = [s.score for s in p.seats if s.score is not None]
            won = [s for s in p.seats if s.winner]
            shared += len(won) > 1
            top = max(scores) if scores else None
            tiebreak += sum(1 for s in p.seats if s.score == top) > len(won) >= 1
        return {"average_winning_score": mean([s.score for s in winners
                                                if s.score is not None]),
                "shared_wins": shared, "decided_by_tiebreak": tiebreak}
    if game == "quest":
        won = sum(1 for p in plays if p.winners)
        return {"team_wins": won, "team_win_rate": rate(won, len(plays)),
                "average_players": mean([len(p.seats) for p in plays])}
    return {}


def select(plays: Sequence[Play], *, player: str | None = None,
           game: str | None = None) -> list[Play]:
    """The finished plays of one title (``game``) and with one player (``player``: a key),
    in the order they ended."""
    return sorted((p for p in plays if p.status == "finished"
                   and (game is None or p.game == game)
                   and (player is None or any(player_key(s) == player for s in p.seats))),
                  key=_order)


def compute(plays: Sequence[Play], *, player: str | None = None, game: str | None = None,
            names: dict[str, str] | None = None,
            from_log: dict[str, dict[str, Any]] | None = None) -> Stats:
    """The figures over finished plays; ``game`` keeps one title's games, ``player`` (a key,
    player_key) the games that player sat in (and only that player's figures); ``names``:
    profile_names; ``from_log``: what tally read for these games, per title."""
    chosen = select(plays, player=player, game=game)
    shown = players(chosen, names)
    by_player: dict[str, list[tuple[Play, bool, int | None]]] = defaultdict(list)
    by_title: dict[str, list[Play]] = defaultdict(list)
    for p in chosen:
        by_title[p.game].append(p)
        for s in p.seats:
            by_player[player_key(s)].append((p, s.winner, s.score))
    people = []
    for key, entries in by_player.items():
        if player is not None and key != player:
            continue
        titles: dict[str, list[tuple[Play, bool, int | None]]] = defaultdict(list)
        for entry in entries:
            titles[entry[0].game].append(entry)
        linked = any(s.profile == key for s in entries[0][0].seats)
        people.append(PlayerStats(shown[key], figures(entries, scored=False),
                                  {g: figures(e, scored=keeps_points(g))
                                   for g, e in sorted(titles.items())},
                                  key if linked else None))
    people.sort(key=lambda p: (-p.overall.games, p.name))
    titles = []
    for name, games in sorted(by_title.items()):
        entries = [(p, bool(p.winners), s.score) for p in games for s in p.seats]
        whole = figures(entries, scored=keeps_points(name))
        per_game = figures([(p, bool(p.winners), None) for p in games], scored=False)
        titles.append(TitleStats(name, games[0].title, Figures(
            len(games), per_game.wins, per_game.win_rate, whole.average_score,
            whole.best_score, per_game.average_minutes, per_game.longest_streak),
            _extra(name, games), (from_log or {}).get(name, {})))
    return Stats(len(chosen), tuple(people), tuple(titles))


def gather(conn: Any, *, player: str | None = None, game: str | None = None,
           plays: Sequence[Play] | None = None) -> Stats:
    """Everything over the finished games of a database: the plays (read here unless given),
    then the logs of the chosen ones (tally), then the figures."""
    if plays is None:
        plays = read_plays(conn)
    names = profile_names(conn)
    chosen = select(plays, player=player, game=game)
    shown = players(chosen, names)
    by_seat = {(p.id, s.seat): s for p in chosen for s in p.seats}
    logs = tally(conn, chosen, lambda gid, seat: shown[player_key(by_seat[gid, seat])])
    return compute(chosen, player=player, game=game, names=names, from_log=logs)


# -- as the command line says it --------------------------------------------------------------
_EXTRA_WORDS = {"average_winning_magik": "Magik of the winner on average",
                "average_brews": "brews per seat on average",
                "average_winning_score": "winning score on average",
                "shared_wins": "shared wins", "decided_by_tiebreak": "decided by the tie-break",
                "team_wins": "won by the team", "team_win_rate": "team win rate",
                "average_players": "players on average"}


def _rate_words(rate: float | None) -> str:
    return "" if rate is None else f" ({rate:.0%})"


def _figure_words(f: Figures, *, streak: bool = True) -> str:
    parts = [f"{f.games} game{'s' * (f.games != 1)}"]
    if streak:
        parts[0] += f", {f.wins} won{_rate_words(f.win_rate)}"
    if f.average_score is not None:
        parts.append(f"score {f.average_score:g} on average, best {f.best_score}")
    if f.average_minutes is not None:
        parts.append(f"{f.average_minutes:g} min on average")
    if streak:
        parts.append(f"longest streak {f.longest_streak}")
    return ", ".join(parts)


def lines(stats: Stats, titles: dict[str, str], chosen: str = "") -> list[str]:
    """The figures as ``companion stats`` prints them: players, then titles; ``chosen`` says
    which games were asked for (``--game``, ``--player``) when none match."""
    if not stats.games:
        return [f"No finished games {chosen}." if chosen else "No finished games yet."]
    out = [f"{stats.games} finished game{'s' * (stats.games != 1)}", "", "Players"]
    for p in stats.players:
        out.append(f"  {p.name}: {_figure_words(p.overall)}")
        for game, f in p.titles.items():
            out.append(f"    {titles.get(game, game)}: {_figure_words(f)}")
    out += ["", "Games"]
    for t in stats.titles:
        out.append(f"  {t.title}: {_figure_words(t.figures, streak=False)}")
        for key, value in t.extra.items():
            if key == "characters":
                shown = ", ".join(f"{c} {v['wins']}/{v['seats']}" for c, v in value.items())
                out.append(f"    wins by character: {shown or 'none'}")
            elif value is not None:
                shown = f"{value:.0%}" if key.endswith("rate") else f"{value:g}"
                out.append(f"    {_EXTRA_WORDS.get(key, key)}: {shown}")
        out += [f"    {line}" for line in log_lines(t.game, t.from_log)]
    return out
