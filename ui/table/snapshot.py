"""The table as the phones and the club see it: ``companion.view.snapshot.table_view`` of the session now,
with its clocks brought up to this moment. Built on the main thread, when either asks."""

from __future__ import annotations

import logging
import time
from typing import Any

log = logging.getLogger(__name__)


def snapshot_now(app: Any, session: Any, n: int, who: str, **extra: Any) -> dict[str, Any] | None:
    """The snapshot numbered ``n``; None (logged under ``who``) when it cannot be made: the
    phones or the club miss one picture, the table plays on."""
    from companion.view.snapshot import table_view

    clock = None
    if app.clock is not None:
        app.clock.advance(time.monotonic())
        clock = app.clock.to_dict()
    try:
        return table_view(session, n, app._narrator_of(session), clock=clock,
                          turn_limit=app.turn_limit, **extra)
    except Exception:     # noqa: BLE001 (one picture missed; a traceback never reaches a player)
        log.exception("%s: the table's snapshot could not be made", who)
        return None
