"""Whether an address keeps a server on this machine, and the warning a command prints when it does not.

The local servers (``kokoro-stream serve``, ``proxy``, ``playground``) listen on loopback by default:
what they offer (speech, and for the proxy and playground, calls signed with the user's AWS
credentials) is for this machine's own programs.
"""

from __future__ import annotations

import ipaddress

LOOPBACK_NAMES = frozenset({"localhost", "localhost.localdomain", "ip6-localhost"})


def is_loopback(host: str) -> bool:
    """Whether ``host`` (a name or an address, IPv6 with or without brackets) is this machine's loopback."""
    name = host.strip("[]").lower()
    if name in LOOPBACK_NAMES:
        return True
    try:
        return ipaddress.ip_address(name).is_loopback
    except ValueError:
        return False


def exposure_warning(host: str, what: str) -> str | None:
    """A warning when listening on ``host`` lets other machines use ``what``; None on loopback."""
    if is_loopback(host):
        return None
    return (
        f"warning: listening on {host}, beyond this machine: anyone who can reach this port can use {what}. "
        "Bind to 127.0.0.1 (the default) unless other machines must reach it, and only on a network you trust."
    )
