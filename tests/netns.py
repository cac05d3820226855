"""A network namespace of the test's own, joined to this machine by a veth pair: a second host on a
two-address network (10.213.x.y/30) that the test makes and removes, so the game night is served
on an address that is not loopback without sending anything to a real network. The tests run as
root (as CI does); where a namespace cannot be made, the test fails, it is never skipped."""

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
    name: str
    outer: str  # this machine's end of the veth pair (the root namespace)
    inner: str  # the namespace's end

    def command(self, *argv: str) -> list[str]:
        """argv run inside the namespace."""
        return ["ip", "netns", "exec", self.name, *argv]


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
    """A namespace whose only link is a veth pair to this one: its end inner, ours outer. With
    default_route its default route leads to outer (nothing there forwards: it only gives the
    namespace a default route to find an address by)."""
    tag = secrets.token_hex(3)
    name, outer_link, inner_link = f"tsgn-{tag}", f"tsgo{tag}", f"tsgi{tag}"
    block = _free_block()
    outer, inner = (str(host) for host in block.hosts())
    try:
        _ip("netns", "add", name)
        _ip("link", "add", outer_link, "type", "veth", "peer", "name", inner_link, "netns", name)
        _ip("addr", "add", f"{outer}/30", "dev", outer_link)
        _ip("link", "set", outer_link, "up")
        _ip("-n", name, "addr", "add", f"{inner}/30", "dev", inner_link)
        _ip("-n", name, "link", "set", inner_link, "up")
        _ip("-n", name, "link", "set", "lo", "up")
        if default_route:
            _ip("-n", name, "route", "add", "default", "via", outer)
        yield Namespace(name=name, outer=outer, inner=inner)
    finally:
        # Deleting one end deletes the pair; then the namespace. Both, whatever failed above.
        subprocess.run(["ip", "link", "del", outer_link], capture_output=True, timeout=20)
        subprocess.run(["ip", "netns", "del", name], capture_output=True, timeout=20)
