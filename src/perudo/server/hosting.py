"""What ``perudo serve`` prints so that friends can join: the addresses they can open and a QR
code of the lobby (docs/hosting.md).

Bound to a wildcard address (``perudo serve --public`` binds ``0.0.0.0``), the server is
reachable on every address of the machine's network interfaces; :func:`interface_addresses`
lists those that are up (``psutil``), loopback and link-local ones left out since no friend
can use them. The first becomes the public URL that invite links are built on unless
``PERUDO_PUBLIC_URL`` says otherwise (:func:`public_settings`).

>>> lobby_urls("127.0.0.1", 8000, ["192.168.1.20"])
['http://127.0.0.1:8000']
>>> lobby_urls("0.0.0.0", 8000, ["192.168.1.20", "fd00::2"])
['http://192.168.1.20:8000']
>>> lobby_urls("::", 80, ["192.168.1.20", "fd00::2"])
['http://192.168.1.20', 'http://[fd00::2]']
"""

from __future__ import annotations

import functools
import io
import ipaddress
import socket

from .settings import Settings

__all__ = [
    "PUBLIC_HOST",
    "banner",
    "interface_addresses",
    "invite_svg",
    "lobby_urls",
    "public_settings",
    "qr_svg",
    "qr_text",
]

PUBLIC_HOST = "0.0.0.0"
"""Where ``perudo serve --public`` listens: every IPv4 address of the machine."""

_WILDCARDS = {"0.0.0.0": (4,), "": (4, 6), "::": (4, 6)}


def interface_addresses() -> list[str]:
    """The machine's addresses that another machine could reach: those of the interfaces that
    are up, IPv4 before IPv6, without loopback and link-local addresses."""
    import psutil

    stats = psutil.net_if_stats()
    found: list[ipaddress.IPv4Address | ipaddress.IPv6Address] = []
    for name, addrs in psutil.net_if_addrs().items():
        if name in stats and not stats[name].isup:
            continue
        for a in addrs:
            if a.family not in (socket.AF_INET, socket.AF_INET6):
                continue
            try:
                ip = ipaddress.ip_address(a.address.split("%", 1)[0])
            except ValueError:
                continue
            if not (ip.is_loopback or ip.is_link_local or ip.is_unspecified or ip in found):
                found.append(ip)
    found.sort(key=lambda ip: ip.version)
    return [str(ip) for ip in found]


def _is_loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def _url(host: str, port: int) -> str:
    name = f"[{host}]" if ":" in host else host
    return f"http://{name}" if port == 80 else f"http://{name}:{port}"


def lobby_urls(host: str, port: int, addresses: list[str]) -> list[str]:
    """The lobby's addresses for a server listening on ``host``: each of ``addresses`` of the
    families a wildcard ``host`` covers, or ``host`` itself."""
    families = _WILDCARDS.get(host)
    if families is None:
        return [_url(host, port)]
    return [_url(a, port) for a in addresses if ipaddress.ip_address(a).version in families]


def public_settings(settings: Settings, addresses: list[str]) -> Settings:
    """``settings`` with :attr:`Settings.public_url` on the first reachable address when the
    server listens on a wildcard address and no public URL was set (so invite links work
    from another machine even when the host opened ``127.0.0.1``)."""
    if settings.public_url is not None:
        return settings
    urls = lobby_urls(settings.host, settings.port, addresses)
    if settings.host not in _WILDCARDS or not urls:
        return settings
    return settings.model_copy(update={"public_url": urls[0]})


def qr_text(url: str) -> str:
    """A QR code of ``url`` drawn with block characters (two rows of modules a line)."""
    import segno

    out = io.StringIO()
    segno.make(url, error="l").terminal(out=out, compact=True)
    return out.getvalue()


def qr_svg(url: str) -> str:
    """A QR code of ``url`` as SVG markup (black on white, a quiet zone of two modules), for
    the page to show without a QR library of its own: inline in the page, and as a file of its
    own (``invite.svg``, an ``<img>``), which a browser draws only with the SVG namespace."""
    import io

    import segno

    out = io.BytesIO()
    segno.make(url, error="m").save(
        out,
        kind="svg",
        xmldecl=False,
        svgns=True,
        nl=False,
        scale=4,
        border=2,
        dark="#000",
        light="#fff",
        title=url,
    )
    return out.getvalue().decode()


@functools.lru_cache(maxsize=256)
def invite_svg(url: str) -> str:
    """:func:`qr_svg` of a table's invite link, drawn once per link (the last 256 kept): a
    page reloaded or a link shared around costs no new drawing. Never for a link holding a
    secret (a seat transfer's): those are drawn each time and kept nowhere."""
    return qr_svg(url)


def banner(settings: Settings, addresses: list[str]) -> str:
    """What ``perudo serve`` prints on start: where to open the app, on this machine and from
    others, and a QR code of the lobby on the public URL (when there is one)."""
    local = _url("127.0.0.1" if settings.host in _WILDCARDS else settings.host, settings.port)
    lines = [f"Perudo is at {local}  (database: {settings.database_url})"]
    urls = lobby_urls(settings.host, settings.port, addresses)
    if _is_loopback(settings.host):
        lines.append("Only this machine can reach it: `perudo serve --public` lets friends in.")
    elif urls:
        lines.append("Friends on your network can open:")
        lines.extend(f"  {u}" for u in urls)
    else:
        lines.append("No network address found: only this machine can reach the server.")
    if settings.public_url is not None:
        lines.append(f"Invite links start with {settings.public_url}. Scan to open the lobby:")
        lines.append(qr_text(settings.public_url + "/").rstrip("\n"))
    lines.append("Friends elsewhere on the internet: docs/hosting.md (a reverse proxy with HTTPS).")
    lines.append("Open it in a browser; Ctrl+C stops the server.")
    return "\n".join(lines)
