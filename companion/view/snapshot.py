"""The table as plain data, for screens other than the Pi's own (the phones at the table).

:func:`table_view` builds one numbered snapshot from a session: the game and where it stands,
whose turn and what the game asks now (the prompt's own words), every seat's public figures,
the clocks as times to tick from, the last lines of the log, the result at the end and its
BG Stats link. It holds what each seat's physical buttons can do now (:func:`seat_controls`),
so a phone that stands in for a seat's buttons offers exactly those and the server checks a
press against them. Everything is JSON data: the same words the Pi shows, nothing a phone
must work out, and no diff against an earlier snapshot.

Each screen gets its audience's view of the one snapshot (:func:`audience_view`): a watcher
the public table; a seat's phone the public table and its own seat's part (``you``: its buttons
and dice now, and whatever later belongs to that seat alone, such as a private hand), never
another seat's. The snapshot's ``controls`` stay with whoever holds the whole (the phones'
server checks a press against them) and are never sent as they are.

The cost and size do not grow with the game's length: the log's lines come from the table's
:class:`~companion.core.narrator.Narrator` (which tells only the steps since its last sync),
and only the last :data:`LOG_LINES` of them are read; the rest is the state as it is now.
"""

from __future__ import annotations

from typing import Any, Mapping

from companion.core import palette
from companion.core.engine import Session
from companion.core.errors import CompanionError
from companion.core.model import InputEvent
from companion.core.narrator import Narrator, line_sources
from companion.view.screen import BOARD, CHOICES, LINES, no_board, no_choices, no_lines
from companion.view.screen import label as _label
from companion.view.hands import seat_hands
from companion.view.forms import seat_forms
from companion.view.options import group_of

#: The snapshot's layout; a page that knows another refuses to guess.
VERSION = 1
#: How many of the log's newest lines a snapshot carries.
LOG_LINES = 6
#: The buttons every seat has on the table (hardware.toml's ``[seats.N]``), in their order.
SEAT_BUTTONS = ("claim", "so_be_it", "pass")
#: What a press does, as the button on a phone says it (the command's own name otherwise).
PRESS_WORDS = {"claim": "Claim", "so_be_it": "So be it!", "pass": "Pass", "abstain": "Abstain",
               "resolve": "Carry it out", "end_turn": "End turn"}
#: What an answer means, under its button, as the Pi's answer bar says it (game, command).
_HINTS = {("witchs_brew", "claim"): "full action", ("witchs_brew", "so_be_it"): "favor",
          ("witchs_brew", "pass"): "no card in hand"}
#: Where a step came from, as the log says it (the Pi's own screen says nothing).
SOURCE_WORDS = {"gpio": "button", "serial": "dice tray", "keyboard": "keyboard"}


def table_view(session: Session, number: int, narrator: Narrator, *,
               clock: Mapping[str, Any] | None = None, turn_limit: int = 0,
               bgstats: str | None = None, hands_offered: bool = True) -> dict[str, Any]:
    """Snapshot ``number`` of the table. ``hands_offered``: the table setting Hands on phones
    (a seat's phone offers to choose its hand; one chosen on the Pi is shown either way). ``narrator``: the table's own (the Pi's log), synced
    here; ``clock``: ``TableClock.to_dict()`` just after ``advance`` (seconds as of now);
    ``bgstats``: the finished play's BG Stats link, if it has one."""
    state, rules = session.state, session.rules
    prompt = session.prompt()
    summary = session.summary()
    names = session.names
    colours = palette.seat_colours(session.setup.get("colours"), len(names))
    figures = _FIGURES.get(rules.name, _no_figures)
    seats = []
    for seat, name in enumerate(names):
        seats.append({
            "seat": seat, "name": name, "colour": colours[seat].hex,
            "colour_name": colours[seat].name, "awaited": prompt.get("seat") == seat
            and not session.over, "status": _status(summary, prompt, seat, name),
            "figures": figures(summary, seat),
            "lines": LINES.get(rules.name, no_lines)(summary, seat)})
    return {
        "v": VERSION, "n": number, "game": rules.name, "title": rules.title,
        "cooperative": rules.cooperative, "over": session.over,
        "stands": _STANDS.get(rules.name, _no_stands)(summary),
        "phase": prompt.get("phase"), "turn": prompt.get("turn"), "seat": prompt.get("seat"),
        "asks": prompt.get("text", ""), "notes": list(prompt.get("notes", [])),
        "seats": seats,
        "board": BOARD.get(rules.name, no_board)(summary, colours),
        "controls": [seat_controls(session, seat, prompt) for seat in range(len(names))],
        "hands": seat_hands(session, hands_offered),
        "clock": _clock(clock, turn_limit, len(names)),
        "log": log_tail(narrator),
        "result": _result(session, prompt) if session.over else None,
        "bgstats": bgstats if session.over else None,
    }


