"""The table's clocks as arithmetic on given times: a chess clock per seat, the
game's length, the turn clock against a limit, pause, and what the store keeps across a
restart. Pure: no Kivy, no sleeping."""

from __future__ import annotations

import json

from ui.table.clock import TableClock, clock_words


def test_the_awaited_seats_clock_runs_and_a_new_turn_restarts_the_turn_clock() -> None:
    clock = TableClock(3, now=100.0)
    assert clock.turn_changed(("play", 0), 0, now=100.0)
    clock.advance(130.0)
    assert not clock.turn_changed(("play", 0), 0, now=140.0)  # same turn: the clock goes on
    assert clock.turn == 40.0
    assert clock.turn_changed(("answer", 1), 1, now=145.0)
    assert clock.seats == [45.0, 0.0, 0.0] and clock.turn == 0.0
    clock.advance(155.0)
    assert clock.seats == [45.0, 10.0, 0.0] and clock.game == 55.0


def test_paused_nothing_runs_and_resuming_does_not_count_the_pause() -> None:
    clock = TableClock(2, now=0.0)
    clock.turn_changed(["t"], 1, now=0.0)
    clock.pause(now=5.0)
    clock.advance(500.0)
    clock.resume(now=900.0)
    clock.advance(902.0)
    assert clock.seats == [0.0, 7.0] and clock.game == 7.0 and clock.turn == 7.0


def test_a_limit_counts_down_turns_amber_in_its_last_fifth_red_at_it_and_cues_once() -> None:
    clock = TableClock(2, now=0.0)
    clock.turn_changed(["t"], 0, now=0.0)
    clock.advance(10.0)
    assert (clock.turn_words(60), clock.level(60), clock.reached_limit(60)) == ("0:50", "", False)
    clock.advance(48.0)
    assert (clock.turn_words(60), clock.level(60)) == ("0:12", "amber")
    clock.advance(60.0)
    assert (clock.turn_words(60), clock.level(60)) == ("+0:00", "red")
    assert clock.reached_limit(60) and not clock.reached_limit(60)
    clock.advance(65.0)
    assert clock.turn_words(60) == "+0:05"
    assert clock.turn_words(0) == "1:05" and clock.level(0) == ""
    clock.turn_changed(["u"], 1, now=66.0)
    clock.advance(130.0)
    assert clock.reached_limit(60)  # a new turn cues again


def test_what_the_store_keeps_brings_the_clocks_back_where_they_stood() -> None:
    clock = TableClock(3, now=0.0)
    clock.turn_changed(["play", 2], 2, now=0.0)
    clock.advance(3725.0)
    kept = json.loads(json.dumps(clock.to_dict()))
    again = TableClock.from_dict(kept, seats=3, now=99999.0)  # the app was closed meanwhile
    assert again.seats == [0.0, 0.0, 3725.0] and again.game == 3725.0
    assert not again.turn_changed(("play", 2), 2, now=99999.0)  # the same turn goes on
    again.advance(100004.0)
    assert clock_words(again.game) == "1:02:10" and clock_words(again.turn) == "1:02:10"
    assert TableClock.from_dict({"seats": "bad"}, 2, 0.0).seats == [0.0, 0.0]
    assert TableClock.from_dict(None, 2, 0.0).game == 0.0
