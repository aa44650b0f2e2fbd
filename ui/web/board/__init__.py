"""The club's wall screen (``companion club board``): an aiohttp server of its own, beside the
phones' (ui/web/server.py, whose headers and limits it shares), and its page in static/."""
