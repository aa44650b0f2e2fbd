"""Hand corrections for one seat and the board: what the seat holds in its pool and its Spells
(Basic, Advanced), and the Ingredients and Fields on the table. The table sets each count to
what it really sees; the changes go in as one ``adjust`` command the rules judge (a refusal
shows in the dialog, which stays open). Cellars are shown: the rules change them only by a
purchase or a move on the seat's own turn."""

from __future__ import annotations

from kivy.uix.boxlayout import BoxLayout

from companion.core.model import Command
from companion.games.cauldron import data as d
from ui import theme
from ui.games.cauldron.common import ingredient_colours, ingredient_name, short
from ui.games.cauldron.entry import CauldronCount, CauldronEntry
from ui.widgets.common import Chip

PARTS = ("pool", "board", "fields")


class CauldronAdjustDialog(CauldronEntry):
    def __init__(self, seat: int, **kwargs):
        super().__init__(**kwargs)
        self.seat = seat
        self.build()

    @property
    def player(self) -> dict:
        return self.app.summary["players"][self.seat]

    def build(self) -> None:
        summary, p, u = self.app.summary, self.player, self.app.u
        self.title = f"Correct by hand: {p['name']} and the board"
        self.subtitle = "Set each count to what the table holds; undo takes it back"
        self.ids.pool_head.text = f"{p['name']}'s pool"
        rows = self.ids.rows
        rows.clear_widgets()
        self.counts: dict[str, dict[str, CauldronCount]] = {part: {} for part in PARTS}
        have = {"pool": p["pool"], "board": summary["ingredients_left"],
                "fields": summary["fields"]}
        tall = self.app.portrait   # too narrow for a name column: the name above its counts
        for kind in d.INGREDIENTS:
            line = BoxLayout(size_hint_y=None, height=u * 56, spacing=u * 10)
            fill, ink = ingredient_colours(kind)
            # the whole name above its counts in portrait; beside them, the short word
            name = Chip(text=ingredient_name(kind) if tall else short(kind), fill=fill, ink=ink,
                        fs=theme.DETAIL_FS, shorten=False)
            if tall:
                name.size_hint_y, name.height = None, self.app.fu * 34
                rows.add_widget(name)
            else:
                name.size_hint_x, name.width = None, self.app.fu * 124
                line.add_widget(name)
            for part in PARTS:
                n = have[part].get(kind, 0)
                count = CauldronCount(value=n, was=n)
                count.part, count.kind = part, kind
                self.counts[part][kind] = count
                line.add_widget(count)
            rows.add_widget(line)
        for kind in d.SPELL_KINDS:
            count = self.ids[f"spell_{kind}"]
            count.value = count.was = p["spell_hand"][kind]
        cells = [ingredient_name(c) if c else "empty" for c in p["cellars"]]
        self.ids.cellars.text = (f"Cellars, {len(cells)} of at most {self.max_cellars()}: "
                                 + ", ".join(cells)) if cells else "No Cellar"

    def max_cellars(self) -> int:
        return self.app.session.state["players"][self.seat]["max_cellars"]

    def changes(self) -> dict:
        """The ``adjust`` arguments: differences from what the game holds now."""
        args: dict = {}
        for part, counts in self.counts.items():
            deltas = {k: int(c.value - c.was) for k, c in counts.items() if c.value != c.was}
            if deltas:
                args[part] = deltas
        spells = {k: int(self.ids[f"spell_{k}"].value - self.ids[f"spell_{k}"].was)
                  for k in d.SPELL_KINDS
                  if self.ids[f"spell_{k}"].value != self.ids[f"spell_{k}"].was}
        if spells:
            args["spells"] = spells
        return args

    def apply(self) -> None:
        """Sent as it stands, even with nothing changed: the rules then say so."""
        self._send(Command("adjust", self.player["name"], {**self.changes(),
                                                           "note": "correction by hand"}))
