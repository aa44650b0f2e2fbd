"""Turn a Witch's Brew command into events, or refuse it with the rule that forbids it.

Every command has passed the gate (commands.py): its player is a seat's name, its role one of
the 12, its counters known and its amounts whole numbers the box can hold. What is left here
are the rules: whose turn it is, what a seat has to pay with, what the stacks and the supply
still hold."""

from __future__ import annotations

from typing import Any

from companion.core.errors import RuleViolation
from companion.core.model import Command, Event
from companion.games.witchs_brew import hands
from companion.games.witchs_brew import state as st
from companion.games.witchs_brew.evolve import evolve
from companion.games.witchs_brew.flow import (
    cannot_pay, drops_to_take, effect_of, gain_now, shortfalls,
)
from companion.games.witchs_brew.prompt import prompt
from companion.games.witchs_brew.roles import (
    BREW, CAULDRONS, CHOOSE_DROPS, COUNTERS, GAIN, PAY, RAVENS_PER_STACK, ROLES, STACK_SIZES,
    STACKS, TABLE, TRADE_DROP, amount, plain_per_stack,
)
from companion.games.witchs_brew.state import State

#: What ``resolve`` takes for each kind of effect; anything else is refused, naming it.
RESOLVE_ARGS = {GAIN: (), PAY: (), TRADE_DROP: ("drop",), CHOOSE_DROPS: ("drops",),
                BREW: ("potion", "pay"), TABLE: ("changes", "others", "potion")}
#: Each argument of ``resolve`` in the table's words, for a refusal that names it.
RESOLVE_WORDS = {"drop": "the drop returned", "drops": "the drops taken",
                 "potion": "the potion card taken", "pay": "the drops paid for it",
                 "changes": "what changed for the seat", "others": "what changed for the others"}
GAME_OVER = "The game is over: only corrections and undo are possible now"


def _title(key: str) -> str:
    return ROLES[key].title


def _changes(state: State, changes: dict[int, dict[str, int]]) -> dict[str, dict[str, int]]:
    """Counter changes of one or more seats, made together: nobody gives up what they do not
    have, and the supply never hands out more than it still holds."""
    for seat, deltas in changes.items():
        player = state["players"][seat]
        for counter, delta in deltas.items():
            if player[counter] + delta < 0:
                raise RuleViolation(f"{player['name']} has {amount(player[counter], counter)}: "
                                    f"cannot give up {-delta}")
    left = st.left_in_supply(state)
    for counter in COUNTERS:
        taken = sum(deltas.get(counter, 0) for deltas in changes.values())
        if left[counter] is not None and taken > left[counter]:
            raise RuleViolation(
                f"The supply has only {amount(left[counter], counter)} left (the table plays "
                f"with {state['supply'][counter]} in all): nobody can take {taken} more")
    return {str(seat): {c: v for c, v in deltas.items() if v} for seat, deltas in changes.items()}


def _without(state: State, seat: int, index: int | None) -> State:
    """The state as if the seat's potion ``index`` were back on its stack (a correction)."""
    if index is None:
        return state
    players = [dict(p) for p in state["players"]]
    players[seat]["potions"] = [p for i, p in enumerate(players[seat]["potions"]) if i != index]
    return {**state, "players": players}


def _potion(state: State, potion: dict[str, Any], stacks: tuple[str, ...]) -> dict[str, Any]:
    """A potion card taken from the top of its stack. "There are two ravens in each of the five
    stacks", and each stack is sorted "with the lowest on top": the card must be one the stack
    can still hold, worth at least as much as any card already taken from it."""
    stack = potion["stack"]
    label = stack.replace("_", " ")
    if stack not in stacks:
        raise RuleViolation(f"potion.stack: a brewer brews from a cauldron stack "
                            f"({', '.join(stacks)}), not the {label}")
    raven = potion.get("raven", False)
    taken = st.potions_taken(state, stack)
    ravens = st.ravens_taken(state, stack)
    if len(taken) >= STACK_SIZES[stack]:
        raise RuleViolation(f"The {label} stack is empty: all {STACK_SIZES[stack]} cards are taken")
    if raven and ravens >= RAVENS_PER_STACK:
        raise RuleViolation(f"The {label} stack has only {RAVENS_PER_STACK} raven potions; "
                            "both are taken")
    if not raven and len(taken) - ravens >= plain_per_stack(stack):
        raise RuleViolation(
            f"Only raven potions are left in the {label} stack (there are two ravens in each "
            f"stack, and its {plain_per_stack(stack)} other cards are taken): "
            "this card shows a raven")
    least = st.top_value(state, stack)
    if least is not None and potion["points"] < least:
        raise RuleViolation(
            f"potion.points: the {label} stack is sorted lowest value on top, and a card worth "
            f"{least} was already taken from it: the next one is worth {least} or more, "
            f"not {potion['points']}")
    out = {"stack": stack, "points": potion["points"], "raven": raven}
    if potion.get("name"):
        out["name"] = potion["name"]
    return out


