"""The Cauldron Quest table: the board, the cauldron's three needed ingredients, the action dice
and what they mean in big words, whose turn it is, and the panel for what the team does now.
The root's game bar below this screen (52 units: the last events and the clocks) takes its room
from the screen's height; this screen has no turn timer of its own.

Everything shown is read from ``app.summary`` and ``app.prompt``; the spaces a bottle may go to
come from the rules' own helpers (``companion.games.quest.moves``, read only). Taps become die
inputs or commands, which the rules judge; the screen keeps only the bottles picked so far.
"""

from __future__ import annotations

from kivy.app import App
from kivy.properties import BooleanProperty, ObjectProperty, StringProperty
from kivy.uix.screenmanager import Screen

from companion.core.model import Command
from companion.games.quest import moves
from companion.games.quest.state import SORCERY_SPACES
from ui import theme
from ui.games.quest import draw
from ui.games.quest.board import bottle_targets
from ui.games.quest.dialogs import FixDiceDialog, TokenDialog
from ui.games.quest.magic import MagicPanel
from ui.games.quest.panels import (
    AnnouncePanel, BlockPanel, IngredientPanel, InfoPanel, RollPanel,
)
from ui.games.quest.sound import cue_for, play

CAST_MODES = {"omniscience": "reveal", "exchange": "swap", "great_sorcery": "sorcery"}
WORDS = draw.INGREDIENT_WORDS


def recap(steps) -> str:
    """What the last step did, in a few words ("The wizard moved 3 spaces and knocked
    bottle 2 away"), from its events: shown while the next player rolls."""
    for step in reversed([s for s in steps if s.status == "done"]):
        said = _said(step.events)
        if said:
            return " ".join(p if p.endswith("!") else p + "." for p in said)
        if any(e.type == "turn_ended" for e in step.events):
            break
    return ""


def _said(events) -> list[str]:
    said: list[str] = []
    for e in events:
        d = e.data
        if e.type == "wizard_moved":
            hit = f" and knocked bottle {', '.join(map(str, d['hit']))} away" if d["hit"] else ""
            said.append(f"The wizard moved {d['steps']} spaces{hit}")
        elif e.type == "path_blocked":
            said.append(f"Path {d['path']} is blocked")
        elif e.type == "obstacle_removed":
            said.append(f"Path {d['path']} is free again")
        elif e.type == "bottle_moved":
            where = "went into the cauldron!" if d["to"] == "cauldron" else "moved"
            said.append(f"Bottle {d['bottle']} {where}")
        elif e.type == "bottle_revealed":
            said.append(f"Bottle {d['bottle']} holds the {WORDS[d['ingredient']].lower()}")
        elif e.type == "bottles_swapped":
            said.append(f"Bottles {d['bottles'][0]} and {d['bottles'][1]} swapped")
        elif e.type == "turn_ended" and d["reason"] != "the action is done":
            said.append(d["reason"][0].upper() + d["reason"][1:])
    return said


