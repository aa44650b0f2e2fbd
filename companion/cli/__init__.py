"""The ``companion`` command: main.py parses and dispatches, status.py and files.py are what every
command shares, and one module per group of commands (play, history, check, doctor)."""