#: What of a snapshot only its holder keeps (each seat's part goes to that seat alone).
PRIVATE = ("controls", "play", "hands")


def audience_view(snapshot: dict[str, Any], seat: int | None) -> dict[str, Any]:
    """What ``seat``'s phone (None: a watching page) is shown of ``snapshot``: the public
    table, and for a seat its own part as ``you`` (None for a watcher, or a seat not at the
    table). A new private field goes in PRIVATE and in the seat's part here, nowhere else."""
    view = {k: v for k, v in snapshot.items() if k not in PRIVATE}
    controls = snapshot.get("controls") or []
    view["you"] = (dict(controls[seat], name=snapshot["seats"][seat]["name"])
                   if seat is not None and 0 <= seat < len(controls) else None)
    if view["you"] is not None:          # the seat's own hand, nobody else's
        view["you"]["hand"] = (snapshot.get("hands") or [None] * (seat + 1))[seat]
    return view


def log_tail(narrator: Narrator, lines: int = LOG_LINES) -> list[dict[str, Any]]:
    """The newest ``lines`` lines of the log, oldest first, each with its step and where it
    came from (``line_sources``: the press's own line only)."""
    narrator.sync()
    out: list[dict[str, Any]] = []
    for step, told in reversed(narrator.entries):
        for line, came in reversed(list(zip(told, line_sources(step, told)))):
            out.append({"n": step.n, "text": line,
                        "source": SOURCE_WORDS.get(came or "", came or "")})
            if len(out) == lines:
                return out[::-1]
    return out[::-1]


def seat_controls(session: Session, seat: int,
                  prompt: dict[str, Any] | None = None) -> dict[str, Any]:
    """What seat ``seat``'s own buttons can do now: each button whose press the game's input
    map turns into a command the rules accept now, and the dice the game asks this seat for.
    ``waits``: the game waits on this seat (its phone buzzes). ``prompt``: the session's, when
    the caller has it already (a snapshot asks once, not once a seat)."""
    state, rules = session.state, session.rules
    names = session.names
    buttons: list[dict[str, str]] = []
    seen: set[tuple] = set()                 # the commands the buttons do (no choice repeats)
    if not session.over:
        for button in SEAT_BUTTONS:
            command = _mapped(session, InputEvent("button", f"seat{seat + 1}.{button}"))
            if command is None or command.player != names[seat]:
                continue
            key = (command.do, tuple(sorted(map(repr, command.args.items()))))
            if key in seen or not _accepted(session, command):
                continue
            seen.add(key)
            buttons.append({"button": button, "label": _press_words(session, command.do),
                            "hint": _HINTS.get((rules.name, command.do), "")})
    dice = _DICE.get(rules.name, _no_dice)(session, seat)
    prompt = session.prompt() if prompt is None else prompt
    waits = not session.over and (prompt.get("seat") == seat or bool(buttons) or bool(dice))
    choices = [dict({"choice": key, "label": label}, **({"group": group_of(key)}
                                                        if group_of(key) else {}))
               for key, label, _ in seat_choices(session, seat, buttons_done=seen)]
    forms = seat_forms(session, seat)
    waits = waits or bool(choices) or bool(forms)
    turn = prompt.get("turn")
    waiting = "" if waits or session.over else (
        f"Waiting: {turn}'s turn" if turn and turn != names[seat] else "Waiting")
    return {"seat": seat, "buttons": buttons, "dice": dice, "choices": choices, "forms": forms,
            "waits": waits, "waiting": waiting}


