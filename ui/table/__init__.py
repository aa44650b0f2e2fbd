"""What every game's table shares: its devices (buttons, lights, dice tray, smart dice) and the
wait for their presses, clock, sounds, its own settings (the file and the app's side of them),
the press waiting for the card, and the app's side of the phones and the club. The app hands
them what they need of the games (``app.games``); they never import the games or screens."""
