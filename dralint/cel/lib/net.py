"""Kubernetes' URL, IP and CIDR libraries, with Go's ``net/url`` and ``net/netip`` parsing rules."""

from __future__ import annotations

import ipaddress
import re
from typing import Any
from urllib.parse import quote, unquote_plus

from dralint.cel.checker.decls import Environment, Overload, VersionedOption
from dralint.cel.checker.types import BOOL, INT, STRING, list_of, map_of, object_type
from dralint.cel.errors import CelRuntimeError
from dralint.cel.pricing import Pricing
from dralint.cel.runtime import semantics as runtime
from dralint.dataclass import dataclass
from dralint.regex import compiled_on_first_use

__all__ = ["CIDR", "IP", "RELEASES", "URL", "URLError", "install_ip_cidr", "install_urls", "parse_request_uri"]

URL_TYPE = object_type("kubernetes.URL")
IP_TYPE = object_type("net.IP")
CIDR_TYPE = object_type("net.CIDR")
_scheme_re = compiled_on_first_use(r"[A-Za-z][A-Za-z0-9+.\-]*")


@dataclass(frozen=True, slots=True)
class URL:
    scheme: str
    host: str
    path: str
    raw_query: str
    opaque: str = ""

    def hostname(self) -> str:
        host = self.host
        if host.startswith("["):
            return host[1 : host.find("]")] if "]" in host else host[1:]
        return host.rpartition(":")[0] if ":" in host else host

    def port(self) -> str:
        host = self.host
        colon = host.rfind(":")
        if colon < 0 or "]" in host[colon:]:
            return ""
        port = host[colon + 1 :]
        return port if port.isdigit() else ""


class URLError(ValueError):
    pass


def parse_request_uri(raw: str) -> URL:
    """Go's ``url.ParseRequestURI`` (absolute URI or absolute path; no fragment split)."""

    def fail(reason: str) -> URLError:
        return URLError(f'parse "{raw}": {reason}')

    if any(ord(c) < 0x20 or ord(c) == 0x7F for c in raw):
        raise URLError(f'parse "{raw}": net/url: invalid control character in URL')
    if raw == "":
        raise fail("empty url")
    scheme = ""
    rest = raw
    match = _scheme_re().match(raw)
    if match is not None and raw[match.end() : match.end() + 1] == ":":
        scheme, rest = match.group(0).lower(), raw[match.end() + 1 :]
    elif raw[:1] == ":":
        raise fail("missing protocol scheme")
    raw_query = ""
    if rest.endswith("?") and rest.count("?") == 1:
        rest = rest[:-1]
    else:
        rest, _, raw_query = rest.partition("?")
    if not rest.startswith("/"):
        if scheme:
            return URL(scheme, "", "", raw_query, opaque=rest)
        raise fail("invalid URI for request")
    host = ""
    if scheme and rest.startswith("//"):
        authority, slash, path_rest = rest[2:].partition("/")
        rest = slash + path_rest
        host = authority.rpartition("@")[2]
        if host.startswith("["):
            if "]" not in host:
                raise fail("missing ']' in host")
        elif ":" in host:
            port = host.rpartition(":")[2]
            if port and not port.isdigit():
                raise fail(f'invalid port ":{port}" after host')
    if re.search(r"%(?![0-9A-Fa-f]{2})", rest):
        bad = rest[rest.find("%") : rest.find("%") + 3]
        raise fail(f'invalid URL escape "{bad}"')
    return URL(scheme, host, _unescape_path(rest), raw_query)


def _unescape_path(path: str) -> str:
    from urllib.parse import unquote

    return unquote(path)


def _escaped_path(url: URL) -> str:
    return quote(url.path, safe="/$&+,:;=@!*'()~-_.")


def _query(url: URL) -> dict[str, list[str]]:
    out: dict[str, list[str]] = {}
    for part in url.raw_query.split("&"):
        if not part or ";" in part:
            continue
        key, _, value = part.partition("=")
        try:
            out.setdefault(unquote_plus(key, errors="strict"), []).append(unquote_plus(value, errors="strict"))
        except UnicodeDecodeError:
            continue
    return out


