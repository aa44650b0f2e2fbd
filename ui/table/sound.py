"""Cue sounds from the screen device, for every game: a new turn, a refused press, a turn over
the table's limit, the game over.

The GPIO buzzer only sounds where one is wired; most tables have a screen with a speaker (HDMI
or the Pi's audio). The tones are made here (``wave``, no files shipped), written once into the
user cache directory and played with Kivy's SoundLoader at the table's volume.

Sound is a bonus: ``COMPANION_SOUND=0`` silences it (every game's cues play here, Quest's
included), and without an audio device (headless tests, a Pi without speakers) the first
cue finds that out, says so in one line at info level, and every later cue does nothing. A
Linux machine without a sound card is known from the kernel's list before any audio library
opens (which would print a screenful of ALSA errors for that one fact).
"""

from __future__ import annotations

import hashlib
import logging
import math
import os
import struct
import sys
import tempfile
import wave
from pathlib import Path
from typing import Any

log = logging.getLogger(__name__)

RATE = 22050
#: Each cue as (frequency Hz, seconds) notes; 0 Hz is a rest.
CUES: dict[str, tuple[tuple[float, float], ...]] = {
    "turn": ((659, 0.08), (880, 0.14)),                       # up: someone's turn now
    "refused": ((247, 0.12), (0, 0.04), (175, 0.22)),         # down: not that
    "time": ((988, 0.14), (0, 0.08), (988, 0.14), (0, 0.08), (988, 0.24)),  # three, as the buzzer
    "over": ((523, 0.12), (659, 0.12), (784, 0.12), (1047, 0.36)),          # the game is over
}


def cache_folder() -> Path:
    """Where the cue files are kept: the user cache directory (the temp folder without one)."""
    try:
        from platformdirs import user_cache_dir

        return Path(user_cache_dir("table-companion", appauthor=False)) / "sounds"
    except Exception:  # noqa: BLE001 - no cache directory: the temp folder will do
        return Path(tempfile.gettempdir()) / "table-companion-sounds"


def tone_bytes(notes: tuple[tuple[float, float], ...]) -> bytes:
    """16-bit mono samples of the notes, each faded in and out so nothing clicks."""
    frames = bytearray()
    for freq, seconds in notes:
        n = int(RATE * seconds)
        for i in range(n):
            fade = min(1.0, i / 200, (n - i) / 400)
            level = 0.0 if freq <= 0 else math.sin(2 * math.pi * freq * i / RATE)
            frames += struct.pack("<h", int(12000 * fade * level))
    return bytes(frames)


def write_cue(folder: Path, kind: str, notes: tuple[tuple[float, float], ...]) -> Path:
    """The cue's WAV file, written once (atomically) and named by its notes, so a changed
    tone gets a new file rather than an old sound."""
    digest = hashlib.sha1(repr(notes).encode()).hexdigest()[:10]
    path = folder / f"{kind}-{digest}.wav"
    if path.exists():
        return path
    folder.mkdir(parents=True, exist_ok=True)
    fd, temp = tempfile.mkstemp(prefix=f".{kind}.", suffix=".wav", dir=folder)
    try:
        with os.fdopen(fd, "wb") as raw, wave.open(raw, "wb") as out:
            out.setnchannels(1)
            out.setsampwidth(2)
            out.setframerate(RATE)
            out.writeframes(tone_bytes(notes))
        os.replace(temp, path)
    except BaseException:
        Path(temp).unlink(missing_ok=True)
        raise
    return path


#: Where Linux lists its sound cards (ALSA's, HDMI audio included).
CARDS = Path("/proc/asound/cards")


def no_sound_card(cards: Path = CARDS, platform: str = sys.platform) -> str:
    """Why this machine has no sound card to play on ("" when it may have one). Asked before
    the audio provider opens: SDL's audio on a Linux machine without a card has ALSA print
    eight lines of errors and Kivy a warning, for what is one fact."""
    if not platform.startswith("linux"):
        return ""
    try:
        listed = cards.read_text(errors="replace")
    except OSError:
        return "no sound card on this machine (the kernel lists none)"
    if not listed.strip() or "no soundcards" in listed:
        return "no sound card on this machine"
    return ""


class ScreenSound:
    """The app's cue player (``app.sound``). ``play(kind, volume)`` never raises."""

    def __init__(self, folder: Path | None = None, cards: Path = CARDS) -> None:
        self.folder = folder
        self.cards = cards
        self.cues = dict(CUES)
        self._sounds: dict[str, Any] = {}
        self.broken = ""        # why sound does not work here ("" while it may)

    def add_cues(self, cues: dict) -> None:
        """A game's own cues ({kind: [(Hz, seconds), ...]}, as Quest's ``sound.CUES``), played
        then through ``app.cue(kind)`` like the table's, with its sound setting and volume."""
        self.cues.update({kind: tuple(map(tuple, notes)) for kind, notes in cues.items()})

    def play(self, kind: str, volume: int = 100) -> bool:
        """Play cue ``kind`` at ``volume`` percent; False when nothing sounded."""
        if self.broken or kind not in self.cues or volume <= 0 \
                or os.environ.get("COMPANION_SOUND", "1") == "0":
            return False
        try:
            sound = self._sounds.get(kind)
            if sound is None:
                missing = no_sound_card(self.cards)
                if missing:
                    return self._give_up(missing)
                from kivy.core.audio import SoundLoader

                path = write_cue(self.folder or cache_folder(), kind, self.cues[kind])
                sound = SoundLoader.load(str(path))
                if sound is None:
                    return self._give_up("no audio provider can play WAV files here")
                if not sound.length:           # loaded nothing: no audio device opened
                    return self._give_up("the audio device did not open")
                self._sounds[kind] = sound
            sound.stop()                       # a cue still sounding starts again
            sound.volume = min(100, volume) / 100
            sound.play()
            return True
        except Exception as problem:  # noqa: BLE001 - no audio device: the table plays on
            return self._give_up(str(problem) or type(problem).__name__)

    def _give_up(self, why: str) -> bool:
        self.broken = why
        log.info("screen sound off: %s", why)
        return False
