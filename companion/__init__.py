"""The table companion: keeps the books beside real cardboard board games.

This package is pure Python: rules, sessions, storage and the command line. It never imports
Kivy, gpiozero or pyserial; those meet the rules only in the app (``ui``) and ``hardware``.
"""

__version__ = "0.1.0"
