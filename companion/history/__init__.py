"""What the table does with its finished games away from the game itself: every play read as
one record (``plays``), written out for other programs (``export_all``), counted into figures
(``stats``), and the whole database copied out and back (``backup``).

All of it reads the rows a game keeps for the lists (games, players, results, clocks) with plain
SQL, never a game's log and never a fold, so a thousand games answer at once; and all of it is
pure (no Kivy), so the command line and the app share it.
"""
