"""One module + kv file per screen: home, setup, the Witch's Brew table, the result."""
