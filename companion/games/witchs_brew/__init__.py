"""Witch's Brew (alea): sets of role rounds, "I am the ...!" / "So be it!" / pass."""

from companion.core.engine import GameRules
from companion.games.witchs_brew.commands import COMMANDS, SETUP_KEYS
from companion.games.witchs_brew.decide import decide
from companion.games.witchs_brew.evolve import evolve
from companion.games.witchs_brew.flow import flow
from companion.games.witchs_brew.log import chapter, describe
from companion.games.witchs_brew.prompt import map_input, prompt, results, summary
from companion.games.witchs_brew.state import seat_names, setup

RULES = GameRules(
    name="witchs_brew",
    title="Witch's Brew",
    setup=setup,
    decide=decide,
    evolve=evolve,
    flow=flow,
    prompt=prompt,
    summary=summary,
    map_input=map_input,
    results=results,
    commands=COMMANDS,
    setup_keys=SETUP_KEYS,
    seat_names=seat_names,
    players=(3, 6),
    describe=describe,
    chapter=chapter,
)
