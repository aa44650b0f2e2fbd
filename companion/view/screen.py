"""What the Pi shows beside the seats' figures, for the phones' snapshot (companion.view.snapshot): each
game's board (Witch's Brew's role card in play and its text, Cauldron's Magik track, Quest's
needed ingredients and wizard), the lines a seat's tile adds (Cauldron's character and
potions), and the choices the Pi's screen offers a seat (``CHOICES``: each a key, its words
and the Command; companion.view.snapshot.seat_choices keeps those the rules accept now). Pure."""

from __future__ import annotations

from typing import Any

from companion.core.engine import Session


def label(key: str) -> str:
    return key.replace("_", " ").title()



def no_choices(session: Session, seat: int) -> list[tuple[str, str, Any]]:
    return []


def _brew_choices(session: Session, seat: int) -> list[tuple[str, str, Any]]:
    from companion.core import Command
    from companion.games.witchs_brew.roles import ROLES
    from companion.view.options import brew_effect_options

    player = session.names[seat]
    return [(f"role:{key}", f"The {role.title}", Command("play_role", player, {"role": key}))
            for key, role in ROLES.items()] + brew_effect_options(session, seat) + [
        ("no_thanks", "No thanks", Command("abstain", player))]


def _cauldron_choices(session: Session, seat: int) -> list[tuple[str, str, Any]]:
    """The Pi's harvest turn: gather an Ingredient left on the board, brew a Potion, steal;
    its Spells and Cellars and the Market Season's purchases (companion.view.options)."""
    from companion.core import Command
    from companion.games.cauldron.data import INGREDIENTS
    from companion.view.options import cauldron_options, harvest_extras

    player, summary = session.names[seat], session.summary()
    if summary.get("phase") != "turns" or summary.get("turn") != player:
        return cauldron_options(session, seat)
    left = summary.get("ingredients_left") or {}
    out = [(f"gather:{k}", f"Gather {label(k)}", Command("gather", player, {"ingredient": k}))
           for k in INGREDIENTS if left.get(k)]
    out += [(f"brew:{p['name']}", f"Brew {p['name']}", Command("brew", player,
                                                             {"potion": p["name"]}))
            for p in summary["players"][seat]["potions"]]
    out += harvest_extras(session, seat, summary)
    for target in (summary.get("options") or {}).get("steal_from") or []:
        for k in INGREDIENTS:
            out.append((f"steal:{target}:{k}", f"Steal {label(k)} from {target}",
                        Command("steal", player, {"target": target, "ingredient": k})))
    return out + cauldron_options(session, seat)


def _quest_choices(session: Session, seat: int) -> list[tuple[str, str, Any]]:
    """The Pi's choices for the team's current player: the spell announced, the path an
    obstacle blocks, the dice kept, the spell cast, a bottle moved, ending the turn (the
    team's commands name no player: the seat's turn)."""
    from companion.core import Command
    from companion.games.quest.odds import SPELLS
    from companion.games.quest.state import SPELL_TITLES
    from companion.view.options import quest_options

    if session.prompt().get("seat") != seat:
        return []
    out = [(f"spell:{k}", SPELL_TITLES[k], Command("announce_spell", None, {"spell": k}))
           for k in SPELLS]
    out += [(f"block:{n}", f"Block path {n}", Command("block_path", None, {"path": n}))
            for n in range(1, 7)]
    return out + quest_options(session) + [("end_turn", "End the turn", Command("end_turn"))]


def no_board(summary: dict[str, Any], colours: Any) -> list[dict[str, Any]]:
    return []


def no_lines(summary: dict[str, Any], seat: int) -> list[str]:
    return []


def _brew_board(summary: dict[str, Any], colours: Any) -> list[dict[str, Any]]:
    """The role card in play, its two effects in the card's words (the Pi's card text)."""
    from companion.games.witchs_brew.roles import ROLES

    role = ROLES.get(summary.get("role") or "")
    if role is None:
        return []
    return [{"title": f"The {role.title}: \u201c{role.call}\u201d",
             "items": [{"text": f"Full action: {role.full.text}"},
                       {"text": f"Favor: {role.favor.text}"}]}]


def _cauldron_board(summary: dict[str, Any], colours: Any) -> list[dict[str, Any]]:
    """The Magik track: each seat's marker, highest first, then the milestones on it."""
    players = sorted(enumerate(summary["players"]), key=lambda p: -p[1]["magik"])
    track = [{"text": f"{p['name']}: {p['magik']}" + (f" ({label(p['zone'])})" if p["zone"]
                                                      else ""), "colour": colours[i].hex}
             for i, p in players]
    for key, stone in summary["milestones"].items():
        by = f", reached by {stone['by']}" if stone["reached"] and stone["by"] else (
            ", reached" if stone["reached"] else "")
        track.append({"text": f"{label(key)} at {stone['position']}{by}",
                      "done": bool(stone["reached"])})
    return [{"title": "The Magik track", "items": track}]


def _cauldron_lines(summary: dict[str, Any], seat: int) -> list[str]:
    """A seat's tile: its character's ability and how many potion cards it holds, never which
    (the cards in hand are on the seat's own phone, companion/view/hands.py)."""
    p = summary["players"][seat]
    out = [p["ability"]] if p.get("ability") else []
    held = len(p["potions"]) + len(p["owed"])
    return out + ([f"Potion cards in hand: {held}"] if held else [])


def _quest_board(summary: dict[str, Any], colours: Any) -> list[dict[str, Any]]:
    """The board: the ingredients the spell needs (found ones marked), the wizard, the paths."""
    found = set(summary["in_cauldron"])
    needed = [{"text": label(k) + (" (in the cauldron)" if k in found else ""),
               "done": k in found} for k in summary["needed"]]
    spaces = summary["settings"]["circle_spaces"]
    board = [{"text": f"The wizard: space {summary['wizard']} of {spaces}"}]
    board += [{"text": f"Path {n} blocked"} for n in summary["obstacles"]]
    return [{"title": "Needed ingredients", "items": needed},
            {"title": "The board", "items": board}]


CHOICES = {"witchs_brew": _brew_choices, "cauldron": _cauldron_choices,
            "quest": _quest_choices}
BOARD = {"witchs_brew": _brew_board, "cauldron": _cauldron_board, "quest": _quest_board}
LINES = {"cauldron": _cauldron_lines}
