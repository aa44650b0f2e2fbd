"""Cauldron Quest (Peaceable Kingdom): the cooperative game driven by its dice, with exact
spell odds. Rulebook: shared/seeds/002_5d704836eb535995.txt.

What the rulebook leaves open is a setting of the setup line (defaults in brackets), never a
rule; RULES-NOTES.md marks these *unsure*:

- ``circle_spaces`` [24]: spaces on the wizard's circle (a multiple of 6; path ``p`` begins on
  ``c{(p-1)*circle_spaces/6}``, counting clockwise from path 1).
- ``path_spaces`` [5]: spaces on each path between the circle and the cauldron.
- ``obstacle_space`` [2]: which path space (from the circle) an obstacle covers.
- ``start_space`` [0]: where bottle ``n`` starts: 0 = path n's entrance on the circle, k = path
  space k. Bottles are numbered 1-6 by the path they start on.
- ``wizard_start`` [half-way from path 1 to path 2]: the arrow, a circle space.
- ``die_a`` [bottle x4, hat x2] and ``die_b`` [2, 3, 3, 4, spell, spell]: the six faces of each
  action die (reports say the numbers are 2-4; the split is not known).
- ``share_spaces`` [false]: whether two bottles may stand on one space.

Readings of the rulebook: a move is exactly the number rolled, without turning back, except into
the cauldron (any number that reaches it); passing another bottle is allowed; Great Sorcery moves
1-6 spaces and may pass but not stop on the wizard or an obstacle; a knocked bottle goes to the
nearest free space (the team picks among equally near ones; a bottle the wizard only passed
stays put when no space is free); a spell with no use on the board, or a roll no bottle can use,
passes the turn; the dice kept between magic rolls are those the team said, and keep their
values (a roll that changes one is refused and uses no roll; the advice binds nothing; a roll
read die by die waits for every die not kept; Fix dice may change any die); the chance shown is
for the dice the team kept, with the best choice beside it when better.

Every command and setup key is declared in ``commands`` and checked by the one gate
(companion.core.gate) before ``decide`` or ``setup`` sees it; player names match after NFC and
without regard to case. Refusals and prompts name spaces as players see them
(``board.describe``); the ids ``c5``/``p2.3`` are for scripts.
"""

from companion.core.engine import GameRules
from companion.games.quest.commands import COMMANDS, SETUP_KEYS, seat_names
from companion.games.quest.decide import decide
from companion.games.quest.evolve import evolve
from companion.games.quest.flow import flow
from companion.games.quest.log import chapter, describe
from companion.games.quest.prompt import map_input, prompt, results, summary
from companion.games.quest.state import setup

#: the parts imported above, taken by their names
RULES = GameRules.gathered(globals(), name="quest", title="Cauldron Quest", players=(1, 6),
                          cooperative=True)
