"""``companion club board``: serve the club's wall screen (ui/web/board/server.py).

Plugged into ``companion club`` through the ``companion.club_commands`` entry point group, so
companion/ never imports aiohttp or ui; aiohttp and psycopg are imported only inside ``run``.
"""

from __future__ import annotations

import argparse
import ipaddress

HELP = "serve the club's wall screen (tables now, standings, latest games; live)"
DEFAULT = ("127.0.0.1", 8780)


def listen_at(text: str) -> tuple[str, int]:
    """HOST:PORT (an IP address and a port) for --listen."""
    host, _, port = text.rpartition(":")
    host = host.strip("[]")
    try:
        ipaddress.ip_address(host)
        number = int(port)
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"--listen: give an address and a port like 127.0.0.1:8780, not {text!r}") from None
    if not 0 < number < 65536:
        raise argparse.ArgumentTypeError(f"--listen: the port {number} is not 1 to 65535")
    return host, number


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--listen", type=listen_at, default=DEFAULT, metavar="HOST:PORT",
                        help="where to serve the page (default 127.0.0.1:8780; 0.0.0.0:8780 "
                             "for a screen on the network)")
    parser.add_argument("--settings", help="the wall's club settings (what add-wall printed, "
                                           "kept by join; default: as join keeps them)")
    parser.add_argument("--season", metavar="NAME", help="this season (default: today's, "
                                                         "else the latest)")
    parser.add_argument("--rater", metavar="FILE", help="the rater's settings (what add-rater "
                        "printed): fold each new game into the ratings as it arrives")


def run(args: argparse.Namespace) -> int:
    from pathlib import Path

    from aiohttp import web

    from companion.cli.files import say
    from companion.club import access
    from ui.web.board.server import BoardServer

    path = Path(args.settings) if args.settings else access.default_path()
    settings = access.load(path)
    rater = access.load(Path(args.rater)) if args.rater else None
    for given, kind in ((settings, "wall"), (rater, "rater")):
        if given is not None and access.kind_of(given) != kind:
            raise access.ClubRefused(f"{'--settings' if kind == 'wall' else '--rater'}: "
                                     f"these are a {access.kind_of(given)}'s settings, not "
                                     f"the {kind}'s (companion club add-{kind})")
    host, port = args.listen
    # the club's own name comes from the club (companion club name); none: "The club"
    server = BoardServer(settings.conninfo, args.season, "", rater.conninfo if rater else None)
    shown = f"[{host}]" if ":" in host else host
    say(f"The wall screen of the club {settings.club!r}: http://{shown}:{port}/ "
        "(Ctrl+C stops it)")
    web.run_app(server.make_app(), host=host, port=port, print=None, access_log=None)
    return 0
