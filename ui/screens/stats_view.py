"""What the statistics screen shows, as pure data (:class:`View`: big numbers, and per figure
a heading, bars and a few lines), worked out from companion/history/stats.py's figures so the
tests read it: bars as long as a rate where they compare shares (2 of 15 shorter than 2 of 9),
the players' bars in their colours (a profile's, else one of the palette), a role's in its
card's colour, and every figure said in words at the bar's end."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Mapping

from companion.core import palette
from companion.history.stats import Figures, Stats
from companion.history.tally import labels
from ui import theme
from ui.widgets.chart import ChartBar, Rgba

#: Bars drawn in a chart at most (the rest are named in a line below it).
MOST_BARS = 8
#: A season is charted when at least this share of the games reached its end.
SEASON_SHARE = 0.2
WORKED, CHANCE = theme.GOOD, theme.rgba("#7A8699")


@dataclass(frozen=True)
class Tile:
    """A big number and what it counts."""

    value: str
    label: str


@dataclass(frozen=True)
class Block:
    """One figure: a heading, its bars (out of ``maximum``, 0: the largest) and lines."""

    heading: str
    bars: tuple[ChartBar, ...] = ()
    lines: tuple[str, ...] = ()
    maximum: float = 0


@dataclass(frozen=True)
class View:
    heading: str
    tiles: tuple[Tile, ...]
    blocks: tuple[Block, ...]


def pct(rate: float | None) -> str:
    return "-" if rate is None else f"{rate:.0%}"


def minutes(value: float | None) -> str:
    return "-" if value is None else f"{value:.0f} min"


def games_words(n: int) -> str:
    return f"{n} game{'s' * (n != 1)}"


def _of(wins: int, games: int, rate: float | None) -> str:
    return f"{wins} of {games} ({pct(rate)})"


def _score_words(f: Figures) -> str:
    if f.average_score is None:
        return ""
    return f"score {f.average_score:g} on average, best {f.best_score}"


def player_view(stats: Stats, titles: dict[str, str], who: str) -> View:
    """One player's figures (``stats`` gathered for that player)."""
    if not stats.players:
        return View(f"{who}: no finished games yet", (), ())
    p = stats.players[0]
    f = p.overall
    tiles = (Tile(str(f.games), "games"), Tile(str(f.wins), f"wins ({pct(f.win_rate)})"),
             Tile(str(f.longest_streak), "longest streak"),
             Tile(minutes(f.average_minutes), "a game on average"))
    bars = tuple(ChartBar(titles.get(g, g), 100 * (t.win_rate or 0), theme.CALM,
                          _of(t.wins, t.games, t.win_rate)) for g, t in p.titles.items())
    lines = []
    for game, t in p.titles.items():
        parts = [_score_words(t), f"{minutes(t.average_minutes)} a game",
                 f"longest streak {t.longest_streak}"]
        lines.append(f"{titles.get(game, game)}: " + ", ".join(x for x in parts if x))
    blocks = [Block("Wins at each title", bars, tuple(lines), 100)]
    told = {t.game: t.from_log for t in stats.titles}
    mine = []
    ravens = told.get("witchs_brew", {}).get("ravens", {}).get("by", {})
    if "witchs_brew" in p.titles:
        mine.append(f"Ravens taken at Witch's Brew: {ravens.get(p.name, 0)}")
    milestones = told.get("cauldron", {}).get("milestones", {})
    taken = [f"{labels('cauldron').get(m, m)} {v['by'][p.name]}"
             for m, v in milestones.items() if v["by"].get(p.name)]
    if "cauldron" in p.titles:
        mine.append("Milestones taken at Cauldron: " + (", ".join(taken) or "none yet"))
    if mine:
        blocks.append(Block("From the games' logs", (), tuple(mine)))
    return View(f"{p.name}: {games_words(f.games)}", tiles, tuple(blocks))


def player_colours(stats: Stats, chosen: dict[str, str] | None = None) -> dict[str, Rgba]:
    """Each player's bar colour, by name, over these figures' players (:func:`everyone_colours`).
    The Statistics screen passes one dict made over the whole history to every tab."""
    return everyone_colours({p.profile or p.name: p.name for p in stats.players}, chosen)


