"""Widgets shared by the screens: flat buttons, chips, steppers, the seat panel, the role
picker, the resolve panel and the dialogs. Each ``.py`` has its ``.kv`` next to it."""
