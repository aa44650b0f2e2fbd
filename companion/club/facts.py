"""Schema version 4, every check decides: what the club stores is checked so that no check can
let a row through by yielding NULL, and the facts of one game cannot contradict each other.

A ``CHECK`` refuses a row only when its expression is false; NULL passes. Version 3's record
and status checks compared keys that may be missing (``r->>'uuid' = id::text`` is NULL for a
record ``{}``; ``jsonb_typeof(p->'name') <> 'string'`` is NULL for a player without a name),
so such rows passed. Here every check is written to be true or false, never NULL: each
comparison of something that may be missing uses ``IS [NOT] DISTINCT FROM``, and each check's
whole expression is wrapped in ``coalesce(..., false)``, so whatever a term yields that was not
foreseen, the row is refused. tests/club/test_facts.py feeds each check NULL, missing keys and
wrong types.

And the facts agree, at the game's commit (``club_seats_counted``) or row by row:

- one profile in at most one seat of a game (``UNIQUE (game, profile)``: otherwise one game
  counted as two games and two wins for one player);
- a winner is at place 1, and when a game has winners every seat at place 1 is one of them;
  some seat is at place 1;
- every seat's profile is one the club holds (a foreign key), and every seat's name is its
  record's player's at that seat;
- the rater's figures are finite and within their ranges (``mu`` within MU_MOST either way,
  ``sigma`` above 0 and at most SIGMA_MOST, both or neither), so a standing is never NaN.
"""

from __future__ import annotations

from companion.club.boundary import (
    _fn, _TRIGGER, COUNTED, SCORE, _SEEN, _HIDDEN, _PLAYER, _SEAT,
)

#: The widest rating figures the club stores (openskill's start at mu 25, sigma 25/3).
MU_MOST, SIGMA_MOST = 10_000, 1_000


def named(x: str, most: int = 40) -> str:
    """A name that must be there: text of 1 to ``most`` characters, not blank, nothing hidden;
    true or false, never NULL."""
    return (f"coalesce(length({x}) BETWEEN 1 AND {most} AND {x} ~ '{_SEEN}' "
            f"AND {x} !~ '{_HIDDEN}', false)")


_RECORD = _fn(
    "club_record_ok", "r jsonb, id uuid, title text, state text", "boolean",
    "SELECT coalesce(jsonb_typeof(r) = 'object' AND octet_length(r::text) <= 1000000 "
    "AND r->>'uuid' IS NOT DISTINCT FROM id::text AND id IS NOT NULL "
    "AND r->>'game' IS NOT DISTINCT FROM title AND title IS NOT NULL "
    "AND r->>'status' IS NOT DISTINCT FROM state AND state IS NOT NULL "
    "AND jsonb_typeof(r->'players') IS NOT DISTINCT FROM 'array' "
    "AND jsonb_array_length(r->'players') BETWEEN 1 AND 8 "
    "AND NOT EXISTS (SELECT FROM jsonb_array_elements(r->'players') p "
    "  WHERE jsonb_typeof(p) IS DISTINCT FROM 'object' "
    "  OR jsonb_typeof(p->'name') IS DISTINCT FROM 'string' "
    "  OR jsonb_typeof(p->'seat') IS DISTINCT FROM 'number' "
    f"  OR NOT {named(_PLAYER)}), false)",
    volatility="IMMUTABLE")

_STATUS = _fn(
    "club_status_ok", "d jsonb", "boolean",
    "SELECT coalesce(jsonb_typeof(d) = 'object' AND octet_length(d::text) <= 16000 "
    "AND coalesce(d->>'state', 'idle') IN ('idle', 'playing', 'over') "
    "AND coalesce(jsonb_typeof(d->'seats'), 'array') = 'array' "
    "AND coalesce(jsonb_array_length(d->'seats'), 0) <= 8 "
    "AND NOT EXISTS (SELECT FROM jsonb_array_elements(coalesce(d->'seats', '[]')) s "
    "  WHERE jsonb_typeof(s) IS DISTINCT FROM 'object' "
    "  OR jsonb_typeof(s->'name') IS DISTINCT FROM 'string' "
    f"  OR NOT {named(_SEAT)} "
    "  OR coalesce(jsonb_typeof(s->'score'), 'null') NOT IN ('number', 'null') "
    f"  OR (jsonb_typeof(s->'score') = 'number' AND abs((s->>'score')::numeric) > {SCORE})), "
    "false)",
    volatility="IMMUTABLE")