class QuestScreen(Screen):
    #: drawn in regions that keep their own pictures (ui/widgets/still.py)
    in_regions = True
    turn_name = StringProperty("")
    big_words = StringProperty("")
    die_a = ObjectProperty(None, allownone=True)
    die_b = ObjectProperty(None, allownone=True)
    turn_text = StringProperty("")
    blocked_text = StringProperty("")
    token_used = BooleanProperty(False)
    can_fix = BooleanProperty(False)
    mode = StringProperty("")
    show_dice = BooleanProperty(True)   # the action dice beside the big words (``_header``)

    def on_kv_post(self, _base):
        self.picked: list[int] = []
        self.targets: list[str] = []
        self._key = None
        self._heard = None
        self.panels = {"roll": RollPanel(), "info": InfoPanel(), "block": BlockPanel(),
                       "announce": AnnouncePanel(), "magic": MagicPanel(),
                       "ingredient": IngredientPanel()}
        self.ids.board.on_pick = self.pick

    def on_pre_enter(self, *_args):
        self.refresh()

    # -- reading the game ------------------------------------------------------------------
    def refresh(self, *_args) -> None:
        app = App.get_running_app()
        summary, prompt = app.summary, app.prompt
        if not summary or app.session is None or summary.get("game") != "quest":
            return
        key = (summary["turn_no"], prompt["phase"], str(summary["action"]),
               str(summary["returns"]), str(summary["spell"]))
        if key != self._key:
            self._key, self.picked = key, []
        self.mode = self._mode(summary, prompt)
        if self.mode == "return" and not self.picked:
            self.picked = [summary["returns"][0]["bottle"]]
        self._header(summary, prompt)
        self._board(app, summary)
        self._panel(app, summary, prompt)
        self.turn_text = f"Turn {summary['turn_no']}"
        self.blocked_text = f"{len(summary['obstacles'])} of 6\nblocked"
        self.token_used = summary["spell_breaker_used"]
        self.can_fix = summary["correctable"] is not None
        for tile, name in zip(self.ids.needed.children[::-1], summary["needed"]):
            tile.ingredient, tile.inside = name, name in summary["in_cauldron"]
        self._sound(app)

    def _mode(self, summary: dict, prompt: dict) -> str:
        phase = prompt["phase"]
        if phase == "cast":
            mode = CAST_MODES[summary["spell"]["name"]]
            return "ingredient" if mode == "reveal" and self.picked else mode
        return phase

    def _header(self, summary: dict, prompt: dict) -> None:
        who = prompt.get("turn")
        self.turn_name = f"{who}'s turn" if who else "Everyone"
        action, reading, mode = summary["action"], summary["reading"], self.mode
        if action:
            self.die_a, self.die_b = action["a"], action["b"]
        else:
            self.die_a, self.die_b = reading.get("action_a"), reading.get("action_b")
        # not while the magic dice roll, nor while the ingredients are asked for (the big
        # words have the panel's width: one line with Large text, the pictures the room)
        self.show_dice = (mode not in ("magic", "ingredient")
                          and (self.die_a is not None or mode == "roll"))
        spell = summary["spell"]
        n = action["b"] if action else 0
        picked = self.picked[0] if self.picked else None
        words = {
            "roll": "Roll the dice!",
            "move": f"Move a bottle {n} spaces!",
            "return": f"Put bottle {picked} back!",
            "block": "Oh no! A path is blocked!",
            "announce": "Choose a spell!",
            "reveal": "Look inside a bottle!",
            "ingredient": "Look inside a bottle!",
            "swap": "Swap two bottles!",
            "sorcery": "Move a bottle up to 6!",
        }
        if mode in ("reveal", "ingredient", "swap", "sorcery") and who:
            self.turn_name = f"{who}: it worked!"
        if mode == "magic":
            self.big_words = f"Roll {draw.SPELL_GOALS[spell['name']]}!"
            # the roll's count as a fraction: the line holds the name and spell at Large text
            self.turn_name = (f"{who}: {draw.SPELL_WORDS[spell['name']]} "
                              f"{spell['rolls_used'] + 1}/3")
        else:
            self.big_words = words.get(mode, prompt.get("text", ""))

    def _board(self, app, summary: dict) -> None:
        state = app.session.state
        on_board = [int(b) for b, s in summary["bottles"].items() if s != "cauldron"]
        mode = self.mode
        picker = None
        if mode == "move":
            picker = lambda b: moves.targets(state, b, summary["action"]["b"])  # noqa: E731
        elif mode == "sorcery":
            picker = lambda b: moves.targets(state, b, SORCERY_SPACES, True)  # noqa: E731
        elif mode == "return":
            nearest = {r["bottle"]: r["nearest"] for r in summary["returns"]}
            picker = lambda b: nearest.get(b, [])  # noqa: E731
        choosable: list[int] = []
        self.targets = []
        if picker is not None:
            choosable = list(bottle_targets(picker, on_board))
            if self.picked:
                self.targets = picker(self.picked[0])
        elif mode == "reveal":
            choosable = [b for b in on_board if str(b) not in summary["revealed"]]
        elif mode == "swap":
            choosable = on_board
        board = self.ids.board
        board.summary = summary
        board.targets, board.selected, board.choosable = self.targets, self.picked, choosable

    def _panel(self, app, summary: dict, prompt: dict) -> None:
        mode = self.mode
        stop = ("End the turn", "", theme.GREY_BTN, theme.INK,
                lambda: app.send(Command("end_turn")))
        cancel = ("Pick again", "", theme.GREY_BTN, theme.INK, self.unpick)
        if mode == "roll":
            panel = self.panels["roll"]
            panel.show(summary, recap(app.session.steps))
        elif mode in ("block", "announce"):
            panel = self.panels[mode]
            panel.show(summary)
        elif mode == "magic":
            panel = self.panels["magic"]
            panel.show(summary, prompt)
        elif mode == "ingredient":
            panel = self.panels["ingredient"]
            panel.show(self.picked[0], summary, self.unpick)
        else:
            panel = self.panels["info"]
            picked = self.picked[0] if self.picked else None
            bottle = ("bottle", picked or "")
            if mode in ("move", "sorcery"):
                if picked is None:
                    big, hint = "Tap a bottle", "Bottles that can go have a white ring"
                elif self.targets:
                    big, hint = f"Bottle {picked}: tap a gold ring", "Or tap another bottle"
                else:
                    big, hint = f"Bottle {picked} cannot go there", "Tap another bottle"
                panel.show(big, hint, [stop] if mode == "sorcery" else [], *bottle)
            elif mode == "return":
                panel.show(f"Bottle {picked}: tap a gold ring",
                           "It goes to the nearest free space", [], *bottle)
            elif mode == "reveal":
                panel.show("Tap the bottle you turned over", "Then tap its ingredient", [stop],
                           "spell", "omniscience")
            elif mode == "swap":
                if len(self.picked) == 2:
                    i, j = self.picked
                    # the panel names the two bottles: the button says the deed, once
                    swap = ("Swap", "", theme.GOOD, theme.DARK_INK,
                            lambda: app.send(Command("swap", args={"bottles": [i, j]})))
                    panel.show(f"Bottles {i} and {j}", "Swap them on the board too",
                               [swap, cancel], "spell", "exchange")
                else:
                    chosen = f"Bottle {self.picked[0]} and ..." if self.picked else "Tap a bottle"
                    panel.show(chosen, "Tap the two bottles to swap", [stop], "spell", "exchange")
            else:
                panel.show(prompt.get("text", ""), "")
        box = self.ids.action
        if panel.parent is not box:
            box.clear_widgets()
            if panel.parent is not None:
                panel.parent.remove_widget(panel)
            box.add_widget(panel)

    def _sound(self, app) -> None:
        """A cue for a new step of the game on the table (not on resume, undo or redo)."""
        done = [s for s in app.session.steps if s.status == "done"]
        heard = (app.session.game_id, done[-1].n if done else 0)
        if (self._heard and heard[0] == self._heard[0] and heard[1] > self._heard[1]
                and done and len(app.session.steps) == done[-1].n):
            play(cue_for(done[-1].events))
        self._heard = heard

    # -- taps ------------------------------------------------------------------------------
    def pick(self, space: str) -> None:
        """A finger on the board: pick a bottle, or send it to the space touched."""
        app = App.get_running_app()
        bottles = app.summary.get("bottles", {})
        bottle = next((int(b) for b, s in bottles.items() if s == space), None)
        mode = self.mode
        if mode in ("move", "return", "sorcery"):
            if self.picked and (space in self.targets or bottle is None):
                app.send(Command("move_bottle", args={"bottle": self.picked[0], "to": space}))
                return
            if bottle is not None:
                self.picked = [bottle]
        elif mode in ("reveal", "ingredient") and bottle is not None:
            self.picked = [bottle]
        elif mode == "swap" and bottle is not None:
            if bottle in self.picked:
                self.picked = [b for b in self.picked if b != bottle]
            else:
                self.picked = (self.picked + [bottle])[-2:]
        else:
            return
        self.refresh()

    def unpick(self) -> None:
        self.picked = []
        self.refresh()

    def open_fix(self) -> None:
        if App.get_running_app().summary.get("correctable"):
            FixDiceDialog().open()

    def open_token(self) -> None:
        TokenDialog().open()
