"""``companion stats`` and ``companion export --all`` over a history of hundreds of games of all
three titles, played to their ends by the rule-abiding autoplay tables into a real store: every
figure is checked against a direct count over the sessions' own results (as the rules gave them
at the end, in memory, not as read back from the file), and every export format parses back to
the same plays. The timing of ``stats`` over 1,000 games is printed beside a plain SQL query of
the same rows (a figure, not an assertion).
"""

from __future__ import annotations

import csv
import io
import json
import random
import sqlite3
import time
from contextlib import redirect_stdout
from dataclasses import dataclass
from datetime import datetime, timedelta, timezone
from itertools import groupby
from typing import Any

import pytest

from companion.cli.main import main
from companion.core import Command
from companion.core.errors import RuleViolation
from companion.games import all_games, get_rules
from companion.history.backup import backup
from companion.history.export_all import render
from companion.history.plays import read_plays
from companion.history.stats import compute
from companion.store import Store
from tests.companion import cauldron_autoplay, quest_autoplay
from tests.support import autoplay
from tests.support.figures import median_ms, report

NAMES = ["Anna", "Barb", "Carl", "Dora", "Emil", "Fynn"]
CHARACTERS = ["witch", "druid", "trickster", "shaman", "alchemist", "occultist"]
NEEDED = ["rotten_egg", "newt_eye", "bat_wing"]
#: The history's first evening; each next game starts a few hours later.
FIRST = datetime(2026, 1, 5, 18, 0, tzinfo=timezone.utc)
TITLES = {name: rules.title for name, rules in all_games().items()}
#: Finished games per title in the module's history, and games left running or abandoned.
COUNTS = {"witchs_brew": 100, "quest": 80, "cauldron": 20}
UNFINISHED = 6


@dataclass(frozen=True)
class Played:
    """One autoplayed game as the test knows it, independent of what the file holds."""

    id: int
    game: str
    status: str
    results: list[dict[str, Any]]
    names: list[str]
    created: datetime
    finished: datetime | None
    #: the table clock's game time in seconds, when one was kept
    clock: float | None
    variants: list[str]

    @property
    def minutes(self) -> float | None:
        if self.clock is not None:
            return round(self.clock / 60, 1)
        if self.finished is None:
            return None
        return round((self.finished - self.created).total_seconds() / 60, 1)


def _setup(game: str, rng: random.Random) -> dict[str, Any]:
    if game == "witchs_brew":
        names = rng.sample(NAMES, rng.randint(3, 5))
        variants = ["excluded_roles"] if len(names) < 5 and rng.random() < 0.3 else []
        return {"players": names, "variants": variants}
    if game == "cauldron":
        seats = rng.sample(range(5), rng.randint(2, 3))  # Fynn never plays Cauldron
        variants = ["quick"] if rng.random() < 0.5 else []
        return {"players": [{"name": NAMES[i], "character": CHARACTERS[i]} for i in seats],
                "variants": variants, "milestones": dict(cauldron_autoplay.MILESTONES)}
    return {"players": rng.sample(NAMES, rng.randint(1, 4)), "needed": list(NEEDED),
            "path_spaces": rng.choice([1, 2]), "share_spaces": rng.random() < 0.3}


def _step(session: Any, game: str, rng: random.Random) -> None:
    if game == "witchs_brew":
        session.execute(autoplay.next_command(session, rng))
    elif game == "cauldron":
        session.execute(cauldron_autoplay.next_command(session, rng))
    else:
        session.execute(_quest_command(session.state, rng))


def _quest_command(state: dict[str, Any], rng: random.Random) -> Command:
    """The random Quest table, a little wiser so that some games are won: it casts
    Omniscience more often, and what it reveals is an ingredient the cauldron needs (any
    ingredient not yet revealed is legal)."""
    command = quest_autoplay.random_command(state, rng)
    if command.do == "reveal":
        free = [i for i in state["needed"] if i not in state["revealed"].values()]
        if free:
            return Command("reveal", args={"bottle": command.args["bottle"],
                                           "ingredient": free[0]})
    if command.do == "announce_spell" and rng.random() < 0.6:
        return Command("announce_spell", args={"spell": "omniscience"})
    return command


