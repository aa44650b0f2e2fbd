"""The table overrides every automatic value, by taps: a misread die fixed (turn order, a steal)
and refused when too late; a Field type marked as run out of the box, then refused with its
rule (every type in view at once, no scrolling); a seat's pool, Spells and the board corrected by
hand, and an empty correction refused.
Screenshots of each new control at 800x480 and 1280x720 (cauldron_fix_die_*,
cauldron_field_runout_*, cauldron_seat_adjust_*)."""

from __future__ import annotations

from kivy.app import App
from kivy.uix.scrollview import ScrollView

from companion.core.model import Command
from test_ui_cauldron_screens import FOUR, deal, start, to_the_market
from ui_helpers import both_sizes, button, dialogs, frames, tap, tap_title, texts

NAMES = [p["name"] for p in FOUR]


def table(app):
    return app.screens.get_screen("cauldron")


def to_turn_order(app):
    s = start(app)
    deal(s, NAMES)
    for command in (Command("begin"), Command("omen", args={"text": "calm"}),
                    Command("fill_board")):
        s.execute(command)
    frames()
    assert table(app).mode == "dice"
    return s


def test_fix_a_turn_order_die_then_too_late_is_refused(app):
    s = to_turn_order(app)
    dice = table(app).dice
    assert dice.ids.fix.disabled                 # nothing rolled yet: nothing to fix
    tap_title("5")                               # Anna
    tap_title("3")                               # Barb
    assert not dice.ids.fix.disabled
    both_sizes("cauldron_fix_die_dice_panel")
    tap_title("2")                               # Carl
    tap_title("1")                               # Daniel: Anna starts
    assert table(app).mode == "turn" and app.summary["turn_order"][0] == "Anna"
    turn = table(app).turn_panel
    assert turn.can_fix                          # the first turn has not begun
    both_sizes("cauldron_fix_die_turn_panel")
    tap(turn.ids.fix)
    (dialog,) = dialogs()
    assert dialog.kind == "turn_order" and dialog.seat == "Daniel"   # the latest die
    tap_title("Barb", dialog)
    assert "The rules allow it" in dialog.answer
    tap_title("6", dialog)
    assert dialog.fix_title == "Fix: Barb 3 -> 6"
    both_sizes("cauldron_fix_die_dialog", before=lambda: _reopen_fix(app, "Barb", 6))
    tap(turn.ids.fix)
    (dialog,) = dialogs()
    tap_title("Barb", dialog)
    tap_title("6", dialog)
    tap(dialog.ids.fix)
    assert not dialogs()
    assert app.summary["turn_order"][0] == "Barb" and app.prompt["turn"] == "Barb"
    assert s.state["harvest"]["order"]["rounds"][0]["1"] == 6
    # Barb gathers: the first turn has begun, the turn order dice can no longer change.
    tap_title("Gather")
    tap_title("Spider Web")
    assert not turn.can_fix and turn.ids.fix.opacity == 0
    tap_title("Track")
    tap_title("Fix a die")
    (dialog,) = dialogs()
    assert [b.caption for b in dialog.ids.kinds.children] == ["late"]
    assert "can be corrected now" in dialog.answer and not dialog.answer_ok
    before, steps = app.summary, len(s.done_steps())
    tap_title("Barb", dialog)
    tap_title("4", dialog)
    tap(dialog.ids.fix)                          # sent anyway: the rules refuse, and say why
    assert "No turn order roll of Barb's can be corrected now" in dialog.error
    assert dialogs() == [dialog]
    assert app.summary == before and len(s.done_steps()) == steps
    both_sizes("cauldron_fix_die_refused", before=lambda: _refused(app))


def _reopen_fix(app, seat: str, face: int):
    from ui.games.cauldron.dice import CauldronFixDieDialog

    dialog = CauldronFixDieDialog()
    dialog.open()
    frames()
    tap_title(seat, dialog)
    tap_title(str(face), dialog)


def _refused(app):
    _reopen_fix(app, "Barb", 4)
    (dialog,) = dialogs()
    tap(dialog.ids.fix)


