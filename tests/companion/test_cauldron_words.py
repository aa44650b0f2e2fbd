"""Refusals and prompts speak to the players: what the table sees and the button to press, never
a command's name (``end_turn``, ``rolloff_roll``, ``adjust_magik``), an argument's key (``skip``)
or an internal id (``spider_web``, ``seat2``).

Whole games are played by the seeded table; at many moments a battery of well-formed commands
(every command, every seat, the rules' usual mistakes) is tried, and every refusal the rules
give, every prompt and every note is collected and read for such words. Malformed commands are
left out: the gate names their fields on purpose, for whoever writes a table script.
"""

from __future__ import annotations

import random
import re
from typing import Any

from companion.core import Command, RuleViolation, Session
from companion.games.cauldron import RULES
from companion.games.cauldron import data as d
from companion.games.cauldron.commands import COMMANDS
from tests.companion.cauldron_autoplay import (
    do, empty_board_but, new, next_command, set_magik, setup_for, start,
)

#: Words a player never needs to read: command names, keys, snake_case ids, JSON.
FORBIDDEN = [
    re.compile(r"\b[a-z][a-z0-9]*_[a-z0-9_]+\b"),  # end_turn, spider_web, once_per_season
    re.compile(r"\b(rolloff|skip|undo|redo|lsp|hsp)\b"),  # lower case: ids, not LSP or Undo
    re.compile(r"\bseat\d"),
    re.compile(r"\b(LSP|HSP|[Ll]owest [Ss]coring|[Hh]ighest [Ss]coring)\b"),  # the rulebook's
    # abbreviations: the table reads "the fewest Magik" / "the most Magik"
    re.compile(r"\"[a-z]+\":|\{\""),  # JSON hints such as ("kind": "basic")
]


def offending(text: str) -> list[str]:
    return [m.group(0) for pattern in FORBIDDEN for m in pattern.finditer(text)]


def battery(state: dict[str, Any]) -> list[Command]:
    """Well-formed commands of every kind, for every seat: most are refused at most moments."""
    names = [p["name"] for p in state["players"]]
    rng = random.Random(len(str(state)))
    out = [Command("begin"), Command("fill_board"), Command("omen", None, {"text": "Hail"}),
           Command("rolloff", None, {"kind": "lsp"}), Command("rolloff", None, {"kind": "hsp"}),
           Command("roll", None, {"value": 3}), Command("adjust", None, {"board": {"dragon_egg": -9}}),
           Command("adjust", None, {"pool": {"spider_web": 1}}), Command("adjust", None, {}),
           Command("adjust", None, {"fields": {"dragon_egg": 99}}),
           Command("fill_board", None, {"ingredients": {"spider_web": 132}}),
           Command("fields_exhausted", None, {"ingredient": "spider_web"}),
           Command("set_milestones", None, {"milestones": {"magik_overflow": 5}}),
           Command("set_milestones", None, {"milestones": {}})]
    for who in names:
        other = rng.choice([n for n in names if n != who])
        kind = rng.choice(d.INGREDIENTS)
        potions = [p["name"] for p in state["players"][names.index(who)]["potions"]]
        out += [
            Command("gather", who, {"ingredient": kind}),
            Command("gather", who, {"ingredients": [kind, "dragon_egg"]}),
            Command("gather", who, {}),
            Command("steal", who, {"target": other, "ingredient": kind}),
            Command("steal", who, {"target": who, "ingredient": kind, "roll": 5}),
            Command("steal", who, {"roll": 2}), Command("steal", who, {}),
            Command("brew", who, {"potion": "No Such Potion"}),
            *[Command("brew", who, {"potion": p}) for p in potions],
            *[Command("brew", who, {"potion": p, "any": ["snake_skin"]}) for p in potions[:2]],
            Command("cast_spell", who, {}), Command("cast_spell", who, {"kind": "advanced"}),
            Command("cast_spell", who, {"kind": "basic", "instant": True}),
            Command("move_ingredient", who, {"ingredient": kind, "to": "cellar"}),
            Command("move_ingredient", who, {"ingredient": kind, "to": "pool"}),
            Command("end_turn", who), Command("end_turn", who, {"skip": True}),
            Command("pass", who),
            *[Command("buy", who, {"item": item}) for item in d.ITEMS],
            Command("buy", who, {"item": "field", "field": kind}),
            Command("buy", who, {"item": "cellar", "field": kind}),
            Command("buy", who, {"item": "cellar", "discount": 9}),
            Command("buy", who, {"item": "basic_spell", "discard": "advanced"}),
            Command("buy", who, {"item": "basic_potion", "potion": {
                "name": "Wrong", "kind": "advanced", "yield": 3, "ingredients": ["any"]}}),
            Command("turn_order_roll", who, {"value": 4}),
            Command("rolloff_roll", who, {"value": 4}),
            Command("roll", who, {"value": 2}),
            Command("correct_roll", who, {"value": 2}),
            *[Command("correct_roll", who, {"value": 2, "roll": r, "round": 3})
              for r in ("turn_order", "steal", "rolloff")],
            Command("set_character", who, {"character": "wizard"}),
            Command("set_character", who, {"character": "witch"}),
            Command("add_potion", who, {"potion": {"name": potions[0] if potions else "Tea",
                                                   "kind": "advanced", "yield": 2,
                                                   "ingredients": ["frog_legs"]}}),
            Command("discard_potion", who, {"potion": "Not Mine"}),
            Command("discard_spell", who, {}), Command("discard_spell", who, {"kind": "advanced"}),
            Command("use_ability", who), Command("adjust_magik", who, {"delta": 0}),
            Command("adjust", who, {"pool": {"mandrake_root": -3}}),
            Command("adjust", who, {"spells": {"advanced": -3}}),
        ]
    return out


