"""GoDice (Particula): every frame a die sends, as its makers' SDKs read them.

Sources (commits of the stored snapshots):

* the C SDK, ``ParticulaCode/GoDiceAndroid_iOS_API`` ``common/godiceapi.c``
  (``godice_incoming_packet``): the event keys ``R`` (a roll starts), ``S`` + x y z (stable),
  ``FS``/``TS``/``MS`` + x y z (fake-, tilt-, move-stable), ``Tap``, ``DTap`` (accepted and
  nothing done), ``Bat`` + level (0-100), ``Char`` + 0/1 (off or on the charger), ``Col`` +
  colour (0-5); x y z are signed bytes; a stable frame is exactly 4 bytes after its key's
  first letter;
* the JavaScript SDK, ``ParticulaCode/GoDiceJavaScriptAPI`` ``godice.js`` (``parseMessage``,
  ``messageIdentifiers``: BATTERY_LEVEL 3, DICE_COLOUR 23; ``diceTypes``, the shells);
* the Python package ``godice`` (``ParticulaCode/GoDicePythonAPI``): the same shells and the
  vector each face of each shell is (``godice.xyzinterpret``). Particula's licence lets us use
  their API, not copy it, so the x y z of each shell are taken from the installed package by
  :func:`shell_frames` rather than written out here; the literal frames below are the few the
  tests name (the D6's six axes, and two faces of the D20 shell).
"""

from __future__ import annotations

from . import Source, Vector, hx

C_SDK, C_SDK_AT = "ParticulaCode/GoDiceAndroid_iOS_API", "cd83c861a3f276c66c3b02ef4febf33f0a095be9"
JS_SDK, JS_SDK_AT = "ParticulaCode/GoDiceJavaScriptAPI", "1a0cc90f4f3d366be41e97b545cc7a6e323124ab"
PY_SDK, PY_SDK_AT = "ParticulaCode/GoDicePythonAPI", "0361ee2cfe5012b032318284a523a77d235a2317"

FRAMES = Source(C_SDK, "common/godiceapi.c", C_SDK_AT, "godice_incoming_packet, EK_*")
D6_AXES = Source(C_SDK, "common/godiceapi.c", C_SDK_AT, "D6Values")
D20_AXES = Source(C_SDK, "common/godiceapi.c", C_SDK_AT, "D20Values")
REQUESTS = Source(JS_SDK, "godice.js", JS_SDK_AT, "messageIdentifiers, getBatteryLevel, getDiceColor")
SHELLS_SOURCE = Source(PY_SDK, "godice/factory.py", PY_SDK_AT, "Shell, xyz_interpret_map")

#: the shells of godice.Shell, by the name the config keeps
SHELLS = ("d6", "d20", "d10", "d10x", "d4", "d8", "d12")

ROLL = Vector("R: a roll starts", hx("52"), "rolling", FRAMES)
#: a D6 at rest on each face: S + x y z, the D6's axis for that face
STABLE_D6 = {1: hx("53 c0 00 00"), 2: hx("53 00 00 40"), 3: hx("53 00 40 00"),
             4: hx("53 00 c0 00"), 5: hx("53 00 00 c0"), 6: hx("53 40 00 00")}
#: the die in its D20 shell at rest on 17 and on 4 (read with the D6's axes, 17 is 5)
STABLE_D20_17 = Vector("S in the D20 shell on 17", hx("53 00 ea c0"), {"d20": 17, "d6": 5}, D20_AXES)
STABLE_D20_4 = Vector("S in the D20 shell on 4", hx("53 00 16 40"), {"d20": 4, "d6": 2}, D20_AXES)
#: not at rest after a roll: the same axes behind the two-letter keys
FAKE_STABLE = Vector("FS: fake stable on 3", hx("46 53 00 40 00"), "fake stable", FRAMES)
TILT_STABLE = Vector("TS: tilt stable near 6", hx("54 53 3c 10 08"), "tilt stable", FRAMES)
MOVE_STABLE = Vector("MS: move stable on 1", hx("4d 53 c0 00 00"), "move stable", FRAMES)
TAP = Vector("Tap", hx("54 61 70"), "tap", FRAMES)
DOUBLE_TAP = Vector("DTap", hx("44 54 61 70"), "double tap", FRAMES)
CHARGING = [Vector("Char off the charger", hx("43 68 61 72 00"), False, FRAMES),
            Vector("Char on the charger", hx("43 68 61 72 01"), True, FRAMES)]
BATTERY = [Vector(f"Bat {level} %", b"Bat" + bytes([level]), level, FRAMES)
           for level in (100, 63, 12, 0)]
COLOURS = [Vector(f"Col {name}", b"Col" + bytes([n]), name, FRAMES) for n, name in
           enumerate(("black", "red", "green", "blue", "yellow", "orange"))]
#: what the host writes: ask the battery, ask the colour
ASK_BATTERY = Vector("battery level request", hx("03"), "Bat", REQUESTS)
ASK_COLOUR = Vector("colour request", hx("17"), "Col", REQUESTS)
#: a die picked up and rolled, landing on 4
A_ROLL = [ROLL.data, FAKE_STABLE.data, ROLL.data, STABLE_D6[4]]


def stable(xyz: tuple[int, int, int], key: bytes = b"S") -> bytes:
    """A stable frame (``S``, or ``FS``/``TS``/``MS``) with the signed bytes of ``xyz``."""
    return key + bytes(v & 0xFF for v in xyz)


def shell_frames(shell: str) -> dict[int, bytes]:
    """Face -> an ``S`` frame of a die at rest on it in ``shell``, from the vectors of the
    installed ``godice`` (the first vector of each face, in godice's table order)."""
    from godice import xyzinterpret as xyz

    table = xyz.d6Vectors if shell == "d6" else \
        xyz.d20Vectors if shell in ("d20", "d10", "d10x") else xyz.d24Vectors
    transform = {"d10": xyz.d10Transform, "d10x": xyz.d10XTransform, "d4": xyz.d4Transform,
                 "d8": xyz.d8Transform, "d12": xyz.d12Transform}.get(shell)
    frames: dict[int, bytes] = {}
    for raw, vector in table.items():
        face = transform[raw] if transform else raw
        frames.setdefault(face, stable(tuple(vector)))
    return frames