def _mess(session: Any, game: str, rng: random.Random) -> None:
    """What a real table also does: undo (then redo, or play on: the undone step is dropped)
    and correct by hand (a Witch's Brew potion put back and maybe taken again, a Cauldron
    Magik change, a Quest roll fixed or obstacle broken); one that the rules refuse is
    left out."""
    state = session.state
    try:
        if rng.random() < 0.4 and session.can_undo:
            session.undo()
            if rng.random() < 0.5:
                session.redo()
        elif game == "witchs_brew":
            held = [(p["name"], i, potion) for p in state["players"]
                    for i, potion in enumerate(p["potions"])]
            if held:
                name, i, potion = rng.choice(held)
                again = {"potion": dict(potion)} if rng.random() < 0.5 else {}
                session.execute(Command("adjust", name, {"remove_potion": i, **again}))
        elif game == "cauldron":
            name = rng.choice(state["players"])["name"]
            session.execute(Command("adjust_magik", name, {"delta": rng.choice([-2, -1, 1, 3])}))
        elif (state.get("correctable") or {}).get("kind") == "magic":
            session.execute(Command("correct_roll", args={
                "dice": [rng.randint(1, 6) for _ in range(3)]}))
        elif state["obstacles"] and not state["spell_breaker_used"]:
            session.execute(Command("break_obstacle", args={"path": state["obstacles"][0]}))
    except RuleViolation:
        pass


def build_history(store: Store, counts: dict[str, int], unfinished: int = 0,
                  seed: int = 0, mess: float = 0.0) -> list[Played]:
    """Games of each title played to their ends into ``store`` in a shuffled order (and
    ``unfinished`` left halfway, every other one abandoned), dated a few hours apart, about
    half of them with a table clock kept, as the app keeps it; ``mess``: the share of steps
    that are an undo or a correction instead (_mess)."""
    rng = random.Random(seed)
    order = [(g, True) for g, n in counts.items() for _ in range(n)]
    order += [("witchs_brew", False)] * unfinished
    rng.shuffle(order)
    played, left_running = [], True
    for i, (game, ends) in enumerate(order):
        session = store.new_game(get_rules(game), _setup(game, rng))
        for _ in range(4000 if ends else rng.randint(5, 30)):
            if session.over:
                break
            if mess and rng.random() < mess:
                _mess(session, game, rng)
            else:
                _step(session, game, rng)
        assert session.over == ends, f"autoplay: {game} game {i} did not end"
        created = FIRST + timedelta(hours=5 * i, minutes=rng.randint(0, 59))
        finished = created + timedelta(minutes=rng.randint(12, 150), seconds=rng.randint(0, 59))
        status = "finished" if ends else "running" if left_running else "abandoned"
        if not ends:
            left_running = not left_running
        if status == "abandoned":
            store.abandon(session.game_id)
        store.conn.execute("UPDATE games SET created_at = ?, finished_at = ? WHERE id = ?", (
            created.isoformat(timespec="seconds"),
            finished.isoformat(timespec="seconds") if ends else None, session.game_id))
        clock = None
        if rng.random() < 0.5:
            clock = float(rng.randint(600, 9000)) + 0.5
            store.keep_clocks(session.game_id, {"game": clock, "seats": [], "paused": False})
        played.append(Played(
            session.game_id, game, status,
            session.rules.results(session.state) if ends else [], list(session.names),
            created, finished if ends else None, clock, list(session.setup.get("variants", []))))
    return played


@pytest.fixture(scope="module")
def history(tmp_path_factory):
    """200 finished games (and a few unfinished) in a store on disk; ``synchronous = OFF``
    only so that the test builds them quickly (the store commits each step as in play)."""
    path = tmp_path_factory.mktemp("history") / "c.sqlite3"
    started = time.perf_counter()
    with Store(path) as store:
        store.conn.execute("PRAGMA synchronous = OFF")
        played = build_history(store, COUNTS, UNFINISHED)
    report("history", f"{len(played)} games autoplayed into the store in "
                      f"{time.perf_counter() - started:.1f} s")
    return path, played


