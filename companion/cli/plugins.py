"""Commands plugged in from outside companion/ through an entry point group (pyproject.toml):
the app and the hardware tools (``companion.commands``), the club's wall screen
(``companion.club_commands``). companion/ names the group and never imports their packages;
each plugin is a module with HELP, ``add_arguments(parser)`` and ``run(args)``."""

from __future__ import annotations

import argparse
from importlib.metadata import entry_points
from typing import Any, Callable, Iterable


def found(group: str) -> dict[str, Any]:
    """The group's entry points by name."""
    return {ep.name: ep for ep in entry_points(group=group)}


def plug_in(sub: Any, plugins: Iterable[Any]) -> dict[str, Callable[[argparse.Namespace], int]]:
    """A subcommand for each entry point under ``sub`` (argparse's subparsers); their runs."""
    handlers = {}
    for ep in plugins:
        plugin = ep.load()
        parser = sub.add_parser(ep.name, help=plugin.HELP)
        plugin.add_arguments(parser)
        handlers[ep.name] = plugin.run
    return handlers