def everyone_colours(names: Mapping[str, str], chosen: dict[str, str] | None = None
                     ) -> dict[str, Rgba]:
    """Each player's colour, by name (``names``: player key -> name shown, stats.players'
    order): their profile's colour (``chosen``: uuid -> palette name), else one no other
    player has while the palette lasts, then the palette again; a black one drawn grey on the
    dark screen (the bar's label names the player, so colour is never the only cue). Made
    over every player of the history, a player has one colour in every tab (once the
    colours were dealt per title, so Anna was blue under one and green under another)."""
    chosen = chosen or {}
    picked = [palette.find(chosen.get(key) or "") for key in names]
    taken = [c for c in picked if c is not None]
    spare = [c for c in palette.PALETTE if c not in taken] or list(palette.PALETTE)
    out, n = {}, 0
    for name, colour in zip(names.values(), picked):
        if colour is None:
            colour, n = spare[n % len(spare)], n + 1
        out[name] = theme.MUTED if colour.hex == "#000000" else theme.rgba(colour.hex)
    return out


def _wins_by_player(stats: Stats, game: str, colours: dict[str, Rgba]) -> Block:
    """Each player's wins at a title as a bar as long as their win rate (2 of 15 shorter than
    2 of 9), in the player's colour, the count out of the games at its end."""
    ranked = sorted(((p.titles[game], p.name) for p in stats.players if game in p.titles),
                    key=lambda fn: (-(fn[0].win_rate or 0), -fn[0].wins, fn[1]))
    bars = tuple(ChartBar(name, 100 * (f.win_rate or 0), colours.get(name, theme.CALM),
                          _of(f.wins, f.games, f.win_rate))
                 for f, name in ranked[:MOST_BARS])
    rest = [f"{name} {f.wins} of {f.games}" for f, name in ranked[MOST_BARS:]]
    heading = ("Games won with the team (share of each one's games)" if game == "quest"
               else "Wins by player (share of each one's games)")
    return Block(heading, bars, ("Also: " + ", ".join(rest),) if rest else (), 100)


def _by(counts: dict[str, int]) -> str:
    return ", ".join(f"{name} {n}" for name, n in counts.items()) or "nobody yet"


def _cauldron(told: dict, extra: dict, games: int) -> list[Block]:
    words = labels("cauldron")
    seasons = [s for s in told["magik_by_season"] if s["games"] >= SEASON_SHARE * games]
    left = len(told["magik_by_season"]) - len(seasons)
    magik = Block("Magik at each season's end (average per seat)", tuple(
        ChartBar(f"Season {s['season']}", s["average"], theme.ACCENT,
                 f"{s['average']:g} ({games_words(s['games'])})") for s in seasons),
        (f"Later seasons, which fewer than {SEASON_SHARE:.0%} of the games reached, are left "
         "out.",) if left else (), 35)
    marks = told["milestones"]
    milestones = Block("Milestones taken", tuple(
        ChartBar(words.get(m, m), 100 * (v["share"] or 0), theme.CALM,
                 f"{v['taken']} of {games_words(v['games'])}") for m, v in marks.items()),
        tuple(f"{words.get(m, m)}: " + (f"season {v['average_season']:g} on average; "
                                        if v["average_season"] is not None else "")
              + _by(v["by"]) for m, v in marks.items()), 100)
    bought = told["purchases"]
    purchases = Block("Purchases by kind", tuple(
        ChartBar(words.get(k, k), v["count"], theme.GOOD, f"{v['count']} ({v['magik']} Magik)")
        for k, v in bought.items()))
    lines = []
    if extra.get("average_winning_magik") is not None:
        lines.append(f"Magik of the winner on average: {extra['average_winning_magik']:g}")
    if extra.get("characters"):
        lines.append("Wins by character: " + ", ".join(
            f"{c.title()} {v['wins']} of {v['seats']}" for c, v in extra["characters"].items()))
    return [magik, milestones, purchases] + ([Block("Results", (), tuple(lines))] if lines
                                             else [])


def _card_colour(role: str) -> Rgba:
    """A role's bar in its card's colour as printed (theme.CARD_COLOURS)."""
    from companion.games.witchs_brew.roles import ROLES

    printed = theme.CARD_COLOURS.get(getattr(ROLES.get(role), "colour", ""))
    return theme.rgba(printed) if printed else theme.CALM


