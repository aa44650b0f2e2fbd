"""Turn a Cauldron command into events, or refuse it with the rule that forbids it."""

from __future__ import annotations

from companion.core.model import Command, Event
from companion.games.cauldron import decide_harvest as harvest
from companion.games.cauldron import decide_market as market
from companion.games.cauldron import decide_table as table
from companion.games.cauldron import dice
from companion.games.cauldron import state as st
from companion.games.cauldron.state import State

#: Commands of one seat (they need "player").
SEAT_COMMANDS = {
    "gather": harvest.gather, "steal": harvest.steal, "brew": harvest.brew,
    "cast_spell": harvest.cast_spell, "move_ingredient": harvest.move_ingredient,
    "end_turn": harvest.end_turn,
    "buy": market.buy, "pass": market.pass_,
    "turn_order_roll": dice.turn_order_roll, "rolloff_roll": dice.rolloff_roll,
    "correct_roll": dice.correct_roll,
    "set_character": table.set_character, "add_potion": table.add_potion,
    "discard_potion": table.discard_potion, "discard_spell": table.discard_spell,
    "use_ability": table.use_ability, "adjust_magik": table.adjust_magik,
}
#: Commands of the whole table (no player, or an optional one).
TABLE_COMMANDS = {
    "set_milestones": table.set_milestones, "begin": table.begin, "omen": harvest.omen,
    "fill_board": harvest.fill_board, "rolloff": dice.rolloff, "roll": dice.roll,
    "adjust": table.adjust, "fields_exhausted": table.fields_exhausted,
}


def decide(state: State, cmd: Command) -> list[Event]:
    """The events of one command the gate has checked (``commands.COMMANDS``): the arguments
    are clean, the player named is at this table; what is left are the rules."""
    if cmd.do in TABLE_COMMANDS:
        return TABLE_COMMANDS[cmd.do](state, cmd)
    seat = st.seat_of(state, cmd.player)
    if cmd.do == "end_turn" and st.phase(state) == "market":
        return market.pass_(state, cmd, seat)
    return SEAT_COMMANDS[cmd.do](state, cmd, seat)
