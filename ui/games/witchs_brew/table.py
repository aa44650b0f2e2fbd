"""The Witch's Brew table: the announced role, whose answer is awaited, every seat's books.

Everything shown is read from ``session.summary()`` and ``session.prompt()`` (and the roles
table for titles and effect texts); every tap becomes a command or a seat input that the rules
judge. The bottom panel changes with the phase: role cards to announce, the answer bar, the
resolve panel, or the variant's reveal.
"""

from __future__ import annotations

from kivy.app import App
from kivy.properties import BooleanProperty, ColorProperty, StringProperty
from kivy.uix.behaviors import ButtonBehavior
from kivy.uix.screenmanager import Screen

from companion.games.witchs_brew import state as wb_state
from companion.games.witchs_brew.roles import ROLES, amount
from companion.games.witchs_brew.state import COLOUR_NAMES, SEAT_COLOURS
from ui import theme
from ui.games.witchs_brew.action_panels import (
    AnswerBar, CardTextDialog, PlayPanel, ResolvePanel, RevealPanel,
)
from ui.games.witchs_brew.hands_panel import HandsPanel, shows_hands
from ui.games.witchs_brew.seat_panel import SeatPanel
from ui.widgets.common import Box

ANSWER_WORDS = {"so_be_it": "So be it", "pass": "Passed"}
#: The letters the role box's note holds at 800x480 at the type scale's floor (24 units): a
#: "Last: " that would not leave room for the round itself is left out. The box hides a line
#: that still does not fit (the log, a tap away, says it) rather than shortening it.
NOTE_ROOM = 19


def colour_of(app, seat: int) -> tuple[str, str]:
    """The seat's colour (from the game's setup) and its name, for panels and banners."""
    hex_colour = app.session.state["players"][seat]["colour"]
    name = COLOUR_NAMES[SEAT_COLOURS.index(hex_colour)] if hex_colour in SEAT_COLOURS else ""
    return hex_colour, name


def declined_favors(steps) -> frozenset[int]:
    """The seats that declined the favor of the round last resolved: abstained from it, or
    gave its free gain back. The state keeps only who agreed (``last_round``'s favors), so the
    steps say who then declined, read back from the newest: the events after the last
    ``round_resolved`` (its action, a gain given back; a new round's announcement ends what
    belongs to it) and those of that round itself, back to its announcement (once a
    "Favor" tag stayed on a seat that had declined its favor)."""
    seats: set[int] = set()
    resolved = False
    for step in reversed(steps):
        for event in reversed(step.events):
            kind, data = event.type, event.data
            if kind == "set_ended" or (resolved and kind in ("round_resolved", "role_played")):
                return frozenset(seats)
            if kind == "round_resolved":
                resolved = True
            elif kind == "role_played":
                seats.clear()               # a round begun since: what was seen is its own
            elif kind in ("effect_abstained", "gain_declined") and data.get("kind") == "favor":
                seats.add(data["seat"])
    return frozenset(seats)


def round_words(summary: dict, prompt: dict) -> str:
    """Where the game is: the set and the round being played. A round's effects are carried
    out after the rules count it resolved (``round`` already names the next one), so while
    they are, the round is the one they belong to (not "Round 2" during round 1's
    action)."""
    last = summary["last_round"]
    if prompt["phase"] == "resolve" and last and last["set"] == summary["set"] \
            and summary["role"] is None:
        return f"Set {last['set']}  -  Round {last['round']}"
    return f"Set {summary['set']}  -  Round {summary['round']}"


def seat_status(summary: dict, prompt: dict, seat: int,
                declined: frozenset[int] = frozenset()) -> tuple[str, str]:
    """(word, style) for a seat this round: its answer, or what it waits for; ``declined``
    are the seats that declined the last round's favor (:func:`declined_favors`)."""
    player = summary["players"][seat]
    name = player["name"]
    phase = prompt["phase"]
    if prompt["seat"] == seat:
        return {"play": "Announces", "answer": "Answering", "resolve": "Acting"
                }.get(phase, "Now"), "awaited"
    if phase == "answer":
        answers = {a["player"]: a["answer"] for a in summary["answers"]}
        if name == summary["holder"]:
            return ("Announced" if answers.get(name) == "start" else "Claimed"), "holder"
        if name in answers:
            word = answers[name]
            if word in ANSWER_WORDS:
                return ANSWER_WORDS[word], "favor" if word == "so_be_it" else "passed"
            return "Lost role", "lost"
        if player["cards_left"] == 0:
            return "No cards", "quiet"
        return "Waiting", "quiet"
    if any(p["player"] == name for p in summary["pending"]):
        kinds = {p["kind"] for p in summary["pending"] if p["player"] == name}
        return ("Action next" if "action" in kinds else "Favor next"), "done"
    last = summary["last_round"]
    if last and last["set"] == summary["set"] and phase in ("play", "resolve"):
        if last["holder"] == name:
            return "Full action", "done"
        if name in last["favors"]:
            return ("Declined", "passed") if seat in declined else ("Favor", "favor")
    if player["cards_left"] == 0:
        return "No cards", "quiet"
    return "", "quiet"


