"""Lists of ToolMaze server URLs, as the clients that spread episodes over servers take
them (OpenEnv for TRL, the verifiers taskset): checked once, up front, so that a typo
fails before a model is loaded rather than at the first rollout on that server."""

from __future__ import annotations

from collections.abc import Sequence
from urllib.parse import urlsplit


def server_urls(given: str | Sequence[str], what: str = "OpenEnv server") -> tuple[str, ...]:
    """``given`` (a list, or one string with commas) as a tuple of http(s) URLs without a
    trailing slash; a bad entry raises ``ValueError`` naming it, ``what`` the servers."""
    items = given.split(",") if isinstance(given, str) else list(given)
    urls = tuple(str(u).strip().rstrip("/") for u in items)
    if not urls or any(not u for u in urls):
        raise ValueError(f"{what} URLs: an empty entry in {given!r}")
    for url in urls:
        parts = urlsplit(url)
        if parts.scheme not in ("http", "https") or not parts.netloc:
            raise ValueError(f"{what} URL {url!r} is not http(s)://host:port")
    if len(set(urls)) != len(urls):
        raise ValueError(f"{what} URLs: {given!r} names a server twice")
    return urls
