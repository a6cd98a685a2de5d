"""Whether a free-text argument mentions a value: content, not wording.

Subjects, bodies, messages and notes are graded on what they say. A text
mentions a value when the value appears in it in a form a reader would accept:

* numbers within the type's tolerance, in any common formatting (``1234.5``,
  ``1,234.50``, ``1 234,50``, ``€1,234.50``); integer types need the exact integer;
* dates in ISO form or written out (``29 Aug 2026``, ``August 29, 2026``),
  compared to the day; datetimes in ISO form (any offset, folded to UTC) or as a
  date plus an ``HH:MM`` time, compared to the minute;
* free text (a quoted sentence, an upstream text) contained in it, ignoring case,
  spacing, quote style and final punctuation;
* every other value (names, codes, ids, e-mails) as a whole run of words the type's
  own normaliser equates with it: names and codes ignore case, ids keep it; a
  language code also by the language's name (``es`` as ``Spanish``). For
  plain names and codes, words part at spaces and at the joiners ``-``, ``/``, ``–``
  and ``—`` that the value itself does not contain (``Seoul-Milan`` mentions Seoul
  and Milan; ``release-train-2`` does not mention ``release-train``); e-mail
  addresses, URLs and file names part only at spaces. A leading ``#`` or ``@``
  (``#release-train``, ``@freya``) is not part of the name.

The grader (``toolmaze_gym.grading``) uses this for every free-text argument of an
expected call; docs/grading.md states the rule for users.
"""

from __future__ import annotations

import contextlib
import math
import re
from collections.abc import Callable, Iterable, Iterator
from datetime import date
from functools import lru_cache
from typing import Any

from toolmaze_gym import values
from toolmaze_gym.world.base import load_data

FREE_TEXT = "text"  # the semantic type of free-text parameters
DATE_TYPES = frozenset({"iso_date"})
DATETIME_TYPES = frozenset({"iso_datetime", "timestamp"})

# ---------------------------------------------------------------- numbers

_NUMBER = re.compile(
    r"(?<![\w.,\-])[-+\u2212]?\d+(?:(?:[,.]|[ '\u2019\u00a0\u202f](?=\d{3}(?!\d)))\d+)*")


def _readings(token: str) -> set[float]:
    """Every value a written number can mean (``1,234`` is 1234 or, in Europe, 1.234)."""
    sign = -1.0 if token[0] in "-\u2212" else 1.0
    s = re.sub(r"[ '\u2019\u00a0\u202f]", "", token.lstrip("+-\u2212"))
    out: set[float] = set()

    def add(text: str) -> None:
        with contextlib.suppress(ValueError):
            out.add(sign * float(text))

    if "," in s and "." in s:  # the later mark is the decimal point
        dec, grp = (",", ".") if s.rfind(",") > s.rfind(".") else (".", ",")
        add(s.replace(grp, "").replace(dec, "."))
    elif "," in s or "." in s:
        mark = "," if "," in s else "."
        parts = s.split(mark)
        if all(len(p) == 3 for p in parts[1:]):  # a thousands separator
            add("".join(parts))
        if len(parts) == 2:  # a decimal mark
            add(".".join(parts))
    else:
        add(s)
    return out


def numbers_in(text: str) -> set[float]:
    """The numbers ``text`` writes, every reading of each (spaced groups also apart)."""
    return set(_numbers_in(text))


@lru_cache(maxsize=1024)  # a grade reads one text once per path; bounded: texts are agents'
def _numbers_in(text: str) -> frozenset[float]:
    found: set[float] = set()
    for m in _NUMBER.finditer(text):
        token = m.group(0)
        found |= _readings(token)
        if re.search(r"[ \u00a0\u202f]", token):
            for part in re.split(r"[ \u00a0\u202f]", token):
                found |= _readings(part)
    return frozenset(found)


def _number_mentioned(text: str, type_name: str, value: Any) -> bool:
    if isinstance(value, bool) or not isinstance(value, int | float):
        return False
    t = values.get(type_name) if type_name else None
    integer = t is not None and t.schema.get("type") == "integer"
    for x in numbers_in(text):
        if integer:
            same = x == value
        else:
            same = math.isclose(x, value, rel_tol=1e-9, abs_tol=1e-9) or \
                (t is not None and t.same(x, value))
        if same:
            return True
    return False


# ---------------------------------------------------------------- dates and times

_MONTHS = {m: k for k, names in enumerate(
    (("jan", "january"), ("feb", "february"), ("mar", "march"), ("apr", "april"),
     ("may",), ("jun", "june"), ("jul", "july"), ("aug", "august"),
     ("sep", "sept", "september"), ("oct", "october"), ("nov", "november"),
     ("dec", "december")), 1) for m in names}