def seat_choices(session: Session, seat: int, buttons_done: set | None = None
                 ) -> list[tuple[str, str, Any]]:
    """What the Pi's screen offers seat ``seat`` now beyond its buttons (Witch's Brew: the
    roles it may announce, the drop returned or the drops taken for its effect, "No thanks"
    for a gain it may decline; Cauldron: gather, brew, steal; Quest: the spell, the path
    blocked, the dice kept, the spell cast, a bottle moved, the turn's end), each (key, words,
    the Command), only those the rules accept now and none a button already does. The phones'
    server offers them by key; the app plays the key's command, found again here. Entries
    with numbers to fill in (a brew, a card read aloud, a purchase with a discount) are
    companion.view.forms'."""
    if session.over:
        return []
    found = []
    seen = set(buttons_done or ())
    for key, label, command in CHOICES.get(session.rules.name, no_choices)(session, seat):
        same = (command.do, tuple(sorted(map(repr, command.args.items()))))
        if same in seen or not _accepted(session, command):
            continue
        seen.add(same)
        found.append((key, label, command))
    return found


# -- the parts --------------------------------------------------------------------------------
def _mapped(session: Session, event: InputEvent):
    try:
        return session.rules.map_input(session.state, event)
    except CompanionError:
        return None


def _accepted(session: Session, command) -> bool:
    """Whether the rules would take ``command`` now (tried on the state, nothing kept)."""
    try:
        session.rules.accept(session.state, command)
    except CompanionError:
        return False
    return True


def _press_words(session: Session, do: str) -> str:
    if do == "claim" and session.rules.name == "witchs_brew":
        from companion.games.witchs_brew.roles import ROLES

        role = session.state.get("role")
        if role in ROLES:
            return f"\u201c{ROLES[role].call}\u201d"
    return PRESS_WORDS.get(do, do.replace("_", " ").capitalize())


def _status(summary: dict[str, Any], prompt: dict[str, Any], seat: int, name: str) -> str:
    """A word for where the seat stands this moment, as the Pi's seat tiles say it."""
    if summary.get("over"):
        return "Winner" if name in (summary.get("winners") or [summary.get("winner")]) else ""
    if prompt.get("seat") == seat:
        return {"play": "Announces", "answer": "Answering", "resolve": "Acting",
                "market": "Buying"}.get(prompt.get("phase"), "Now")
    if summary.get("game") == "witchs_brew" and prompt.get("phase") == "answer":
        if name == summary["holder"]:
            return "Holds the role"
        said = {a["player"]: a["answer"] for a in summary["answers"]}.get(name)
        if said:
            return {"so_be_it": "So be it", "pass": "Passed"}.get(said, "Lost role")
        return "No cards" if summary["players"][seat]["cards_left"] == 0 else "Waiting"
    return ""


def _clock(clock: Mapping[str, Any] | None, limit: int, seats: int) -> dict[str, Any] | None:
    """The clocks as of now, in seconds: a phone adds the time since it got the snapshot to
    the turn, the game and the ``running`` seat's clock (none while ``paused``)."""
    if not clock:
        return None
    kept = [float(s) for s in clock.get("seats", [])][:seats]
    seat = clock.get("seat")
    return {"turn": float(clock.get("turn", 0)), "game": float(clock.get("game", 0)),
            "seats": kept + [0.0] * (seats - len(kept)),
            "running": seat if isinstance(seat, int) and 0 <= seat < seats else None,
            "paused": bool(clock.get("paused")), "limit": int(limit or 0)}


def _result(session: Session, prompt: dict[str, Any]) -> dict[str, Any]:
    """The end: the rules' own words, then each seat's result with its breakdown."""
    words = {"tiebreak": "Drops and gold left", "brews": "Potions brewed",
             "character": "Character", "place": "Place"}
    seats = []
    for row in session.rules.results(session.state):
        details = [[words.get(k, k.replace("_", " ").capitalize()), v] for k, v in row.items()
                   if k not in ("seat", "name", "score", "winner") and v is not None]
        details = [[k, _label(v) if k == "Character" else v] for k, v in details]
        seats.append({"seat": row["seat"], "name": row["name"], "winner": bool(row["winner"]),
                      "score": None if session.rules.cooperative else row["score"],
                      "details": details})
    if not session.rules.cooperative:        # the winners first, then by place or score
        seats.sort(key=lambda s: (not s["winner"], dict(s["details"]).get("Place", 0),
                                  -(s["score"] or 0)))
    return {"text": prompt.get("text", ""), "seats": seats}