# -- the figures, counted directly -----------------------------------------------------------
def streak(won: list[bool]) -> int:
    return max((len(list(run)) for w, run in groupby(won) if w), default=0)


def mean(values: list[float]) -> float | None:
    return round(sum(values) / len(values), 1) if values else None


def expected_figures(games: list[Played], name: str | None, scored: bool) -> dict[str, Any]:
    """A player's (``name``) or a title's (None: every seat) figures, in the order games ended."""
    games = sorted(games, key=lambda p: (p.finished, p.id))
    if name is None:
        won = [any(r["winner"] for r in p.results) for p in games]
        scores = [r["score"] for p in games for r in p.results]
    else:
        mine = [next(r for r in p.results if r["name"] == name) for p in games]
        won, scores = [r["winner"] for r in mine], [r["score"] for r in mine]
    return {"games": len(games), "wins": sum(won),
            "win_rate": round(sum(won) / len(games), 3) if games else None,
            "average_score": mean(scores) if scored else None,
            "best_score": max(scores) if scored and scores else None,
            "average_minutes": mean([p.minutes for p in games]),
            "longest_streak": streak(won)}


def profiles(path: Any) -> dict[str, str]:
    """Each name's profile uuid, as the store linked them at setup (one profile per name)."""
    with sqlite3.connect(path) as conn:
        return dict(conn.execute("SELECT name, uuid FROM profiles"))


def without_log(stats: dict[str, Any]) -> dict[str, Any]:
    """The figures from the results only (what the logs tell is test_history_tally's)."""
    return {**stats, "titles": [{k: v for k, v in t.items() if k != "from_log"}
                                for t in stats["titles"]]}


def expected_stats(played: list[Played], player: str | None = None,
                   game: str | None = None, linked: dict[str, str] | None = None
                   ) -> dict[str, Any]:
    games = [p for p in played if p.status == "finished" and game in (None, p.game)
             and (player is None or player in p.names)]
    people = sorted({n for p in games for n in p.names} if player is None else {player})
    players = []
    for name in people:
        mine = [p for p in games if name in p.names]
        players.append({"name": name, "profile": (linked or {}).get(name),
                        "overall": expected_figures(mine, name, False),
                        "titles": {t: expected_figures([p for p in mine if p.game == t], name,
                                                       t != "quest")
                                   for t in sorted({p.game for p in mine})}})
    players.sort(key=lambda p: (-p["overall"]["games"], p["name"]))
    titles = []
    for t in sorted({p.game for p in games}):
        of = [p for p in games if p.game == t]
        titles.append({"game": t, "title": TITLES[t], **expected_figures(of, None, t != "quest"),
                       "extra": expected_extra(t, of)})
    return {"games": len(games), "players": players, "titles": titles}


def expected_extra(game: str, games: list[Played]) -> dict[str, Any]:
    seats = [r for p in games for r in p.results]
    if game == "cauldron":
        characters = sorted({r["character"] for r in seats})
        counted = {c: ([r for r in seats if r["character"] == c]) for c in characters}
        return {"average_winning_magik": mean([r["score"] for r in seats if r["winner"]]),
                "average_brews": mean([r["brews"] for r in seats]),
                "characters": {c: {"seats": len(rs), "wins": sum(r["winner"] for r in rs),
                                   "win_rate": round(sum(r["winner"] for r in rs) / len(rs), 3)}
                               for c, rs in counted.items()}}
    if game == "witchs_brew":
        tied = 0
        for p in games:
            top = max(r["score"] for r in p.results)
            at_top = [r for r in p.results if r["score"] == top]
            tied += len(at_top) > 1 and sum(r["winner"] for r in at_top) < len(at_top)
        return {"average_winning_score": mean([r["score"] for r in seats if r["winner"]]),
                "shared_wins": sum(sum(r["winner"] for r in p.results) > 1 for p in games),
                "decided_by_tiebreak": tied}
    won = sum(all(r["winner"] for r in p.results) for p in games)
    return {"team_wins": won, "team_win_rate": round(won / len(games), 3),
            "average_players": mean([len(p.results) for p in games])}


def cli(*args: str) -> tuple[int, str]:
    out = io.StringIO()
    with redirect_stdout(out):
        code = main(list(args))
    return code, out.getvalue()


