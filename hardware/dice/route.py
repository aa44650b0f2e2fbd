"""Which of the game's dice a smart die's roll is for (pure; the main thread asks it).

A tray names its dice ("d1") and ``[dice.ids]`` renames them, so a tray's die is always the
same game die; a smart die is paired to a game die ("magic1") or to "any", and a die on a
table is bumped, picked up and set down all game long. Either way the rules decide what a
value means (a die read again before its roll is complete replaces its reading; a kept die
that changes is refused with the reason), and a face becomes a symbol by the one rule of
:func:`hardware.config_data.face_name`: this module only picks the game die.

* the game asks for dice by its prompt's inputs: die ids ("magic1", "action_b") or the one
  generic "die" (Cauldron's rolls: whoever rolls, the die is the die);
* a die paired to a game die gives that die when the game asks for it, or when it already
  gave it in the roll in progress (a re-roll: the rules replace or refuse it);
* a die paired to "any" gives the die it gave in the roll in progress again (its re-roll
  replaces, never fills a second die), else the first die the game asks for that no other
  die gave, never one that has a die of its own: two dice landing at once fill the asked
  dice in the order they land;
* anything else is not asked for: ignored and counted. (A tray's roll nobody asked for goes
  to the rules instead, which refuse it with the reason: a tray is rolled on purpose.)

The roll in progress ends when the game asks for no die.
"""

from __future__ import annotations

from dataclasses import dataclass

ANY = "any"
GENERIC = "die"
#: input ids that are buttons, never dice (see hardware.config_check.TABLE_BUTTONS)
_BUTTONS = frozenset({"undo", "redo", "menu", "next", "pause", "end_turn"})


def asked_dice(inputs: list[str] | tuple[str, ...]) -> list[str]:
    """The dice among a prompt's inputs, in the game's order (buttons left out)."""
    return [i for i in inputs if isinstance(i, str) and "." not in i and i not in _BUTTONS]


@dataclass(frozen=True)
class Route:
    """Where one roll goes: ``die`` (the game's id), or None and ``why`` not."""

    die: str | None
    why: str = ""


class DiceRouter:
    """The memory of the roll in progress: physical die -> the game die it gave."""

    def __init__(self, reserved: frozenset[str] | set[str] = frozenset()) -> None:
        self._gave: dict[str, str] = {}
        self.reserved = frozenset(reserved)   # game dice that have a die of their own
        self.ignored = 0

    def reset(self) -> None:
        """A new game or new devices: no roll in progress."""
        self._gave.clear()

    def route(self, physical: str, paired: str, inputs: list[str] | tuple[str, ...]) -> Route:
        """The game die for a roll of ``physical`` (paired to ``paired``: a game die or "any")
        while the game's prompt asks for ``inputs``."""
        asked = asked_dice(inputs)
        if not asked:
            self._gave.clear()
            return Route(None, "the game asks for no die now")
        if GENERIC in asked:   # one die, whoever's: the rules give it to the roll expected
            return Route(GENERIC if paired == ANY else paired)
        before = self._gave.get(physical)
        if paired != ANY:
            if paired in asked or paired in self._gave.values():
                self._gave[physical] = paired
                return Route(paired)
            return Route(None, f"{paired} is not asked for now (the game asks for "
                               f"{', '.join(asked)})")
        if before is not None:
            return Route(before)
        open_dice = [d for d in asked if d not in self.reserved]
        if not open_dice:
            own = "has a die of its own" if len(asked) == 1 else "have dice of their own"
            return Route(None, f"{', '.join(asked)} {own}")
        taken = set(self._gave.values())
        free = [d for d in open_dice if d not in taken] or open_dice
        self._gave[physical] = free[0]
        return Route(free[0])

    def count_ignored(self) -> int:
        self.ignored += 1
        return self.ignored


__all__ = ["ANY", "GENERIC", "DiceRouter", "Route", "asked_dice"]
