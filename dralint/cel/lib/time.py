"""Timestamps and durations: Go's parsing and printing rules and CEL's accessor functions."""

from __future__ import annotations

import datetime as dt
from typing import Any

from dralint.cel.checker.decls import Environment, Overload, VersionedOption
from dralint.cel.checker.types import DURATION, INT, STRING, TIMESTAMP
from dralint.cel.errors import CelRuntimeError
from dralint.cel.runtime.values import INT64_MAX, Duration, Timestamp, digits_value
from dralint.dataclass import dataclass
from dralint.regex import compiled_on_first_use

__all__ = [
    "RELEASES",
    "duration_to_string",
    "go_atoi",
    "install",
    "parse_duration",
    "parse_timestamp",
    "timestamp_from_seconds",
    "timestamp_to_string",
]

_UNITS = {
    "ns": 1,
    "us": 1_000,
    "µs": 1_000,
    "μs": 1_000,
    "ms": 1_000_000,
    "s": 10**9,
    "m": 60 * 10**9,
    "h": 3600 * 10**9,
}
_duration_part_re = compiled_on_first_use(r"([0-9]*)(?:\.([0-9]*))?([a-zµμ]+)")
_EPOCH = dt.datetime(1970, 1, 1, tzinfo=dt.timezone.utc)
MIN_SECONDS = -62135596800  # 0001-01-01T00:00:00Z
MAX_SECONDS = 253402300799  # 9999-12-31T23:59:59Z
_rfc3339_re = compiled_on_first_use(
    r"(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(?:\.(\d+))?(?:(Z)|([+-])(\d{2}):(\d{2}))"
)


def parse_duration(text: str) -> int | None:
    """Nanoseconds of a Go duration string (``time.ParseDuration``), or None when invalid."""
    if text in ("0", "+0", "-0"):
        return 0
    rest = text
    negative = False
    if rest[:1] in ("+", "-"):
        negative = rest[0] == "-"
        rest = rest[1:]
    if not rest:
        return None
    total = 0
    while rest:
        match = _duration_part_re().match(rest)
        if match is None or (not match.group(1) and not match.group(2)):
            return None
        whole, fraction, unit = match.group(1), match.group(2) or "", match.group(3)
        scale = _UNITS.get(unit)
        if scale is None:
            return None
        value = digits_value(whole or "0") * scale
        if fraction:
            # Go reads the leading digits of a fraction and ignores those past int64 precision.
            fraction = fraction[:19]
            value += int(fraction) * scale // 10 ** len(fraction)
        total += value
        if total > INT64_MAX + (1 if negative else 0):
            return None
        rest = rest[match.end() :]
    return -total if negative else total


def duration_to_string(duration: Duration) -> str:
    """cel-go prints durations as seconds with the shortest decimal fraction and an ``s``."""
    nanos = duration.nanos
    sign = "-" if nanos < 0 else ""
    seconds, remainder = divmod(abs(nanos), 10**9)
    seconds_float = abs(nanos) / 1e9
    text = repr(seconds_float)
    if "e" in text or "inf" in text:
        fraction = f"{remainder:09d}".rstrip("0")
        return f"{sign}{seconds}{'.' + fraction if fraction else ''}s"
    if text.endswith(".0"):
        text = text[:-2]
    return f"{sign}{text}s"


def parse_timestamp(text: str) -> int | None:
    """Nanoseconds since the epoch of an RFC 3339 timestamp (``time.Parse(time.RFC3339, ...)``)."""
    match = _rfc3339_re().fullmatch(text)
    if match is None:
        return None
    year, month, day, hour, minute, second = (int(match.group(i)) for i in range(1, 7))
    if hour > 23 or minute > 59 or second > 59:
        return None
    try:
        moment = dt.datetime(year, month, day, hour, minute, second, tzinfo=dt.timezone.utc)
    except ValueError:
        return None
    offset = 0
    if match.group(9):
        offset_hours, offset_minutes = int(match.group(10)), int(match.group(11))
        if offset_hours > 23 or offset_minutes > 59:
            return None
        offset = (offset_hours * 3600 + offset_minutes * 60) * (1 if match.group(9) == "+" else -1)
    fraction = match.group(7) or ""
    nanos = int((fraction + "000000000")[:9]) if fraction else 0
    seconds = _seconds(moment) - offset
    if seconds < MIN_SECONDS or seconds > MAX_SECONDS:
        raise CelRuntimeError("timestamp overflow")
    return seconds * 10**9 + nanos


