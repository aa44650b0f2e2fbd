"""Which of Kivy's input providers read a touch, so that one tap is one press: on the Pi's
console the panel is read once, through mtdev, and nothing turns the same touch into a mouse
click as well (tests/ui/test_ui_touch_once.py feeds it recorded kernel events)."""

from __future__ import annotations


def touch_inputs(console: bool) -> dict[str, str]:
    """Kivy's ``[input]`` section: exactly one provider sees each touch.

    On the console (SDL's kmsdrm, the kiosk) Kivy reads the panel itself through mtdev: the
    official displays speak the kernel's multitouch protocol B (slots), which mtdev reads and
    Kivy's hidinput does not (it waits for protocol A's SYN_MT_REPORT and sees no touch);
    ``select_all=0`` keeps it to touch panels (keys stay SDL's). SDL also turns every touch
    into a mouse click there, so the kiosk has no ``mouse`` provider: with it each tap would
    press twice. On a desktop the window system hands a touchscreen over as the pointer: the
    ``mouse`` provider alone (no red dots on right click), and no ``probesysfs``, which would
    read the same panel a second time. Kivy's default ``%(name)s = probesysfs`` is dropped in
    both cases. (The ``sdl`` provider the SDL window adds by itself takes SDL's finger events
    on Android and iOS only: on Linux it never sees a touch.)"""
    if console:
        return {"touch_%(name)s": "probesysfs,provider=mtdev,select_all=0"}
    return {"mouse": "mouse,disable_multitouch"}


def use_touch_inputs(config, console: bool) -> None:
    """Replace every ``[input]`` entry of Kivy's ``config`` with :func:`touch_inputs`."""
    for key in list(config.options("input")):
        config.remove_option("input", key)
    for key, value in touch_inputs(console).items():
        config.set("input", key, value)
