"""Text the screens write: player-entered words made safe for markup, how long a game took."""
