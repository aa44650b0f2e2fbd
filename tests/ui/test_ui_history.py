"""The history and game detail screens over a history of 200 autoplayed games of all three
titles: the list reads a page at a time and counts what its filters keep (checked against the
games as the test played them), the player picker offers the players seen, a row opens the
game's detail, whose result, chart and log in words are the stored game's own. Every state is
shot at 800x480 and 1280x720 (and the portrait 720x1280) and goes through the layout check."""

from __future__ import annotations

import shutil
import time

import pytest
from kivy.app import App

from companion.history.series import story
from tests.support.figures import report
from ui.screens.history import PAGE
from ui.widgets.qr import describe
from ui_helpers import (
    both_sizes, button, close_dialogs, dialogs, find, frames, resize, shot, tall_shot, tap,
    texts,
)

COUNTS = {"witchs_brew": 100, "quest": 80, "cauldron": 20}
TITLES = {"witchs_brew": "Witch's Brew", "cauldron": "Cauldron", "quest": "Cauldron Quest"}


@pytest.fixture(scope="module")
def built(histories):
    """200 finished games (and a few unfinished) in a file, built once a session."""
    return histories.get(COUNTS, unfinished=4, seed=7)


@pytest.fixture
def history(app, built, tmp_path):
    """The app on a copy of the built history, showing the history screen (opened from home
    with its button)."""
    path, played = built
    copy = tmp_path / "history.sqlite3"
    shutil.copyfile(path, copy)
    app.open_store(copy)
    app.go_home()
    frames()
    tap(button("History"))
    assert app.screens.current == "history"
    yield app.screens.get_screen("history"), played
    close_dialogs()
    resize(800, 480)


def finished(played, game=None, name=None):
    kept = [p for p in played if p.status == "finished" and game in (None, p.game)
            and (name is None or name in p.names)]
    return sorted(kept, key=lambda p: (p.created, p.id), reverse=True)


def rows(screen) -> list[dict]:
    return screen.ids.games.data


def test_the_list_pages_counts_and_opens_from_home(history):
    screen, played = history
    want = finished(played)
    assert screen.counted == "200 games" == screen.ids.count.text
    assert [r["game_id"] for r in rows(screen)] == [p.id for p in want[:PAGE]]
    assert TITLES[want[0].game] in rows(screen)[0]["head"]
    for row, play in zip(rows(screen), want):          # every seat's score, the winner marked
        if play.game != "quest":
            for r in play.results:
                shown = f"{r['name']}\u00a0{r['score']}" + ("\u00a0(won)" if r["winner"] else "")
                assert shown in row["scores"], (play.id, row["scores"])
        else:
            won = any(r["winner"] for r in play.results)
            assert row["scores"].endswith("won together[/color][/b]" if won else "lost together")
    rv = screen.ids.games
    assert len(rv.children[0].children) < PAGE           # a screenful of row widgets
    both_sizes("history")
    rv.scroll_y = 0                                      # to the end: the next page
    frames()
    assert [r["game_id"] for r in rows(screen)] == [p.id for p in want[:2 * PAGE]]
    shot("history_scrolled")


