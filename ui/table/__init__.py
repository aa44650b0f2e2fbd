"""What every game's table shares: its devices (buttons, lights, dice tray), clock, sounds,
its own settings (the file and the app's side of them) and the press waiting for the card."""
