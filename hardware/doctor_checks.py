"""What ``companion doctor`` asks the machine itself, before any configured device is opened.

Plain functions, each answering one question (which header pin is this GPIO, is this a
Raspberry Pi, which GL renderer would the app get, which hardware groups is the user missing,
what links point at a serial port), so :class:`hardware.doctor.Doctor` only words the report
and they can be tested alone. The statuses a finding can have are here too, because
:func:`judge_renderer` gives one.
"""

from __future__ import annotations

import grp
import os
import subprocess
import sys
from pathlib import Path

OK, WARN, FAIL, INFO = "ok", "WARN", "FAIL", "info"

# BCM GPIO -> physical pin on the 40-pin header (every Pi since the B+).
BCM_TO_PHYSICAL = {
    2: 3, 3: 5, 4: 7, 17: 11, 27: 13, 22: 15, 10: 19, 9: 21, 11: 23, 5: 29, 6: 31, 13: 33,
    19: 35, 26: 37, 14: 8, 15: 10, 18: 12, 23: 16, 24: 18, 25: 22, 8: 24, 7: 26, 12: 32,
    16: 36, 20: 38, 21: 40,
}

SOFTWARE_RENDERERS = ("llvmpipe", "softpipe", "swrast", "software rasterizer")
GROUPS = {"video": "the GPU", "render": "the GPU", "gpio": "GPIO pins",
          "dialout": "serial ports", "input": "the touchscreen"}

# Run in a child process: a failing or hanging GL driver cannot take the doctor down with it.
GL_PROBE = r"""
import os
os.environ.setdefault("KIVY_NO_ARGS", "1")
os.environ.setdefault("KIVY_NO_CONSOLELOG", "1")
os.environ.setdefault("KIVY_NO_FILELOG", "1")
from kivy.config import Config
Config.set("graphics", "width", "64")
Config.set("graphics", "height", "64")
from kivy.core.window import Window
from kivy.graphics.opengl import glGetString, GL_RENDERER, GL_VENDOR, GL_VERSION
for key, name in ((GL_RENDERER, "RENDERER"), (GL_VENDOR, "VENDOR"), (GL_VERSION, "VERSION")):
    value = glGetString(key)
    if isinstance(value, bytes):
        value = value.decode("utf-8", "replace")
    print(f"GL_{name}={value}", flush=True)
"""


def pin_label(pin: int) -> str:
    """``GPIO17 (pin 11)``: the config names BCM numbers, but one solders to header pins."""
    physical = BCM_TO_PHYSICAL.get(pin)
    return f"GPIO{pin} (pin {physical})" if physical else f"GPIO{pin}"


def on_raspberry_pi() -> bool:
    """Software GL and missing groups are only a problem on the Pi the table runs on."""
    for path in ("/proc/device-tree/model", "/sys/firmware/devicetree/base/model"):
        try:
            if "Raspberry Pi" in Path(path).read_text(errors="replace"):
                return True
        except OSError:
            pass
    return False


def judge_renderer(renderer: str, *, on_pi: bool) -> tuple[str, str]:
    """(status, sentence) for a GL_RENDERER string."""
    if any(word in renderer.lower() for word in SOFTWARE_RENDERERS):
        if on_pi:
            return WARN, (f"{renderer}: software rendering on a Raspberry Pi means the app "
                          f"cannot use the GPU, almost always a permission problem: add the "
                          f"user to the video and render groups (sudo usermod -aG video,render "
                          f"$USER), log in again; check dtoverlay=vc4-kms-v3d in config.txt")
        return INFO, f"{renderer}: software rendering (normal on a machine without a GPU driver)"
    return OK, renderer


def probe_gl(timeout: float = 20.0, python: str = sys.executable,
             env: dict[str, str] | None = None) -> dict[str, str]:
    """Open a tiny Kivy window in a child process; return {"RENDERER": ..., ...} or
    {"error": ...}."""
    try:
        done = subprocess.run([python, "-c", GL_PROBE], capture_output=True, text=True,
                              timeout=timeout, env=env)
    except subprocess.TimeoutExpired:
        return {"error": f"no answer within {timeout:g} s"}
    except OSError as exc:
        return {"error": f"cannot run {python}: {exc}"}
    found = {}
    for line in done.stdout.splitlines():
        key, sep, value = line.partition("=")
        if sep and key.startswith("GL_"):
            found[key[3:]] = value.strip()
    if "RENDERER" not in found:
        tail = [line for line in (done.stderr or "").strip().splitlines() if line.strip()][-3:]
        found["error"] = (f"could not open a window (exit status {done.returncode})"
                          + (": " + " | ".join(tail) if tail else ""))
    return found


def missing_groups() -> list[str]:
    """The hardware groups that exist here and the user is not in (none for root)."""
    if hasattr(os, "geteuid") and os.geteuid() == 0:
        return []
    mine = set(os.getgroups()) | {os.getgid()}
    missing = []
    for name in GROUPS:
        try:
            gid = grp.getgrnam(name).gr_gid
        except KeyError:
            continue
        if gid not in mine:
            missing.append(name)
    return missing


def by_id_links() -> dict[str, list[str]]:
    """Real device -> its /dev/serial/by-id and by-path links."""
    links: dict[str, list[str]] = {}
    for folder in ("/dev/serial/by-id", "/dev/serial/by-path"):
        try:
            entries = sorted(os.listdir(folder))
        except OSError:
            continue
        for name in entries:
            path = os.path.join(folder, name)
            links.setdefault(os.path.realpath(path), []).append(path)
    return links