def _need_phase(state: State, wanted: str, doing: str) -> None:
    current = st.phase(state)
    if current == wanted:
        return
    if current == "over":
        raise RuleViolation(GAME_OVER)
    raise RuleViolation(f"Not the time to {doing}: {prompt(state)['text']}")


def _need_turn(state: State, seat: int, doing: str) -> None:
    due = st.turn(state)
    if due == seat:
        return
    who = st.name(state, seat)
    if st.cards_left(state, seat) == 0 and st.phase(state) in ("play", "answer"):
        raise RuleViolation(f"{who} has no cards left in hand this set: it is "
                            f"{st.name(state, due)}'s turn to {doing}")
    raise RuleViolation(f"It is {st.name(state, due)}'s turn to {doing}, not {who}'s")


def play_role(state: State, cmd: Command, seat: int) -> list[Event]:
    _need_phase(state, "play", "announce a role")
    _need_turn(state, seat, "announce a role")
    key = cmd.args["role"]
    if key in state["excluded"]:
        raise RuleViolation(f"The {_title(key)} lies face up in the middle this set (variant): "
                            "nobody may play it")
    if key in state["players"][seat]["roles_played"]:
        raise RuleViolation(f"{st.name(state, seat)} already played the {_title(key)} this set: "
                            "each role card is played once per set")
    hands.refuse_announce(state, seat, key)
    if any(key in p["roles_played"] for p in state["players"]):
        return _forgotten(state, seat, key)
    return [Event("role_played", {"seat": seat, "role": key})]


def _forgotten(state: State, seat: int, key: str) -> list[Event]:
    """"If a player plays a role card that was played previously in this set ... he must
    immediately place it face down on his face down stack of cards and play another": the
    card counts as played; ``then`` is the seat that announces next (the same one, unless that
    was its last card)."""
    event = Event("card_forfeited", {"seat": seat, "role": key})
    return [Event("card_forfeited",
                  {"seat": seat, "role": key, "then": st.starter(evolve(state, event))})]


def forfeit(state: State, cmd: Command, seat: int) -> list[Event]:
    """The rulebook's penalty for a forgotten card, named: it goes face down, counts as played."""
    _need_phase(state, "play", "lay a forgotten card face down")
    _need_turn(state, seat, "announce a role")
    key = cmd.args["role"]
    if key in state["players"][seat]["roles_played"]:
        raise RuleViolation(f"{st.name(state, seat)} already played the {_title(key)} this set")
    hands.refuse_announce(state, seat, key)
    if not any(key in p["roles_played"] for p in state["players"]):
        raise RuleViolation(f"The {_title(key)} has not been played this set: announce it instead")
    return _forgotten(state, seat, key)


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
    hands.refuse_answer(state, seat, cmd.do)
    return [Event("answered", {"seat": seat, "answer": cmd.do})]


def _extra(args: dict[str, Any], allowed: tuple[str, ...], what: str, text: str) -> None:
    """An argument the waiting effect does not take, refused with what it does take, each
    argument named as a key and said in words."""
    for key in args:
        if key not in allowed:
            takes = [f"{RESOLVE_WORDS[k]} (\"{k}\")" for k in allowed]
            needs = ("only " + _words_list(takes)) if takes else "nothing more than who resolves it"
            raise RuleViolation(f"\"{key}\" ({RESOLVE_WORDS[key]}) is not part of the {what} "
                                f"({text}): it takes {needs}")


def _words_list(items: list[str]) -> str:
    return items[0] if len(items) == 1 else f"{', '.join(items[:-1])} and {items[-1]}"


def resolve(state: State, cmd: Command, seat: int) -> list[Event]:
    _need_phase(state, "resolve", "resolve an action")
    _need_turn(state, seat, "resolve an action or favor")
    front = state["pending"][0]
    effect = effect_of(front)
    what = f"{_title(front['role'])} {'full action' if front['kind'] == 'action' else 'favor'}"
    base = {"seat": seat, "role": front["role"], "kind": front["kind"]}
    args = cmd.args
    _extra(args, RESOLVE_ARGS[effect.kind], what, effect.text)
    reason = cannot_pay(state, seat, effect)
    if reason:
        raise RuleViolation(reason)
    potion = None
    gain = gain_now(state, effect)
    mine = {k: -v for k, v in effect.cost.items()}
    changes: dict[int, dict[str, int]] = {}
    if effect.kind == PAY:
        for counter, n in gain.items():
            mine[counter] = mine.get(counter, 0) + n
    elif effect.kind == TRADE_DROP:
        drop = args.get("drop")
        if drop is None:
            raise RuleViolation(f"drop: which drop does {st.name(state, seat)} return? "
                                "one of red, white, green")
        if state["players"][seat][drop] < 1:
            raise RuleViolation(f"{st.name(state, seat)} has no {drop} drop to return")
        mine = {drop: -1, **gain}
    elif effect.kind == CHOOSE_DROPS:
        chosen = args.get("drops", {})
        count = drops_to_take(state, effect)
        if sum(chosen.values()) != count:
            left = "" if count == effect.count else " (all the supply has left)"
            raise RuleViolation(f"drops: the {_title(front['role'])} takes exactly "
                                f"{amount(count, 'drops')}{left}, e.g. {{\"red\": 2, \"green\": 1}}")
        for d, v in chosen.items():
            mine[d] = mine.get(d, 0) + v
    elif effect.kind == BREW:
        if args.get("potion") is None:
            raise RuleViolation("potion: give the card brewed: its stack, points and raven, "
                                "e.g. {\"stack\": \"copper\", \"points\": 3, \"raven\": false}")
        potion = _potion(state, args["potion"], CAULDRONS)
        mine = {d: -v for d, v in args.get("pay", {}).items()}
    elif effect.kind == TABLE:
        mine = dict(args.get("changes", {}))
        if args.get("potion") is not None:
            potion = _potion(state, args["potion"], STACKS)
        for other_name, deltas in args.get("others", {}).items():
            other = st.seat_of(state, other_name)
            if other == seat:
                raise RuleViolation(f"others: list only the other players; what changed for "
                                    f"{st.name(state, seat)} goes in \"changes\"")
            changes[other] = deltas
    changes = {seat: mine, **changes}
    data = {**base, "changes": _changes(state, changes), "potion": potion}
    if effect.kind in (PAY, TRADE_DROP, CHOOSE_DROPS) and shortfalls(state, effect):
        data["short"] = shortfalls(state, effect)
    return [Event("effect_applied", data)]