def _witchs_brew(told: dict, extra: dict, played: dict[str, int],
                 colours: dict[str, Rgba]) -> list[Block]:
    words = labels("witchs_brew")
    roles = Block("How often each role was taken as its full action", tuple(
        ChartBar(words.get(k, k), 100 * (v["action_share"] or 0), _card_colour(k),
                 f"{pct(v['action_share'])} full, {v['actions']} of "
                 f"{v['actions'] + v['favours']}")
        for k, v in told["roles"].items()), ("Of all a role's uses, the share that were its full "
                                            "action; the rest were favors (\"So be it!\").",),
        100)
    ravens = told["ravens"]
    ranked = list(ravens["by"].items())
    taken = Block(f"Ravens taken: {ravens['taken']}, {ravens['per_game']:g} a game", tuple(
        ChartBar(name, n, colours.get(name, theme.ACCENT),
                 f"{n} in {games_words(played.get(name, 0))}")
        for name, n in ranked[:MOST_BARS]),
        ("Also: " + _by(dict(ranked[MOST_BARS:])),) if len(ranked) > MOST_BARS else ())
    lines = []
    if extra.get("average_winning_score") is not None:
        lines.append(f"Winning score on average: {extra['average_winning_score']:g}")
    lines.append(f"Shared wins: {extra.get('shared_wins', 0)}; decided by the tie-break: "
                 f"{extra.get('decided_by_tiebreak', 0)}")
    return [roles, taken, Block("Results", (), tuple(lines))]


def _quest(told: dict) -> list[Block]:
    words = labels("quest")
    bars = []
    for key, s in told["spells"].items():
        bars.append(ChartBar(words.get(key, key), 100 * (s["rate"] or 0), WORKED,
                             f"{s['worked']} of {s['cast']} ({pct(s['rate'])})"))
        bars.append(ChartBar("exact chance", 100 * (s["chance"] or 0), CHANCE,
                             pct(s["chance"])))
    exact = ", ".join(f"{words.get(k, k)} {s['exact']}" for k, s in told["spells"].items())
    spells = Block("Spells: how often each worked, beside its exact chance", tuple(bars),
                   (f"The exact chance is over three rolls, keeping the best dice: {exact}.",),
                   100)
    paths = told["paths_open"]
    counts = paths["games"]
    won = paths["average_when_won"]
    open_paths = Block("Paths left open at the end", tuple(
        ChartBar(f"{n} open", counts[n], theme.CALM, games_words(counts[n]))
        for n in sorted(counts, key=int, reverse=True)),
        (f"{paths['average']:g} on average" + (f"; {won:g} in the games won" if won is not None
                                               else ""),))
    return [spells, open_paths]


def title_view(stats: Stats, game: str, title: str,
               colours: dict[str, Rgba] | None = None) -> View:
    """One title's figures (``stats`` gathered for that title); ``colours``: the players'
    (player_colours), else each gets one of the palette in turn."""
    colours = player_colours(stats) if colours is None else colours
    if not stats.titles:
        return View(f"{title}: no finished games yet", (), ())
    t = stats.titles[0]
    f = t.figures
    if game == "quest":
        tiles = (Tile(str(f.games), "games"),
                 Tile(str(t.extra.get("team_wins", 0)), "won by the team"),
                 Tile(pct(t.extra.get("team_win_rate")), "team win rate"),
                 Tile(minutes(f.average_minutes), "a game on average"))
    else:
        tiles = (Tile(str(f.games), "games"),
                 Tile("-" if f.average_score is None else f"{f.average_score:g}",
                      "score on average"),
                 Tile("-" if f.best_score is None else str(f.best_score), "best score"),
                 Tile(minutes(f.average_minutes), "a game on average"))
    blocks = [_wins_by_player(stats, game, colours)]
    if game == "cauldron" and t.from_log:
        blocks += _cauldron(t.from_log, t.extra, f.games)
    elif game == "witchs_brew" and t.from_log:
        played = {p.name: p.titles[game].games for p in stats.players if game in p.titles}
        blocks += _witchs_brew(t.from_log, t.extra, played, colours)
    elif game == "quest" and t.from_log:
        blocks += _quest(t.from_log)
    return View(f"{title}: {games_words(f.games)}", tiles, tuple(blocks))