_SEATS = _fn("club_seats_counted", "", body="""
    DECLARE n integer; low integer; high integer; bad integer; firsts integer;
            won integer; lost_first integer; won_later integer; unnamed integer;
    BEGIN
      SELECT count(*), count(*) FILTER (WHERE x.place > (SELECT count(*) FROM club.seats y
             WHERE y.game = NEW.uuid)), count(*) FILTER (WHERE x.place = 1),
             count(*) FILTER (WHERE x.winner), count(*) FILTER (WHERE x.place = 1 AND NOT x.winner),
             count(*) FILTER (WHERE x.winner AND x.place <> 1),
             count(*) FILTER (WHERE NOT EXISTS (SELECT FROM jsonb_array_elements(
               NEW.record->'players') p WHERE p->'seat' = to_jsonb(x.seat)
               AND p->>'name' IS NOT DISTINCT FROM x.name))
        INTO n, bad, firsts, won, lost_first, won_later, unnamed
        FROM club.seats x WHERE x.game = NEW.uuid;
      SELECT t.seats_min, t.seats_max INTO low, high FROM club.titles t
       WHERE t.name = NEW.game;
      IF n IS DISTINCT FROM jsonb_array_length(NEW.record->'players')
         OR NOT coalesce(n BETWEEN low AND high, false) THEN
        RAISE EXCEPTION 'game %: % seat(s); its record has % player(s) and % seats % to %',
          NEW.uuid, n, jsonb_array_length(NEW.record->'players'), NEW.game, low, high
          USING ERRCODE = 'check_violation';
      END IF;
      IF bad > 0 OR firsts = 0 THEN
        RAISE EXCEPTION 'game %: its places are not 1 to its % seats', NEW.uuid, n
          USING ERRCODE = 'check_violation';
      END IF;
      IF won_later > 0 OR (won > 0 AND lost_first > 0) THEN
        RAISE EXCEPTION 'game %: its winners and its places disagree (a winner is at place '
          '1, and every seat at place 1 wins when anyone does)', NEW.uuid
          USING ERRCODE = 'check_violation';
      END IF;
      IF unnamed > 0 THEN
        RAISE EXCEPTION 'game %: % seat(s) not named as its record names that seat',
          NEW.uuid, unnamed USING ERRCODE = 'check_violation';
      END IF;""" + COUNTED, **_TRIGGER)

STATEMENTS: tuple[str, ...] = (
    _RECORD, _STATUS, _SEATS,
    # each check again, so that the rows already there are held to it (init names a row that
    # fails, and changes nothing)
    "ALTER TABLE club.games DROP CONSTRAINT game_record, ADD CONSTRAINT game_record CHECK "
    "(club.club_record_ok(record, uuid, game, status))",
    "DELETE FROM club.status WHERE NOT club.club_status_ok(data)",
    "ALTER TABLE club.status DROP CONSTRAINT status_data, ADD CONSTRAINT status_data CHECK "
    "(club.club_status_ok(data))",
    "ALTER TABLE club.seats ADD CONSTRAINT seat_profile_once UNIQUE (game, profile), "
    "ADD CONSTRAINT seat_winner_first CHECK (NOT winner OR place = 1), "
    "ADD CONSTRAINT seat_profile_known FOREIGN KEY (profile) REFERENCES club.profiles (uuid)",
    "ALTER TABLE club.standings ADD CONSTRAINT standing_rating CHECK (coalesce("
    "(mu IS NULL AND sigma IS NULL) OR "
    f"(mu BETWEEN -{MU_MOST} AND {MU_MOST} AND sigma > 0 AND sigma <= {SIGMA_MOST}), false)), "
    "ADD CONSTRAINT standing_counts CHECK (coalesce(games >= 0 AND wins BETWEEN 0 AND games, "
    "false))",
)