# The months in the other languages texts are asked in (es, pt, it, fr, de, nl), so an
# agent's own translation can write its dates the way that language does.
_MONTHS.update({m: k for k, names in enumerate((
    ("enero", "janeiro", "gennaio", "janvier", "januar", "januari"),
    ("febrero", "fevereiro", "febbraio", "février", "fevrier", "februar", "februari"),
    ("marzo", "março", "marco", "mars", "märz", "marz", "maart"),
    ("abril", "aprile", "avril", "april"),
    ("mayo", "maio", "maggio", "mai", "mei"),
    ("junio", "junho", "giugno", "juin", "juni"),
    ("julio", "julho", "luglio", "juillet", "juli"),
    ("agosto", "août", "aout", "augustus"),
    ("septiembre", "setiembre", "setembro", "settembre", "septembre", "septembrer"),
    ("octubre", "outubro", "ottobre", "octobre", "oktober"),
    ("noviembre", "novembro", "novembre", "november"),
    ("diciembre", "dezembro", "dicembre", "décembre", "decembre", "dezember", "december"),
), 1) for m in names if m not in _MONTHS})
_MONTH = "(" + "|".join(sorted(_MONTHS, key=len, reverse=True)) + r")\.?"
_ORD = r"(?:st|nd|rd|th)?"
_ISO_DATE = re.compile(r"(?<!\d)(\d{4})[-/.](\d{1,2})[-/.](\d{1,2})(?!\d)")
_OF = r"(?:of|de|di|del)"  # "23 de agosto de 2026", "23 di agosto"
_DAY_MONTH = re.compile(rf"(?<!\d)(\d{{1,2}})(?:{_ORD}|\.)\s+(?:{_OF}\s+)?{_MONTH},?\s+"
                        rf"(?:{_OF}\s+)?(\d{{4}})(?!\d)", re.I)
_MONTH_DAY = re.compile(rf"(?<![a-z]){_MONTH}\s+(\d{{1,2}}){_ORD},?\s+(\d{{4}})(?!\d)", re.I)
# The same without a year ("on 24 Aug", "August 24th"): read as the year of the value
# it is compared with (a message about the coming days does not repeat the year).
_DAY_MONTH_NY = re.compile(rf"(?<!\d)(\d{{1,2}})(?:{_ORD}|\.)\s+(?:{_OF}\s+)?{_MONTH}(?![a-z])"
                           rf"(?!,?\s+(?:{_OF}\s+)?\d)", re.I)
_MONTH_DAY_NY = re.compile(rf"(?<![a-z]){_MONTH}\s+(\d{{1,2}}){_ORD}(?![\d:])(?!,?\s+\d{{4}})",
                           re.I)
_ISO_DATETIME = re.compile(
    r"(?<!\d)(\d{4}-\d{2}-\d{2})[T ](\d{1,2}:\d{2})(:\d{2}(?:\.\d+)?)?\s*"
    r"(Z|UTC|GMT|[+-]\d{2}:?\d{2})?(?![\d:])", re.I)
# A bare "-11:02" after a clock time is a range ("08:00-11:02"), not an offset: clock
# times take a zone only from a word (Z, UTC, GMT, optionally with an offset).
_CLOCK = re.compile(r"(?<![\d:])(\d{1,2}):(\d{2})(?::\d{2})?\s*(am|pm|a\.m\.|p\.m\.)?"
                    r"(?:\s*((?:UTC|GMT)(?:[+-]\d{1,2}(?::?\d{2})?)?|Z\b))?", re.I)


def dates_in(text: str) -> set[str]:
    """Every calendar date ``text`` writes, as YYYY-MM-DD."""
    found: set[str] = set()

    def add(y: str, m: int | str, d: str) -> None:
        with contextlib.suppress(ValueError):
            found.add(date(int(y), int(m), int(d)).isoformat())

    for y, m, d in _ISO_DATE.findall(text):
        add(y, m, d)
    for d, mon, y in _DAY_MONTH.findall(text):
        add(y, _MONTHS[mon.lower()], d)
    for mon, d, y in _MONTH_DAY.findall(text):
        add(y, _MONTHS[mon.lower()], d)
    return found


def _dates_of_year(text: str, year: str) -> set[str]:
    """``dates_in``, with dates written without a year read as in ``year``."""
    found = dates_in(text)
    pairs = [(d, mon) for d, mon in _DAY_MONTH_NY.findall(text)]
    pairs += [(d, mon) for mon, d in _MONTH_DAY_NY.findall(text)]
    for d, mon in pairs:
        if mon.islower() and mon.lower() in ("may", "mars", "mai"):  # "I may 3 times"
            continue
        with contextlib.suppress(ValueError):
            found.add(date(int(year), _MONTHS[mon.lower()], int(d)).isoformat())
    return found