# -- stats -----------------------------------------------------------------------------------
def test_the_history_holds_every_title_and_real_ties(history):
    _, played = history
    finished = [p for p in played if p.status == "finished"]
    assert {g: sum(p.game == g for p in finished) for g in COUNTS} == COUNTS
    assert {p.status for p in played} == {"finished", "running", "abandoned"}
    quest = [p for p in finished if p.game == "quest"]
    assert 0 < sum(p.results[0]["winner"] for p in quest) < len(quest)  # won and lost games
    assert any(p.variants for p in finished) and any(p.clock for p in finished)


def test_stats_match_a_direct_count_of_the_sessions_results(history):
    path, played = history
    with Store(path, readonly=True) as store:
        stats = compute(read_plays(store.conn)).as_dict()
    assert without_log(stats) == expected_stats(played, linked=profiles(path))
    assert stats["games"] == sum(COUNTS.values())
    assert any(p["overall"]["longest_streak"] >= 3 for p in stats["players"])


@pytest.mark.parametrize("player, game, name, title", [
    ("Anna", None, "Anna", None), (None, "cauldron", None, "cauldron"),
    ("dora", "Cauldron Quest", "Dora", "quest"), ("Emil", "Witch's Brew", "Emil", "witchs_brew"),
])
def test_stats_filtered_by_player_and_title_from_the_command_line(history, player, game, name,
                                                                    title):
    path, played = history
    args = ["stats", "--db", str(path), "--json"]
    args += ["--player", player] if player else []
    args += ["--game", game] if game else []
    code, out = cli(*args)
    assert code == 0
    assert without_log(json.loads(out)) == expected_stats(played, name, title, profiles(path))


def test_stats_in_words_name_every_player_and_title(history):
    path, played = history
    code, out = cli("stats", "--db", str(path))
    assert code == 0 and out.startswith(f"{sum(COUNTS.values())} finished games")
    for name in {n for p in played for n in p.names}:
        assert f"\n  {name}: " in out
    for title in TITLES.values():
        assert f"\n  {title}: " in out
    assert "wins by character: " in out and "team win rate: " in out


@pytest.mark.parametrize("args, words", [
    (["--player", "Zed"], "--player: nobody named 'Zed' played these games; the players are"),
    (["--game", "chess"], "--game: there is no game 'chess'; the games are Witch's Brew"),
])
def test_stats_names_an_unknown_player_or_title(history, capsys, args, words):
    path, _ = history
    assert main(["stats", "--db", str(path), *args]) == 2
    assert words in capsys.readouterr().err


def test_stats_say_when_no_game_matches(history, tmp_path, monkeypatch):
    path, played = history
    never = "Fynn"
    assert any(never in p.names for p in played)
    assert not any(never in p.names for p in played if p.game == "cauldron")
    assert cli("stats", "--db", str(path), "--game", "cauldron", "--player", never) == (
        0, f"No finished games of Cauldron with {never}.\n")
    monkeypatch.setenv("COMPANION_DB", str(tmp_path / "none.sqlite3"))
    assert cli("stats") == (0, "No finished games yet.\n")
    assert json.loads(cli("stats", "--json")[1]) == {"games": 0, "players": [], "titles": []}


def test_a_streak_follows_the_moments_games_ended_across_a_clock_change():
    """On the night clocks go back, 02:10+01:00 comes after 02:30+02:00: as text it would not,
    and Anna's won-lost-won would read as two wins in a row."""
    from companion.history.plays import Play, Seat

    def play(n: int, ended: str, won: bool) -> Play:
        return Play(n, "witchs_brew", "Witch's Brew", "finished", ended, ended, 30.0,
                    (Seat(0, "Anna", 5, won, {}), Seat(1, "Barb", 4, not won, {})), (), {})

    plays = [play(1, "2026-10-25T02:30:00+02:00", True),
             play(2, "2026-10-25T02:10:00+01:00", False),
             play(3, "2026-10-25T03:00:00+01:00", True)]
    anna = compute(plays, player="Anna").players[0]
    assert (anna.overall.wins, anna.overall.longest_streak) == (2, 1)