def _seconds(moment: dt.datetime) -> int:
    delta = moment - _EPOCH
    return delta.days * 86400 + delta.seconds


def timestamp_from_seconds(seconds: int) -> Timestamp:
    if seconds < MIN_SECONDS or seconds > MAX_SECONDS:
        raise CelRuntimeError("timestamp overflow")
    return Timestamp(seconds * 10**9)


def _to_datetime(timestamp: Timestamp) -> dt.datetime:
    seconds, _ = divmod(timestamp.nanos, 10**9)
    return _EPOCH + dt.timedelta(seconds=seconds)


def timestamp_to_string(timestamp: Timestamp) -> str:
    moment = _to_datetime(timestamp)
    nanos = timestamp.nanos % 10**9
    fraction = f"{nanos:09d}".rstrip("0")
    return moment.strftime("%Y-%m-%dT%H:%M:%S").rjust(19, "0") + (f".{fraction}" if fraction else "") + "Z"


@dataclass(frozen=True, slots=True)
class _Civil:
    """The calendar fields of an instant in some zone (Go's ``Time`` accessors after ``In``)."""

    year: int
    month: int  # 1-12
    day: int  # 1-31
    yday: int  # 0-365
    weekday: int  # 0 = Sunday
    hour: int
    minute: int
    second: int


