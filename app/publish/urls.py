"""Channel URLs: their shape, and the guard that keeps them off private networks.

A director types a channel's URL; the service then makes requests to it. Left unchecked that
is a way to make the service call things only it can reach (its database, a cloud metadata
endpoint, a router's admin page). So a URL whose host is, or resolves to, a private,
loopback, link-local or otherwise non-global address is refused — checked when the channel
is created (the literal host, then every address DNS gives) and again before each request
(a name may resolve differently later). ``PUBLISH_ALLOW_PRIVATE_URLS=true`` lifts the guard
for tests and for a forum on the director's own LAN.
"""

from __future__ import annotations

import ipaddress
import socket
from collections.abc import Callable
from typing import Annotated
from urllib.parse import urlsplit

from pydantic import AfterValidator, Field

from app.errors import AppError
from app.rules.types import refused_character

MAX_URL_LENGTH = 2000

IPAddress = ipaddress.IPv4Address | ipaddress.IPv6Address


def check_url_shape(value: str) -> str:
    if refused_character(value) is not None or any(c.isspace() for c in value):
        raise ValueError("must not contain spaces or control characters")
    parts = urlsplit(value)
    if parts.scheme not in ("http", "https"):
        raise ValueError("must be an http:// or https:// URL")
    if not parts.hostname:
        raise ValueError("must name a host")
    if parts.username is not None or parts.password is not None:
        raise ValueError("must not carry a user name or password")
    if parts.fragment:
        raise ValueError("must not have a #fragment")
    try:
        parts.port  # noqa: B018 - raises on a bad port
    except ValueError as error:
        raise ValueError("has an invalid port") from error
    return value


def is_web_link(value: str) -> bool:
    """A link a platform reported back (a post's page): http(s), a host, nothing hidden."""
    if len(value) > MAX_URL_LENGTH or refused_character(value) is not None:
        return False
    if any(c.isspace() for c in value):
        return False
    parts = urlsplit(value)
    return parts.scheme in ("http", "https") and bool(parts.hostname)


# An http(s) URL a director gave for a channel (its address is checked separately).
ChannelUrl = Annotated[
    str, Field(min_length=1, max_length=MAX_URL_LENGTH), AfterValidator(check_url_shape)
]


def base_url(value: str) -> str:
    """A forum's base URL without the trailing slash, so paths can be appended."""
    return value.rstrip("/")


# IANA's special-purpose address registries (IPv4 and IPv6, as of 2025), every entry —
# the "globally reachable" ones too (AS112, PCP/TURN anycast, NAT64): none is a forum.
# Python's ``is_global`` is not enough: it calls 192.0.0.8 and ::127.0.0.1 (an
# IPv4-compatible loopback), 64:ff9b::7f00:1 (NAT64) and 2002:7f00:1:: (6to4) global.
_SPECIAL_V4 = tuple(
    ipaddress.IPv4Network(network)
    for network in (
        "0.0.0.0/8",  # "this network"
        "10.0.0.0/8",  # private
        "100.64.0.0/10",  # shared (carrier-grade NAT)
        "127.0.0.0/8",  # loopback
        "169.254.0.0/16",  # link-local (cloud metadata)
        "172.16.0.0/12",  # private
        "192.0.0.0/24",  # IETF protocol assignments (192.0.0.8, DS-Lite, PCP, TURN...)
        "192.0.2.0/24",  # documentation
        "192.31.196.0/24",  # AS112
        "192.52.193.0/24",  # AMT
        "192.88.99.0/24",  # 6to4 relay anycast (deprecated)
        "192.168.0.0/16",  # private
        "192.175.48.0/24",  # AS112 direct delegation
        "198.18.0.0/15",  # benchmarking
        "198.51.100.0/24",  # documentation
        "203.0.113.0/24",  # documentation
        "224.0.0.0/4",  # multicast
        "240.0.0.0/4",  # reserved, and 255.255.255.255 broadcast
    )
)
_SPECIAL_V6 = tuple(
    ipaddress.IPv6Network(network)
    for network in (
        "::/96",  # unspecified, loopback, IPv4-compatible (deprecated)
        "::ffff:0:0/96",  # IPv4-mapped
        "::ffff:0:0:0/96",  # IPv4-translated
        "64:ff9b::/96",  # NAT64 well-known prefix
        "64:ff9b:1::/48",  # NAT64 local use
        "100::/64",  # discard-only
        "100:0:0:1::/64",  # dummy prefix
        "2001::/23",  # IETF protocol assignments (Teredo, benchmarking, ORCHID, AMT...)
        "2001:db8::/32",  # documentation
        "2002::/16",  # 6to4
        "2620:4f:8000::/48",  # AS112 direct delegation
        "3fff::/20",  # documentation
        "5f00::/16",  # SRv6 SIDs
        "fc00::/7",  # unique local
        "fe80::/10",  # link-local
        "fec0::/10",  # site-local (deprecated)
        "ff00::/8",  # multicast
    )
)
_GLOBAL_UNICAST_V6 = ipaddress.IPv6Network("2000::/3")  # everything else is not handed out
_NAT64 = (ipaddress.IPv6Network("64:ff9b::/96"), ipaddress.IPv6Network("64:ff9b:1::/48"))
_IPV4_COMPATIBLE = ipaddress.IPv6Network("::/96")


