"""The club: many tables, one league, on PostgreSQL (docs/club.md). The club's schema and its
roles (schema.py; version 3, the server as the boundary: boundary.py), who reaches it and how
(access.py), each table's sending of its finished games (sync.py), the league's figures and
ratings (league.py), the ratings kept at the club in play order (rater.py), what the commands
read (reading.py) and the wall screen's snapshot (board.py; its server is ui/web/board/). Pure
of the app: psycopg is imported only where the club is reached."""
