"""Where the phones' server may listen: the machine's local-network addresses only, never a
public one, and the join links a phone opens.

Android phones often cannot resolve ``.local`` names, so a link carries the address itself.
The addresses come from ``ip -j addr`` (iproute2, on every Pi and Debian); without it, from
what the standard library can learn (the host name's addresses and the route a datagram would
take), which finds the usual one address of a small machine.
"""

from __future__ import annotations

import ipaddress
import json
import shutil
import socket
import subprocess
from typing import Iterable

#: The ranges a table's own network uses: private (RFC 1918), link-local, the IPv6 unique
#: local range (ULA) and loopback. Nothing else is ever listened on.
LOCAL_NETWORKS = tuple(ipaddress.ip_network(n) for n in (
    "10.0.0.0/8", "172.16.0.0/12", "192.168.0.0/16", "169.254.0.0/16", "127.0.0.0/8",
    "fc00::/7", "fe80::/10", "::1/128"))


def is_local(address: str) -> bool:
    """Whether ``address`` (a zone such as ``%eth0`` aside) lies in one of LOCAL_NETWORKS."""
    try:
        ip = ipaddress.ip_address(address.split("%", 1)[0])
    except ValueError:
        return False
    return any(ip.version == net.version and ip in net for net in LOCAL_NETWORKS)


def parse_ip_json(text: str) -> list[str]:
    """The addresses in ``ip -j addr`` output, IPv6 link-local ones with their interface as
    zone (``fe80::1%eth0``: a bind needs it); tentative or deprecated ones left out."""
    try:
        links = json.loads(text)
    except ValueError:
        return []
    out: list[str] = []
    for link in links if isinstance(links, list) else []:
        for info in link.get("addr_info", []) if isinstance(link, dict) else []:
            local = info.get("local") if isinstance(info, dict) else None
            if not isinstance(local, str) or info.get("tentative") or info.get("deprecated"):
                continue
            if info.get("family") == "inet6" and local.lower().startswith("fe80"):
                local = f"{local}%{link.get('ifname', '')}"
            out.append(local)
    return out


def _from_ip_command() -> list[str] | None:
    ip = shutil.which("ip")
    if ip is None:
        return None
    try:
        done = subprocess.run([ip, "-j", "addr", "show", "up"], capture_output=True, text=True,
                              timeout=5, check=True)
    except (OSError, subprocess.SubprocessError):
        return None
    return parse_ip_json(done.stdout)


def _from_sockets() -> list[str]:
    found = ["127.0.0.1"]
    try:
        found += [info[4][0] for info in socket.getaddrinfo(socket.gethostname(), None)]
    except OSError:
        pass
    probe = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    try:                                    # no packet is sent: only the route is looked up
        probe.connect(("192.168.255.255", 9))
        found.append(probe.getsockname()[0])
    except OSError:
        pass
    finally:
        probe.close()
    return found


def local_addresses(found: Iterable[str] | None = None) -> list[str]:
    """The machine's addresses a phone at the table can reach, without repeats: private IPv4
    first, then IPv6 unique local, link-local, loopback last (``found``: for tests)."""
    if found is None:
        found = _from_ip_command() or _from_sockets()
    seen: list[str] = []
    for address in found:
        if is_local(address) and address not in seen:
            seen.append(address)
    return sorted(seen, key=_rank)


def _rank(address: str) -> int:
    ip = ipaddress.ip_address(address.split("%", 1)[0])
    if ip.is_loopback:
        return 4
    if ip.is_link_local:
        return 2 if ip.version == 4 else 3
    return 0 if ip.version == 4 else 1


def join_links(addresses: Iterable[str], port: int, token: str) -> list[str]:
    """``http://ADDRESS:PORT/t/TOKEN`` for each address a browser can open (an IPv6
    link-local one needs its zone, which browsers refuse: it is listened on, not linked)."""
    links = []
    for address in addresses:
        if "%" in address:
            continue
        host = f"[{address}]" if ":" in address else address
        links.append(f"http://{host}:{port}/t/{token}")
    return links
