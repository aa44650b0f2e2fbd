"""Where a log line came from is said on the press's own line only: a phone's announcement
that passes another seat automatically reads "Anna played the Druid (Anna's phone)", then
"Barb: pass" as the table's, never "Barb: pass (Anna's phone)"."""

from __future__ import annotations

from companion.core import Command
from companion.core.narrator import Narrator
from companion.view.snapshot import log_tail
from tests.companion.test_witchs_brew_hands import ANNA, BARB, CARL, DANIEL, hands


def test_a_phone_s_press_names_the_phone_on_its_own_line_not_on_the_automatic_pass(wb):
    s = wb.new(4)
    hands(wb, s, Anna=ANNA, Barb=BARB, Carl=CARL, Daniel=DANIEL)
    s.execute(Command("play_role", "Anna", {"role": "druid"}), source="Anna's phone")
    tail = log_tail(Narrator(s))[-2:]
    assert [(line["text"], line["source"]) for line in tail] == [
        ("Anna played the Druid", "Anna's phone"), ("Barb: pass", "")]
    assert s.steps[-1].events[1].automatic            # the pass the rules added
