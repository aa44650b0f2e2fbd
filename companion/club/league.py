"""The league: per title and season, each player's games, wins, win rate and rating.

The rating is openskill's Plackett-Luce over the places of each game, updated game by game in
the order they were played (their end, then their uuid), shown as the conservative ``mu - 3
sigma``; a player is ranked from MIN_GAMES games on (before that the figure says little).
Cauldron Quest is played together against the board: each seat's game is the team's result,
counted (games, wins, win rate), never rated. Players are their profiles (uuid), named as the
club's profile calls them.

``standings`` works the figures out from the games themselves (every game when the club has
no season); a season's are kept at the club as games arrive (schema version 2, read by
companion/club/reading.py ``kept``, rated by companion/club/rater.py with ``fold``).
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any, Iterable, Sequence

#: Games a player needs in a title and season to be ranked.
MIN_GAMES = 3
#: Titles whose seats win or lose together: no rating.
TEAM_GAMES = frozenset({"quest"})


def places(players: Sequence[dict[str, Any]]) -> list[int]:
    """Each seat's place (1 the best, ties share one): the game's own ``place`` where its results
    keep one (Cauldron's: the Grand Infuser first whatever its Magik), else winners first, then
    by score, then by the results' ``tiebreak`` where they keep one (Witch's Brew's drops and
    gold: its rules rank a tied score by it), in standard competition ranking."""
    if players and all(isinstance(p.get("place"), int) for p in players):
        return [p["place"] for p in players]

    def number(value: Any) -> float:
        return value if isinstance(value, (int, float)) and not isinstance(value, bool) else 0

    keys = [(not p.get("winner"), -number(p.get("score")), -number(p.get("tiebreak")))
            for p in players]
    return [1 + sum(other < mine for other in keys) for mine in keys]


@dataclass(frozen=True)
class Finished:
    """One game as the league reads it: its title, uuid, end, and each seat's (profile, name,
    winner, place)."""

    game: str
    uuid: str
    finished_at: str
    seats: tuple[tuple[str, str, bool, int], ...]


@dataclass
class Standing:
    profile: str
    name: str
    games: int = 0
    wins: int = 0
    mu: float | None = None
    sigma: float | None = None

    @property
    def win_rate(self) -> float:
        return round(self.wins / self.games, 3) if self.games else 0.0

    @property
    def rating(self) -> float | None:
        return None if self.mu is None else round(self.mu - 3 * self.sigma, 2)

    def ranked(self, minimum: int) -> bool:
        return self.rating is not None and self.games >= minimum

    def as_dict(self, minimum: int) -> dict[str, Any]:
        out = asdict(self)
        out.update(win_rate=self.win_rate, rating=self.rating, ranked=self.ranked(minimum))
        return out


@dataclass
class Table:
    """One title's standings: ranked players by rating, then the others by games."""

    game: str
    team: bool
    games: int = 0
    players: list[Standing] = field(default_factory=list)

    def as_dict(self, minimum: int) -> dict[str, Any]:
        return {"game": self.game, "team": self.team, "games": self.games,
                "players": [p.as_dict(minimum) for p in self.players]}


def fold(model: Any, ratings: dict[str, tuple[float, float]],
         seats: Sequence[tuple[str, str, bool, int]]) -> dict[str, tuple[float, float]]:
    """One game's Plackett-Luce update over the places of its seats with a profile (a game
    needs two of them to move a rating): ``ratings`` (profile: (mu, sigma)) changed in place;
    returns the seats' new (mu, sigma)."""
    seats = [s for s in seats if s[0]]
    if len(seats) < 2:
        return {}
    current = [model.rating(*ratings[s[0]]) if s[0] in ratings else model.rating()
               for s in seats]
    rated = model.rate([[r] for r in current], ranks=[s[3] for s in seats])
    after = {seat[0]: (r.mu, r.sigma) for seat, [r] in zip(seats, rated)}
    ratings.update(after)
    return after


def ordered(table: Table, minimum: int) -> Table:
    """The players ranked by rating, then the unranked by win rate and games."""
    table.players.sort(key=lambda p: (
        not p.ranked(minimum), -(p.rating or 0.0) if p.ranked(minimum) else 0.0,
        -p.win_rate, -p.games, p.name))
    return table


def standings(games: Iterable[Finished], names: dict[str, str],
              minimum: int = MIN_GAMES) -> list[Table]:
    """The standings of these games per title (in title order); ``names``: each profile's name
    at the club (a seat's own name where the club has none)."""
    from openskill.models import PlackettLuce

    model = PlackettLuce()
    titles: dict[str, Table] = {}
    kept: dict[str, dict[str, Standing]] = {}
    ratings: dict[str, dict[str, tuple[float, float]]] = {}
    for played in sorted(games, key=lambda g: (g.finished_at, g.uuid)):
        table = titles.setdefault(played.game, Table(played.game, played.game in TEAM_GAMES))
        table.games += 1
        people = kept.setdefault(played.game, {})
        seats = [s for s in played.seats if s[0]]
        for profile, name, winner, _ in seats:
            person = people.setdefault(profile, Standing(profile, names.get(profile, name)))
            person.games += 1
            person.wins += int(winner)
        if table.team:
            continue
        for profile, after in fold(model, ratings.setdefault(played.game, {}), seats).items():
            people[profile].mu, people[profile].sigma = after
    for name, table in titles.items():
        table.players = list(kept[name].values())
    return [ordered(titles[name], minimum) for name in sorted(titles)]