# -- each game's figures, as its seat tiles show them ------------------------------------------
def _no_figures(summary: dict[str, Any], seat: int) -> list[list[Any]]:
    return []


def _no_stands(summary: dict[str, Any]) -> list[str]:
    return []


def _no_dice(session: Session, seat: int) -> list[dict[str, Any]]:
    return []


def _brew_figures(summary: dict[str, Any], seat: int) -> list[list[Any]]:
    p = summary["players"][seat]
    return [["Points", p["score"]], ["Red", p["red"]], ["White", p["white"]],
            ["Green", p["green"]], ["Gold", p["gold"]], ["Vials", p["vials"]],
            ["Potions", len(p["potions"])], ["Cards", p["cards_left"]]]


def _brew_stands(summary: dict[str, Any]) -> list[str]:
    out = [f"Set {summary['set']}, round {summary['round']}",
           f"Ravens {summary['ravens']} of {summary['ravens_needed']}"]
    if summary["role"] and summary["holder"]:
        from companion.games.witchs_brew.roles import ROLES

        out.append(f"The {ROLES[summary['role']].title}: {summary['holder']}")
    return out


def _cauldron_figures(summary: dict[str, Any], seat: int) -> list[list[Any]]:
    p = summary["players"][seat]
    pool = ", ".join(f"{n} {_label(k)}" for k, n in p["pool"].items() if n) or "empty"
    out = [["Magik", p["magik"]]]
    if p["zone"]:
        out.append(["Zone", _label(p["zone"])])
    if p["character"]:
        out.append(["Character", _label(p["character"])])
    return out + [["Pool", pool], ["Spells", p["spells"]],
                  ["Potions", len(p["potions"]) + len(p["owed"])],
                  ["Cellars", len(p["cellars"])], ["Brews", p["brews"]]]


def _cauldron_stands(summary: dict[str, Any]) -> list[str]:
    out = [f"{summary['season'].capitalize()} Season {summary['season_number']}"]
    if summary["omen"]:
        out.append(f"Omen: {summary['omen']}")
    if summary["season"] == "harvest":
        left = ", ".join(f"{n} {_label(k)}" for k, n in summary["ingredients_left"].items() if n)
        out.append(f"On the board: {left or 'nothing'}")
    return out


def _cauldron_dice(session: Session, seat: int) -> list[dict[str, Any]]:
    """The one die the game waits for, offered to the seat it counts for."""
    command = _mapped(session, InputEvent("die", "die", 1))
    if session.over or command is None or command.player != session.names[seat]:
        return []
    return [{"die": "die", "label": "Die", "faces": [1, 2, 3, 4, 5, 6]}]


def _quest_stands(summary: dict[str, Any]) -> list[str]:
    out = [f"Turn {summary['turn_no']}",
           f"Wizard on space {summary['wizard']}",
           "Paths blocked: " + (", ".join(map(str, summary["obstacles"])) or "none")]
    found = [k.replace("_", " ") for k in summary["in_cauldron"]]
    out.append(f"In the cauldron: {', '.join(found) or 'nothing yet'}")
    return out


def _quest_dice(session: Session, seat: int) -> list[dict[str, Any]]:
    """The dice the team's current player rolls now, each with its faces."""
    from companion.games.quest.commands import faces_of

    prompt = session.prompt()
    if session.over or prompt.get("seat") != seat:
        return []
    return [{"die": die, "label": _label(die), "faces": faces_of(die, session.state)}
            for die in prompt.get("inputs", [])]


_FIGURES = {"witchs_brew": _brew_figures, "cauldron": _cauldron_figures}
_STANDS = {"witchs_brew": _brew_stands, "cauldron": _cauldron_stands, "quest": _quest_stands}
_DICE = {"cauldron": _cauldron_dice, "quest": _quest_dice}