def test_title_and_player_filters_and_the_picker(history):
    screen, played = history
    tap(button("Cauldron"))
    want = finished(played, "cauldron")
    assert screen.counted == f"{len(want)} games" == "20 games"
    assert [r["game_id"] for r in rows(screen)] == [p.id for p in want[:PAGE]]
    assert all("Cauldron" in r["head"] and "Quest" not in r["head"] for r in rows(screen))
    both_sizes("history_cauldron")
    tap(button("Player: Anyone"))
    assert len(dialogs()) == 1
    offered = [w.title for w in find(lambda w: hasattr(w, "player"), dialogs()[0])]
    cauldron_players = {n for p in want for n in p.names}
    assert offered[0] == "Anyone" and set(offered[1:]) == cauldron_players
    both_sizes("history_player_picker", before=lambda: tap(button("Player: Anyone")))
    tap(button("Player: Anyone"))
    tap(button("Dora", dialogs()[0]))
    assert not dialogs()
    want = finished(played, "cauldron", "Dora")
    assert screen.counted == f"{len(want)} games"
    assert [r["game_id"] for r in rows(screen)] == [p.id for p in want[:PAGE]]
    both_sizes("history_cauldron_dora")
    tap(screen.ids.stats_top)                  # the statistics of what the list shows: Dora's
    app = App.get_running_app()
    stats = app.screens.get_screen("stats")
    assert app.screens.current == "stats" and stats.kind == "player"
    assert stats.chosen == (screen._filter.profile or "Dora")
    stats.go_back()
    frames()
    assert app.screens.current == "history" and screen.counted == f"{len(want)} games"
    tap(button("All titles"))
    want = finished(played, name="Dora")
    assert screen.counted == f"{len(want)} games"
    tap(button("Cauldron"))
    tap(button("Player: Dora"))                         # Fynn never plays Cauldron
    tap(button("Anyone", dialogs()[0]))
    tap(button("Player: Anyone"))
    assert "Fynn" not in [w.title for w in find(lambda w: hasattr(w, "player"), dialogs()[0])]
    close_dialogs()
    tap(button("All titles"))
    tap(button("Player: Anyone"))
    fynn = button("Fynn", dialogs()[0])          # the last listed may be below the fold
    scroller = next(iter(find(lambda w: w.__class__.__name__ == "ScrollView", dialogs()[0])), None)
    if scroller is not None:
        scroller.scroll_to(fynn, animate=False)
        frames()
    tap(fynn)
    tap(button("Cauldron"))
    assert screen.counted == "0 games" and rows(screen) == []
    assert "No finished games with these choices." in texts(screen)
    shot("history_nothing_kept")


def row_widget(screen, game_id: int):
    found = [w for w in screen.ids.games.children[0].children
             if getattr(w, "game_id", None) == game_id]
    assert found, f"no row on screen for game {game_id}"
    return found[0]


@pytest.mark.parametrize("game", ["witchs_brew", "cauldron", "quest"])
def test_the_detail_of_a_game_of_each_title(history, game):
    screen, played = history
    tap(button(TITLES[game]))
    play = finished(played, game)[0]
    started = time.perf_counter()
    tap(row_widget(screen, play.id))
    opened = time.perf_counter() - started
    app = App.get_running_app()
    assert app.screens.current == "game_detail"
    detail = app.screens.get_screen("game_detail")
    found, _, steps = story(app.store, play.id)
    words = [line for _, lines in steps for line in lines]
    chart = detail.ids.chart
    assert [line.values for line in chart.lines] == [line.values for line in found.lines]
    assert [line.name for line in chart.lines] == [line.name for line in found.lines]
    # the x axis by set or season, milestones flagged, Quest's lines to the most they reach
    assert list(chart.marks) == list(found.marks) and list(chart.flags) == list(found.flags)
    assert [line.most for line in chart.lines] == [line.most for line in found.lines]
    assert (len(chart.marks) > 1) == (game != "quest")
    rows = detail.ids.log.data
    assert [r["text"] for r in rows if not r["heading"]] == words and words
    report("history screen", f"{TITLES[game]} detail ({len(words)} lines in words, "
           f"{found.samples} chart points): tap to shown {opened * 1000:.0f} ms")
    first = {"witchs_brew": "Set 1, round 1", "cauldron": "Setting up", "quest": "Turn 1: "}
    assert rows[0]["heading"] and rows[0]["text"].startswith(first[game])   # headed, unnumbered
    assert rows[1]["text"] == words[0]
    if game == "quest":
        won = any(r["winner"] for r in play.results)
        assert ("Won together" if won else "Lost together") in detail.result
    else:
        for r in play.results:
            assert f"{r['name']}  {r['score']}" in detail.result
        assert [line.values[-1] for line in chart.lines] == [r["score"] for r in play.results]
    both_sizes(f"game_detail_{game}")
    assert detail.can_share
    tap(button("BG Stats"))                              # the play handed to BG Stats
    assert len(dialogs()) == 1 and dialogs()[0].what == describe(detail.play)
    shot(f"game_detail_{game}_bg_stats")
    close_dialogs()
    resize(720, 1280)
    tall_shot(f"game_detail_{game}")
    resize(800, 480)
    tap(button("Back"))
    assert app.screens.current == "history"


