"""How the ``companion`` command ends: its exit statuses, and ``Unusable`` for whatever a person
can type or a disk can hold that cannot be used (one line on standard error, never a traceback)."""

from __future__ import annotations

#: Exit statuses: done; a line refused under --strict; nothing done, the input, the output or
#: the database could not be used (argparse's own status for a wrong command line).
EXIT_DONE, EXIT_REFUSED, EXIT_UNUSABLE = 0, 1, 2


class Unusable(Exception):
    """A file, the database or a game number that cannot be used: exit status 2 and one line
    on standard error naming the file, the line where there is one, and what is wrong."""
