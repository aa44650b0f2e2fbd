"""Where the phones' server listens: local-network addresses only, and links with the address."""

from __future__ import annotations

import json

import pytest

from ui.web.addresses import is_local, join_links, local_addresses, parse_ip_json

IP_JSON = json.dumps([
    {"ifname": "lo", "addr_info": [{"family": "inet", "local": "127.0.0.1"},
                                   {"family": "inet6", "local": "::1"}]},
    {"ifname": "wlan0", "addr_info": [
        {"family": "inet", "local": "192.168.1.23"},
        {"family": "inet", "local": "81.2.69.160"},
        {"family": "inet6", "local": "2a00:1450:4001:82b::200e"},
        {"family": "inet6", "local": "fd12:3456:789a::5"},
        {"family": "inet6", "local": "fd12:3456:789a::6", "tentative": True},
        {"family": "inet6", "local": "fe80::1234"}]},
])


@pytest.mark.parametrize("address", ["10.1.2.3", "172.16.0.1", "172.31.255.254", "192.168.0.9",
                                     "169.254.10.20", "127.0.0.1", "::1", "fd00::2",
                                     "fe80::1%eth0"])
def test_local_ranges_are_local(address):
    assert is_local(address)


@pytest.mark.parametrize("address", ["8.8.8.8", "172.32.0.1", "100.64.0.1", "81.2.69.160",
                                     "2a00:1450:4001:82b::200e", "0.0.0.0", "::", "224.0.0.1",
                                     "ff02::1", "pi.local", "", "192.168.1.300"])
def test_public_and_other_addresses_are_not(address):
    assert not is_local(address)


def test_ip_json_is_read_and_public_addresses_left_out():
    found = parse_ip_json(IP_JSON)
    assert "fe80::1234%wlan0" in found and "fd12:3456:789a::6" not in found
    assert local_addresses(found) == ["192.168.1.23", "fd12:3456:789a::5", "fe80::1234%wlan0",
                                      "127.0.0.1", "::1"]
    assert parse_ip_json("not json") == [] and parse_ip_json('{"a": 1}') == []


def test_this_machine_lists_only_local_addresses():
    found = local_addresses()
    assert found and all(is_local(a) for a in found)


def test_join_links_carry_the_address_never_a_name():
    links = join_links(["192.168.1.23", "fd12::5", "fe80::1%wlan0", "127.0.0.1"], 8765, "ab12")
    assert links == ["http://192.168.1.23:8765/t/ab12", "http://[fd12::5]:8765/t/ab12",
                     "http://127.0.0.1:8765/t/ab12"]