def _url(text: str) -> URL:
    try:
        return parse_request_uri(text)
    except URLError as error:
        raise CelRuntimeError(f"URL parse error during conversion from string: {error}") from None


def _is_url(text: str) -> bool:
    try:
        parse_request_uri(text)
    except URLError:
        return False
    return True


@dataclass(frozen=True, slots=True)
class IP:
    address: ipaddress.IPv4Address | ipaddress.IPv6Address


@dataclass(frozen=True, slots=True)
class CIDR:
    address: ipaddress.IPv4Address | ipaddress.IPv6Address
    bits: int

    def network(self) -> ipaddress.IPv4Network | ipaddress.IPv6Network:
        return ipaddress.ip_network(f"{self.address}/{self.bits}", strict=False)


for _cls, _name, _go_type in (
    (URL, "kubernetes.URL", "cel.URL"),
    (IP, "net.IP", "cel.IP"),
    (CIDR, "net.CIDR", "cel.CIDR"),
):
    runtime.TYPE_NAMES[_cls] = _name
    runtime.GO_TYPES[_cls] = _go_type
    runtime.STRICT_EQUAL[_cls] = _cls


def _parse_addr(text: str) -> ipaddress.IPv4Address | ipaddress.IPv6Address:
    if "%" in text:
        raise ValueError(f'IP address "{text}" with zone value is not allowed')
    try:
        address = ipaddress.ip_address(text)
    except ValueError:
        raise ValueError(f'ParseAddr("{text}"): unable to parse IP') from None
    if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped is not None:
        raise ValueError(f'IPv4-mapped IPv6 address "{text}" is not allowed')
    return address


def _ip(text: str) -> IP:
    try:
        return IP(_parse_addr(text))
    except ValueError as error:
        message = str(error)
        if message.startswith("ParseAddr"):
            message = f'IP Address "{text}" parse error during conversion from string: {message}'
        raise CelRuntimeError(message) from None


def _is_ip(text: str) -> bool:
    try:
        _parse_addr(text)
    except ValueError:
        return False
    return True


def _parse_prefix(text: str) -> CIDR:
    address_text, slash, bits_text = text.partition("/")
    if not slash:
        raise ValueError(f"netip.ParsePrefix(\"{text}\"): no '/'")
    address = _parse_addr(address_text)
    if not bits_text.isdigit() or (len(bits_text) > 1 and bits_text[0] == "0"):
        raise ValueError(f'netip.ParsePrefix("{text}"): bad bits after slash: "{bits_text}"')
    bits = int(bits_text)
    if bits > address.max_prefixlen:
        raise ValueError(f'netip.ParsePrefix("{text}"): prefix length out of range')
    return CIDR(address, bits)


def _cidr(text: str) -> CIDR:
    try:
        return _parse_prefix(text)
    except ValueError as error:
        inner = f"network address parse error during conversion from string: {error}"
        raise CelRuntimeError(f"network address parse error during conversion from string: {inner}") from None


def _is_cidr(text: str) -> bool:
    try:
        _parse_prefix(text)
    except ValueError:
        return False
    return True


def _contains_ip(cidr: CIDR, other: Any) -> bool:
    if isinstance(other, str):
        try:
            other = IP(_parse_addr(other))
        except ValueError:
            runtime.no_such_overload()
    return other.address.version == cidr.address.version and other.address in cidr.network()


def _contains_cidr(cidr: CIDR, other: Any) -> bool:
    if isinstance(other, str):
        try:
            other = _parse_prefix(other)
        except ValueError:
            runtime.no_such_overload()
    if other.address.version != cidr.address.version or other.bits < cidr.bits:
        return False
    return other.address in cidr.network()


def _is_global_unicast(ip: IP) -> bool:
    a = ip.address
    if a.is_unspecified or a.is_loopback or a.is_multicast or _link_local_unicast(ip):
        return False
    return not (a.version == 4 and int(a) == 0xFFFFFFFF)


def _link_local_unicast(ip: IP) -> bool:
    a = ip.address
    if a.version == 4:
        return a in ipaddress.ip_network("169.254.0.0/16")
    return a in ipaddress.ip_network("fe80::/10")