def _civil(local_seconds: int) -> _Civil:
    """Calendar fields of seconds since 1970-01-01 local time, for any year (Go's zones may
    carry a timestamp of year 9999 past what Python's datetime holds)."""
    days, rest = divmod(local_seconds, 86400)
    # Days to civil date in the proleptic Gregorian calendar, counting eras of 400 years.
    shifted = days + 719468
    era = shifted // 146097
    day_of_era = shifted - era * 146097
    year_of_era = (day_of_era - day_of_era // 1460 + day_of_era // 36524 - day_of_era // 146096) // 365
    day_of_year = day_of_era - (365 * year_of_era + year_of_era // 4 - year_of_era // 100)
    month_index = (5 * day_of_year + 2) // 153
    day = day_of_year - (153 * month_index + 2) // 5 + 1
    month = month_index + 3 if month_index < 10 else month_index - 9
    year = year_of_era + era * 400 + (1 if month <= 2 else 0)
    leap = year % 4 == 0 and (year % 100 != 0 or year % 400 == 0)
    yday = _DAYS_BEFORE_MONTH[month - 1] + day - 1 + (1 if leap and month > 2 else 0)
    return _Civil(year, month, day, yday, (days + 4) % 7, rest // 3600, rest % 3600 // 60, rest % 60)


_DAYS_BEFORE_MONTH = (0, 31, 59, 90, 120, 151, 181, 212, 243, 273, 304, 334)
_GO_INT_MIN, _GO_INT_MAX = -(2**63), 2**63 - 1


def _wrap(value: int) -> int:
    """Go's int64 arithmetic wraps around silently."""
    return (value - _GO_INT_MIN) % 2**64 + _GO_INT_MIN


def go_atoi(text: str) -> int:
    """``strconv.Atoi``, with its error texts."""
    quoted = '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'
    body = text[1:] if text[:1] in ("+", "-") else text
    if not body or not body.isascii() or not body.isdigit():
        raise CelRuntimeError(f"strconv.Atoi: parsing {quoted}: invalid syntax")
    value = digits_value(text)
    if not _GO_INT_MIN <= value <= _GO_INT_MAX:
        raise CelRuntimeError(f"strconv.Atoi: parsing {quoted}: value out of range")
    return value


def _offset(zone: str, seconds: int) -> int:
    """Seconds east of UTC of ``zone`` at ``seconds`` since the epoch (cel-go's ``timeZone``).

    A name is an IANA zone; text with a colon is ``hours:minutes`` read by ``strconv.Atoi``
    without range checks (cel-go v0.27 turns ``+99:99`` into a fixed zone 100h39m east).
    """
    if ":" in zone:
        hours_text, _, minutes_text = zone.partition(":")
        hours, minutes = go_atoi(hours_text), go_atoi(minutes_text)
        offset = _wrap(hours * 60 - minutes) if zone.startswith("-") else _wrap(hours * 60 + minutes)
        nanos = _wrap(offset * 60 * 10**9)  # time.Duration(offset) * time.Minute
        return nanos // 10**9 if nanos >= 0 else -(-nanos // 10**9)  # Duration.Seconds, truncated by int()
    try:
        import zoneinfo

        info = zoneinfo.ZoneInfo(zone)
    except Exception:  # zoneinfo raises several unrelated types for bad names
        raise CelRuntimeError(f"unknown time zone {zone}") from None
    moment = _EPOCH + dt.timedelta(seconds=seconds)
    try:
        delta = moment.astimezone(info).utcoffset()
    except OverflowError:  # the last hours of year 9999 east of UTC: the zone's rule a day earlier
        delta = (moment - dt.timedelta(days=2)).astimezone(info).utcoffset()
    return int(delta.total_seconds()) if delta is not None else 0


def _accessor(getter: Any) -> tuple[Any, Any]:
    def utc(timestamp: Timestamp) -> int:
        seconds = timestamp.nanos // 10**9
        return int(getter(_civil(seconds), timestamp))

    def zoned(timestamp: Timestamp, zone: str) -> int:
        seconds = timestamp.nanos // 10**9
        return int(getter(_civil(seconds + _offset(zone, seconds)), timestamp))

    return utc, zoned


_TIMESTAMP_GETTERS: dict[str, Any] = {
    "getFullYear": lambda d, t: d.year,
    "getMonth": lambda d, t: d.month - 1,
    "getDayOfYear": lambda d, t: d.yday,
    "getDayOfMonth": lambda d, t: d.day - 1,
    "getDate": lambda d, t: d.day,
    "getDayOfWeek": lambda d, t: d.weekday,
    "getHours": lambda d, t: d.hour,
    "getMinutes": lambda d, t: d.minute,
    "getSeconds": lambda d, t: d.second,
    "getMilliseconds": lambda d, t: (t.nanos % 10**9) // 10**6,
}
_DURATION_GETTERS: dict[str, Any] = {
    "getHours": 3600 * 10**9,
    "getMinutes": 60 * 10**9,
    "getSeconds": 10**9,
    "getMilliseconds": 10**6,
}


def _duration_getter(unit: int) -> Any:
    def get(duration: Duration) -> int:
        value = abs(duration.nanos) // unit
        return -value if duration.nanos < 0 else value

    return get


def install(env: Environment) -> None:
    for name, getter in _TIMESTAMP_GETTERS.items():
        utc, zoned = _accessor(getter)
        stem = f"timestamp_to_{name[3:].lower()}"
        overloads = [
            Overload(stem, (TIMESTAMP,), INT, utc, member=True),
            Overload(f"{stem}_with_tz", (TIMESTAMP, STRING), INT, zoned, member=True),
        ]
        if name in _DURATION_GETTERS:
            overloads.append(
                Overload(
                    f"duration_to_{name[3:].lower()}",
                    (DURATION,),
                    INT,
                    _duration_getter(_DURATION_GETTERS[name]),
                    member=True,
                )
            )
        env.add(name, *overloads)


# The release whose base environment introduced these declarations.
RELEASES = (VersionedOption("1.0", install),)