def test_fix_a_steal_die_moves_the_ingredient(app):
    s = to_turn_order(app)
    for value in (6, 2, 3, 1):
        s.execute(Command("roll", args={"value": value}))
    s.execute(Command("gather", "Anna", {"ingredient": "frog_legs"}))
    s.execute(Command("end_turn", "Anna"))
    s.execute(Command("steal", "Barb", {"target": "Anna", "ingredient": "frog_legs", "roll": 2}))
    frames()
    turn = table(app).turn_panel
    assert not app.summary["steal"]["success"] and turn.can_fix
    tap(turn.ids.fix)
    (dialog,) = dialogs()
    assert dialog.kind == "steal" and dialog.seat == "Barb"
    tap_title("5", dialog)
    tap(dialog.ids.fix)
    assert app.summary["steal"]["success"]
    assert app.summary["players"][1]["pool"] == {"frog_legs": 1}
    assert app.summary["players"][0]["pool"] == {}


def to_market(app):
    s = to_turn_order(app)
    for value in (6, 2, 3, 1):
        s.execute(Command("roll", args={"value": value}))
    s.execute(Command("adjust_magik", "Barb", {"delta": 5}))
    to_the_market(app, s, "frog_legs")
    return s


def field_cells(market):
    """The Field choice's buttons that mark a type run out (after "Run out?")."""
    if not market.marking:
        tap_title("Run out?", market)
    return {w.run_out: w for w in market.walk(restrict=True)
            if isinstance(getattr(w, "run_out", None), str)}


def in_view(widget, market):
    """Every target of the Field choice is inside the market panel: nothing to scroll to."""
    x, y = widget.to_window(*widget.pos)
    mx, my = market.to_window(*market.pos)
    assert mx <= x + 0.5 and x + widget.width <= mx + market.width + 0.5
    assert my <= y + 0.5 and y + widget.height <= my + market.height + 0.5
    assert widget.width >= 48 * App.get_running_app().u <= widget.height


def test_mark_a_field_type_run_out_then_it_is_refused_with_its_rule(app):
    s = to_market(app)
    market = table(app).market
    tap_title("Field", market)
    assert not [w for w in market.walk(restrict=True) if isinstance(w, ScrollView)]
    buttons = {w.kind: w for w in market.walk(restrict=True)
               if isinstance(getattr(w, "kind", None), str)}
    assert [b.title for b in buttons.values()] == [
        "Spider Web", "Frog Legs", "Poisonous Mushroom", "Blood Crystal", "Snake Skin",
        "Dragon Egg", "Mandrake Root"]
    for b in buttons.values():
        in_view(b, market)
    toggles = field_cells(market)
    assert set(toggles) == {"spider_web", "frog_legs", "poisonous_mushroom", "blood_crystal",
                            "snake_skin", "dragon_egg", "mandrake_root"}
    tap(toggles["mandrake_root"])                # none left in the box
    assert s.state["fields_exhausted"] == ["mandrake_root"]
    toggles = field_cells(market)
    assert toggles["mandrake_root"].caption == "run out" and toggles["mandrake_root"].selected
    tap_title("Done marking", market)
    rule = "No Mandrake Root Field is left in the box: that type can no longer be bought"
    assert "Run out of the box: Mandrake Root" in texts(market)   # a tap says the rule whole
    (root,) = [w for w in market.walk(restrict=True)
               if getattr(w, "kind", None) == "mandrake_root"]
    # grey, its whole name alone: the rule's line above says why, and so does a tap
    assert root.caption == "" and root.title == "Mandrake Root"
    before, steps = app.summary, len(s.done_steps())
    tap(root)                                    # refused with the rule, nothing changes
    assert app.refusal == rule
    assert app.summary == before and len(s.done_steps()) == steps
    app.dismiss_refusal()
    tap(field_cells(market)["mandrake_root"])    # tapped again: the mark comes off
    assert s.state["fields_exhausted"] == []
    tap(field_cells(market)["mandrake_root"])
    tap(field_cells(market)["dragon_egg"])
    assert s.state["fields_exhausted"] == ["mandrake_root", "dragon_egg"]
    tap(field_cells(market)["mandrake_root"])    # not the last thing done: refused
    assert "Mandrake Root Fields are already marked as run out" in app.refusal
    app.dismiss_refusal()
    both_sizes("cauldron_field_runout_marking", before=lambda: _field_choice(app, marking=True))
    both_sizes("cauldron_field_runout", before=lambda: _field_choice(app), portrait=True)
    tap(button("Spider Web", market))            # another type is still bought
    assert app.summary["fields"]["spider_web"] == 6 and app.prompt["turn"] == "Carl"


def _field_choice(app, marking=False):
    market = table(app).market
    if market.pending is None:
        tap_title("Field", market)
    if market.marking != marking:
        market.mark_mode(marking)
        frames()