def _offset(zone: str | None) -> str | None:
    """``+HH:MM`` for a written zone (Z, UTC, GMT, UTC+2, +0200, -05:00); None if unreadable."""
    rest = re.sub(r"^(?:UTC|GMT|Z)", "", (zone or "").strip(), flags=re.I)
    if not rest:
        return "+00:00"
    m = re.fullmatch(r"([+-])(\d{1,2})(?::?(\d{2}))?", rest)
    return f"{m[1]}{int(m[2]):02d}:{m[3] or '00'}" if m else None


def datetimes_in(text: str) -> set[str]:
    """Every date-and-time ``text`` writes in ISO form, normalised to UTC minutes."""
    norm = values.get("iso_datetime").normalise
    found: set[str] = set()
    for day, hm, _, zone in _ISO_DATETIME.findall(text):
        offset = _offset(zone)
        if offset is not None:
            with contextlib.suppress(ValueError):
                found.add(norm(f"{day}T{int(hm[:-3]):02d}:{hm[-2:]}:00{offset}"))
    return found


def _clock_times(text: str) -> set[str]:
    """``HH:MM`` times in UTC where the text gives no other zone."""
    out: set[str] = set()
    for h, m, ampm, zone in _CLOCK.findall(text):
        hour = int(h)
        if ampm:
            hour = hour % 12 + (12 if ampm.lower().startswith("p") else 0)
        if hour < 24 and int(m) < 60 and _offset(zone) == "+00:00":
            out.add(f"{hour:02d}:{m}")
    return out


def _date_mentioned(text: str, type_name: str, value: Any) -> bool:
    try:
        want = values.get(type_name).normalise(value)
    except (TypeError, ValueError, AttributeError):
        return False
    return want in _dates_of_year(text, str(want)[:4])


def _datetime_mentioned(text: str, type_name: str, value: Any) -> bool:
    try:
        want = values.get(type_name).normalise(value)
    except (TypeError, ValueError, AttributeError):
        return False
    if want in datetimes_in(text):
        return True
    # Else a date and a clock time written apart ("29 Aug 2026, 08:00 UTC"); the ISO
    # datetimes already read above are not read again in pieces.
    rest = _ISO_DATETIME.sub(" ", text)
    day, clock = want.split("T")
    if day in _dates_of_year(rest, day[:4]) and clock in _clock_times(rest):
        return True
    # A value with its own offset may be written as the local date and clock time it
    # shows ("2026-08-19 05:00 New York time" for 2026-08-19T05:00:00-04:00).
    local = _LOCAL.match(str(value))
    if local is None or local[3] in ("Z", "+00:00"):
        return False
    return local[1] in _dates_of_year(text, local[1][:4]) \
        and local[2] in _local_clock_times(text, local[3])


_LOCAL = re.compile(r"^(\d{4}-\d{2}-\d{2})[T ](\d{2}:\d{2})(?::\d{2}(?:\.\d+)?)?"
                    r"(Z|[+-]\d{2}:\d{2})$")


def _local_clock_times(text: str, offset: str) -> set[str]:
    """``HH:MM`` times written without a zone, or with the zone ``offset`` itself."""
    out: set[str] = set()
    for h, m, ampm, zone in _CLOCK.findall(text):
        hour = int(h)
        if ampm:
            hour = hour % 12 + (12 if ampm.lower().startswith("p") else 0)
        if hour < 24 and int(m) < 60 and (not zone or _offset(zone) == offset):
            out.add(f"{hour:02d}:{m}")
    return out


# ---------------------------------------------------------------- text and names

_QUOTES = str.maketrans({"\u2018": "'", "\u2019": "'", "\u201c": '"', "\u201d": '"'})
_EDGE = " \t\n.,;:!?\"'()[]{}<>«»"


def _flat(text: str) -> str:
    return " ".join(text.translate(_QUOTES).casefold().split())


def _text_mentioned(text: str, value: Any) -> bool:
    needle = _flat(str(value)).strip(_EDGE)
    return bool(needle) and needle in _flat(text)


# People join names with these ("Seoul-Milan", "Seoul–Milan", "Seoul/Milan").
_JOINERS = "-/\u2010\u2011\u2012\u2013\u2014\u2015"
_SIGILS = "#@"  # a channel's "#", a handle's "@": how the name is written, not the name
# A plain name or code: words of letters and digits, apart by spaces, apostrophes,
# "&", joiners or an abbreviating ". " ("St. Louis", "O'Hare", "release-train").
_PLAIN = re.compile(r"\w+(?:(?:[\s'\u2019&]|\.\s|[-\u2010-\u2015])+\w+)*\.?")