def supply_note(summary: dict) -> str:
    """The newest gain the supply cut short since the last role was announced, in words short
    enough for the turn banner ("Supply short: Anna got 1 of 3 red drops"), or ""."""
    if not summary["supply_short"]:
        return ""
    last = summary["supply_short"][-1]
    said = " and ".join(f"{s['got']} of {amount(s['printed'], s['counter'])}"
                        for s in last["short"])
    return f"Supply short: {last['player']} got {said}"


def what_now(summary: dict, prompt: dict) -> str:
    """What the awaited seat does now, in two lines of large type: the rules' prompt without
    what the banner and the bottom panel already say (the name, the role, the effect's text),
    short enough for two lines at the headline's size with Large text (the role's title is the
    role box's, the answers are the buttons' words: each said once)."""
    phase = prompt["phase"]
    if phase == "play":
        return "Announce a role card"
    if phase == "answer":
        return "Claim it, agree or pass"
    if phase == "resolve":
        front = summary["pending"][0]
        return "Carry out the " + ("full action" if front["kind"] == "action" else "favor")
    if phase == "reveal":
        return prompt["text"].split(": ", 1)[-1].split(";")[0].capitalize()
    if phase == "choose":
        return "Choose your hands"
    text, who = prompt["text"], prompt["turn"]
    return text[len(who) + 2:] if who and text.startswith(f"{who}: ") else text


class RoleBox(ButtonBehavior, Box):
    """The role announced, in its card's colour: a tap reads the card (its full action and
    favor, what each answer means), the words too long for the buttons below it."""


