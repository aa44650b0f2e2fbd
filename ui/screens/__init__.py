"""The app's screens outside a game, one module + kv file each: Home, History and a stored game's
detail, Statistics, the table's Settings and the Hardware screen (its draft and smart dice).
A game's own setup, table and result screens live beside it in ui/games/<game>/."""
