"""Short sound cues for Cauldron Quest, made at run time (``wave``, no files shipped): the wizard
moving, a path blocked, a spell working, the team winning, the wizard winning.

Sound is a bonus: where there is no audio device (headless tests, a Pi without speakers) or
``COMPANION_SOUND=0``, every call quietly does nothing.
"""

from __future__ import annotations

import logging
import math
import os
import struct
import tempfile
import wave
from pathlib import Path

log = logging.getLogger(__name__)

RATE = 22050
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
_sounds: dict[str, object] = {}
_broken = False


def cue_for(events) -> str | None:
    """The cue for a step's events, or None."""
    types = {e.type for e in events}
    for event, cue in EVENT_CUES:
        if event in types:
            return cue
    if any(e.type == "spell_judged" and e.data.get("success") for e in events):
        return "spell"
    return None


def write_wav(path: Path, notes: list[tuple[float, float]]) -> None:
    frames = bytearray()
    for freq, seconds in notes:
        n = int(RATE * seconds)
        for i in range(n):
            fade = min(1.0, i / 200, (n - i) / 400)
            frames += struct.pack("<h", int(9000 * fade * math.sin(2 * math.pi * freq * i / RATE)))
    with wave.open(str(path), "wb") as out:
        out.setnchannels(1)
        out.setsampwidth(2)
        out.setframerate(RATE)
        out.writeframes(bytes(frames))


def play(cue: str | None) -> None:
    """Play a cue if sound works here; never raises."""
    global _broken
    if cue is None or _broken or os.environ.get("COMPANION_SOUND", "1") == "0":
        return
    try:
        if cue not in _sounds:
            from kivy.core.audio import SoundLoader

            folder = Path(tempfile.gettempdir()) / "companion-quest-sounds"
            folder.mkdir(exist_ok=True)
            path = folder / f"{cue}.wav"
            if not path.exists():
                write_wav(path, CUES[cue])
            _sounds[cue] = SoundLoader.load(str(path))
        sound = _sounds[cue]
        if sound is None:
            _broken = True
            return
        sound.play()
    except Exception as problem:  # no audio provider or device: stay quiet
        log.info("no sound: %s", problem)
        _broken = True