def abstain(state: State, cmd: Command, seat: int) -> list[Event]:
    """"A player may always choose to abstain from taking the action he is allowed": the one
    waiting for the seat now, or one the companion applied for it by itself since the last role
    was announced (exactly that gain goes back to the supply)."""
    if st.phase(state) == "resolve" and st.turn(state) == seat:
        front = state["pending"][0]
        return [Event("effect_abstained",
                      {"seat": seat, "role": front["role"], "kind": front["kind"]})]
    gains = [g for g in state.get("free_gains", []) if g["seat"] == seat]
    if gains:
        gain = gains[-1]
        back = {c: -n for c, n in gain["changes"].items()}
        return [Event("gain_declined", {"seat": seat, "role": gain["role"], "kind": gain["kind"],
                                        "changes": _changes(state, {seat: back})})]
    if st.phase(state) == "over":
        raise RuleViolation(GAME_OVER)
    if st.phase(state) == "resolve":
        _need_turn(state, seat, "resolve an action or favor")
    raise RuleViolation(f"{st.name(state, seat)} has no action or favor to decline now: "
                        f"{prompt(state)['text']}")


def adjust(state: State, cmd: Command, seat: int) -> list[Event]:
    """A manual correction by the table: counters, a potion card removed (it goes back on top
    of its stack) and one added (taken from the top, after the removal)."""
    args = cmd.args
    data: dict[str, Any] = {"seat": seat,
                            "changes": _changes(state, {seat: args.get("changes", {})})[str(seat)]}
    remove = args.get("remove_potion")
    if remove is not None:
        if remove >= len(state["players"][seat]["potions"]):
            raise RuleViolation(
                f"remove_potion: {st.name(state, seat)} has no potion number {remove}")
        data["remove_potion"] = remove
    if args.get("potion") is not None:
        data["potion"] = _potion(_without(state, seat, remove), args["potion"], STACKS)
    if not data["changes"] and "potion" not in data and "remove_potion" not in data:
        raise RuleViolation("Nothing to correct: give the changes, a potion card added or "
                            "the one removed")
    return [Event("adjusted", data)]


def reveal_excluded(state: State, cmd: Command) -> list[Event]:
    if not state["variant"] and st.phase(state) != "over":
        raise RuleViolation("This game is played without the variant: there are no spare role "
                            "cards to turn over")
    _need_phase(state, "reveal", "turn over spare role cards")
    roles = cmd.args["roles"]
    count = st.excluded_per_set(state)
    if len(roles) != count:
        cards = "1 role card" if count == 1 else f"{count} different role cards"
        raise RuleViolation(f"roles: turn over exactly {cards} this set")
    shown = st.shown_this_cycle(state)
    for key in roles:
        if key in shown:
            raise RuleViolation(f"The {_title(key)} was already turned over since the last reshuffle")
    return [Event("roles_excluded", {"roles": list(roles)})]


SEAT_COMMANDS = {
    "play_role": play_role, "claim": answer, "so_be_it": answer, "pass": answer,
    "resolve": resolve, "abstain": abstain, "adjust": adjust, "forfeit": forfeit,
    "choose_hand": hands.choose_hand,
}


def decide(state: State, cmd: Command) -> list[Event]:
    if cmd.do == "reveal_excluded":
        return reveal_excluded(state, cmd)
    seat = st.seat_of(state, cmd.player)
    if st.phase(state) == "over" and cmd.do not in ("adjust", "abstain"):
        raise RuleViolation(GAME_OVER)
    return SEAT_COMMANDS[cmd.do](state, cmd, seat)