def _link_local_multicast(ip: IP) -> bool:
    a = ip.address
    if a.version == 4:
        return a in ipaddress.ip_network("224.0.0.0/24")
    return (int(a) >> 112) & 0xFF0F == 0xFF02


def _is_canonical(text: str) -> bool:
    try:
        address = _parse_addr(text)
    except ValueError as error:
        raise CelRuntimeError(f'IP Address "{text}" parse error during conversion from string: {error}') from None
    return str(address) == text


def install_urls(env: Environment) -> None:
    """The URL library (present since Kubernetes 1.0 of CEL)."""
    u = URL_TYPE
    env.add("url", Overload("string_to_url", (STRING,), u, _url), pricing=Pricing.URL)
    env.add("isURL", Overload("is_url_string", (STRING,), BOOL, _is_url))
    for name, getter in (
        ("getScheme", lambda x: x.scheme),
        ("getHost", lambda x: x.host),
        ("getHostname", URL.hostname),
        ("getPort", URL.port),
        ("getEscapedPath", _escaped_path),
    ):
        env.add(name, Overload(f"url_{name[3:].lower()}", (u,), STRING, getter, member=True), pricing=Pricing.UNIT)
    env.add(
        "getQuery",
        Overload("url_query", (u,), map_of(STRING, list_of(STRING)), _query, member=True),
        pricing=Pricing.UNIT,
    )


def install_ip_cidr(env: Environment) -> None:
    """The IP and CIDR libraries (Kubernetes 1.30)."""
    i, c = IP_TYPE, CIDR_TYPE
    env.add(
        "ip",
        Overload("string_to_ip", (STRING,), i, _ip),
        Overload("cidr_ip", (c,), i, lambda x: IP(x.address), member=True),
        pricing=Pricing.IP,
    )
    env.add("isIP", Overload("is_ip", (STRING,), BOOL, _is_ip), pricing=Pricing.PARSE)
    env.add("ip.isCanonical", Overload("ip_is_canonical", (STRING,), BOOL, _is_canonical), pricing=Pricing.IP_CANONICAL)
    env.add("family", Overload("ip_family", (i,), INT, lambda x: x.address.version, member=True), pricing=Pricing.UNIT)
    for name, test in (
        ("isUnspecified", lambda x: x.address.is_unspecified),
        ("isLoopback", lambda x: x.address.is_loopback),
        ("isLinkLocalMulticast", _link_local_multicast),
        ("isLinkLocalUnicast", _link_local_unicast),
        ("isGlobalUnicast", _is_global_unicast),
    ):
        env.add(name, Overload(f"ip_{name.lower()}", (i,), BOOL, test, member=True), pricing=Pricing.UNIT)
    env.add("cidr", Overload("string_to_cidr", (STRING,), c, _cidr), pricing=Pricing.PARSE)
    env.add("isCIDR", Overload("is_cidr", (STRING,), BOOL, _is_cidr), pricing=Pricing.PARSE)
    env.add(
        "containsIP",
        Overload("cidr_contains_ip_string", (c, STRING), BOOL, _contains_ip, member=True),
        Overload("cidr_contains_ip_ip", (c, i), BOOL, _contains_ip, member=True),
        pricing=Pricing.CONTAINS_IP,
    )
    env.add(
        "containsCIDR",
        Overload("cidr_contains_cidr_string", (c, STRING), BOOL, _contains_cidr, member=True),
        Overload("cidr_contains_cidr", (c, c), BOOL, _contains_cidr, member=True),
        pricing=Pricing.CONTAINS_CIDR,
    )
    env.add(
        "masked",
        Overload("cidr_masked", (c,), c, lambda x: CIDR(x.network().network_address, x.bits), member=True),
        pricing=Pricing.UNIT,
    )
    env.add(
        "prefixLength", Overload("cidr_prefix_length", (c,), INT, lambda x: x.bits, member=True), pricing=Pricing.UNIT
    )


# The releases whose base environment introduced these declarations.
RELEASES = (VersionedOption("1.0", install_urls), VersionedOption("1.30", install_ip_cidr))
