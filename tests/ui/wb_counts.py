"""What a Witch's Brew seat tile shows of its counters: each drawn icon's big digits."""

from __future__ import annotations

from ui_helpers import panel, walk

from ui.widgets.icons import Counter


def counts(app, name: str) -> dict[str, int]:
    """The counters the named seat's tile shows now (hidden lines left out), by name."""
    return {c.name: int(c.digits.text) for c in walk(panel(app, name))
            if isinstance(c, Counter) and c.opacity and c.height > 0 and c.parent.opacity}


def shows(app, name: str, **expected: int) -> bool:
    """The tile shows each of ``expected`` with that count ("gold=3")."""
    shown = counts(app, name)
    return all(shown.get(counter) == n for counter, n in expected.items())
