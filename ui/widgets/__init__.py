"""Widgets every screen and game may use: flat buttons and chips, the game bar and its log, the
charts, the project's icons, the known players, the Phones dialog and its QR codes, the Hardware
fields, words drawn once, the still layer and the second tap not taken. Each ``.py`` has its
``.kv`` next to it. They import nothing above them (the app, its screens, the games): what they
need from those is handed to them (tests/test_house.py holds it)."""
