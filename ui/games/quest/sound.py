"""Cauldron Quest's own sound cues: the wizard moving, a path blocked, a spell working, the
team winning, the wizard winning.

Only the tones and which step sounds which are Quest's. They play through the app's ``cue``
(:mod:`ui.table.settings_app`, :class:`ui.table.sound.ScreenSound`) like every other game's cues, so
the table's sound setting (on/off and volume) and ``COMPANION_SOUND=0`` govern them too; a
module of its own that played files directly used to ignore the setting.
"""

from __future__ import annotations

from kivy.app import App

#: Each cue as (frequency Hz, seconds) notes.
CUES = {
    "wizard": [(330, 0.12), (262, 0.12), (196, 0.22)],
    "blocked": [(147, 0.18), (110, 0.3)],
    "spell": [(523, 0.09), (659, 0.09), (784, 0.09), (1047, 0.2)],
    "won": [(523, 0.12), (659, 0.12), (784, 0.12), (1047, 0.16), (784, 0.1), (1047, 0.35)],
    "lost": [(294, 0.2), (277, 0.2), (262, 0.2), (196, 0.5)],
}
#: Which event sounds (the first that matches in a step wins).
EVENT_CUES = (("game_won", "won"), ("game_lost", "lost"), ("path_blocked", "blocked"),
              ("wizard_moved", "wizard"))


def cue_for(events) -> str | None:
    """The cue for a step's events, or None."""
    types = {e.type for e in events}
    for event, cue in EVENT_CUES:
        if event in types:
            return cue
    if any(e.type == "spell_judged" and e.data.get("success") for e in events):
        return "spell"
    return None


def play(cue: str | None) -> None:
    """Play a Quest cue through the app's ``cue`` (the table's sound setting and volume
    apply); never raises."""
    app = App.get_running_app()
    if cue is None or app is None or not hasattr(app, "cue"):
        return
    if cue not in app.sound.cues:
        app.sound.add_cues(CUES)
    app.cue(cue)
