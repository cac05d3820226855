"""Two network namespaces of the test's own, joined by a veth pair: the machine that serves the game
night and a phone of its room, two hosts on a two-address network (10.213.x.y/30) that the test
makes and removes, so the game night is served on an address that is not loopback without sending
anything to a real network. The tests run as root (as CI does); where a namespace cannot be made,
the test fails, it is never skipped.

Neither end is in this machine's own namespace, where the rest of the suite runs: Chromium watches
the interfaces and addresses of its namespace and fails every request it has in flight
(net::ERR_NETWORK_CHANGED) when one comes or goes. With the serving end here, another worker's
browser test failed on the table page's requests in the second the game night was set up."""

from __future__ import annotations

import ipaddress
import secrets
import subprocess
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass

import pytest

# 10.213.0.0/16: the blocks of four addresses the tests choose from (one /30 each).
BLOCKS = ipaddress.ip_network("10.213.0.0/16")


@dataclass(frozen=True)
class Namespace:
    name: str  # the phone's namespace, whose end is inner
    server: str  # the serving machine's namespace, whose end is outer
    outer: str  # the serving machine's end of the veth pair
    inner: str  # the phone's end

    def command(self, *argv: str) -> list[str]:
        """argv run on the phone's side (inside the namespace)."""
        return ["ip", "netns", "exec", self.name, *argv]

    def server_command(self, *argv: str) -> list[str]:
        """argv run on the serving machine's side."""
        return ["ip", "netns", "exec", self.server, *argv]


def _ip(*argv: str) -> None:
    try:
        subprocess.run(["ip", *argv], check=True, capture_output=True, text=True, timeout=20)
    except (OSError, subprocess.SubprocessError) as error:
        detail = getattr(error, "stderr", "") or error
        pytest.fail(f"cannot set up the test's network namespace: ip {' '.join(argv)}: {detail}")


def _free_block() -> ipaddress.IPv4Network:
    """A /30 of 10.213.0.0/16 on no interface of this machine."""
    shown = subprocess.run(
        ["ip", "-4", "-o", "addr", "show"], capture_output=True, text=True, timeout=20
    ).stdout
    blocks = list(BLOCKS.subnets(new_prefix=30))
    while True:
        block = blocks[secrets.randbelow(len(blocks))]
        if not any(str(host) in shown for host in block):
            return block


@contextmanager
def veth_namespace(*, default_route: bool = False) -> Iterator[Namespace]:
    """A phone's namespace whose only link is a veth pair to a serving machine's namespace: its end
    inner, the server's outer. With default_route the phone's default route leads to outer
    (nothing there forwards: it only gives the namespace a default route to find an address by)."""
    tag = secrets.token_hex(3)
    name, server = f"tsgn-{tag}", f"tsgs-{tag}"
    outer_link, inner_link = f"tsgo{tag}", f"tsgi{tag}"
    block = _free_block()
    outer, inner = (str(host) for host in block.hosts())
    try:
        _ip("netns", "add", name)
        _ip("netns", "add", server)
        # Made inside the server's namespace (`-n`), so the link never appears in this one.
        _ip("-n", server, "link", "add", outer_link, "type", "veth", "peer", "name", inner_link)
        _ip("-n", server, "link", "set", inner_link, "netns", name)
        _ip("-n", server, "addr", "add", f"{outer}/30", "dev", outer_link)
        _ip("-n", server, "link", "set", outer_link, "up")
        _ip("-n", server, "link", "set", "lo", "up")
        _ip("-n", name, "addr", "add", f"{inner}/30", "dev", inner_link)
        _ip("-n", name, "link", "set", inner_link, "up")
        _ip("-n", name, "link", "set", "lo", "up")
        if default_route:
            _ip("-n", name, "route", "add", "default", "via", outer)
        yield Namespace(name=name, server=server, outer=outer, inner=inner)
    finally:
        # Deleting a namespace deletes its links, and one end of a veth pair deletes both. Both
        # namespaces, whatever failed above.
        subprocess.run(["ip", "netns", "del", name], capture_output=True, timeout=20)
        subprocess.run(["ip", "netns", "del", server], capture_output=True, timeout=20)
