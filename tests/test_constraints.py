"""constraints.txt holds the versions the suite passes with, and installs use it: every
dependency the project declares is pinned there, within what pyproject.toml allows, and this
test run uses exactly those versions."""

from __future__ import annotations

import tomllib
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path

from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

ROOT = Path(__file__).resolve().parents[1]


def _pins() -> dict[str, str]:
    pins = {}
    for line in (ROOT / "constraints.txt").read_text().splitlines():
        line = line.split("#", 1)[0].strip()
        if line:
            name, _, pinned = line.partition("==")
            assert pinned, f"constraints.txt: {line!r} is not an exact pin (name==version)"
            pins[canonicalize_name(name)] = pinned
    return pins


def _declared() -> list[Requirement]:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    return [Requirement(r) for r in project["dependencies"]
            + project["optional-dependencies"]["test"]]


def test_every_declared_dependency_is_pinned_within_its_range():
    pins = _pins()
    for requirement in _declared():
        name = canonicalize_name(requirement.name)
        assert name in pins, f"{requirement.name} is not pinned in constraints.txt"
        assert requirement.specifier.contains(pins[name], prereleases=True), (
            f"constraints.txt pins {requirement.name}=={pins[name]}, outside {requirement}")


def test_this_run_uses_the_pinned_versions():
    for name, pinned in _pins().items():
        try:
            installed = version(name)
        except PackageNotFoundError:
            continue        # a platform's own extra (none today) need not be here
        assert installed == pinned, (f"{name} {installed} is installed, constraints.txt says "
                                     f"{pinned}: reinstall with scripts/test")


def test_the_install_scripts_use_it():
    for script in ("scripts/test", "scripts/demo", "scripts/install-pi"):
        assert "constraints.txt" in (ROOT / script).read_text(), script
