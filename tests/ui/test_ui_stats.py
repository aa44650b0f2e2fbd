"""The statistics screen over a history of autoplayed games of the three titles (with undos and
corrections): each title's view shows the figures companion.history.stats gathers (the big
numbers, every bar of every chart, from the same figures the companion tests check against
folded games), a player picked from those seen shows that player's figures, Back returns
where the screen was opened from. Every state is shot at 800x480 and 1280x720 and the portrait
720x1280, and goes through the layout check."""

from __future__ import annotations

import shutil

import pytest

from companion.history.stats import gather, players, profile_names
from companion.store import Store
from tests.support.history import build_history
from ui.screens.stats import open_stats
from ui.screens.stats_view import WORKED
from ui.widgets.chart import BarChart
from ui_helpers import both_sizes, button, close_dialogs, find, frames, resize, tall_shot, tap

COUNTS = {"witchs_brew": 24, "quest": 24, "cauldron": 6}
TITLES = {"witchs_brew": "Witch's Brew", "cauldron": "Cauldron", "quest": "Cauldron Quest"}


@pytest.fixture(scope="module")
def built(histories):
    return histories.get(COUNTS, seed=5, mess=0.03)[0]


@pytest.fixture
def screen(app, built, tmp_path):
    copy = tmp_path / "stats.sqlite3"
    shutil.copyfile(built, copy)
    app.open_store(copy)
    app.go_home()
    frames()
    yield app.screens.get_screen("stats")
    close_dialogs()
    resize(800, 480)


def charts(screen) -> list[BarChart]:
    return find(lambda w: isinstance(w, BarChart), screen.ids.body)


def scrolled(screen, to: float):
    def scroll() -> None:
        screen.ids.scroll.scroll_y = to
        frames()
    return scroll


def shots(name: str, screen) -> None:
    """The top, the middle and the end of the screen at both sizes; the top in portrait."""
    both_sizes(name)
    for at, where in ((0.5, "middle"), (0.0, "end")):
        both_sizes(f"{name}_{where}", scrolled(screen, at))
    resize(720, 1280)
    tall_shot(name)
    scrolled(screen, 0.0)()
    tall_shot(f"{name}_end")
    resize(800, 480)


@pytest.mark.parametrize("game", ["witchs_brew", "cauldron", "quest"])
def test_each_title_shows_its_figures_and_charts(app, screen, game):
    open_stats(app, game=game)
    frames()
    assert app.screens.current == "stats"
    stats = gather(app.store.conn, game=game)
    title = stats.titles[0]
    assert screen.heading == f"{TITLES[game]}: {COUNTS[game]} games"
    assert button(TITLES[game], screen).selected
    drawn = charts(screen)
    assert [list(c.bars) for c in drawn] == [list(b.bars) for b in screen.view.blocks if b.bars]
    # each player's bar as long as their win rate (2 of 15 shorter than 2 of 9), in their colour
    wins = drawn[0]
    rates = {p.name: 100 * (p.titles[game].win_rate or 0) for p in stats.players
             if game in p.titles}
    assert [b.value for b in wins.bars] == [rates[b.label] for b in wins.bars]
    assert [b.value for b in wins.bars] == sorted((b.value for b in wins.bars), reverse=True)
    assert screen.view.blocks[0].maximum == 100
    assert len({b.colour for b in wins.bars}) == len(wins.bars) > 1
    told = title.from_log
    if game == "quest":
        spells = [b for c in drawn for b in c.bars if b.colour == WORKED]
        assert [round(b.value, 1) for b in spells] == [
            round(100 * (s["rate"] or 0), 1) for s in told["spells"].values()]
    elif game == "witchs_brew":
        roles = next(c for c in drawn if len(c.bars) == 12)
        assert [b.text for b in roles.bars] == [
            f"{r['action_share']:.0%} full, {r['actions']} of {r['actions'] + r['favours']}"
            for r in told["roles"].values()]
    else:
        bought = drawn[-1]
        assert [b.value for b in bought.bars] == [v["count"] for v in told["purchases"].values()]
    shots(f"stats_{game}", screen)


