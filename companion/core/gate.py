"""The one gate in front of every game: commands and setups declared as data, checked here.

A review played the games through hundreds of scripts: the rules held, the edges did not. Each
game checked its arguments its own way, so a list where a name belongs, ``2.0`` for a die, a
typo'd key or a lone surrogate ended in a traceback, or silently played something else. Now each
game declares its setup keys and each command's arguments next to its rules (:class:`Arg`,
:class:`Declared`), and :func:`check_command` / :func:`check_setup` check every input (from a
script, the screen, a button or a die) before ``decide`` sees it. ``decide`` works on clean
values only: whole numbers are ``int`` (never ``bool``, ``2.0`` or ``"2"``), names are matched
after Unicode NFC and without regard to case, choices come back in their canonical spelling,
lists are lists, and a key nobody declared is refused, naming the known ones.

Every refusal names the field (``potion.stack``, ``players[2]``) and says what belongs there.
How a name is compared, a typed text cleaned and a bad value quoted is
:mod:`companion.core.values`, shared with the store, the club and the settings.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, Mapping, Sequence

from companion.core import palette
from companion.core.errors import RuleViolation, SetupError
from companion.core.model import Command
# Re-exported: callers that check commands quote, compare and clean with the same words.
from companion.core.values import (  # noqa: F401
    INT64_MAX, INT64_MIN, MAX_TEXT, clean_text, name_key, seat_of, shown,
)

State = dict[str, Any]
#: A bound that may depend on the state: the box's supply, a die's faces from the settings.
Bound = Any  # int | Callable[[State], int]
#: No list or mapping in a command is longer than this (a whole game's worth of anything).
MAX_ITEMS = 200


def _fail(at: str, wants: str, value: Any) -> RuleViolation:
    return RuleViolation(f"{at}: {wants}, not {shown(value)}")


def _bound(value: Bound, state: State) -> Any:
    return value(state) if callable(value) else value


class Spec:
    """What one value must be. ``check`` returns the clean value or raises RuleViolation
    naming ``at``; ``wants`` says in words what belongs there (for refusals and docs)."""

    def check(self, value: Any, at: str, state: State) -> Any:
        raise NotImplementedError

    def wants(self, state: State) -> str:
        raise NotImplementedError


@dataclass(frozen=True)
class Whole(Spec):
    """A whole number: ``int`` only, within ``low``..``high`` (each an int or a function of
    the state, e.g. the box's supply)."""

    low: Bound = INT64_MIN
    high: Bound = INT64_MAX

    def wants(self, state: State) -> str:
        low, high = _bound(self.low, state), _bound(self.high, state)
        if low == INT64_MIN and high == INT64_MAX:
            return "a whole number"
        if high == INT64_MAX:
            return f"a whole number of at least {low}"
        return f"a whole number from {low} to {high}"

    def check(self, value: Any, at: str, state: State) -> int:
        if isinstance(value, bool) or not isinstance(value, int):
            raise _fail(at, self.wants(state), value)
        if not _bound(self.low, state) <= value <= _bound(self.high, state):
            raise _fail(at, self.wants(state), value)
        return value


@dataclass(frozen=True)
class Flag(Spec):
    """true or false: a JSON boolean, never 0/1 or "yes"."""

    def wants(self, state: State) -> str:
        return "true or false"

    def check(self, value: Any, at: str, state: State) -> bool:
        if not isinstance(value, bool):
            raise _fail(at, self.wants(state), value)
        return value


@dataclass(frozen=True)
class Text(Spec):
    """Free text a player types (a potion's name, an omen's words)."""

    limit: int = MAX_TEXT
    blank: bool = True
    line: bool = False

    def wants(self, state: State) -> str:
        return f"text of at most {self.limit} characters"

    def check(self, value: Any, at: str, state: State) -> str:
        return clean_text(value, at, limit=self.limit, blank=self.blank, line=self.line)


def _same(given: Any, option: Any) -> bool:
    if isinstance(option, str):
        return isinstance(given, str) and name_key(given) == name_key(option)
    if isinstance(option, bool) or isinstance(given, bool):
        return given is option
    return type(given) is type(option) and given == option


@dataclass(frozen=True)
class Choice(Spec):
    """One of a few values in the game's words (a role, a stack, a die face). Text matches
    without regard to case; the value comes back as the game spells it. ``options`` may be a
    function of the state (a die's faces come from the settings)."""

    options: Any  # Sequence[Any] | Callable[[State], Sequence[Any]]
    #: Other spellings a table may type, mapped to the option they mean.
    aliases: Mapping[str, Any] = field(default_factory=dict)
    #: How a refusal lists an option when its id is not the table's word for it ("rotten egg"
    #: for rotten_egg); the word must also be accepted (an option or an alias).
    words: Mapping[Any, str] = field(default_factory=dict)

    def values(self, state: State) -> tuple[Any, ...]:
        return tuple(_bound(self.options, state))

    def wants(self, state: State) -> str:
        values = [self.words.get(v, v) for v in self.values(state)]
        listed = ", ".join(str(v) for v in values[:14]) + (" …" if len(values) > 14 else "")
        return f"one of {listed}"

    def check(self, value: Any, at: str, state: State) -> Any:
        if isinstance(value, (str, int)):  # bool is an int: _same tells them apart
            if isinstance(value, str):
                clean_text(value, at, limit=80)
            for option in self.values(state):
                if _same(value, option):
                    return option
            for alias, option in self.aliases.items():
                if isinstance(value, str) and name_key(value) == name_key(alias):
                    return option
        raise _fail(at, self.wants(state), value)


@dataclass(frozen=True)
class Player(Spec):
    """A player at this table, by name: NFC and case do not matter; comes back as typed at
    setup. The game says where its names are (``GameRules.seat_names``)."""

    names: Callable[[State], Sequence[str]]

    def wants(self, state: State) -> str:
        return "a player at this table (" + ", ".join(self.names(state)) + ")"

    def check(self, value: Any, at: str, state: State) -> str:
        if not isinstance(value, str):
            raise _fail(at, self.wants(state), value)
        names = list(self.names(state))
        seat = seat_of(names, clean_text(value, at, limit=80))
        if seat is None:
            raise RuleViolation(f"{at}: there is no player named {shown(value)} at this table "
                                f"({', '.join(names)})")
        return names[seat]


@dataclass(frozen=True)
class ListOf(Spec):
    """A list (never a string read letter by letter, never a mapping) of ``item``s."""

    item: Spec
    least: int = 0
    most: int = MAX_ITEMS
    unique: bool = False

    def wants(self, state: State) -> str:
        count = (f"{self.least}" if self.least == self.most
                 else f"{self.least} to {self.most}")
        return f"a list of {count} ({self.item.wants(state)})"

    def check(self, value: Any, at: str, state: State) -> list[Any]:
        if not isinstance(value, (list, tuple)):
            raise _fail(at, self.wants(state), value)
        if not self.least <= len(value) <= self.most:
            raise _fail(at, self.wants(state), value)
        out = [self.item.check(v, f"{at}[{i}]", state) for i, v in enumerate(value)]
        if self.unique:
            seen = []
            for i, v in enumerate(out):
                key = name_key(v) if isinstance(v, str) else v
                if key in seen:
                    raise RuleViolation(f"{at}[{i}]: {shown(v)} is listed twice")
                seen.append(key)
        return out


@dataclass(frozen=True)
class MapOf(Spec):
    """A mapping whose keys are checked by ``key`` (counters, ingredients, players) and values
    by ``value``. Two keys that mean the same (``"Red"`` and ``"red"``) are refused."""

    key: Spec
    value: Spec
    most: int = MAX_ITEMS

    def wants(self, state: State) -> str:
        return f"a mapping of {self.key.wants(state)} to {self.value.wants(state)}"

    def check(self, value: Any, at: str, state: State) -> dict[Any, Any]:
        if not isinstance(value, dict) or len(value) > self.most:
            raise _fail(at, self.wants(state), value)
        out: dict[Any, Any] = {}
        for raw_key, raw_value in value.items():
            key = self.key.check(raw_key, f"{at} key", state)
            if key in out:
                raise RuleViolation(f"{at}: {shown(key)} is given twice")
            label = key if isinstance(key, str) else shown(key)
            out[key] = self.value.check(raw_value, f"{at}.{label}", state)
        return out


@dataclass(frozen=True)
class Arg:
    """One key of a command or a setup, or one field of a :class:`Record`."""

    spec: Spec
    required: bool = False
    #: What it is, in the table's words (for the tables in docs/ and for help).
    doc: str = ""


def _keyed(problem: RuleViolation, path: str, key: str, arg: Arg) -> RuleViolation:
    """A value's refusal with its key named as a key and what it means (``(the key "magik":
    Magik it gives or takes)``), and in players' words for a screen ("Magik it gives or takes
    (Anna): a whole number from -35 to 35, not 40"). A refusal deeper in (a record's own
    field) is already keyed and passes through."""
    if getattr(problem, "keyed", False) or not arg.doc:
        return problem
    message = str(problem)
    at, _, rest = message.partition(": ")
    if not at.startswith(path) or not rest:
        return problem
    inner = at[len(path):].lstrip(".")
    doc = arg.doc[0].upper() + arg.doc[1:]
    out = RuleViolation(f'{message} (the key "{key}": {arg.doc})',
                        screen=f"{doc}{f' ({inner})' if inner else ''}: {rest}")
    out.keyed = True  # type: ignore[attr-defined]
    out.plain = message  # type: ignore[attr-defined]  # a setup's refusal, as before
    return out


def _check_keys(given: Mapping[str, Any], args: Mapping[str, Arg], at: str, state: State,
                *, what: str) -> dict[str, Any]:
    unknown = [k for k in given if k not in args]
    if unknown:
        known = ", ".join(args) or "none"
        key = unknown[0]
        label = shown(key)[1:-1] if isinstance(key, str) else shown(key)
        where = f"{at}.{label}" if at else label
        meanings = "; ".join(f'"{k}" is {a.doc}' for k, a in args.items() if a.doc)
        raise RuleViolation(f'{where}: not a key of {what}; it knows {known}'
                            + (f" ({meanings})" if meanings else ""),
                            screen=f"{what[0].upper()}{what[1:]} has nothing called "
                                   f"{shown(key)}: that was not the table's entry")
    out: dict[str, Any] = {}
    for key, arg in args.items():
        path = f"{at}.{key}" if at else key
        if key not in given or given[key] is None:
            if arg.required:
                raise RuleViolation(f"{path}: missing; give {arg.spec.wants(state)}"
                                    + (f' (the key "{key}": {arg.doc})' if arg.doc else ""))
            continue
        try:
            out[key] = arg.spec.check(given[key], path, state)
        except RuleViolation as problem:
            raise _keyed(problem, path, key, arg) from None
    return out


@dataclass(frozen=True)
class Record(Spec):
    """A mapping with declared keys (a potion card, a player's entry): unknown keys refused."""

    fields: Mapping[str, Arg]
    what: str = "this entry"

    def wants(self, state: State) -> str:
        return f"{self.what} as {{{', '.join(self.fields)}}}"

    def check(self, value: Any, at: str, state: State) -> dict[str, Any]:
        if not isinstance(value, dict):
            raise _fail(at, self.wants(state), value)
        return _check_keys(value, self.fields, at, state, what=self.what)


@dataclass(frozen=True)
class Either(Spec):
    """One of several shapes (a player as a name or as a record; a die face as a number or
    "spell"). The first that fits wins."""

    options: tuple[Spec, ...]

    def wants(self, state: State) -> str:
        return " or ".join(o.wants(state) for o in self.options)

    def check(self, value: Any, at: str, state: State) -> Any:
        for option in self.options:
            try:
                return option.check(value, at, state)
            except RuleViolation:
                continue
        raise _fail(at, self.wants(state), value)


def _seat_word(players: Any, i: int) -> str:
    """How a refusal names seat ``i`` of a setup's players (a name or a record)."""
    entry = players[i] if isinstance(players, (list, tuple)) and i < len(players) else None
    name = entry.get("name") if isinstance(entry, dict) else entry
    return f"players[{i}] ({shown(name)[1:-1]})" if isinstance(name, str) else f"players[{i}]"


@dataclass(frozen=True)
class SeatColours(Spec):
    """A setup's seat colours: one per player, in seat order, each from the palette
    (:mod:`companion.core.palette`; a name, an alias or its hex code, case aside), no two
    seats the same. Comes back as the palette's names, or its hex codes with ``as_hex`` (a
    game whose state has always kept the hex). A refusal names the field and the seat."""

    as_hex: bool = False

    def wants(self, state: State) -> str:
        return "one colour per player from " + ", ".join(palette.NAMES)

    def check(self, value: Any, at: str, state: State) -> list[str]:
        if not isinstance(value, (list, tuple)):
            raise _fail(at, self.wants(state), value)
        players = state.get("players") if isinstance(state, dict) else None
        seats = len(players) if isinstance(players, (list, tuple)) else len(value)
        if len(value) != seats:
            raise RuleViolation(f"{at}: give one colour per player ({seats}), not {len(value)}")
        picked: list[palette.Colour] = []
        for i, given in enumerate(value):
            colour = palette.find(given)
            if colour is None:
                raise RuleViolation(f"{at}[{i}]: {shown(given)} for {_seat_word(players, i)} "
                                    f"is not a palette colour; choose one of "
                                    f"{', '.join(palette.NAMES)}")
            if colour in picked:
                other = picked.index(colour)
                raise RuleViolation(f"{at}[{i}]: {colour.name} for {_seat_word(players, i)} is "
                                    f"already the colour of {_seat_word(players, other)}; "
                                    "each seat needs its own")
            picked.append(colour)
        return [c.hex if self.as_hex else c.name for c in picked]


PLAYER_NONE, PLAYER_OPTIONAL, PLAYER_REQUIRED = "none", "optional", "required"


@dataclass(frozen=True)
class Declared:
    """One command as a game declares it: its arguments, and whether it names a player."""

    args: Mapping[str, Arg] = field(default_factory=dict)
    player: str = PLAYER_NONE
    doc: str = ""


#: Commands every game knows: the engine handles them before the rules see anything.
ENGINE_COMMANDS = {
    "undo": Declared(player=PLAYER_OPTIONAL, doc="take back the last step (dice excepted)"),
    "redo": Declared(player=PLAYER_OPTIONAL, doc="play the last undone step again"),
}


def check_command(commands: Mapping[str, Declared], state: State, command: Command,
                  seat_names: Callable[[State], Sequence[str]], *, game: str) -> Command:
    """The command as ``decide`` may trust it, or RuleViolation naming the field."""
    do = command.do
    if not isinstance(do, str):
        raise _fail("do", "the command's name", do)
    declared = commands.get(do) or ENGINE_COMMANDS.get(do)
    if declared is None:
        known = ", ".join(sorted({*commands, *ENGINE_COMMANDS}))
        raise RuleViolation(f"{game} has no command {shown(do)}; it knows {known}")
    player = command.player
    if declared.player == PLAYER_NONE and player is not None:
        raise RuleViolation(f"{do}: the whole table does this; leave out \"player\"")
    if player is None and declared.player == PLAYER_REQUIRED:
        raise RuleViolation(f"{do}: say which player (\"player\": a name at this table: "
                            f"{', '.join(seat_names(state))})")
    if player is not None:
        player = Player(seat_names).check(player, "player", state)
    if not isinstance(command.args, dict):
        raise _fail(do, "its arguments as a mapping", command.args)
    args = _check_keys(command.args, declared.args, "", state, what=f"{do}")
    return Command(do, player, args)


def check_setup(keys: Mapping[str, Arg], config: Any, *, game: str) -> dict[str, Any]:
    """A setup as the game's ``setup`` may trust it, or SetupError naming the key. The
    ``game`` key of a table script's first line is always allowed."""
    if not isinstance(config, dict):
        raise SetupError(f"the setup is a mapping of keys ({', '.join(keys)}), "
                         f"not {shown(config)}")
    given = {k: v for k, v in config.items() if k != "game"}
    try:
        return _check_keys(given, {**keys}, "", config, what=f"the {game} setup")
    except RuleViolation as problem:  # the setup screens read these, seat by seat
        raise SetupError(getattr(problem, "plain", str(problem))) from None


def player_names(least: int, most: int) -> Spec:
    """The players of a setup, in clockwise order: names as typed (stripped, NFC), none blank,
    none the same as another after NFC and case folding, each on one line."""
    return ListOf(Text(limit=40, blank=False, line=True), least=least, most=most, unique=True)
