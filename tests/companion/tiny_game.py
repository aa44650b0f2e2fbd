"""A tiny counting game for the engine's tests (test_engine*.py): small enough that every
state is known, with one undoable command, one that is not (a die) and one automatic event."""

from __future__ import annotations

import copy
from typing import Any

from companion.core import (
    Command, Event, GameRules, InputEvent, RuleViolation, Session, Step,
)
from companion.core.gate import Arg, Declared, Whole


# --------------------------------------------------------------------------------------------
# A tiny counting game: "add" (undoable), "roll" (a die: not undoable), a bonus that the flow
# adds by itself once the total reaches 10.
# --------------------------------------------------------------------------------------------
def _setup(config: dict[str, Any]) -> dict[str, Any]:
    return {"total": 0, "rolls": [], "bonus": False, "over": False}


def _decide(state: dict[str, Any], cmd: Command) -> list[Event]:
    if cmd.do == "add":
        n = cmd.args.get("n", 1)
        if isinstance(n, bool) or not isinstance(n, int) or n <= 0:
            raise RuleViolation("add: a positive whole number")
        return [Event("added", {"n": n})]
    if cmd.do == "roll":
        return [Event("rolled", {"value": cmd.args["value"]}, undoable=False)]
    raise RuleViolation(f"tiny has no command {cmd.do!r}")


def _evolve(state: dict[str, Any], event: Event) -> dict[str, Any]:
    s = copy.deepcopy(state)
    if event.type == "added":
        s["total"] += event.data["n"]
    elif event.type == "rolled":
        s["rolls"].append(event.data["value"])
        s["total"] += event.data["value"]
    elif event.type == "bonus":
        s["bonus"] = True
        s["total"] += 5
    else:
        raise ValueError(event.type)
    return s


def _flow(state: dict[str, Any]) -> list[Event]:
    if state["total"] >= 10 and not state["bonus"]:
        return [Event("bonus", {"at": state["total"]})]
    return []


def _prompt(state: dict[str, Any]) -> dict[str, Any]:
    return {"phase": "play", "turn": None, "text": f"Total {state['total']}: add or roll"}


def _map_input(state: dict[str, Any], event: InputEvent) -> Command | None:
    if event.kind == "button" and event.id == "plus":
        return Command("add", None, {"n": 1})
    if event.kind == "die":
        return Command("roll", None, {"value": event.value})
    return None


#: What the gate lets through: "add" any whole number (the rules refuse one under 1 themselves),
#: "roll" a die's face.
TINY_COMMANDS = {"add": Declared({"n": Arg(Whole())}),
                 "roll": Declared({"value": Arg(Whole(1, 6), required=True)})}

TINY = GameRules(
    name="tiny", title="Tiny", setup=_setup, decide=_decide, evolve=_evolve, flow=_flow,
    prompt=_prompt, summary=lambda s: dict(s), map_input=_map_input, results=lambda s: [],
    commands=TINY_COMMANDS, setup_keys={}, seat_names=lambda s: [], players=(1, 1),
)


def tiny() -> Session:
    return Session(TINY, {})


def add(s: Session, n: int = 1) -> Step:
    return s.execute(Command("add", None, {"n": n}))


def statuses(s: Session) -> list[tuple[int, str]]:
    return [(st.n, st.status) for st in s.steps]


class FakeJournal:
    def __init__(self) -> None:
        self.calls: list[tuple] = []

    def append(self, step: Step, dropped: list[int], standing=None) -> None:
        self.calls.append(("append", step.n, step.command.do, step.command.args.get("n"),
                           list(dropped), step.status))

    def set_status(self, n: int, status: str, standing=None) -> None:
        self.calls.append(("set_status", n, status))


def journalled() -> tuple[Session, FakeJournal]:
    """The tiny game with a journal that keeps what it was told."""
    journal = FakeJournal()
    return Session(TINY, {}, journal=journal), journal
