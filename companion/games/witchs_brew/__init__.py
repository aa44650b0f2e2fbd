"""Witch's Brew (alea): sets of role rounds, "I am the ...!" / "So be it!" / pass."""

from companion.core.engine import GameRules
from companion.games.witchs_brew.commands import COMMANDS, SETUP_KEYS
from companion.games.witchs_brew.decide import decide
from companion.games.witchs_brew.evolve import evolve
from companion.games.witchs_brew.flow import flow
from companion.games.witchs_brew.log import chapter, describe
from companion.games.witchs_brew.prompt import map_input, prompt, results, summary
from companion.games.witchs_brew.state import seat_names, setup

#: the parts imported above, taken by their names
RULES = GameRules.gathered(globals(), name="witchs_brew", title="Witch's Brew", players=(3, 6))
