"""Cauldron ("The Game of Competitive Alchemy"): Harvest and Market seasons, the Magik track,
the Grand Infuser at 35.

Where the rulebook is silent or contradicts itself, the companion does what a table expects;
where tables differ it is a setting (``settings`` in the setup). The decisions:

- *Market order* (contradiction): the full rules win: the Market opens with the seat to the
  LEFT of the one who gathered the last Ingredient (the next seat clockwise) and goes on
  clockwise. Setting ``market_start: "right"`` follows the quick reference instead.
- *Milestones*: the board's positions of Magik Overflow, Rituals of Power and The Breaking are
  not legible anywhere public: the table enters them (setup ``milestones`` or ``set_milestones``,
  3-34) before play. Each triggers once, for the first seat to reach it by any means; if
  several seats get there with one command, the one with the most Magik, then the nearest
  clockwise from the seat whose turn it is. Their printed effects are the table's to apply
  (``adjust_magik`` with source milestone); Rituals of Power unlocks Advanced Potions and
  Advanced Spells in the Market. A position may be corrected until that milestone triggers.
- *Quick Game milestones*: milestones at or below the starting 15 count as passed by nobody
  (Rituals there unlocks at once). Setting ``quick_passes_milestones: false`` lets them trigger.
- *34 cap*: Spells, Omens, milestones and corrections (``adjust_magik``, Omen ``magik``) stop at
  34 and never go below 0; only a brew reaches 35. A brew may go past 35.
- *Advanced Alchemy on a Field purchase*: judged on the buyer's Magik before paying.
- *Enthusiasm*: judged on the Magik before the brew (10 or less: +1 for Basic and Easy).
- *Little Helpers* (the Witch): gather two as her one Action. The rulebook does not say it is
  once per season; a seat's ``once_per_season: true`` (from its card) makes any ability take a
  Used token, reset when the Harvest closes. Other abilities are text typed from the cards,
  used with ``use_ability`` and their effects entered by hand.
- *Must act*: a turn must take its one Action while able (the board always has an Ingredient
  during turns); ``end_turn`` with ``skip: true`` ends a turn a Spell or Omen left without one.
- *Cellars*: brewing takes Ingredients from the pool only; Cellar ones must be moved out first
  (a Quick Action). A third Cellar (only if a card allows) costs 4, like the second.
- *The box* (RULES-NOTES): 132 Ingredient tokens, 44 Fields, 12 Cellar cards, settings
  ``box_ingredients``, ``box_fields``, ``box_cellars``. Tokens out of the supply (board, pools,
  Cellars) never exceed it: an Omen, a fill or a correction needing more is refused, a Field's
  bonus token comes only while the supply has one. The count per Field type is unknown:
  ``fields_exhausted`` marks a type as run out, or setting ``field_supply`` gives the counts
  (every type counted: their sum is the box's Fields).
- *Characters*: from a seat's record or the setup key ``characters`` (player name to
  character); both may name one only if they agree; each character once.
- *Potion cards*: each card a seat gains (setup: Easy + Basic, Quick Game + Advanced; Market
  purchases) waits to be entered once with ``add_potion`` (or with the ``buy``); until then it
  still counts for potion prices. Other sources need ``source``. Discarding is allowed any time.
- *Spells*: the companion counts a seat's Spells by kind (basic/advanced) but never their
  texts. The three-Spell limit is checked when the turn ends; a full hand must discard (``buy``
  with ``discard``) before buying. Non-Instant Spells only on your own Harvest turn, Instant
  ones at any moment of the Harvest; Magik Dome (``dome: true``) stops Spells for the season.
- *Steal*: a steal that succeeds after an Instant Spell emptied the target's pool takes nothing.
- *Less Luck turn order*: "lowest score goes first" uses the rulebook's definition of the
  player with the fewest Magik (its "LSP"): tied seats roll, the lowest roll starts. An Omen may
  also name who starts (``first``: a name, "lsp" for the fewest Magik, "hsp" for the most).
  In the first Harvest everyone is tied on the starting Magik, so every seat rolls.
- *Variants* combine freely; Simple + Quick deals no Advanced Spell. Less Luck's "draw two,
  keep one" and "replace Omens about turn order rolls" are reminders in the prompt only.
- *Advanced Game*: a seat may stop after one purchase (``pass``/``end_turn``); after the second
  the Market moves on by itself.
- *Filling the board*: one token per Field plus the Omen's ``produce`` changes; the table may
  place other counts (``fill_board`` with ``ingredients``), never none at all.
- *Steal dice*: ``steal`` with ``roll`` settles at once; without it the steal waits for the
  next die (``roll`` or a die input); meanwhile only Instant Spells may interrupt.
- *Dice*: turn order, roll-off and steal dice are inputs and cannot be undone; ``correct_roll``
  fixes a misread die: a turn order roll until the first turn has begun (only tied seats'
  later rolls are kept), the current turn's steal roll, the latest roll-off's rolls.
- *Ties*: ties for the fewest or the most Magik are settled with ``rolloff``. A roll-off
  belongs to the tie it was opened for (the same seats at the same Magik): a Magik change that
  ends or changes it voids it (``flow``); a void roll-off takes no die and names nobody, even if
  the same tie comes back; a new tie needs a new roll-off. Turn order by the fewest or most Magik
  still being rolled opens again among the seats tied now. A game has one Grand Infuser, the
  others are placed by Magik (ties share a place).
- *Simple Game*: no Spells at all, not even added by hand.
"""

from typing import Any

from companion.core import palette
from companion.core.engine import GameRules
from companion.games.cauldron.commands import COMMANDS, SETUP_KEYS, seat_names
from companion.games.cauldron.decide import decide
from companion.games.cauldron.evolve import evolve
from companion.games.cauldron.flow import flow
from companion.games.cauldron.log import chapter, describe
from companion.games.cauldron.prompt import map_input, prompt, results, summary
from companion.games.cauldron.state import setup as _table_setup


def setup(config: dict[str, Any]) -> dict[str, Any]:
    """The state before the first command, each seat in the colour the table chose at setup
    (``colours``, checked by the gate), so every screen draws a seat in its pieces' colour; a
    setup without ``colours`` keeps the defaults it always had."""
    state = _table_setup(config)
    for player, name in zip(state["players"], config.get("colours") or ()):
        player["colour"] = palette.find(name).hex
    return state


#: the parts imported above, taken by their names
RULES = GameRules.gathered(globals(), name="cauldron", title="Cauldron", players=(2, 6))
