"""Start-up draws Home first: what the home screen does not draw is imported later.
A start is timed by benchmarks/cold_start.py; this holds the rule that makes it cheap: no game's
rules, table screens, charts, QR codes, club or phones' server before Home's first frame, on a
table that has games to resume. (Home's emblems are drawn by the games' own drawings: Quest's
``draw`` is Home's too.)"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from companion.games import all_games
from ui.games import GAMES

REPO = Path(__file__).resolve().parents[2]

#: never imported before the first frame (a prefix names a package and everything in it)
LATER = ("companion.games.witchs_brew", "companion.games.cauldron", "companion.games.quest",
         "ui.games.witchs_brew", "ui.games.cauldron", "ui.games.quest.table",
         "ui.games.quest.setup", "ui.games.quest.board", "ui.games.quest.panels",
         "ui.games.quest.result", "ui.screens.stats",
         "ui.screens.history", "ui.screens.game_detail", "ui.widgets.chart", "segno",
         "ui.widgets.qr", "companion.club", "psycopg", "aiohttp", "ui.web", "gpiozero")

PROBE = """
import json, sys
from benchmarks import probe
report = probe.report
def first(**values):
    if "first_frame" in values:
        print("MODULES " + json.dumps(sorted(sys.modules)), flush=True)
    report(**values)
probe.report = first
sys.argv = ["probe", "app", "--exit", "--db", sys.argv[1]]
probe.main()
"""


def test_home_and_the_rules_agree_on_each_games_title_and_whether_it_is_played_together():
    for name, rules in all_games().items():
        assert (GAMES[name].title, GAMES[name].cooperative) == (rules.title, rules.cooperative)


def test_the_first_frame_imports_nothing_home_does_not_draw(tmp_path):
    from companion.games import get_rules
    from companion.store import Store

    db = tmp_path / "companion.sqlite3"
    with Store(db) as store:                 # a game of each kind to resume
        store.new_game(get_rules("witchs_brew"), {"game": "witchs_brew",
                                                  "players": ["Anna", "Barb", "Carl"]})
        store.new_game(get_rules("quest"), {"game": "quest", "players": ["Mia", "Leo"],
                                            "needed": ["rotten_egg", "newt_eye", "bat_wing"]})
    env = {**os.environ, "SDL_VIDEODRIVER": "offscreen", "KIVY_NO_ARGS": "1",
           "KIVY_NO_CONSOLELOG": "1", "KIVY_HOME": str(tmp_path / "kivy"),
           "GPIOZERO_PIN_FACTORY": "mock", "COMPANION_SOUND": "0",
           "COMPANION_SETTINGS": str(tmp_path / "settings.json"),
           "PYTHONPATH": str(REPO)}
    done = subprocess.run([sys.executable, "-c", PROBE, str(db)], cwd=REPO, env=env,
                          capture_output=True, text=True, timeout=120)
    lines = [line for line in done.stdout.splitlines() if line.startswith("MODULES ")]
    assert lines, done.stderr[-2000:]
    modules = json.loads(lines[0][len("MODULES "):])
    early = [m for m in modules if any(m == p or m.startswith(p + ".") for p in LATER)]
    assert early == [], f"imported before Home's first frame: {early}"
