"""Where a bottle may go: a rolled move, Great Sorcery, or back to the nearest space. Shared by
``decide`` (to refuse with the rule's words), ``flow`` (to pass a turn nobody can use) and the
prompt (to show choices)."""

from __future__ import annotations

from companion.games.quest import board
from companion.games.quest import state as st
from companion.games.quest.state import SORCERY_SPACES, State

#: A refusal lists the spaces a bottle can reach only while they are few enough to read.
SAY_AT_MOST = 3


def may_enter_cauldron(state: State, bottle: int) -> bool:
    return st.ingredient(state, bottle) in state["needed"]


def targets(state: State, bottle: int, steps: int, sorcery: bool = False) -> list[str]:
    """Every space the bottle may stop on: exactly ``steps`` spaces for a roll, up to 6 past
    the wizard and obstacles for Great Sorcery; the cauldron with any number up to ``steps``."""
    settings = state["settings"]
    start = st.where(state, bottle)
    if start == board.CAULDRON:
        return []
    if sorcery:
        ends = board.walk_ends(start, steps, settings, exact=False)
    else:
        ends = board.walk_ends(start, steps, settings, st.barriers(state))
    full = set(st.taken(state, bottle)) | set(st.barriers(state))
    out = [e for e in ends if e not in full]
    if not may_enter_cauldron(state, bottle):
        out = [e for e in out if e != board.CAULDRON]
    return sorted(out, key=board.sort_key)


def why_not(state: State, bottle: int, to: str, steps: int, sorcery: bool = False) -> str | None:
    """Why the bottle may not go there (the rule, in the rulebook's words, the spaces as players
    see them), or None."""
    settings = state["settings"]
    start = st.where(state, bottle)
    if start == board.CAULDRON:
        return f"Bottle {bottle} is already in the cauldron"
    if to == board.CAULDRON:
        found = st.ingredient(state, bottle)
        if found is None:
            return (f"Bottle {bottle} cannot go into the cauldron: a potion bottle cannot be moved "
                    "into the cauldron if its ingredient has not yet been revealed")
        if found not in state["needed"]:
            needed = ", ".join(i.replace("_", " ") for i in state["needed"])
            return (f"Bottle {bottle} holds the {found.replace('_', ' ')}, a wrong ingredient: "
                    f"the cauldron needs the {needed}")
    if to in targets(state, bottle, steps, sorcery):
        return None
    there = board.describe(to, settings)
    if to == st.wizard_space(state):
        return f"The wizard stands on {there}: a potion bottle cannot stop on the wizard"
    if to in st.blocked_spaces(state):
        return f"An obstacle blocks {there}: a potion bottle cannot stand on an obstacle"
    if to in st.taken(state, bottle):
        return (f"Bottle {st.bottle_on(state, to)} already stands on {there} (one bottle a "
                "space, as this table set up the game)")
    how = f"up to {steps}" if sorcery else f"exactly {steps}"
    free = board.walk_ends(start, steps, settings, exact=not sorcery)
    if to in free:
        return (f"Bottle {bottle} cannot reach {there}: {in_the_way(state, start, to, steps)}, "
                "and a potion bottle cannot be moved past the wizard on the "
                "wizard's circle or past an obstacle (Great Sorcery can)")
    can = targets(state, bottle, steps, sorcery)
    reach = (board.describe_all(can, settings) if len(can) <= SAY_AT_MOST
             else f"{len(can)} spaces (the gold rings on the screen)")
    return f"Bottle {bottle} cannot reach {there} in {how} spaces; it can reach {reach}"


def in_the_way(state: State, start: str, to: str, steps: int) -> str:
    """Which barrier keeps a rolled move from ``start`` off ``to`` ("the obstacle on path 3 is
    in the way"): the wizard, an obstacle, or both, as the table sees them."""
    settings = state["settings"]
    wizard, blocked = st.wizard_space(state), st.blocked_spaces(state)

    def reaches(barriers: list[str]) -> bool:
        return to in board.walk_ends(start, steps, settings, barriers)

    named = []
    if reaches(blocked):
        named.append(f"the wizard (on {board.describe(wizard, settings)})")
    for path, space in zip(state["obstacles"], blocked):
        if reaches([wizard, *(b for b in blocked if b != space)]):
            named.append(f"the obstacle on path {path}")
    if named:
        return " and ".join(named) + (" is" if len(named) == 1 else " are") + " in the way"
    many = "s" if len(blocked) > 1 else ""
    paths = f"the obstacle{many} on path{many} " + " and ".join(map(str, state["obstacles"]))
    return f"{paths if reaches([wizard]) else 'the wizard and ' + paths} are in the way"


def any_move(state: State, steps: int, sorcery: bool = False) -> bool:
    return any(targets(state, b, steps, sorcery) for b in st.on_board(state))


def return_targets(state: State, bottle: int) -> list[str]:
    """The nearest free spaces for a bottle the wizard or an obstacle knocked away. On a board
    so small that no space is free, a bottle the wizard only passed stays where it is (a table
    would leave it; without this the game could not go on). A bottle on the wizard's space or
    an obstacle always finds a free space: six bottles, at most six barriers, twelve spaces."""
    start = st.where(state, bottle)
    barriers = st.barriers(state)
    nearest = board.nearest(start, state["settings"], barriers, st.taken(state, bottle))
    if not nearest and start not in barriers:
        return [start]
    return nearest


def spell_use(state: State) -> str | None:
    """Why a cast spell has no use on this board (so the turn passes), or None if it has one."""
    name = state["spell"]["name"]
    if name == "omniscience":
        if not any(st.ingredient(state, b) is None for b in st.on_board(state)):
            return "every bottle on the board already shows its ingredient"
    elif name == "exchange":
        if len(st.on_board(state)) < 2:
            return "fewer than two bottles are left on the board"
    elif not any_move(state, SORCERY_SPACES, sorcery=True):
        return "no bottle can move"
    return None