class WitchsBrewScreen(Screen):
    #: drawn in regions that keep their own pictures (ui/widgets/still.py): the bar, the
    #: headline, each seat, the buttons
    in_regions = True
    where = StringProperty("")
    ravens = StringProperty("")
    role_title = StringProperty("")
    role_call = StringProperty("")
    role_note = StringProperty("")
    role_fill = ColorProperty(theme.SURFACE_HI)
    role_ink = ColorProperty(theme.INK)
    turn_name = StringProperty("")
    turn_text = StringProperty("")
    turn_fill = ColorProperty(theme.CALM)
    turn_ink = ColorProperty(theme.INK)
    mode = StringProperty("")
    #: the role whose card the role box reads out when tapped ("": none announced)
    card_key = StringProperty("")
    #: the bottom shows who has chosen a hand (a line of words above its buttons)
    hands_shown = BooleanProperty(False)
    #: a gain the supply cut short, said until the next role is announced ("" : none)
    supply_note = StringProperty("")
    #: Choosing role cards (play, reveal): the cards take more room, the one-line banner less.
    picking = BooleanProperty(False)

    def on_kv_post(self, _base):
        self.panels: list[SeatPanel] = []
        self.answer_bar = AnswerBar()
        self.play_panel = PlayPanel()
        self.resolve_panel = ResolvePanel()
        self.reveal_panel = RevealPanel()
        self.hands_panel = HandsPanel()          # who has chosen, never which cards

    def refresh(self, *_args) -> None:
        app = App.get_running_app()
        summary, prompt = app.summary, app.prompt
        if not summary or app.session is None or summary.get("game") != "witchs_brew":
            return
        self.where = round_words(summary, prompt)
        self.ravens = f"Ravens {summary['ravens']} / {summary['ravens_needed']}"
        self._seats(app, summary, prompt)
        self._banner(app, summary, prompt)
        self.supply_note = supply_note(summary)
        self._action(app, summary, prompt)

    # -- seats ---------------------------------------------------------------------------
    def _seats(self, app, summary, prompt) -> None:
        players = summary["players"]
        box = self.ids.seats
        if len(self.panels) != len(players):
            box.clear_widgets()
            self.panels = [SeatPanel(opener=self.open_adjust) for _ in players]
            for panel in self.panels:
                box.add_widget(panel)
        gains = {g["player"]: g for g in summary["free_gains"]}
        declined = declined_favors(app.session.done_steps_view())
        for seat, (panel, player) in enumerate(zip(self.panels, players)):
            word, style = seat_status(summary, prompt, seat, declined)
            hex_colour, colour_name = colour_of(app, seat)
            panel.show(seat, player, hex_colour, colour_name, word, style,
                       awaited=prompt["seat"] == seat,
                       holder=player["name"] == summary["holder"],
                       free_gain=gains.get(player["name"]))

    def show_card_text(self) -> None:
        if self.card_key:
            CardTextDialog(self.card_key).open()

    def open_adjust(self, seat: int) -> None:
        from ui.games.witchs_brew.effect_dialog import EffectDialog

        EffectDialog.for_adjust(seat).open()

    # -- banner --------------------------------------------------------------------------
    def _banner(self, app, summary, prompt) -> None:
        phase = prompt["phase"]
        role_key = summary["role"]
        note = ""
        if phase == "resolve":
            front = summary["pending"][0]
            role_key = front["role"]
            part = "Full action" if front["kind"] == "action" else "Favor"
            note = f"{part} for {front['player']}"
        elif role_key:
            note = f"Held by {summary['holder']}"
        self.card_key = role_key or ""
        if role_key:
            role = ROLES[role_key]
            self.role_title = role.title
            # the claim button says the call, once
            self.role_call = ""
            hex_colour = theme.CARD_COLOURS[role.colour]
            self.role_fill, self.role_ink = theme.rgba(hex_colour), theme.ink_on(hex_colour)
        else:
            self.role_title = {"play": "Choose a role", "choose": "Choose hands"}.get(
                phase, "Spare roles")
            self.role_call = ""
            self.role_fill, self.role_ink = theme.SURFACE_HI, theme.INK
            if summary["excluded"]:
                note = "Face up: " + ", ".join(ROLES[k].title for k in summary["excluded"])
            elif phase == "play" and summary["last_round"] and \
                    summary["last_round"]["set"] == summary["set"]:
                last = summary["last_round"]
                note = f"{ROLES[last['role']].title} to {last['holder']}"
                # "Last:" only where the line has room for it (a long title and name do not)
                note = f"Last: {note}" if len(note) <= NOTE_ROOM - 6 else \
                    note if len(note) <= NOTE_ROOM else ""
        self.role_note = note
        seat = prompt["seat"]
        who = prompt["turn"]
        self.turn_text = what_now(summary, prompt)
        if seat is None:
            self.turn_name = "The whole table"
            self.turn_fill, self.turn_ink = theme.CALM, theme.INK
        else:
            hex_colour, _ = colour_of(app, seat)
            self.turn_name = who
            self.turn_fill, self.turn_ink = theme.rgba(hex_colour), theme.ink_on(hex_colour)

    # -- the bottom panel ----------------------------------------------------------------
    def _action(self, app, summary, prompt) -> None:
        phase, seat = prompt["phase"], prompt["seat"]
        self.hands_shown = shows_hands(app, app.session.state, self.hands_panel.skipped)
        if self.hands_shown:
            widget = self.hands_panel
            widget.show(app, app.session.state)
        elif phase == "answer":
            widget = self.answer_bar
            widget.show(seat, summary["role"], prompt["inputs"])
        elif phase == "play":
            widget = self.play_panel
            starter = summary["players"][seat]
            others = [k for p in summary["players"] for k in p["roles_played"]]
            widget.show(starter["name"], starter["roles_played"], others, summary["excluded"])
        elif phase == "resolve":
            widget = self.resolve_panel
            widget.show(seat, summary["pending"][0], summary["players"][seat])
        elif phase == "reveal":
            widget = self.reveal_panel
            state = app.session.state
            widget.show(wb_state.excluded_per_set(state), wb_state.shown_this_cycle(state))
        else:
            widget = None
        self.mode = phase
        self.picking = phase in ("play", "reveal")
        box = self.ids.action
        if widget is None:
            box.clear_widgets()
        elif widget.parent is not box:
            box.clear_widgets()
            box.add_widget(widget)
