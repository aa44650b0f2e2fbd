"""The app on its machine: the ``companion run`` command, the systemd service and its notify
protocol, the touch panel's inputs, the docked keyboard, the renderer notice and the dimmer."""