def refusals(state: dict[str, Any]) -> list[tuple[Command, str]]:
    out = []
    for command in battery(state):
        try:
            clean = RULES.check(state, command)
        except RuleViolation:
            continue  # malformed for this state (a potion it lacks ...): the gate's business
        try:
            RULES.play(state, clean)
        except RuleViolation as refusal:
            out.append((command, str(refusal)))
    return out


def spoken(session: Session) -> list[tuple[str, str]]:
    """Every refusal, the prompt and its notes at this moment, each with where it came from."""
    prompt = session.prompt()
    texts = [("prompt", prompt["text"])] + [("note", n) for n in prompt["notes"]]
    summary = session.summary()
    if summary["options"] and summary["options"]["end_turn"]:
        texts.append(("end turn option", summary["options"]["end_turn"]))
    for offer in (summary["market"] or {}).get("offers", []):
        texts += [("offer", offer["reason"] or "")]
        texts += [("field", why) for why in (offer.get("fields") or {}).values() if why]
    for player in summary["players"]:
        texts += [("potion", p["blocked"]) for p in player["potions"] if p["blocked"]]
    return texts + [(f"{c.do} {c.player} {c.args}", text) for c, text in refusals(session.state)]


def moments() -> list[Session]:
    """Sessions at many moments: whole games of several tables, and a few odd corners."""
    out = []
    for n, variants, seed in ((3, [], 1), (2, ["quick", "advanced"], 2),
                              (4, ["simple", "less_luck"], 3)):
        rng = random.Random(seed)
        session = Session(RULES, setup_for(n, variants))
        count = 0
        while not session.over:
            session.execute(next_command(session, rng))
            count += 1
            if count % 9 == 0:
                out.append(Session(RULES, session.setup, list(session.steps)))
        out.append(session)
    # A void roll-off, a steal waiting for its die, the close of a Harvest, the milestones.
    s = start(new(3))
    do(s, "rolloff", kind="lsp")
    do(s, "rolloff_roll", "Barb", value=2)
    set_magik(s, "Carl", 6)
    out.append(s)
    s = start(new(3, witch="Anna"), first="Anna")
    do(s, "adjust", "Barb", pool={"frog_legs": 1})
    do(s, "steal", "Anna", target="Barb", ingredient="frog_legs")
    out.append(s)
    s = start(new(2), first="Anna")
    empty_board_but(s, spider_web=1)
    do(s, "gather", "Anna", ingredient="spider_web")
    out += [s, new(2, milestones=None)]
    return out


def test_refusals_and_prompts_name_no_command_key_or_internal_id():
    bad: list[str] = []
    heard = 0
    for session in moments():
        for where, text in spoken(session):
            heard += 1
            words = offending(text)
            if words:
                bad.append(f"{where}: {words} in {text!r}")
    assert heard > 3000, "the battery should hear many refusals"
    assert not bad, "\n".join(sorted(set(bad))[:40])


def test_the_check_itself_catches_such_words():
    said = ["end the turn with skip", "start one with rolloff", "use adjust_magik",
            "no spider_web", "say (\"kind\": \"basic\")", "seat2.pass"]
    assert all(offending(text) for text in said)
    assert offending("Finish the LSP roll-off first") == ["LSP"]
    assert offending("the Highest Scoring Player starts") == ["Highest Scoring"]
    assert not offending("Anna's fewest-Magik roll-off: press End turn, or Undo (Spider Web)")
    assert set(COMMANDS) - {"begin", "omen", "roll", "gather", "steal", "brew", "buy", "pass",
                            "adjust"} == {c for c in COMMANDS if offending(c)}


def test_a_correction_in_the_log_says_what_was_corrected():
    from companion.core.model import Event
    from companion.games.cauldron.log import describe

    def said(**data):
        return describe(Command("adjust"), [Event("adjusted", data)], ["Anna", "Barb"], {})

    assert said(seat=1, pool={"spider_web": 1}, spells={}, board={"spider_web": -1},
                fields={}) == ["Corrected Barb's pool, the board"]
    assert said(seat=0, pool={}, spells={"basic": 1}, board={}, fields={}) == \
        ["Corrected Anna's Spells"]
    assert said(board={"frog_legs": 2}, fields={"frog_legs": 1}) == \
        ["Corrected the board, the Fields"]