# -- export --all ----------------------------------------------------------------------------
def local(moment: datetime | None) -> str | None:
    return None if moment is None else moment.astimezone().isoformat(timespec="seconds")


def expected_play(p: Played) -> dict[str, Any]:
    """What an export says of a game, from the test's own record of it."""
    seats = p.results or [{"seat": i, "name": n, "score": None, "winner": False}
                          for i, n in enumerate(p.names)]
    return {"id": p.id, "game": p.game, "title": TITLES[p.game], "status": p.status,
            "started": local(p.created), "finished": local(p.finished),
            "length_minutes": p.minutes, "variants": p.variants,
            "players": [(s["seat"], s["name"], s["score"], s["winner"]) for s in seats],
            "winners": [s["name"] for s in seats if s["winner"]]}


def from_json(game: dict[str, Any]) -> dict[str, Any]:
    keys = ("id", "game", "title", "status", "started", "finished", "length_minutes",
            "variants", "winners")
    return {**{k: game[k] for k in keys},
            "players": [(s["seat"], s["name"], s["score"], s["winner"]) for s in game["players"]]}


def from_csv(text: str) -> list[dict[str, Any]]:
    """The csv's rows (one per seat) gathered back into games."""
    games: dict[int, dict[str, Any]] = {}
    for row in csv.DictReader(io.StringIO(text)):
        game = games.setdefault(int(row["id"]), {
            "id": int(row["id"]), "game": row["game"], "title": row["title"],
            "status": row["status"], "started": row["started"], "finished": row["finished"] or None,
            "length_minutes": float(row["length_minutes"]) if row["length_minutes"] else None,
            "variants": row["variants"].split("; ") if row["variants"] else [],
            "winners": row["winners"].split("; ") if row["winners"] else [], "players": []})
        game["players"].append((int(row["seat"]), row["player"],
                                int(row["score"]) if row["score"] else None, row["winner"] == "1"))
        assert isinstance(json.loads(row["setup"]), dict)
    return list(games.values())


@pytest.fixture
def berlin(monkeypatch):
    """Local time an hour or two off UTC, so the exports' local times are seen converted."""
    monkeypatch.setenv("TZ", "Europe/Berlin")
    time.tzset()
    yield
    monkeypatch.undo()
    time.tzset()


@pytest.mark.parametrize("fmt", ["csv", "json", "jsonl"])
def test_every_export_format_parses_back_to_the_played_games(history, tmp_path, berlin, fmt):
    path, played = history
    out = tmp_path / f"all.{fmt}"
    assert cli("export", "--all", "--db", str(path), "--format", fmt, "--out", str(out))[0] == 0
    text = out.read_text(encoding="utf-8")
    if fmt == "csv":
        games = from_csv(text)
    else:
        parsed = (json.loads(text) if fmt == "json"
                  else [json.loads(line) for line in text.splitlines()])
        games = [from_json(g) for g in parsed]
    wanted = [expected_play(p) for p in played if p.status == "finished"]
    assert games == wanted
    assert games[0]["started"].endswith(("+01:00", "+02:00"))  # local time, with its offset


def test_export_figures_sum_to_the_stats(history):
    """A sheet made from the csv counts what ``stats`` says (wins, best scores per player)."""
    path, played = history
    _, text = cli("export", "--all", "--db", str(path), "--format", "csv")
    _, stats = cli("stats", "--db", str(path), "--json")
    rows = list(csv.DictReader(io.StringIO(text)))
    for p in json.loads(stats)["players"]:
        mine = [r for r in rows if r["player"] == p["name"]]
        assert len(mine) == p["overall"]["games"]
        assert sum(r["winner"] == "1" for r in mine) == p["overall"]["wins"]
        for game, figures in p["titles"].items():
            scores = [int(r["score"]) for r in mine if r["game"] == game]
            assert figures["best_score"] == (max(scores) if game != "quest" else None)


