"""Histories of hundreds of games of all three titles, played to their ends by the
rule-abiding autoplay tables into a real store (build_history), and a session's cache of them
(Histories): the history, statistics, export, browse and club tests check their figures
against what the test played, never against what the file says.
"""

from __future__ import annotations

import copy
import io
import random
import shutil
import time
from contextlib import redirect_stdout
from dataclasses import dataclass
from datetime import datetime, timedelta, timezone
from pathlib import Path
from typing import Any

from companion.cli.main import main
from companion.core import Command
from companion.core.errors import RuleViolation
from companion.games import all_games, get_rules
from companion.store import Store
from tests.companion import cauldron_autoplay, quest_autoplay
from tests.support import autoplay
from tests.support.figures import report

NAMES = ["Anna", "Barb", "Carl", "Dora", "Emil", "Fynn"]
CHARACTERS = ["witch", "druid", "trickster", "shaman", "alchemist", "occultist"]
NEEDED = ["rotten_egg", "newt_eye", "bat_wing"]
#: The history's first evening; each next game starts a few hours later.
FIRST = datetime(2026, 1, 5, 18, 0, tzinfo=timezone.utc)
TITLES = {name: rules.title for name, rules in all_games().items()}
#: Finished games per title in the history most modules share, and games left running or
#: abandoned.
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


def random_setup(game: str, rng: random.Random) -> dict[str, Any]:
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


def random_step(session: Any, game: str, rng: random.Random) -> None:
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
        session = store.new_game(get_rules(game), random_setup(game, rng))
        for _ in range(4000 if ends else rng.randint(5, 30)):
            if session.over:
                break
            if mess and rng.random() < mess:
                _mess(session, game, rng)
            else:
                random_step(session, game, rng)
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


def cli(*args: str) -> tuple[int, str]:
    out = io.StringIO()
    with redirect_stdout(out):
        code = main(list(args))
    return code, out.getvalue()



class Histories:
    """Each history built once a session (once a worker's, under pytest-xdist) for every module
    that asks the same one: 200 games take seconds to play, a copy of their file milliseconds.
    Each ask gets a file of its own, so no module sees what another wrote."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.built: dict[tuple, tuple[Path, list[Played]]] = {}
        self.copies = 0

    def get(self, counts: dict[str, int], unfinished: int = 0, seed: int = 0,
            mess: float = 0.0) -> tuple[Path, list[Played]]:
        """A copy of the file of build_history's games (``synchronous = OFF`` only so that it
        builds quickly: the store commits each step as in play) and the games as played."""
        key = (tuple(counts.items()), unfinished, seed, mess)
        if key not in self.built:
            path = self.folder / f"built-{len(self.built)}.sqlite3"
            started = time.perf_counter()
            with Store(path) as store:
                store.conn.execute("PRAGMA synchronous = OFF")
                played = build_history(store, counts, unfinished, seed, mess)
            report("history", f"{len(played)} games autoplayed into the store in "
                              f"{time.perf_counter() - started:.1f} s (seed {seed}, "
                              f"{mess:.0%} undos and corrections), once a session")
            assert not any(path.parent.glob(path.name + "-*")), "the store left a -wal behind"
            self.built[key] = path, played
        path, played = self.built[key]
        self.copies += 1
        own = self.folder / f"copy-{self.copies}"
        own.mkdir()
        shutil.copyfile(path, own / "c.sqlite3")
        return own / "c.sqlite3", copy.deepcopy(played)