def test_a_home_row_opens_its_detail_and_back_goes_home(history):
    screen, played = history
    app = App.get_running_app()
    app.go_home()
    frames()
    home = app.screens.get_screen("home")
    newest = finished(played)[0]
    row = [w for w in home.ids.history.children[0].children
           if getattr(w, "game_id", None) == newest.id]
    assert row
    tap(row[0])
    assert app.screens.current == "game_detail"
    assert app.screens.get_screen("game_detail").play.id == newest.id
    tap(button("Back"))
    assert app.screens.current == "home"
    shot("home_with_history_button")


def test_the_history_in_portrait(history):
    screen, played = history
    resize(720, 1280)
    frames()
    tall_shot("history")
    assert screen.ids.stats_side.width > 0 and screen.ids.stats_top.width == 0
    tap(button("Player: Anyone"))
    tall_shot("history_player_picker")
    close_dialogs()


def test_charts_draw_again_only_when_their_data_or_size_change(app, monkeypatch):
    """Both charts in a dialog (the statistics screen's bars, a game's lines): shot at both
    sizes; moving a chart moves its picture without drawing it again."""
    from kivy.uix.boxlayout import BoxLayout
    from kivy.uix.modalview import ModalView

    from ui import theme
    from ui.widgets import chart as charts

    drawn = {"line": 0, "bar": 0}
    for cls, key in ((charts.LineChart, "line"), (charts.BarChart, "bar")):
        paint = cls._paint
        monkeypatch.setattr(cls, "_paint",
                            lambda self, _p=paint, _k=key: drawn.__setitem__(_k, drawn[_k] + 1)
                            or _p(self))
    bars = charts.BarChart(bars=[
        charts.ChartBar("Anna", 12, theme.rgba("#E69F00"), "12 wins (48%)"),
        charts.ChartBar("Barb", 7, theme.rgba("#56B4E9"), "7 wins (28%)"),
        charts.ChartBar("Carl", 0, theme.rgba("#009E73"), "no wins yet")])
    lines = charts.LineChart(x_title="round", y_title="points", lines=[
        charts.ChartLine("Anna", theme.rgba("#E69F00"), (0, 3, 3, 8, 12)),
        charts.ChartLine("Barb", theme.rgba("#56B4E9"), (0, 1, 5, 6, 9))])
    box = BoxLayout(spacing=app.u * 10, padding=app.u * 10)
    box.add_widget(bars)
    box.add_widget(lines)
    view = ModalView(size_hint=(0.95, 0.9))
    view.add_widget(box)

    def opened():
        view.open(animation=False)
        frames()
    both_sizes("charts", before=opened)
    opened()
    before = dict(drawn)
    assert before["line"] >= 1 and before["bar"] >= 1
    lines.x += app.u * 20                                 # moved, same size and data
    frames()
    assert drawn == before
    assert tuple(lines._move.xy) == tuple(lines.pos)
    lines.lines = lines.lines[:1]                         # new data: drawn once more
    bars.maximum = 20
    frames()
    assert drawn == {"line": before["line"] + 1, "bar": before["bar"] + 1}
    view.dismiss(animation=False)
    frames()
    fixed = charts.LineChart(size_hint=(None, None), size=(300, 200), lines=lines.lines)
    empty = charts.BarChart(size_hint=(None, None), size=(300, 200))
    frames()
    assert drawn["line"] == before["line"] + 2 and fixed._picture.children  # drawn as given
    assert empty._picture.children                      # "Nothing to show yet."


