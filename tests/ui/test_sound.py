"""The screen's cue sounds on a machine without a sound card: one line, and no audio library
opened (SDL's audio there has ALSA print eight lines of errors and Kivy a warning)."""

from __future__ import annotations

import logging
import sys

from ui.table.sound import ScreenSound, no_sound_card

#: /proc/asound/cards as the kernel writes it with no card, and with the Pi's own two
#: (sound/core/info.c: " --- no soundcards ---"; a card is "N [id ]: driver - name").
NONE = " --- no soundcards ---\n"
PI = (" 0 [Headphones     ]: bcm2835_headpho - bcm2835 Headphones\n"
      "                      bcm2835 Headphones\n"
      " 1 [vc4hdmi0       ]: vc4-hdmi - vc4-hdmi-0\n"
      "                      vc4-hdmi-0\n")


def test_a_linux_machine_without_a_card_is_known_before_any_audio_opens(tmp_path, caplog,
                                                                         monkeypatch):
    cards = tmp_path / "cards"
    cards.write_text(NONE)
    assert no_sound_card(cards, "linux") == "no sound card on this machine"
    assert no_sound_card(tmp_path / "absent", "linux").startswith("no sound card")
    assert no_sound_card(cards, "darwin") == ""        # elsewhere the provider says
    cards.write_text(PI)
    assert no_sound_card(cards, "linux") == ""
    cards.write_text(NONE)
    monkeypatch.setenv("COMPANION_SOUND", "1")
    monkeypatch.setattr(sys, "platform", "linux")
    opened = "kivy.core.audio" in sys.modules          # by a test before, in this process
    sound = ScreenSound(tmp_path / "cues", cards=cards)
    with caplog.at_level(logging.INFO, logger="ui.table.sound"):
        assert sound.play("turn") is False and sound.play("refused") is False
    assert [r.getMessage() for r in caplog.records] == [
        "screen sound off: no sound card on this machine"]       # one line, once
    assert opened or "kivy.core.audio" not in sys.modules         # nothing opened
