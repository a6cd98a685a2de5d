"""Time-zone rules of the world: the IANA database of the pinned ``tzdata`` package.

A careful agent knows that New York is UTC−04:00 in August, so the world must know
it too, or its correct conversions look like faults. Rules come from the ``tzdata``
wheel pinned in pyproject.toml, read file by file with ``ZoneInfo.from_file``: the
host's /usr/share/zoneinfo (whatever version the machine has) and ``PYTHONTZPATH``
are never consulted, so an instant converts the same way on every machine.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from functools import cache
from importlib import resources
from zoneinfo import ZoneInfo

import tzdata

# The IANA release the pinned wheel carries (tzdata 2026.6 ships 2026f).
TZDATA_VERSION: str = tzdata.IANA_VERSION


class UnknownZone(KeyError):
    """A zone name the pinned database does not hold."""


@cache
def zone(name: str) -> ZoneInfo:
    """The rules of IANA zone ``name``, read from the pinned tzdata package only."""
    if not name or name.startswith(("/", ".")) or ".." in name:
        raise UnknownZone(name)
    path = resources.files("tzdata").joinpath("zoneinfo", *name.split("/"))
    if not path.is_file():
        raise UnknownZone(name)
    with path.open("rb") as fh:
        return ZoneInfo.from_file(fh, key=name)


def offset(name: str, at: datetime) -> timedelta:
    """The UTC offset of zone ``name`` at instant ``at`` (naive means UTC), summer time
    included."""
    instant = at if at.tzinfo is not None else at.replace(tzinfo=UTC)
    return instant.astimezone(zone(name)).utcoffset() or timedelta(0)


def offset_hours(name: str, at: datetime) -> float:
    """``offset`` in hours, as the time tools report it (5.5 for India)."""
    return offset(name, at).total_seconds() / 3600


def standard_offset_hours(name: str, at: datetime) -> float:
    """The zone's standard offset at ``at``, without summer time (WorldTimeAPI's
    ``raw_offset``): the offset in force less its daylight-saving part."""
    local = to_local(name, at)
    return ((local.utcoffset() or timedelta(0)) - (local.dst() or timedelta(0))) \
        .total_seconds() / 3600


def to_local(name: str, at: datetime) -> datetime:
    """Instant ``at`` (naive means UTC) as an aware wall-clock time in zone ``name``."""
    instant = at if at.tzinfo is not None else at.replace(tzinfo=UTC)
    return instant.astimezone(zone(name))


def local_to_utc(name: str, local: datetime) -> datetime:
    """A naive wall-clock time in zone ``name`` as a naive UTC datetime.

    An ambiguous time (the repeated hour in autumn) takes its first occurrence
    (``fold=0``), as schedules do; the world never schedules in the spring gap
    (departures are between 06:00 and 22:00).
    """
    aware = local.replace(tzinfo=zone(name))
    return aware.astimezone(UTC).replace(tzinfo=None)