def _words(text: str, value: str) -> list[str]:
    """``text``'s words for finding ``value``: split at spaces and at the joiners.

    A joiner the value itself contains is part of a word ("release-train",
    "BK-7Q2X9ZLM"), so the value is never found inside a longer word built with it
    ("release-train-2"); every other joiner splits like a space. Values that are not
    plain names or codes (e-mail addresses, URLs, file names) are found only whole,
    between spaces: "bob-ana@example.com" is not "ana@example.com".
    """
    joiners = "".join(c for c in _JOINERS if c not in value)
    if not joiners or not _PLAIN.fullmatch(value.strip(_EDGE).lstrip(_SIGILS)):
        return text.split()
    return [w for w in re.split(rf"\s+|[{re.escape(joiners)}]", text) if w]


def _windows(text: str, value: str, size: int) -> Iterator[str]:
    words = _words(text, value)
    for k in range(len(words) - size + 1):
        w = " ".join(words[k:k + size]).strip(_EDGE).lstrip(_SIGILS)
        yield w
        if w.endswith(("'s", "\u2019s")):
            yield w[:-2]


def _word_count(value: str) -> Iterable[int]:
    n = len(str(value).split()) or 1
    return range(max(1, n - 1), n + 2)


def _named(text: str, type_name: str, value: Any) -> bool:
    """A whole run of words that the type's normaliser equates with ``value``."""
    t = values.get(type_name) if type_name else None
    want = str(value)
    # Windows lose edge punctuation and a leading sigil, so a value ending in
    # punctuation ("Tesla Inc.") or starting with one ("#general") is compared
    # without it too.
    bare = want.strip(_EDGE).lstrip(_SIGILS) or want
    same = _sameness(t, (want, bare))
    return any(same(w) for size in _word_count(want) for w in _windows(text, want, size))


def _sameness(t: values.SemanticType | None, targets: tuple[str, ...]) -> Callable[[str], bool]:
    """``w -> any(t.same(w, v) for v in targets)``, with the targets normalised once
    (a long text has thousands of windows)."""
    if t is None:
        folded = {v.casefold() for v in targets}
        return lambda w: w.casefold() in folded
    try:
        normal = {t.normalise(v) for v in targets}
    except (TypeError, ValueError, AttributeError):
        return lambda w: any(t.same(w, v) for v in targets)

    def same(w: str) -> bool:
        try:
            return t.normalise(w) in normal
        except (TypeError, ValueError, AttributeError):
            return w in targets
    return same


def spoken_forms(type_name: str, value: Any) -> tuple[str, ...]:
    """Other ways people write ``value`` than the value itself: a language code by
    the language's name ("es": "Spanish"), as queries and texts do."""
    if type_name == "language_code" and isinstance(value, str):
        name = load_data("languages.json").get(value.strip().lower())
        return (name,) if name else ()
    return ()


# ---------------------------------------------------------------- the rule


def mentions(text: Any, type_name: str, value: Any) -> bool:
    """Whether free text ``text`` mentions ``value`` of semantic type ``type_name``."""
    if not isinstance(text, str) or value is None:
        return False
    try:
        return _mentions(text, type_name, value)
    except TypeError:  # an unhashable value (a list or a dict): not cached
        return _mention_rule(text, type_name, value)


@lru_cache(maxsize=8192)  # the same text is checked on every valid path; bounded
def _mentions(text: str, type_name: str, value: Any) -> bool:
    return _mention_rule(text, type_name, value)


def _mention_rule(text: str, type_name: str, value: Any) -> bool:
    t = values.get(type_name) if type_name else None
    kind = t.schema.get("type") if t is not None else None
    if type_name == FREE_TEXT or (t is None and isinstance(value, str) and " " in value):
        return _text_mentioned(text, value)
    if type_name in DATE_TYPES:
        return _date_mentioned(text, type_name, value)
    if type_name in DATETIME_TYPES:
        return _datetime_mentioned(text, type_name, value)
    if kind in ("number", "integer") or (t is None and isinstance(value, int | float)
                                         and not isinstance(value, bool)):
        return _number_mentioned(text, type_name, value)
    return _named(text, type_name, value) or any(_named(text, "", v)
                                                 for v in spoken_forms(type_name, value))


def mentions_all(text: Any, required: Iterable[tuple[str, Any]]) -> bool:
    """Whether ``text`` mentions every (type, value) pair of ``required`` (further
    items of an entry, such as where the value came from, are ignored)."""
    return all(mentions(text, m[0], m[1]) for m in required)
