"""The table as data for screens other than the Pi's own (the phones at the table), pure.

- snapshot: one numbered snapshot of the table, each audience's view of it, a seat's controls.
- screen: what the Pi's screen shows beside the seats (each game's board, a tile's lines, choices).
- options: the choices a seat makes inside its turn, each the very command the Pi sends.
- forms: the entries a seat fills in (a brew, a card read aloud, a purchase with a discount).
- hands: each seat's own hand, in that seat's view alone.
"""