def press(count, label: str) -> None:
    """A count's button, its row scrolled into view first (at the type scale's floor the
    seven Ingredients' rows take more than the dialog shows at 800x480)."""
    from kivy.uix.scrollview import ScrollView

    w = count.parent
    for _ in range(30):            # up to the dialog (the window is its own parent)
        if w is None or isinstance(w, ScrollView):
            break
        w = w.parent
    else:
        w = None
    if w is not None:
        w.scroll_to(count, padding=0, animate=False)
        frames()
    tap(button(label, count))


def test_correct_a_seats_pool_spells_and_the_board_by_hand(app):
    s = to_turn_order(app)
    for value in (6, 2, 3, 1):
        s.execute(Command("roll", args={"value": value}))
    frames()
    board = dict(app.summary["ingredients_left"])
    tap(table(app).seats.cards()[1])             # Barb's card
    (seat,) = dialogs()
    tap_title("Correct by hand", seat)
    (dialog,) = dialogs()
    counts = dialog.counts
    press(counts["pool"]["spider_web"], "+")
    press(counts["pool"]["spider_web"], "+")
    press(counts["board"]["spider_web"], "-")
    press(counts["fields"]["dragon_egg"], "+")
    press(dialog.ids.spell_basic, "-")
    press(dialog.ids.spell_advanced, "+")
    assert dialog.changes() == {"pool": {"spider_web": 2}, "board": {"spider_web": -1},
                                "fields": {"dragon_egg": 1},
                                "spells": {"basic": -1, "advanced": 1}}
    both_sizes("cauldron_seat_adjust", before=lambda: _adjust_open(app))
    tap(table(app).seats.cards()[1])
    tap_title("Correct by hand")
    (dialog,) = dialogs()
    for count, label in ((dialog.counts["pool"]["spider_web"], "+"),
                         (dialog.counts["pool"]["spider_web"], "+"),
                         (dialog.counts["board"]["spider_web"], "-"),
                         (dialog.counts["fields"]["dragon_egg"], "+"),
                         (dialog.ids.spell_basic, "-"), (dialog.ids.spell_advanced, "+")):
        press(count, label)
    tap(dialog.ids.apply)
    assert not dialogs()
    barb = app.summary["players"][1]
    assert barb["pool"] == {"spider_web": 2}
    assert barb["spell_hand"] == {"basic": 1, "advanced": 1}
    assert app.summary["ingredients_left"]["spider_web"] == board["spider_web"] - 1
    assert app.summary["fields"]["dragon_egg"] == 1
    assert app.can_undo                          # a correction by hand is undoable
    # Nothing changed: the rules refuse, the dialog says why and stays open.
    tap(table(app).seats.cards()[1])
    tap_title("Correct by hand")
    (dialog,) = dialogs()
    steps = len(s.done_steps())
    tap(dialog.ids.apply)
    assert "Nothing to correct" in dialog.error and dialogs() == [dialog]
    assert len(s.done_steps()) == steps
    both_sizes("cauldron_seat_adjust_refused", before=lambda: _adjust_refused(app))


def _adjust_open(app):
    from ui.games.cauldron.adjust import CauldronAdjustDialog

    dialog = CauldronAdjustDialog(1)
    dialog.open()
    frames()
    for count, label in ((dialog.counts["pool"]["spider_web"], "+"),
                         (dialog.counts["board"]["spider_web"], "-"),
                         (dialog.ids.spell_advanced, "+")):
        tap(button(label, count))
    return dialog


def _adjust_refused(app):
    from ui.games.cauldron.adjust import CauldronAdjustDialog

    dialog = CauldronAdjustDialog(1)
    dialog.open()
    frames()
    tap(dialog.ids.apply)


def test_fix_a_roll_off_die_from_the_track(app):
    s = to_turn_order(app)
    for value in (6, 2, 3, 1):
        s.execute(Command("roll", args={"value": value}))
    frames()
    tap_title("Track")
    tap_title("Fewest Magik")                    # everyone is on 2: the lowest roll has it
    for face in ("1", "4", "5", "6"):
        tap_title(face)
    assert app.summary["lsp"] == "Anna"
    tap_title("Track")
    tap_title("Fix a die")
    (dialog,) = dialogs()
    assert dialog.kind == "rolloff" and dialog.seat == "Daniel"
    assert [b.title for b in reversed(dialog.ids.kinds.children)] == ["Turn order", "Roll-off"]
    tap_title("Anna", dialog)
    tap_title("6", dialog)
    tap(dialog.ids.fix)
    assert not dialogs() and app.summary["lsp"] == "Barb"
