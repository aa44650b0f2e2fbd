"""The app's side of the table settings: open the screen, load and apply the settings file,
the rotation (and its far-side flip), the text size, the cues (GPIO buzzer and screen sound) and
the turn limit.

Rotation is Kivy's ``Window.rotation``: touch turns with the picture, and a quarter turn swaps
the window's width and height, so the app's size handler (``ui/app.py``) recomputes the unit and
``app.portrait`` and every screen is laid out again for the panel on its side.

Text size: every font is drawn at ``app.fu`` (font units) times its size, where ``fu`` is the
layout unit ``app.u`` times the table's text size (1.0 normal, 1.15 large). The shared widgets
(Txt, FlatButton, Chip, Stepper) use ``fu``; the boxes keep ``u``, so Large makes text larger
without moving a layout, and the layout check says where a text no longer fits.

A mixin of ``CompanionApp`` (as ``GameBarApp`` is), so ``ui/app.py`` keeps the one flow of
inputs and sessions; the settings themselves are ``ui/table/settings.py`` (no Kivy there)."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from kivy.core.window import Window
from kivy.properties import AliasProperty, NumericProperty

from ui.table import settings as table

#: The cues the GPIO buzzer has (hardware/buzzer.py, not imported here: it needs gpiozero).
BUZZER_CUES = frozenset({"turn", "refused", "time"})


class TableSettingsApp:
    """Needs from the app: ``devices``, ``sound``, ``dimmer``, ``table_settings``,
    ``settings_problem``, ``leave_session``, ``dismiss_refusal``, ``show`` and the layout unit
    ``u``."""

    #: how much larger than normal the table wants its text (the ``text_size`` setting)
    font_factor = NumericProperty(1.0)

    def _get_fu(self) -> float:
        return self.u * self.font_factor

    #: one font unit in pixels: ``font_size: app.fu * 20`` is 20 units at the table's text size
    fu = AliasProperty(_get_fu, None, bind=("u", "font_factor"))

    def open_table_settings(self) -> None:
        self.leave_session()
        self.dismiss_refusal()
        self.show("table_settings")

    def load_table_settings(self) -> None:
        """Read the settings file (never fails) and apply it: rotation, dimming, off."""
        settings, self.settings_problem = table.load_settings()
        self._apply_table_settings(settings)

    def change_table_settings(self, **changes: Any) -> str:
        """Apply a change at once and save it; returns "" or why it was not saved. A change
        that would turn the screen off before it dims, or a value the file could not hold (a
        rotation of 45), is refused, naming the field, and changes nothing."""
        for name, value in changes.items():
            problem = table.refusal(name, value)
            if problem:
                return f"Not changed: {problem}."
        wanted = replace(self.table_settings, **changes)
        problem = table.order_problem(wanted, rows=True)
        if problem:
            return f"Not changed: {problem}."
        self._apply_table_settings(wanted)
        try:
            table.save_settings(self.table_settings)
        except OSError as problem:
            return (f"Changed for now, but not saved ({problem.strerror or problem}): "
                    "it is lost when the app restarts.")
        self.settings_problem = ""
        return ""

    def _apply_table_settings(self, settings: table.TableSettings) -> None:
        self.table_settings = settings
        self.font_factor = settings.font_factor
        if Window.rotation != settings.rotation:
            Window.rotation = settings.rotation
            # Kivy turns the picture on a resize only, and 0 <-> 180 is none: without this the
            # touches would turn and the picture stay as it was until the next start
            Window.update_viewport()
        self.dimmer.set_minutes(settings.dim_minutes, settings.off_minutes)

    def flip(self) -> str:
        """Turn the screen by 180 degrees for the far side of the table (touch follows):
        upright and upside down swap; a panel on its side turns to its other side."""
        return self.change_table_settings(rotation=table.flipped(self.table_settings.rotation))

    @property
    def turn_limit(self) -> int:
        """The table's turn limit in seconds (0: none), from the hardware config."""
        return self.devices.config.turn_limit_s if self.devices.config is not None else 0

    def cue(self, kind: str) -> None:
        """A cue for the table ("turn", "refused", "time", "over"): the GPIO buzzer, when
        wired and it knows the cue, and the screen's sound, when the table has it on."""
        if kind in BUZZER_CUES:
            self.devices.buzz(kind)
        if self.table_settings.sound:
            self.sound.play(kind, self.table_settings.volume)
