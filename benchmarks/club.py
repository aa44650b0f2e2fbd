"""Figure 10 (the club): play with the club unreachable against play with no club.

- The app (benchmarks/latency_probe.py's scenario, as figure 4 runs it): seat presses and die
  reads from a thread -> the frame showing them, once with no club and once joined to a club
  whose port refuses (nothing listens there), so the sync thread (ui/table/club.py) fails,
  backs off and tries again while the table plays; the two runs alternate, and the figure is
  their ratio of medians.
- The step commit alone (``Session.execute`` with a Store on disk, synchronous=FULL): with no
  club, and with a ClubSync thread on its own connection to the same file, offered a status
  after every step and retrying a refused port every 50 ms (far more often than its backoff
  would), in alternating blocks; the ratio of medians.
"""

from __future__ import annotations

import socket
import statistics
import threading

from benchmarks.common import Figure, app_argv, run
from benchmarks.context import Context
from benchmarks.latency import execute_times

TITLE = "input -> frame and the step commit: the club unreachable vs no club"


def refused_settings(ctx: Context):
    """Club settings whose port nothing listens on (the port of a socket just closed)."""
    from companion.club import access

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    path = ctx.sandbox.path("club.json")
    access.save(access.Settings("bench", "Table 1", "club_table_table_1",
                                f"host=127.0.0.1 port={port} dbname=club "
                                "user=club_table_table_1 password=x sslmode=disable connect_timeout=2"),
                path, force=True)
    return access.load(path), path


def app_runs(ctx: Context, club_path, reps: int, presses: int, dice: int) -> dict[str, list]:
    out: dict[str, list] = {"none": [], "unreachable": []}
    for i in range(reps * 2):
        kind = ("none", "unreachable")[(i + reps) % 2]
        env = ctx.sandbox.env(**({"COMPANION_CLUB": str(club_path)} if kind != "none" else {}))
        db = ctx.sandbox.path(f"club-{kind}-{i}.sqlite3")
        done = run(app_argv("--scenario", "latency", "--presses", str(presses), "--dice",
                            str(dice), "--db", str(db)), env, timeout=300)
        out[kind].append(done.report)
    return out


def commits(ctx: Context, settings, blocks: int, count: int) -> dict[str, list[float]]:
    from companion.club.status import IDLE
    from companion.club.sync import Backoff, ClubSync, side_connection
    from companion.store import Store

    out: dict[str, list[float]] = {"none": [], "unreachable": []}
    path = ctx.sandbox.path("club-commit.sqlite3")
    with Store(path) as store:
        execute_times(store, count)       # warm: the first games' caches, not the club's
        for block in range(blocks * 2):
            if block % 2 == 0:
                out["none"] += execute_times(store, count)
                continue
            sync = ClubSync(side_connection(str(path)), store.device_id, settings)
            stop, wake = threading.Event(), threading.Event()
            thread = threading.Thread(target=sync.run, args=(stop, wake, Backoff(0.05, 0.05)),
                                      daemon=True)
            thread.start()
            offering = _Offering(store, sync)
            out["unreachable"] += execute_times(offering, count)
            stop.set()
            wake.set()
            thread.join(30)
            sync.conn.close()
            sync.offer(IDLE)
    return out


class _Offering:
    """The Store, with every new game's session offering the club a status after each step."""

    def __init__(self, store, sync) -> None:
        self.store, self.sync = store, sync

    def new_game(self, rules, setup):
        from companion.club.status import status_of

        session = self.store.new_game(rules, setup)
        session.add_listener(lambda s, _step: self.sync.offer(status_of(None) if s.over else {
            "state": "playing", "game": s.rules.name, "game_id": s.game_id}))
        self.sync.ask_send()
        return session


def measure(ctx: Context) -> Figure:
    fig = Figure("club", TITLE)
    settings, path = refused_settings(ctx)
    presses, dice, reps = ctx.pick(16, 60, 3), ctx.pick(6, 30, 2), ctx.pick(2, 3, 1)
    runs = app_runs(ctx, path, reps, presses, dice)
    for key, label in (("button_to_frame", "button -> frame"),
                       ("die_to_frame", "die (tray) -> frame")):
        none = [x for r in runs["none"] for x in r[key]]
        away = [x for r in runs["unreachable"] for x in r[key]]
        fig.add(f"{label}, no club", none, p99=True)
        fig.add(f"{label}, club unreachable", away, p99=True)
        fig.add(f"  ratio of medians, unreachable/none",
                [statistics.median(away) / statistics.median(none)], "x")
    got = commits(ctx, settings, ctx.pick(3, 5, 1), ctx.pick(100, 300, 20))
    fig.add("Session.execute + commit, no club", got["none"], p99=True)
    fig.add("Session.execute + commit, club unreachable (sync retrying)", got["unreachable"],
            p99=True, note="a status offered after every step; a connection tried every 50 ms")
    fig.add("  ratio of medians, unreachable/none",
            [statistics.median(got["unreachable"]) / statistics.median(got["none"])], "x")
    fig.notes.append("the club's port refuses at once; a server that does not answer at all "
                     "holds only the sync thread, up to its connect_timeout")
    return fig