def test_export_since_a_date_and_with_unfinished_games(history):
    path, played = history
    cut = played[len(played) // 2].created
    since = cut.astimezone().strftime("%Y-%m-%d")
    midnight = datetime.fromisoformat(since).astimezone()
    _, text = cli("export", "--all", "--db", str(path), "--format", "jsonl", "--since", since)
    assert [json.loads(line)["id"] for line in text.splitlines()] == [
        p.id for p in played if p.status == "finished" and p.created >= midnight]
    _, text = cli("export", "--all", "--db", str(path), "--format", "json",
                  "--include-unfinished")
    games = json.loads(text)
    assert [from_json(g) for g in games] == [expected_play(p) for p in played]
    assert {g["status"] for g in games} == {"finished", "running", "abandoned"}


@pytest.mark.parametrize("args, words", [
    (["--all", "--since", "last week"], "--since: 'last week' is not a date"),
    (["--all", "--raw"], "--raw goes with --log"),
    (["--log", "1", "--format", "csv"], "--format, --since and --include-unfinished go with --all"),
])
def test_export_refuses_options_that_do_not_go_together(history, capsys, args, words):
    path, _ = history
    assert main(["export", "--db", str(path), *args]) == 2
    assert words in capsys.readouterr().err


def test_export_all_of_a_database_never_written_is_empty(tmp_path, monkeypatch):
    monkeypatch.setenv("COMPANION_DB", str(tmp_path / "none.sqlite3"))
    assert cli("export", "--all", "--format", "json") == (0, "[]\n")
    assert cli("export", "--all", "--format", "csv")[1].startswith("id,uuid,game,title,")
    assert not (tmp_path / "none.sqlite3").exists()


# -- 1,000 games -----------------------------------------------------------------------------
def clone_finished(conn: sqlite3.Connection, total: int) -> None:
    """Copies of the finished games (their list rows: game, players, results, clock) until
    ``total`` are finished, in one transaction: a thousand games for the timing."""
    ids = [r[0] for r in conn.execute("SELECT id FROM games WHERE status = 'finished'")]
    more = total - len(ids)
    conn.execute("BEGIN IMMEDIATE")
    for i in range(more):
        source = ids[i % len(ids)]
        new = conn.execute(
            "INSERT INTO games (game, setup, status, created_at, updated_at, finished_at, "
            "done_steps) SELECT game, setup, status, created_at, updated_at, finished_at, "
            "done_steps FROM games WHERE id = ?", (source,)).lastrowid
        for table, columns in (("players", "seat, name"),
                               ("results", "seat, name, score, winner, detail"),
                               ("clocks", "data, updated_at")):
            conn.execute(f"INSERT INTO {table} (game_id, {columns}) SELECT ?, {columns} "
                         f"FROM {table} WHERE game_id = ?", (new, source))
    conn.execute("COMMIT")



def test_stats_over_a_thousand_games_beside_a_plain_query(history, tmp_path):
    path, _ = history
    copy = tmp_path / "thousand.sqlite3"
    backup(str(path), str(copy))
    with Store(copy) as store:
        clone_finished(store.conn, 1000)
    with Store(copy, readonly=True) as store:
        conn = store.conn
        stats = compute(read_plays(conn))
        assert stats.games == 1000
        assert sum(t.figures.games for t in stats.titles) == 1000

        def plain() -> None:
            conn.execute("SELECT id, game, setup, created_at, finished_at FROM games "
                         "WHERE status = 'finished'").fetchall()
            conn.execute("SELECT r.game_id, r.seat, r.name, r.score, r.winner, r.detail FROM "
                         "results r JOIN games g ON g.id = r.game_id "
                         "WHERE g.status = 'finished'").fetchall()
            conn.execute("SELECT game_id, data FROM clocks").fetchall()

        sql = median_ms(plain, 5)
        read = median_ms(lambda: read_plays(conn), 5)
        whole = median_ms(lambda: compute(read_plays(conn)), 5)
        text = median_ms(lambda: render(read_plays(conn), "csv"), 5)
    command = median_ms(lambda: cli("stats", "--db", str(copy), "--json"), 3)
    report("history", f"stats over 1,000 finished games: {whole:.1f} ms (reading the plays "
                      f"{read:.1f} ms of it); a plain SQL query of the same rows {sql:.1f} ms; "
                      f"companion stats --json in-process {command:.1f} ms; export --all csv "
                      f"{text:.1f} ms")