def test_a_player_is_picked_from_those_seen(app, screen):
    open_stats(app, game="quest", back_to="home")
    frames()
    tap(button("A player...", screen))
    everyone = gather(app.store.conn).players
    assert {p.name for p in everyone} == set(players(_plays(app),
                                                     profile_names(app.store.conn)).values())
    for p in everyone:        # every player seen has a button, with the games played
        assert button(p.name).caption == f"{p.overall.games} games"
    both_sizes("stats_player_picker", lambda: tap(button("A player...", screen)))
    tap(button("A player...", screen))
    tap(button("Anna"))
    assert screen.kind == "player" and screen.player_label == "Anna"
    stats = gather(app.store.conn, player=screen.chosen)
    anna = stats.players[0]
    assert screen.heading == f"Anna: {anna.overall.games} games"
    wins = charts(screen)[0]
    assert [b.label for b in wins.bars] == [TITLES[g] for g in anna.titles]
    assert [b.text for b in wins.bars] == [
        f"{f.wins} of {f.games} ({f.win_rate:.0%})" for f in anna.titles.values()]
    told = {t.game: t.from_log for t in stats.titles}
    logs = next(b for b in screen.view.blocks if b.heading == "From the games' logs")
    ravens = told["witchs_brew"]["ravens"]["by"].get("Anna", 0)
    assert f"Ravens taken at Witch's Brew: {ravens}" in logs.lines
    shots("stats_player", screen)
    tap(button("Back", screen))
    assert app.screens.current == "home"


def _plays(app):
    from companion.history.plays import read_plays

    return read_plays(app.store.conn)


def test_home_opens_it_where_it_was_left_and_back_returns_home(app, screen):
    open_stats(app, game="quest", back_to="history")
    frames()
    app.go_home()
    frames()
    tap(button("Statistics"))
    assert app.screens.current == "stats" and screen.back_to == "home"
    assert screen.heading == f"Cauldron Quest: {COUNTS['quest']} games"
    tap(button("Back", screen))
    assert app.screens.current == "home"


def test_an_empty_history_says_so(app):
    app.go_home()
    frames()
    tap(button("Statistics"))
    screen = app.screens.get_screen("stats")
    tap(button("Cauldron", screen))
    assert screen.heading == "Cauldron: no finished games yet" and not charts(screen)
    tap(button("A player...", screen))
    assert find(lambda w: getattr(w, "text", "") == "Nobody has finished a game yet.")
    close_dialogs()
    tap(button("Back", screen))
    assert app.screens.current == "home"


def test_it_opens_on_a_title_that_has_games(app, tmp_path):
    """Statistics once opened on Witch's Brew with no Witch's Brew game kept."""
    path = tmp_path / "only-cauldron.sqlite3"
    with Store(path) as store:
        build_history(store, {"cauldron": 3}, seed=2, mess=0)
    app.open_store(path)
    app.go_home()
    frames()
    screen = app.screens.get_screen("stats")
    screen.kind, screen.chosen = "game", "witchs_brew"      # where a fresh screen starts
    tap(button("Statistics"))
    assert screen.chosen == "cauldron" and screen.heading.startswith("Cauldron: 3 games")


def test_a_player_has_one_colour_in_every_title_s_tab(app, screen):
    """A player's colour once changed between tabs (the palette was dealt over each
    title's players). Now one colour per player over the whole history, in every tab; and
    players of one tab still have colours of their own."""
    seen: dict[str, set] = {}
    for game in ("witchs_brew", "cauldron"):
        open_stats(app, game=game)
        frames()
        wins = charts(screen)[0]
        assert len({b.colour for b in wins.bars}) == len(wins.bars)
        for bar in wins.bars:
            seen.setdefault(bar.label, set()).add(tuple(bar.colour))
    assert len(seen) > 3
    assert all(len(colours) == 1 for colours in seen.values()), seen
