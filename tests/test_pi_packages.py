"""scripts/install-pi's apt packages cover what the aarch64 Kivy wheel's libraries load on the Pi.

Offline and fast: the wheel's NEEDED entries are checked in (tests/data/kivy-aarch64-needed.txt,
written from the wheel by this module's small ELF reader: ``python -m tests.test_pi_packages
WHEEL > tests/data/kivy-aarch64-needed.txt``; the wheel from ``pip download --no-deps
--only-binary=:all: --python-version 3.11 --platform manylinux2014_aarch64 kivy==VERSION``).
scripts/test-pi-arm64 proves the same for real, in an emulated arm64 root."""

from __future__ import annotations

import re
import shutil
import struct
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
NEEDED = ROOT / "tests" / "data" / "kivy-aarch64-needed.txt"

# soname -> the Debian Bookworm package that ships it
PACKAGE_OF = {
    "libc.so.6": "libc6", "libm.so.6": "libc6", "libpthread.so.0": "libc6",
    "libdl.so.2": "libc6", "ld-linux-aarch64.so.1": "libc6", "libz.so.1": "zlib1g",
    "libstdc++.so.6": "libstdc++6", "libgcc_s.so.1": "libgcc-s1",
    "libGL.so.1": "libgl1", "libEGL.so.1": "libegl1", "libGLESv2.so.2": "libgles2",
    "libgbm.so.1": "libgbm1", "libdrm.so.2": "libdrm2", "libudev.so.1": "libudev1",
    "libasound.so.2": "libasound2", "libmtdev.so.1": "libmtdev1",
}
# in every Debian root, debootstrap --variant=minbase included (Priority: required)
BASE = {"libc6", "zlib1g", "libstdc++6", "libgcc-s1"}
# Loaded at run time, so no NEEDED entry names them: SDL2 (in Kivy.libs) opens these for the
# kiosk's drivers (kmsdrm, offscreen, ALSA), Kivy's mtdev provider opens libmtdev by ctypes.
# (SDL's desktop ones, X11, Wayland, PulseAudio, are not the kiosk's.)
OPENED = {"libEGL.so.1", "libGLESv2.so.2", "libgbm.so.1", "libdrm.so.2", "libudev.so.1",
          "libasound.so.2", "libmtdev.so.1"}
# Kivy's own X11 window provider: never chosen, the unit sets KIVY_WINDOW=sdl2
NOT_LOADED = {"kivy/core/window/window_x11.cpython-311-aarch64-linux-gnu.so"}


def elf_needed(data: bytes) -> list[str]:
    """The DT_NEEDED sonames of a little-endian ELF64 shared object (aarch64, x86-64)."""
    if data[:4] != b"\x7fELF" or data[4] != 2 or data[5] != 1:
        raise ValueError("not a little-endian ELF64 file")
    phoff, = struct.unpack_from("<Q", data, 0x20)
    phentsize, phnum = struct.unpack_from("<HH", data, 0x36)
    loads, dynamic = [], None
    for i in range(phnum):
        kind, _flags, offset, vaddr, _paddr, filesz = struct.unpack_from(
            "<IIQQQQ", data, phoff + i * phentsize)
        if kind == 1:                       # PT_LOAD: where addresses are in the file
            loads.append((vaddr, offset, filesz))
        elif kind == 2:                     # PT_DYNAMIC
            dynamic = (offset, filesz)
    if dynamic is None:
        return []
    entries = [struct.unpack_from("<qQ", data, dynamic[0] + at)
               for at in range(0, dynamic[1], 16)]
    strtab = next(value for tag, value in entries if tag == 5)            # DT_STRTAB
    base = next(offset + strtab - vaddr for vaddr, offset, size in loads
                if vaddr <= strtab < vaddr + size)
    return [data[base + value:data.index(b"\0", base + value)].decode()
            for tag, value in entries if tag == 1]                        # DT_NEEDED


def wheel_needed(wheel: Path) -> dict[str, list[str]]:
    with zipfile.ZipFile(wheel) as archive:
        return {name: elf_needed(archive.read(name)) for name in sorted(archive.namelist())
                if re.search(r"\.so(\.\d+)*$", name)}


def _checked_in() -> tuple[str, dict[str, list[str]]]:
    lines = NEEDED.read_text().splitlines()
    version = lines[0].removeprefix("# ").split()[0]
    return version, {path: sonames.split() for path, _, sonames in
                     (line.partition(": ") for line in lines[1:] if line and line[0] != "#")}


def _installer_packages() -> dict[str, str]:
    """APT_PACKAGES=( ... ) in scripts/install-pi: package -> what it is for."""
    text = (ROOT / "scripts" / "install-pi").read_text()
    block = re.search(r"^APT_PACKAGES=\(\n(.*?)^\)", text, re.S | re.M)
    assert block, "scripts/install-pi: no APT_PACKAGES=( ... ) list"
    found = {}
    for line in block.group(1).splitlines():
        name, _, why = line.strip().partition("#")
        assert name.strip() and why.strip(), f"install-pi: {line!r} does not say what it is for"
        found[name.strip()] = why.strip()
    return found


def test_the_checked_in_list_is_of_the_locked_kivy():
    version, needed = _checked_in()
    lock = (ROOT / "requirements-pi.lock").read_text()
    assert f"\n{version} \\" in lock, (
        f"{NEEDED.name} is of {version}, the lock pins another Kivy: write it again")
    assert any("libGL.so.1" in names for names in needed.values())
    assert "Kivy.libs/" in "".join(needed), "the wheel's own SDL2 is in the list"


def test_the_installer_installs_what_the_wheels_libraries_load():
    _version, needed = _checked_in()
    carried = {Path(path).name for path in needed}          # Kivy.libs' own SDL2, libpng
    loads = {soname for path, names in needed.items() if path not in NOT_LOADED
             for soname in names} | OPENED
    packages = _installer_packages()
    for soname in sorted(loads - carried):
        assert soname in PACKAGE_OF, f"{soname}: which Debian package ships it? (PACKAGE_OF)"
        package = PACKAGE_OF[soname]
        assert package in BASE or package in packages, (
            f"the wheel loads {soname} ({package}), scripts/install-pi does not install it")
    assert packages["libgl1"].startswith("libGL.so.1")


def test_the_elf_reader_agrees_with_readelf():
    """On the development machine's own Kivy (x86-64): the same reader as for the aarch64 list."""
    if shutil.which("readelf") is None:
        pytest.skip("readelf (binutils) is not installed")
    kivy = Path(__import__("kivy").__file__).parent
    objects = sorted(kivy.glob("graphics/cgl_backend/*.so"))[:2] + sorted(kivy.glob("*.so"))[:1]
    assert objects
    for path in objects:
        shown = subprocess.run(["readelf", "-d", str(path)], capture_output=True, text=True,
                               check=True).stdout
        assert elf_needed(path.read_bytes()) == re.findall(r"\(NEEDED\).*\[(.+)\]", shown), path


def test_the_elf_reader_refuses_what_is_not_elf():
    with pytest.raises(ValueError, match="ELF64"):
        elf_needed(b"#!/bin/sh\n")


if __name__ == "__main__":
    wheel = Path(sys.argv[1])
    print(f"# {'=='.join(wheel.name.lower().split('-')[:2])} {wheel.name}: each shared "
          "object's NEEDED (python -m tests.test_pi_packages WHEEL)")
    for name, sonames in wheel_needed(wheel).items():
        print(f"{name}: {' '.join(sonames)}")
