"""What the rulebook asks now, in one short line the whole table can read.

The rules' prompt (``companion.games.cauldron.prompt``) is a full sentence for the record and
for a screen reader; the table screen shows it under a short headline in large type, written
here from the same state. Nothing here decides anything: it only reads ``state`` and
``prompt``; the rules' own text is already in the table's words (the fewest / the most Magik).
"""

from __future__ import annotations

import re

from companion.games.cauldron import state as st
from ui.text.phrases import phrases, said_by

DONE = {"gather": "gathered", "steal": "stole", "brew": "brewed"}
KIND = {"lsp": "fewest Magik", "hsp": "most Magik"}
WORD = re.compile(r"[a-z0-9']+")
SENTENCE = re.compile(r"; |\. (?=[A-Z])")


def ask_now(state: dict, prompt: dict) -> str:
    """'Gather, steal or brew', 'Roll for turn order: Barb, Carl', 'Buy or pass (1 left)'."""
    phase = prompt["phase"]
    waiting = st.rolloff_waiting(state)
    if waiting and phase != "over":
        kind = KIND.get(state["rolloff"]["rule"], "")
        return f"Roll-off for the {kind}: {st.names_text(state, waiting)}"
    if phase == "over":
        winner = state["players"][state["winner"]]
        return f"{winner['name']} is the Grand Infuser!"
    if phase == "milestones":
        return "Enter where your Magik Track prints its milestones"
    if phase == "setup":
        return "Enter each potion card dealt, then begin"
    if phase == "omen":
        return "Draw an Omen card and read it aloud"
    if phase == "fill":
        return "Fill the board with Ingredients"
    if phase == "turn_order":
        return f"Roll for turn order: {st.names_text(state, st.awaited_rolls(state))}"
    if phase == "closing":
        return "Quick Actions if any, then end the turn"
    if phase == "turns":
        harvest = state["harvest"]
        steal = harvest["steal"]
        if steal is not None and steal["roll"] is None:
            return "Roll a die for the steal: 4 or more succeeds"
        if harvest["action"] is None:
            return "Gather, steal or brew"
        if steal is not None and not steal["success"]:   # the state's result, not the action's
            return "Steal failed: Quick Actions or End turn"
        # one line at the headline's size beside the turn's tile: the button's own words
        return f"{DONE[harvest['action']].capitalize()}: Quick Actions or End turn"
    left = st.purchase_limit(state) - state["market"]["purchases"]
    return f"Buy or pass: {left} purchase{'s' if left != 1 else ''} left"


def new_parts(text: str, said: str) -> list[str]:
    """The parts of the rules' sentences (``"; "`` or ``". "`` apart) that ``said`` (the
    headline, the panel's title) does not already say: a part that shares a phrase with it
    (three words, ui/text/phrases.py) is left out, and so is one with a third of its words
    there or more, unless it gives a count they do not."""
    known, spoken = set(WORD.findall(said.lower())), said_by([said])
    parts = []
    for part in (p.strip() for p in SENTENCE.split(text)):
        words = WORD.findall(part.lower())
        counts = {w for w in words if w.isdigit()} - known   # new counts are news
        if words and spoken.isdisjoint(phrases(part)) and (
                counts or 3 * sum(w in known for w in words) < len(words)):
            parts.append(part)
    return parts