def embedded_ipv4(address: ipaddress.IPv6Address) -> list[ipaddress.IPv4Address]:
    """The IPv4 addresses an IPv6 address carries in one of the standard ways: mapped
    (::ffff:a.b.c.d), compatible (::a.b.c.d), NAT64 (64:ff9b::a.b.c.d), 6to4
    (2002:AABB:CCDD::), Teredo (server and client), ISATAP (…:5efe:a.b.c.d)."""
    found: list[ipaddress.IPv4Address] = []
    value = int(address)
    low32 = ipaddress.IPv4Address(value & 0xFFFFFFFF)
    if address.ipv4_mapped is not None:
        found.append(address.ipv4_mapped)
    if address in _IPV4_COMPATIBLE or any(address in prefix for prefix in _NAT64):
        found.append(low32)
    if address.sixtofour is not None:
        found.append(address.sixtofour)
    if address.teredo is not None:
        found.extend(address.teredo)
    if (value >> 32) & 0xFDFFFFFF == 0x00005EFE:  # ISATAP interface id, u/l bit either way
        found.append(low32)
    return found


def is_private(address: IPAddress) -> bool:
    """True for every address that is not a public unicast one: any special-purpose range
    of either family, IPv6 outside global unicast, and any IPv6 address that embeds an
    IPv4 address refused here (issue 16 item 33)."""
    if isinstance(address, ipaddress.IPv4Address):
        if any(address in network for network in _SPECIAL_V4):
            return True
        return not address.is_global or address.is_multicast
    if any(is_private(inner) for inner in embedded_ipv4(address)):
        return True
    if address not in _GLOBAL_UNICAST_V6 or any(address in n for n in _SPECIAL_V6):
        return True
    return not address.is_global or address.is_multicast


def _literal(host: str) -> IPAddress | None:
    try:
        return ipaddress.ip_address(host.strip("[]"))
    except ValueError:
        return None


def _port(url: str) -> int:
    parts = urlsplit(url)
    return parts.port or (443 if parts.scheme == "https" else 80)


def resolve_host(host: str, port: int) -> list[str]:
    """Every address ``host`` resolves to (tests replace this: there is no DNS in CI)."""
    infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    return [str(info[4][0]) for info in infos]


class UnresolvableHost(Exception):
    pass


class PrivateAddress(Exception):
    def __init__(self, host: str, address: str) -> None:
        super().__init__(f"{host} -> {address}")
        self.host = host
        self.address = address


def check_host(host: str, port: int, resolve: Callable[[str, int], list[str]]) -> None:
    """Raise PrivateAddress / UnresolvableHost unless every address of ``host`` is public."""
    literal = _literal(host)
    if literal is not None:
        if is_private(literal):
            raise PrivateAddress(host, str(literal))
        return
    try:
        addresses = resolve(host, port)
    except (OSError, UnicodeError) as error:
        raise UnresolvableHost(host) from error
    if not addresses:
        raise UnresolvableHost(host)
    for text in addresses:
        # getaddrinfo may give "fe80::1%eth0": the zone is not part of the address
        address = _literal(text.split("%", 1)[0])
        if address is None or is_private(address):
            raise PrivateAddress(host, text)


def check_channel_url(field: str, url: str) -> None:
    """Raise a 422 problem (Chinese first) unless ``url`` points at a public address."""
    host = urlsplit(url).hostname or ""
    try:
        check_host(host, _port(url), resolve_host)
    except PrivateAddress as error:
        raise AppError(
            422,
            "private_url",
            f"频道地址 {field} 指向内网、本机或保留地址（{error.host} → {error.address}），已拒绝。"
            "如确需连接局域网内的论坛，请在服务设置中开启 PUBLISH_ALLOW_PRIVATE_URLS=true。",
            f"The channel URL {field} points to a private, loopback or reserved address "
            f"({error.host} -> {error.address}) and was refused. To reach a forum on your "
            "own network, set PUBLISH_ALLOW_PRIVATE_URLS=true on the service.",
            extra={"field": field},
        ) from error
    except UnresolvableHost as error:
        raise AppError(
            422,
            "unresolvable_url",
            f"无法解析频道地址 {field} 的主机名 {host}，请检查拼写。",
            f"The host {host} of the channel URL {field} does not resolve; check its spelling.",
            extra={"field": field},
        ) from error
