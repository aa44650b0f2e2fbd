"""Turn a Witch's Brew command into events, or refuse it with the rule that forbids it."""

from __future__ import annotations

from typing import Any

from companion.core.errors import RuleViolation
from companion.core.model import Command, Event
from companion.games.witchs_brew import state as st
from companion.games.witchs_brew.flow import cannot_pay, effect_of
from companion.games.witchs_brew.prompt import prompt
from companion.games.witchs_brew.roles import (
    BREW, CAULDRONS, CHOOSE_DROPS, COUNTERS, DROPS, PAY, RAVENS_PER_STACK, ROLES, STACK_SIZES,
    STACKS, TABLE, TRADE_DROP, role,
)
from companion.games.witchs_brew.state import State


def _title(key: str) -> str:
    return ROLES[key].title


def _int(value: Any, field: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise RuleViolation(f"{field}: give a whole number, not {value!r}")
    return value


def _deltas(state: State, seat: int, changes: Any, field: str = "changes") -> dict[str, int]:
    """Validate counter changes for one seat: known counters, whole numbers, nothing below 0."""
    if not isinstance(changes, dict):
        raise RuleViolation(f"{field}: give counters and amounts, e.g. {{\"gold\": -1, \"red\": 1}}")
    player = state["players"][seat]
    out: dict[str, int] = {}
    for counter, delta in changes.items():
        if counter not in COUNTERS:
            raise RuleViolation(f"{field}: {counter!r} is not a counter ({', '.join(COUNTERS)})")
        delta = _int(delta, f"{field}.{counter}")
        if player[counter] + delta < 0:
            raise RuleViolation(
                f"{player['name']} has {player[counter]} {counter}: cannot give up {-delta}")
        if delta:
            out[counter] = delta
    return out


def _potion(state: State, potion: Any, stacks: tuple[str, ...]) -> dict[str, Any]:
    """Validate a potion card taken from a stack: the stack has cards (and ravens) left."""
    if not isinstance(potion, dict):
        raise RuleViolation("potion: give its stack, points and raven, e.g. "
                            "{\"stack\": \"copper\", \"points\": 3, \"raven\": false}")
    stack = potion.get("stack")
    if stack not in stacks:
        raise RuleViolation(f"potion.stack: {stack!r} is not one of {', '.join(stacks)}")
    points = _int(potion.get("points"), "potion.points")
    if not 0 <= points <= 99:
        raise RuleViolation("potion.points: a potion card is worth 0 to 99 points")
    raven = potion.get("raven", False)
    if not isinstance(raven, bool):
        raise RuleViolation("potion.raven: true or false")
    taken = st.potions_taken(state, stack)
    label = stack.replace("_", " ")
    if len(taken) >= STACK_SIZES[stack]:
        raise RuleViolation(f"The {label} stack is empty: all {STACK_SIZES[stack]} cards are taken")
    if raven and sum(1 for p in taken if p.get("raven")) >= RAVENS_PER_STACK:
        raise RuleViolation(f"The {label} stack has only {RAVENS_PER_STACK} raven potions; both are taken")
    out = {"stack": stack, "points": points, "raven": raven}
    if potion.get("name"):
        out["name"] = str(potion["name"])
    return out


def _need_phase(state: State, wanted: str, doing: str) -> None:
    current = st.phase(state)
    if current == wanted:
        return
    if current == "over":
        raise RuleViolation("The game is over: only corrections (adjust) and undo are possible")
    raise RuleViolation(f"Not the time to {doing}: {prompt(state)['text']}")


def _need_turn(state: State, seat: int, doing: str) -> None:
    due = st.turn(state)
    if due != seat:
        raise RuleViolation(f"It is {st.name(state, due)}'s turn to {doing}, not {st.name(state, seat)}'s")


def play_role(state: State, cmd: Command, seat: int) -> list[Event]:
    _need_phase(state, "play", "announce a role")
    _need_turn(state, seat, "announce a role")
    key = cmd.args.get("role")
    role(key)
    if key in state["excluded"]:
        raise RuleViolation(f"The {_title(key)} lies face up in the middle this set (variant): "
                            "nobody may play it")
    if key in state["players"][seat]["roles_played"]:
        raise RuleViolation(f"{st.name(state, seat)} already played the {_title(key)} this set: "
                            "each role card is played once per set")
    if any(key in p["roles_played"] for p in state["players"]):
        raise RuleViolation(f"The {_title(key)} was already played this set: a card that should have "
                            "been played then goes face down (forfeit) and another role is announced")
    return [Event("role_played", {"seat": seat, "role": key})]


def forfeit(state: State, cmd: Command, seat: int) -> list[Event]:
    """The rulebook's penalty for a forgotten card: it goes face down and counts as played."""
    _need_phase(state, "play", "forfeit a forgotten card")
    _need_turn(state, seat, "announce a role")
    key = cmd.args.get("role")
    role(key)
    if key in state["players"][seat]["roles_played"]:
        raise RuleViolation(f"{st.name(state, seat)} already played the {_title(key)} this set")
    if not any(key in p["roles_played"] for p in state["players"]):
        raise RuleViolation(f"The {_title(key)} has not been played this set: announce it instead")
    return [Event("card_forfeited", {"seat": seat, "role": key})]


def answer(state: State, cmd: Command, seat: int) -> list[Event]:
    said = {"claim": "say \"I am the ...!\"", "so_be_it": "say \"So be it!\"", "pass": "pass"}
    if state["role"] is not None and seat == state["round_starter"] and cmd.do == "so_be_it":
        raise RuleViolation(f"{st.name(state, seat)} announced the {_title(state['role'])}: "
                            "the player who begins a round may not say \"So be it!\"")
    _need_phase(state, "answer", said[cmd.do])
    _need_turn(state, seat, "answer")
    if cmd.do != "pass" and state["role"] in state["players"][seat]["roles_played"]:
        raise RuleViolation(f"{st.name(state, seat)} already played the {_title(state['role'])} "
                            "this set and cannot hold it again: pass")
    return [Event("answered", {"seat": seat, "answer": cmd.do})]


def resolve(state: State, cmd: Command, seat: int) -> list[Event]:
    _need_phase(state, "resolve", "resolve an action")
    _need_turn(state, seat, "resolve an action or favor")
    front = state["pending"][0]
    effect = effect_of(front)
    base = {"seat": seat, "role": front["role"], "kind": front["kind"]}
    args = cmd.args
    potion = None
    reason = cannot_pay(state, seat, effect)
    if reason:
        raise RuleViolation(reason)
    mine = {k: -v for k, v in effect.cost.items()}
    if effect.kind == PAY:
        for counter, amount in effect.gain.items():
            mine[counter] = mine.get(counter, 0) + amount
    elif effect.kind == TRADE_DROP:
        drop = args.get("drop")
        if drop not in DROPS:
            raise RuleViolation(f"drop: which drop does {st.name(state, seat)} return? "
                                f"one of {', '.join(DROPS)}")
        if state["players"][seat][drop] < 1:
            raise RuleViolation(f"{st.name(state, seat)} has no {drop} drop to return")
        mine = {drop: -1, **effect.gain}
    elif effect.kind == CHOOSE_DROPS:
        drops = args.get("drops")
        if not isinstance(drops, dict) or set(drops) - set(DROPS):
            raise RuleViolation(f"drops: choose {effect.count} drops, e.g. {{\"red\": 2, \"green\": 1}}")
        chosen = {d: _int(v, f"drops.{d}") for d, v in drops.items()}
        if any(v < 0 for v in chosen.values()) or sum(chosen.values()) != effect.count:
            raise RuleViolation(f"drops: the {_title(front['role'])} takes exactly {effect.count} drops")
        for d, v in chosen.items():
            mine[d] = mine.get(d, 0) + v
    elif effect.kind == BREW:
        potion = _potion(state, args.get("potion"), CAULDRONS)
        pay = args.get("pay", {})
        if not isinstance(pay, dict) or set(pay) - set(DROPS):
            raise RuleViolation("pay: the drops printed on the potion, e.g. {\"red\": 2, \"white\": 1}")
        mine = {d: -_int(v, f"pay.{d}") for d, v in pay.items()}
        if any(v > 0 for v in mine.values()):
            raise RuleViolation("pay: amounts paid are 0 or more")
    elif effect.kind == TABLE:
        mine = args.get("changes", {})
        if args.get("potion") is not None:
            potion = _potion(state, args["potion"], STACKS)
    changes = {str(seat): _deltas(state, seat, mine)}
    others = args.get("others", {}) if effect.kind == TABLE else {}
    if not isinstance(others, dict):
        raise RuleViolation("others: give each other player's changes by name")
    for other_name, deltas in others.items():
        other = st.seat_of(state, other_name)
        if other == seat:
            raise RuleViolation("others: list only the other players; use changes for yourself")
        changes[str(other)] = _deltas(state, other, deltas, f"others.{other_name}")
    return [Event("effect_applied", {**base, "changes": changes, "potion": potion})]


def abstain(state: State, cmd: Command, seat: int) -> list[Event]:
    _need_phase(state, "resolve", "abstain")
    _need_turn(state, seat, "resolve an action or favor")
    front = state["pending"][0]
    return [Event("effect_abstained", {"seat": seat, "role": front["role"], "kind": front["kind"]})]


def adjust(state: State, cmd: Command, seat: int) -> list[Event]:
    """A manual correction by the table: counters, a potion card added or one removed."""
    args = cmd.args
    data: dict[str, Any] = {"seat": seat, "changes": _deltas(state, seat, args.get("changes", {}))}
    if args.get("potion") is not None:
        data["potion"] = _potion(state, args["potion"], STACKS)
    remove = args.get("remove_potion")
    if remove is not None:
        remove = _int(remove, "remove_potion")
        if not 0 <= remove < len(state["players"][seat]["potions"]):
            raise RuleViolation(f"remove_potion: {st.name(state, seat)} has no potion number {remove}")
        data["remove_potion"] = remove
    if not data["changes"] and "potion" not in data and "remove_potion" not in data:
        raise RuleViolation("adjust: nothing to change")
    return [Event("adjusted", data)]


def reveal_excluded(state: State, cmd: Command) -> list[Event]:
    _need_phase(state, "reveal", "turn over excluded roles")
    roles = cmd.args.get("roles")
    count = st.excluded_per_set(state)
    if not isinstance(roles, list) or len(roles) != count or len(set(roles)) != count:
        raise RuleViolation(f"roles: turn over exactly {count} different role card(s) this set")
    shown = st.shown_this_cycle(state)
    for key in roles:
        role(key)
        if key in shown:
            raise RuleViolation(f"The {_title(key)} was already turned over since the last reshuffle")
    return [Event("roles_excluded", {"roles": list(roles)})]


SEAT_COMMANDS = {
    "play_role": play_role, "claim": answer, "so_be_it": answer, "pass": answer,
    "resolve": resolve, "abstain": abstain, "adjust": adjust, "forfeit": forfeit,
}


def decide(state: State, cmd: Command) -> list[Event]:
    if cmd.do == "reveal_excluded":
        return reveal_excluded(state, cmd)
    handler = SEAT_COMMANDS.get(cmd.do)
    if handler is None:
        known = ", ".join(sorted([*SEAT_COMMANDS, "reveal_excluded", "undo", "redo"]))
        raise RuleViolation(f"Witch's Brew has no command {cmd.do!r}; it knows {known}")
    if cmd.player is None:
        raise RuleViolation(f"{cmd.do}: say which player (\"player\": name)")
    seat = st.seat_of(state, cmd.player)
    if st.phase(state) == "over" and cmd.do != "adjust":
        raise RuleViolation("The game is over: only corrections (adjust) and undo are possible")
    return handler(state, cmd, seat)