def test_round_ticks_cover_the_values():
    from ui.widgets.chart import nice_ticks

    assert nice_ticks(0, 37) == [0, 10, 20, 30, 40]
    assert nice_ticks(0, 637, 6) == [0, 200, 400, 600, 800]
    assert nice_ticks(-3, 12) == [-5, 0, 5, 10, 15]
    assert nice_ticks(0, 0) == [0, 1] and nice_ticks(0, 3) == [0, 1, 2, 3]
    assert nice_ticks(0, 1, whole=False) == [0, 0.2, 0.4, 0.6, 0.8, 1.0]


def test_log_lines_wrap_as_a_label_wraps_them(history):
    """The detail's row heights come from words measured one by one: the same number of lines
    as a Label rendering the whole line, for every line of a game at three widths."""
    from kivy.core.text import Label as CoreLabel

    from ui.widgets.wrap import lines_needed

    screen, played = history
    app = App.get_running_app()
    for game in TITLES:
        _, _, steps = story(app.store, finished(played, game)[0].id)
        words = [line for _, lines in steps for line in lines]
        for width, px in ((220, 18), (330, 18), (600, 18), (500, 27)):
            one = CoreLabel(text="A", font_size=px)
            one.refresh()
            for text in words:
                core = CoreLabel(text=text, font_size=px, text_size=(width, None))
                core.refresh()
                assert lines_needed(text, width, px) == round(
                    core.texture.size[1] / one.texture.size[1]), (width, px, text)


def test_an_empty_history_says_so(app):
    app.go_home()
    frames()
    tap(button("History"))
    screen = app.screens.get_screen("history")
    assert app.screens.current == "history" and screen.counted == "0 games"
    assert "No finished games yet." in texts(screen) and screen.ids.games.data == []
    both_sizes("history_empty")
    tap(button("Home"))
    assert app.screens.current == "home"


def test_a_game_that_is_not_there_is_refused_by_number(history):
    screen, _ = history
    app = App.get_running_app()
    app.screens.get_screen("game_detail").open_game(10 ** 6, "history")
    frames()
    assert app.screens.current == "history"
    assert app.refusal == "Game #1000000 is not in this history"
    app.dismiss_refusal()


def test_a_milestone_on_the_season_axis_is_named_beside_its_dot(app, monkeypatch):
    """The ringed dots on Cauldron's season axis once had no labels (the legend said
    "milestone" once). Each flag's words are drawn beside its dot; one that would lie on a
    label already drawn is left out rather than drawn over it."""
    from kivy.uix.modalview import ModalView

    from ui import theme
    from ui.widgets import chart as charts

    said: list[str] = []
    text = charts.LineChart._text
    monkeypatch.setattr(charts.LineChart, "_text",
                        lambda self, words, *a, _t=text, **k: said.append(words)
                        or _t(self, words, *a, **k))
    lines = charts.LineChart(x_title="season", y_title="Magik", flag_words="milestone",
                             marks=[(0, "1"), (3, "2")], lines=[
        charts.ChartLine("Anna", theme.rgba("#E69F00"), (0, 6, 12, 12, 19, 27)),
        charts.ChartLine("Barb", theme.rgba("#56B4E9"), (0, 4, 8, 13, 18, 20))],
        flags=[(2, 0, "Magik Overflow"), (4, 0, "Rituals of Power"),
               (4, 1, "Rituals of Power")])
    view = ModalView(size_hint=(0.9, 0.9))
    view.add_widget(lines)
    view.open(animation=False)
    try:
        frames(4)
        shot("chart_milestones_named")
    finally:
        view.dismiss(animation=False)
        frames(1)
    assert "Magik Overflow" in said and "Rituals of Power" in said
    assert said.count("Rituals of Power") == 1      # the second lay on the first: left out
