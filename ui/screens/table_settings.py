"""The Settings screen: how this table's screen behaves, changed with one tap each.

Sound and its volume, the text size (Large draws every font 15% larger), how the panel stands
(upright, upside down for the far side, or on either side: portrait), dimming when nobody touches it and then switching it off, the phones at the table (sharing on or off; its
port, ``phones_port``, is in the settings file), and the turn limit. Every tap applies at once and is saved at once (a table has no patience for an
"Apply" button); the file and its checks are in :mod:`ui.table.settings`. A settings file that
was bad when read is named here until a change rewrites it.

The turn limit is the one the Hardware screen shows: it is written into the hardware config
(``[buzzer] turn_limit_s``) with that screen's own code, and the running app takes it at once.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from kivy.app import App
from kivy.properties import (
    BooleanProperty, ListProperty, NumericProperty, ObjectProperty, StringProperty,
)
from kivy.uix.screenmanager import Screen

from ui.table import settings as table
from ui.widgets.common import Box, FlatButton

#: (value, words) for each row's buttons
VOLUME_CHOICES = tuple((v, f"{v}%") for v in table.VOLUMES)
DIM_CHOICES = tuple((m, f"{m} min" if m else "Never") for m in table.DIM_MINUTES)
OFF_CHOICES = tuple((m, f"{m} min" if m else "Never") for m in table.OFF_MINUTES)
TEXT_SIZE_CHOICES = tuple((size, size.capitalize()) for size in table.TEXT_SIZES)
ROTATION_CHOICES = tuple(table.ROTATIONS.items())
#: what a tap on each rotation says happened, in the table's words
ROTATION_DONE = {
    0: "Upright.",
    90: "Drawn for a panel turned a quarter to the right (clockwise): the screen is tall now.",
    180: "Upside down, for the far side of the table.",
    270: "Drawn for a panel turned a quarter to the left: the screen is tall now.",
}
TURN_LIMIT_CHOICES = ((0, "Never"), (30, "30 s"), (60, "1 min"), (90, "90 s"), (120, "2 min"),
                      (180, "3 min"), (300, "5 min"))


def limit_words(seconds: int) -> str:
    for value, words in TURN_LIMIT_CHOICES:
        if value == seconds:
            return words
    return f"{seconds} s"


class SettingChoice(FlatButton):
    """One choice of a row; the chosen one is drawn as theme.CHOSEN (filled amber)."""

    chosen = BooleanProperty(False)


class ChoiceRow(Box):
    """``label``, then one button per choice; the chosen one filled. A tap calls
    ``picked(value)``. A value not among the choices (a hand-edited file) gets its own
    button, so the row always shows what holds now."""

    label = StringProperty("")
    label_width = NumericProperty(128)    # units: the label's, beside its choices
    choices = ListProperty([])
    value = ObjectProperty(None, allownone=True)
    picked = ObjectProperty(None, allownone=True)

    def on_kv_post(self, _base) -> None:
        self.bind(choices=self._build, value=self._build)
        self._build()

    def _build(self, *_args) -> None:
        holder = self.ids.buttons
        holder.clear_widgets()
        choices = list(self.choices)
        if self.value is not None and all(v != self.value for v, _ in choices):
            choices.append((self.value, limit_words(self.value)
                            if self.label == "Turn limit" else str(self.value)))
        for value, words in choices:
            button = SettingChoice(title=words, chosen=value == self.value)
            button.bind(on_release=lambda _b, v=value: self._pick(v))
            holder.add_widget(button)

    def _pick(self, value: Any) -> None:
        if self.picked is not None:
            self.picked(value)


class TableSettingsScreen(Screen):
    """Shows ``app.table_settings`` and the turn limit; each control calls one method here."""

    sound = BooleanProperty(True)
    volume = NumericProperty(75)
    text_size = StringProperty(table.DEFAULTS.text_size)
    rotation = NumericProperty(0)
    dim_minutes = NumericProperty(0)
    off_minutes = NumericProperty(0)
    turn_limit = NumericProperty(0)
    phones = BooleanProperty(False)
    hands = BooleanProperty(False)
    message = StringProperty("")
    tone = StringProperty("info")      # info / good / bad: the message's colour

    @property
    def app(self):
        return App.get_running_app()

    def on_kv_post(self, _base) -> None:
        self.app.bind(portrait=self._place_hands)
        self._place_hands()

    def _place_hands(self, *_args) -> None:
        """The Hands row: its own row under the turn limit, or (portrait, where the screen has
        no height to spare) beside Phones."""
        row = self.ids.hands
        target = self.ids.phones_box if self.app.portrait else self.ids.limits_box
        if row.parent is not target:
            row.parent.remove_widget(row)
            target.add_widget(row)

    def on_pre_enter(self, *_args) -> None:
        self.refresh()
        self.say(self.app.settings_problem, "bad" if self.app.settings_problem else "info")

    def refresh(self) -> None:
        """The controls from what the table runs on now."""
        now = self.app.table_settings
        self.sound, self.volume, self.text_size = now.sound, now.volume, now.text_size
        self.rotation, self.dim_minutes = now.rotation, now.dim_minutes
        self.off_minutes = now.off_minutes
        self.turn_limit = self.app.turn_limit
        self.phones = self.app.phones_on
        self.hands = now.hands

    def say(self, text: str, tone: str = "info") -> None:
        self.message, self.tone = text, tone

    def _change(self, done: str, **changes: Any) -> bool:
        problem = self.app.change_table_settings(**changes)
        self.refresh()
        self.say(problem or done, "bad" if problem else "good")
        return not problem

    # -- the controls --------------------------------------------------------------------
    def set_sound(self, on: bool) -> None:
        if self._change("Sound on." if on else "Sound off: only the buzzer (if wired) cues.",
                        sound=on) and on:
            self.app.cue("turn")

    def set_volume(self, percent: int) -> None:
        if self._change(f"Volume {percent}%.", volume=percent):
            self.app.cue("turn")       # so the table hears what it chose

    def test_sound(self) -> None:
        self.app.cue("turn")
        why = self.app.sound.broken
        self.say(f"No sound from this screen: {why}." if why else
                 "That is the turn cue.", "bad" if why else "info")

    def set_text_size(self, size: str) -> None:
        self._change("Large text, on every screen wherever the words still fit."
                     if size == "large" else "Normal text.",
                     text_size=size)

    def set_rotation(self, degrees: int) -> None:
        """How the panel stands; touch and the screens' arrangement follow at once."""
        if degrees != self.rotation:
            self._change(ROTATION_DONE.get(degrees, f"Turned to {degrees} degrees."),
                         rotation=degrees)

    def set_dim(self, minutes: int) -> None:
        self._change(f"The screen dims after {minutes} minutes without a touch, button or "
                     "die; any of them wakes it." if minutes else "The screen never dims.",
                     dim_minutes=minutes)

    def set_off(self, minutes: int) -> None:
        self._change(f"The screen goes off after {minutes} minutes without a touch, button or "
                     "die; any of them turns it on." if minutes else "The screen never goes off.",
                     off_minutes=minutes)

    def set_phones(self, on: bool) -> None:
        """Phones at the table: share the table on the local network, or stop (every phone's
        connection and link end); remembered for the next start."""
        app = self.app
        if on == app.phones_on:
            return
        problem = app.start_sharing() if on else app.stop_sharing()
        self.refresh()
        if problem:
            self.say(problem, "bad")
        elif on:
            port = app.table_settings.phones_port
            self.say(f"Phones at the table: shared on port {port}. The game bar's Phones button "
                     "shows the codes to scan.", "good")
        else:
            self.say("Phones stopped: every phone's connection and link ended.", "good")

    def set_hands(self, on: bool) -> None:
        """Hands on phones: each seat chooses its Witch's Brew hand on its phone (or the Pi's
        Hidden entry) and keeps its Cauldron potion cards there; the Pi says only how many."""
        self._change("Hands on phones: each seat's hand on its own phone; the Pi shows only "
                     "who has chosen and how many cards each holds." if on else
                     "Hands on the table: the phones offer no hand.", hands=on)
        self.app.publish_table()          # the phones see the change at once

    def set_turn_limit(self, seconds: int) -> None:
        """Into the hardware config with the Hardware screen's code; the app takes it now."""
        app = self.app
        devices = app.devices
        if app.demo:   # the demo table is not saved anywhere: this run only
            from hardware.config import HardwareConfig

            devices.config = replace(devices.config or HardwareConfig.empty(),
                                     turn_limit_s=seconds)
            self.refresh()
            self.say(f"Turn limit: {limit_words(seconds)}, until the app closes (the demo "
                     "table saves nothing).", "good")
            return
        from hardware.config import ConfigError

        path = devices.config_path()
        try:
            config = table.save_turn_limit(path, seconds)
        except ConfigError as problem:
            self.say(f"Turn limit not changed: {problem}.", "bad")
            return
        except OSError as problem:
            self.say(f"Turn limit not changed: cannot write {path} "
                     f"({problem.strerror or problem}).", "bad")
            return
        if devices.config is not None:
            devices.config = replace(devices.config, turn_limit_s=config.turn_limit_s)
        self.refresh()
        self.say(f"Turn limit: {limit_words(seconds)}, saved in {path}.", "good")
