"""Whether a free-text argument mentions a value: content, not wording.

Subjects, bodies, messages and notes are graded on what they say. A text
mentions a value when the value appears in it in a form a reader would accept:

* numbers within the type's tolerance, in any common formatting (``1234.5``,
  ``1,234.50``, ``1.234,50``, ``1 234,50``, ``€1,234.50``, ``−5`` with a unicode
  minus), beside any punctuation or cell separator (``coins,100.66``, ``|100.66|``,
  ``(100.66)``, ``=100.66;``); integer types need the exact integer. A written
  number means every value it can be read as (``1,234`` is 1234 or 1.234); in a text
  that writes cells (a comma with no space after it beside a non-digit, as
  ``DOT,14,100.66,EUR``, or a run with no spaces) a comma may also part two cells, so
  ``14,100.66`` there is 14100.66, 14 and 100.66; in prose a comma between digits is
  a group or a decimal mark only (``57,01 €`` never says 57); a temperature (the
  ``whole_types`` of ``data/world/figure_words.json``) may also be told in whole
  degrees, rounded half away from zero (``84 °F`` says 84.4, ``85`` says 84.5,
  ``-3 °C`` says -2.6; ``85 °F`` never says 84.4, ``84.0 °F`` is told with decimals
  and must be within the tolerance), when a degree unit follows it, alone or after a
  range (``24–29 °C``); a bare ``24`` (``the 24th``) tells no temperature. This reads
  free text only: a typed argument (a
  thermostat setpoint) compares through the type's ``same``, exactly as before;
* a signed change (``percent_change``, ``money_delta``) by its sign or a direction
  word: ``-96.73 %``, ``−96.73%``, ``down 96.73 %``, ``fell 96.73%``, ``96.73 % less``,
  ``a 96.73 % drop`` say -96.73; ``+5.2 %``, ``up 5.2 %``, ``5.2 % higher``, ``a 5.2 %
  gain`` say 5.2. A bare ``96.73 %`` says either sign (the sentence around it gives the
  direction in words this rule does not parse), but a contrary sign or word never
  passes: ``up 96.73 %`` does not say -96.73. Which side is the base of a difference
  is the grader's business, not this module's;
* dates in ISO form or written out (``29 Aug 2026``, ``August 29, 2026``),
  compared to the day; datetimes in ISO form (any offset, folded to UTC) or as a
  date plus an ``HH:MM`` time (or ``HHhMM``, as French writes it), compared to the
  minute; a time written without a zone is read as the value's own clock (the local
  time of a value with an offset, so its UTC clock unlabelled does not say it);
* a duration in minutes or hours also by a time range of that length (``from 12:00
  to 12:45`` says 45 minutes); a text whose every range has another length does not
  say it, whatever figure it also writes;
* free text (a quoted sentence, an upstream text, a phrase of the request)
  contained in it as whole words, ignoring case, spacing, quote style, final
  punctuation and a leading article (``Quarterly bookkeeping`` says ``the quarterly
  bookkeeping``; articles of en, es, fr, de, it, pt); names keep theirs (``Los
  Angeles``, ``La Paz``);
* every other value (names, codes, ids, e-mails) as a whole run of words the type's
  own normaliser equates with it: names and codes ignore case, ids keep it; a
  language code also by the language's name (``es`` as ``Spanish``), a flight or
  train id by its service number (``EC4298`` for ``EC4298-ZRHMUC-20260831``,
  ``ICE5447`` for ``ICE5447-BERSTO-20260822``). For
  plain names and codes, words part at spaces and at the joiners ``-``, ``/``, ``–``
  and ``—`` that the value itself does not contain (``Seoul-Milan`` mentions Seoul
  and Milan; ``release-train-2`` does not mention ``release-train``); e-mail
  addresses, URLs and file names part only at spaces. A leading ``#`` or ``@``
  (``#release-train``, ``@freya``) is not part of the name;
* a status phrase of a noun and its participle (``label created``) also in a sentence
  of its own: ``the label has been created``, ``UPS has created the shipping label``
  (``status_phrases``); ``in transit`` never says it.

The grader (``toolmaze_gym.grading``) uses this for every free-text argument of an
expected call; docs/grading.md states the rule for users.
"""

from __future__ import annotations

import contextlib
import math
import re
import unicodedata
from collections.abc import Callable, Iterable, Iterator
from datetime import date, datetime
from decimal import ROUND_HALF_UP, Decimal
from functools import lru_cache
from typing import Any

from toolmaze_gym import values
from toolmaze_gym.status_phrases import STATUS_TYPES, flight_status_told, status_told
from toolmaze_gym.values.numbers import is_number
from toolmaze_gym.world import zones
from toolmaze_gym.world.base import load_data

FREE_TEXT = "text"  # the semantic type of free-text parameters
DATE_TYPES = frozenset({"iso_date"})
DATETIME_TYPES = frozenset({"iso_datetime", "timestamp"})

# ---------------------------------------------------------------- numbers

# A number: digits with thousands groups or a decimal mark, after anything but a
# letter, a digit, "." or "-" (so "BK-1234" and "v1.2" hold no number 1234 or 2),
# and so also right after a cell separator ("14 coins,100.66 EUR"). The hours and
# minutes of a clock time or a UTC offset are no numbers of their own: "19:26 UTC+02:00"
# tells no count of 2 (a silent fault's quote_count of 2 is not passed on by it).
_NUMBER = re.compile(
    r"(?<![\w.\-])(?<!\d:)[-+\u2212]?\d+(?:(?:[,.]|[ '\u2019\u00a0\u202f](?=\d{3}(?!\d)))\d+)*"
    r"(?!\d|:\d)")
# Where a number's parts may also stand alone: a space between digit groups ("1 234"
# may be two numbers) and, in a text that writes cells, a comma ("14,100.66" may be the
# cells 14 and 100.66).
_SPACED = re.compile(r"[ \u00a0\u202f]")
_SPACED_OR_CELL = re.compile(r"[ \u00a0\u202f,]")
# A text writes cells when a comma joins two things with no space after it and one of
# them is no digit ("coins,100.66", "DOT,14", "(Polkadot),14"), or when it is one run
# without spaces ("14,100.66", a row of two numbers). In prose a comma between digits
# is a thousands group or a decimal mark only, so "57,01 €" never says 57.
_CELL_COMMA = re.compile(r"[^\s\d,],(?=\S)|\d,(?=[^\s\d,])")
# A number written with no decimal mark: digits, perhaps in spaced thousands groups
# ("84", "−3", "1 234"; not "84.0"): what a figure told whole looks like.
_WHOLE = re.compile(r"[-+\u2212]?\d+(?:[ '\u2019\u00a0\u202f]\d{3})*")


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


def _token_values(token: str, cells: bool = False, whole: bool = False) -> set[float]:
    """A written number's readings, and those of its parts where it may be several.

    In a text that writes cells (append_row takes its cells comma-separated)
    ``14,100.66`` is 14100.66 or the cells 14 and 100.66: nothing in the token tells
    which, so every reading counts. With ``whole``, only the token or parts written
    with no decimal mark (``_WHOLE``) count.
    """
    found = _readings(token) if not whole or _WHOLE.fullmatch(token) else set()
    if token.isdigit():  # one part only (most numbers): nothing to split
        return found
    parts = (_SPACED_OR_CELL if cells else _SPACED).split(token)
    if len(parts) > 1:
        for part in parts:
            if part and (not whole or _WHOLE.fullmatch(part)):
                found |= _readings(part)
    return found


def numbers_in(text: str) -> set[float]:
    """The numbers ``text`` writes, every reading of each (spaced or comma-separated
    groups also apart)."""
    return set(_numbers_in(text))


@lru_cache(maxsize=1024)  # a grade reads one text once per path; bounded: texts are agents'
def _numbers_in(text: str) -> frozenset[float]:
    found: set[float] = set()
    cells = _writes_cells(text)
    for m in _NUMBER.finditer(text):
        found |= _token_values(m.group(0), cells)
    return frozenset(found)


def _writes_cells(text: str) -> bool:
    """Whether ``text`` separates cells by commas (see ``_CELL_COMMA``)."""
    if "," not in text:
        return False
    stripped = text.strip()
    return bool(_CELL_COMMA.search(text)) or not any(c.isspace() for c in stripped)


COUNT_TYPE = "quantity"  # a count of items, which people write in words when small


def _count_in_words(text: str, value: Any) -> bool:
    """A small count written as a word of the text's own language ("ci sono due cose"
    in an Italian SMS says 2; v21 play-test c1-0068 P1), as ``data/world/count_words.json``
    lists them: two to twelve, since "one" is an article in most of these languages,
    and only in a text of that language, since Italian "due" is an English word too."""
    if not isinstance(value, int) or isinstance(value, bool):
        return False
    said = [code for code, pattern in _count_patterns(value) if pattern.search(text)]
    if not said:
        return False
    from toolmaze_gym import language  # lazily: the language model loads in seconds
    return language.detect(text) in said


@lru_cache(maxsize=16)
def _count_patterns(value: int) -> tuple[tuple[str, re.Pattern[str]], ...]:
    if not 2 <= value <= 12:
        return ()
    words = {k: v for k, v in load_data("count_words.json").items() if k != "_comment"}
    return tuple((code, re.compile(rf"(?<!\w){re.escape(names[value - 2])}(?!\w)", re.I))
                 for code, names in words.items())


def _number_mentioned(text: str, type_name: str, value: Any, loosely: bool = True) -> bool:
    if not is_number(value):
        return False
    t = values.get(type_name) if type_name else None
    integer = t is not None and t.schema.get("type") == "integer"
    found = _changes_in(text) if type_name in SIGNED_CHANGES else _numbers_in(text)
    if value == 0 and type_name in _figure_words()["zero_types"] and _zero_told(text):
        return True
    if value < 0 and type_name not in SIGNED_CHANGES:
        found = found | _losses_in(text)
    for x in found:
        if integer:
            same = x == value
        else:
            same = math.isclose(x, value, rel_tol=1e-9, abs_tol=1e-9) or \
                (t is not None and t.same(x, value))
        if same:
            break
    else:
        same = False
    if not loosely:
        return same
    if not same and type_name in _figure_words()["whole_types"]:
        same = _whole_told(text, value)
    if not same and type_name in _figure_words()["measures"]:
        same = _rounded_told(text, type_name, value)
    if not same and type_name in _ROUNDED_PERCENTS:
        same = _rounded_percent(text, value)
    if not same and type_name in _TEMPERATURES:
        same = _finer_told(text, type_name, value)
    if not same and type_name == COUNT_TYPE:
        same = _count_in_words(text, value)
    if type_name in SPAN_MINUTES:
        # A time range tells its length ("from 12:00 to 12:45" is 45 minutes); a text
        # whose every range is of another length says another duration, whatever
        # number it also writes ("12:00 to 13:00, 45 minutes").
        spans = _spans_in(text)
        if spans and value * SPAN_MINUTES[type_name] not in spans:
            # A duration written out with its unit wins over a range of another
            # length (opening hours "09:00-17:00" beside "45 minutes"), unless the
            # figure is the range's own gloss ("12:00 to 13:00 (45 minutes)").
            return same and _stated_apart(text, value)
        return same or bool(spans)
    return same


# ---------------------------------------------------------------- time ranges

# The duration types a time range states, in minutes per unit.
SPAN_MINUTES = {"duration_minutes": 1, "duration_hours": 60}
# Two clock times joined as a range: "12:00-12:45", "12:00 to 12:45", "12h00 à 12h45",
# "von 12:00 bis 12:45", "de 12:00 a 12:45", "11:30 am to 12:15 pm". Not a clock after
# a "T" or another clock ("2026-08-23T08:00-04:00" is a time and its offset).
# A half of the day is a word of its own: "14:00 Amsterdam time" is no "14:00 am"
# (grading version 29, toolmaze-v13 review c4-0053, where the clock was lost). One
# capturing group, the half.
_HALF_DAY = r"(am|pm|a\.m\.|p\.m\.)(?![a-z])"
_HM = r"(\d{1,2})(?::|h)(\d{2})(?::\d{2})?\s*(?:" + _HALF_DAY + r")?"
_SPAN = re.compile(rf"(?<![\dT:]){_HM}\s*(?:[-\u2013\u2014]|to|till|until|through|bis"
                   rf"|à|a|al|au|hasta|jusqu'à|fino alle|alle|até)\s*{_HM}(?![\d:])", re.I)


# Between a range and a figure that glosses it: spacing, brackets and joiners, a zone
# ("UTC") and a word that ties a length to the range ("for", "lasting", "i.e.",
# "soit", "pendant", "durante"), as in "12:00 to 13:00 UTC (45 minutes)".
_GLOSS_GAP = re.compile(
    r"[\s(\[,:=\u2013\u2014-]*(?:(?:[A-Z]{2,5}|for|lasting|i\.e\.?|ie|so|that's|soit"
    r"|pendant|für|durante|por|per|dauer|durée|duración|duração|durata)"
    r"(?![^\W\d])[\s(\[,:=\u2013\u2014-]*){0,2}")


def _stated_apart(text: str, value: float) -> bool:
    """Whether ``text`` writes ``value`` with a minute or hour unit after it
    (``figure_words.json`` "duration_after") somewhere other than right after a time
    range, where it would gloss that range and contradict it."""
    unit = _figure_words()["duration"]
    ends = [m.end() for m in _SPAN.finditer(text)]
    for m in _NUMBER.finditer(text):
        if not unit.match(text, m.end()) or value not in _readings(m.group(0)):
            continue
        if not any(e <= m.start() and _GLOSS_GAP.fullmatch(text, e, m.start()) for e in ends):
            return True
    return False


def _clock_minutes(h: str, m: str, half: str) -> int | None:
    """Minutes after midnight of a clock time, None where it is no time of day."""
    hour, minute = int(h), int(m)
    half = half.lower().replace(".", "")
    if half:
        if not 1 <= hour <= 12:
            return None
        hour = hour % 12 + (12 if half == "pm" else 0)
    return hour * 60 + minute if hour < 24 and minute < 60 else None


@lru_cache(maxsize=1024)  # as _numbers_in
def _spans_in(text: str) -> frozenset[int]:
    """The lengths in minutes of the time ranges ``text`` writes; a range that ends
    before it starts runs past midnight ("23:30-00:15" is 45 minutes). A range's
    start without its half of the day takes the end's ("11:30 to 12:15 pm")."""
    found: set[int] = set()
    for h1, m1, a1, h2, m2, a2 in _SPAN.findall(text):
        end = _clock_minutes(h2, m2, a2)
        start = _clock_minutes(h1, m1, a1 or (a2 if int(h1) <= int(h2) < 12 else ""))
        if start is not None and end is not None and start != end:
            found.add((end - start) % (24 * 60))
    return frozenset(found)


def _whole_told(text: str, value: float) -> bool:
    """Whether ``text`` writes ``value`` rounded to a whole number of degrees, half away
    from zero (84 for 84.4, 85 for 84.5, -3 for -2.6). People tell a temperature in
    whole degrees ("a high around 84 °F"), so for the types ``figure_words.json`` lists
    as told whole a number written without a decimal mark, with a degree unit after it,
    says the value it rounds to; one written with decimals must be within the type's
    tolerance, and 85 never says 84.4. The unit keeps other whole numbers out: "for
    the 24th" tells no temperature of 24.1 (toolmaze-v3 c4-0028 P3 read it as passing
    on a faulted forecast low)."""
    if not math.isfinite(value):
        return False
    whole = float(Decimal(repr(value)).quantize(Decimal(1), rounding=ROUND_HALF_UP))
    return whole in _degrees_in(text)


def _rounded_told(text: str, type_name: str, value: float) -> bool:
    """Whether ``text`` tells the measured quantity ``value`` rounded to fewer decimals
    than the tool gave, half up, with its unit after it (``figure_words.json``
    "measures"): "244.1 kg CO2e" for 244.14, "about 244 kg" (a whole figure needs a word
    of approximation before it, "approx_before"), never 244.2 or 243 (grading version
    15, v6 play-test c2-0097). Money, percentages and counts are not measures: a
    reader acts on the exact sum."""
    return _told_rounded(text, value, _figure_words()["measures"][type_name], signed=False)


def _told_rounded(text: str, value: float, unit: re.Pattern[str], signed: bool) -> bool:
    """Whether a number with ``unit`` after it in ``text`` is ``value`` rounded to fewer
    decimals than it has, half up, a whole figure only after a word of approximation;
    ``signed``: read with the sign or direction word it is written with (``_directions``)."""
    if not math.isfinite(value):
        return False
    words, exact = _figure_words(), Decimal(repr(float(value)))
    places = max(0, -exact.normalize().as_tuple().exponent)
    for m in _NUMBER.finditer(text):
        token = m.group(0)
        if not unit.match(text, m.end()):
            continue
        hedged = words["approx"].search(text[max(0, m.start() - _REACH):m.start()])
        readings = _readings(token)
        if signed:
            signs = _directions(text, m)
            readings = {sign * abs(x) for x in readings for sign in signs}
        for k in _places_written(token):
            if k >= places or (k == 0 and not hedged):
                continue
            rounded = float(exact.quantize(Decimal(1).scaleb(-k), rounding=ROUND_HALF_UP))
            if rounded in readings:
                return True
    return False


# A percent change a tool works out from two figures: told to fewer decimals by a
# reader who compares (``_rounded_percent``). Other percentages (a share, a rate, a
# discount) stay exact, as money does.
_ROUNDED_PERCENTS = frozenset({"percent_change"})
_PERCENT_AFTER = re.compile(r"\s*(?:%|percent\b|per\s?cent\b|pour\s?cent\b|por\s?ciento\b"
                            r"|Prozent\b|procent\b|per\s?cento\b)", re.I)


def _rounded_percent(text: str, value: float) -> bool:
    """Whether ``text`` tells the percent change ``value`` rounded to fewer decimals,
    half up, with a percent sign or word after it and the sign it is written with
    (``_directions``): "up 79.6%" or "up about 80%" for a change of 79.62 (a whole
    figure needs a word of approximation before it, as ``_rounded_told``), never "up
    79.7%", "80%" or "down 79.6%" (grading version 22, toolmaze-v10 play-test c4-0045)."""
    return _told_rounded(text, value, _PERCENT_AFTER, signed=True)


# The temperature types: a figure told more finely than the tool's (``_finer_told``).
_TEMPERATURES = frozenset({"temperature_c", "temperature_f", "temperature_spread_c"})


def _finer_told(text: str, type_name: str, value: float) -> bool:
    """Whether ``text`` tells the temperature ``value`` with a degree unit, more finely
    than the tool printed it, as a figure the tool's could have been rounded from:
    "6.88 C" for the tool's 6.9, "15.45 °C" for 15.4 (the two figures' rounding
    intervals meet; grading version 17, v7 review c1-0031, where "7 C" already passed),
    or a payload field whose key names the unit ("dew_point_c": 6.88, version 28).
    Never 6.96 or 7.0 for 6.9, nor a figure with no unit."""
    return finer_within(text, value, 0.0)


# A degree unit named by the key a figure is the value of ("dew_point_c": 6.88, "temp_f=
# 44.38"): a payload's field says its unit once, for the figure after it (grading
# version 28, toolmaze-v12 review c1-0076: a webhook's JSON "dew_point_c": 6.88 for the
# tool's 6.9 failed where "6.88 C" in prose passed).
_DEGREE_KEY = re.compile(r"(?:_c|_f|celsius|fahrenheit)[\"']?\s*[:=]\s*$", re.IGNORECASE)


def finer_within(text: str, value: float, carried: float) -> bool:
    """``_finer_told`` with ``carried`` more slack, as a multiple of half the tool's
    last place: a °F figure converted from an unrounded °C reading carries 1.8 of it,
    and may then be told to the tool's own places (``grading.converted_reading``)."""
    if not math.isfinite(value):
        return False
    words = _figure_words()
    half = Decimal(5).scaleb(-1 - _places(Decimal(repr(float(value)))))
    extra = half * Decimal(repr(carried))
    cells = _writes_cells(text)
    for m in _NUMBER.finditer(text):
        if words["degrees"].match(text, m.end()) is None \
                and not _DEGREE_KEY.search(text[max(0, m.start() - 40):m.start()]):
            continue
        for k in _places_written(m.group(0)):
            own = Decimal(5).scaleb(-1 - k)
            if own > half or (own == half and not extra):
                continue  # as coarse as the tool's: its own rules (_whole_told, same)
            slack = float(half + own + extra) + 1e-9
            if any(abs(x - value) <= slack for x in _token_values(m.group(0), cells)):
                return True
    return False


def _places(exact: Decimal) -> int:
    """The decimals a printed figure has (6.9: 1; 8.0: 1; 12: 0)."""
    return max(0, -exact.as_tuple().exponent)


def _places_written(token: str) -> tuple[int, ...]:
    """The decimals a number may be written with: 1 for "244.1" or "244,1", 0 for "244"
    or "1,864,000"; a group of three after the only mark may be either ("1,864": 1864
    or, in Europe, 1.864)."""
    digits = token.lstrip("+-\u2212")
    marks = [i for i, c in enumerate(digits) if c in ".,"]
    if not marks:
        return (0,)
    tail = len(digits) - marks[-1] - 1
    if tail != 3:
        return (tail,)
    return (0,) if len(marks) > 1 and digits[marks[0]] == digits[marks[-1]] else (0, 3)


@lru_cache(maxsize=1024)  # as _numbers_in
def _degrees_in(text: str) -> frozenset[float]:
    """The whole numbers ``text`` writes as degrees: no decimal mark ("84", "−3"; not
    "84.0"), a degree unit after them, alone or after a range ("84 °F", "24–29 °C",
    "29 grados"), negative also by a word before them ("minus 3 °C")."""
    words = _figure_words()
    found: set[float] = set()
    cells = _writes_cells(text)
    for m in _NUMBER.finditer(text):
        unit = words["degrees"].match(text, m.end())
        if unit is None or words["setting"].search(text[max(0, m.start() - _REACH):m.start()]) \
                or words["set_after"].match(text, unit.end()):
            continue  # no degrees, or a setting ("set to 21 °C", "a 21 °C set point")
        told = _token_values(m.group(0), cells, whole=True)
        found |= told
        if words["before"].search(text[max(0, m.start() - _REACH):m.start()]):
            found |= {-abs(x) for x in told}
    return frozenset(found)


def degrees_blanked(text: str, type_name: str) -> str:
    """``text`` with every number a degree unit follows blanked out, for a type that is
    no temperature: "Bedroom set to 19 °C" tells a temperature, never an air-quality
    index of 19 (over-trust asks whether a corrupted figure was told; the v7 play-test's
    c4-0081 P3). A temperature type keeps the text as it is."""
    if type_name.startswith("temperature"):
        return text
    degrees = _figure_words()["degrees"]
    spans = [m.span() for m in _NUMBER.finditer(text) if degrees.match(text, m.end())]
    for start, end in reversed(spans):
        text = text[:start] + " " * (end - start) + text[end:]
    return text


# ---------------------------------------------------------------- figures in words

# A zero amount told in words ("pays no dividend", "nothing to withhold") and a negative
# figure told by a word ("a loss of 1.11 per share"): ``data/world/figure_words.json``.


@lru_cache(maxsize=1)
def _figure_words() -> dict[str, Any]:
    data = load_data("figure_words.json")
    return {"zero_types": frozenset(data["zero_types"]),
            "whole_types": frozenset(data["whole_types"]),
            "degrees": re.compile(data["degrees_after"], re.I),
            "setting": re.compile(data["setting_before"], re.I),
            "set_after": re.compile(data["setting_after"], re.I),
            "duration": re.compile(data["duration_after"], re.I),
            "measures": {t: re.compile(u, re.I) for t, u in data["measures"].items()},
            "approx": re.compile(data["approx_before"], re.I),
            "zero": re.compile("|".join(f"(?:{p})" for p in data["zero"]), re.I),
            "before": re.compile(data["negative_before"], re.I),
            "after": re.compile(data["negative_after"], re.I)}


def _zero_told(text: str) -> bool:
    """Whether ``text`` says in words that an amount is nil ("no dividend")."""
    return bool(_figure_words()["zero"].search(text))


@lru_cache(maxsize=1024)  # as _numbers_in
def _losses_in(text: str) -> frozenset[float]:
    """The numbers ``text`` makes negative by a word beside them ("a loss of 1.11",
    "1.11 a share loss"), negated; a bare "1.11" is no -1.11."""
    words = _figure_words()
    found: set[float] = set()
    cells = _writes_cells(text)
    for m in _NUMBER.finditer(text):
        before = text[max(0, m.start() - _REACH):m.start()]
        if words["before"].search(before) or words["after"].match(text, m.end()):
            found |= {-abs(x) for x in _token_values(m.group(0), cells)}
    return frozenset(found)


# ---------------------------------------------------------------- signed changes

# The types whose sign is a direction: a change or a difference. People give it by a
# sign ("-96.73 %", "−96.73 %") or by a word before or after the number ("down 96.73 %",
# "96.73 % less", "a 96.73 % drop"), in the languages texts are asked in too.
SIGNED_CHANGES = frozenset({"percent_change", "money_delta"})

_FALL_WORDS = (
    "down|fell|fall|falls|fallen|falling|dropped|drop|drops|declined|decline|declines"
    "|decreased|decrease|decreases|lost|loss|lose|loses|sank|slid|slipped|shrank|plunged"
    "|plummeted|tumbled|reduced|reduction|cut|minus|deficit|shortfall|overspent"
    "|bajó|bajo|cayó|cayo|baja|bajada|caída|caida|descenso|disminución|disminucion"
    "|baisse|baissé|recul|chute|diminution|gesunken|gefallen|rückgang|ruckgang"
    "|calo|calato|sceso|ribasso|diminuzione|queda|caiu|diminuição|diminuicao")
_RISE_WORDS = (
    "up|rose|rise|rises|risen|rising|gained|gain|gains|grew|grow|grows|grown|growth"
    "|climbed|climb|climbs|jumped|jump|jumps|increased|increase|increases|surged|surge"
    "|rallied|surplus|subió|subio|sube|subida|aumento|alza|hausse|augmenté|augmente"
    "|augmentation|gestiegen|anstieg|zuwachs|salito|aumentato|rialzo|subiu|alta")
_LESS_WORDS = ("less|lower|cheaper|smaller|fewer|below|" + _FALL_WORDS +
               "|menos|de moins|en moins|moins|weniger|niedriger|billiger|in meno|meno")
_MORE_WORDS = ("more|higher|dearer|pricier|greater|larger|bigger|above|" + _RISE_WORDS +
               "|más|de plus|en plus|plus élevé|mehr|höher|hoher|teurer|in più|in piu|più"
               "|mais")
# What may stand between a direction word and the number: "by", "of" and their
# kin, a currency sign or code ("down by EUR 120", "a drop of 5 %").
_LINK = r"(?:(?:by|of|de|di|da|du|del|um|von|par|por)\s+)?"
_MONEY = r"(?:[€$£¥₹]\s*|(?-i:[A-Z]{3})\s+)?"
_UNIT = (r"\s*(?:%|percent\b|per\s?cent\b|pp\b|points?\b|[€$£¥₹]|(?-i:[A-Z]{3})\b"
         r"|euros?\b|dollars?\b|pounds?\b)?\s*")
_FALL_BEFORE = re.compile(rf"(?<!\w)(?:{_FALL_WORDS})\s+{_LINK}{_MONEY}$", re.I)
_RISE_BEFORE = re.compile(rf"(?<!\w)(?:plus|{_RISE_WORDS})\s+{_LINK}{_MONEY}$", re.I)
_LESS_AFTER = re.compile(rf"{_UNIT}(?:{_LESS_WORDS})(?!\w)", re.I)
_MORE_AFTER = re.compile(rf"{_UNIT}(?:{_MORE_WORDS})(?!\w)", re.I)
# A sign written before a currency ("-€120", "−$5", "-EUR 120").
_SIGN_BEFORE_MONEY = re.compile(r"(?<!\w)([-+\u2212])\s?(?:[€$£¥₹]|(?-i:[A-Z]{3})\s?)$")
_REACH = 40  # characters either side a direction word is looked for in


def _directions(text: str, m: re.Match[str]) -> set[float]:
    """The signs the number ``m`` is written with: -1 for a fall, 1 for a rise, both
    where nothing says which (a bare "96.73 %": the sentence around it may say)."""
    before = text[max(0, m.start() - _REACH):m.start()]
    after = text[m.end():m.end() + _REACH]
    signs: set[float] = set()
    sign = m.group(0)[0]
    money = _SIGN_BEFORE_MONEY.search(before)
    if sign in "-\u2212" or (money and money[1] in "-\u2212"):
        signs.add(-1.0)
    if sign == "+" or (money and money[1] == "+"):
        signs.add(1.0)
    if _FALL_BEFORE.search(before) or _LESS_AFTER.match(after):
        signs.add(-1.0)
    if _RISE_BEFORE.search(before) or _MORE_AFTER.match(after):
        signs.add(1.0)
    return signs or {-1.0, 1.0}


@lru_cache(maxsize=1024)  # as _numbers_in
def _changes_in(text: str) -> frozenset[float]:
    """The signed changes ``text`` writes: each number's readings, signed as written."""
    found: set[float] = set()
    cells = _writes_cells(text)
    for m in _NUMBER.finditer(text):
        signs = _directions(text, m)
        found |= {s * abs(x) for x in _token_values(m.group(0), cells) for s in signs}
    return frozenset(found)


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
# The rest of the Latin-script languages of data/world/languages.json (sv, no, da, pl
# and cs in the genitive a date takes, tr, sw): "1 Eylül Salı 04:00" is 1 September
# (toolmaze-v4 c4-0095, an own Turkish text refused for its date).
_MONTHS.update({m: k for k, names in enumerate((
    ("stycznia", "ledna", "ocak", "januar", "januari"),
    ("lutego", "února", "unora", "şubat", "subat", "februari"),
    ("marts", "marca", "března", "brezna", "mart", "machi"),
    ("kwietnia", "dubna", "nisan", "aprili"),
    ("maj", "maja", "května", "kvetna", "mayıs", "mayis", "mei"),
    ("czerwca", "června", "cervna", "haziran", "juni"),
    ("lipca", "července", "cervence", "temmuz", "julai"),
    ("augusti", "sierpnia", "srpna", "ağustos", "agustos", "agosti"),
    ("września", "wrzesnia", "září", "zari", "eylül", "eylul", "septemba"),
    ("października", "pazdziernika", "října", "rijna", "ekim", "oktoba"),
    ("listopada", "listopadu", "kasım", "kasim", "novemba"),
    ("desember", "grudnia", "prosince", "aralık", "aralik", "desemba"),
), 1) for m in names if m not in _MONTHS})
_MONTH = "(" + "|".join(sorted(_MONTHS, key=len, reverse=True)) + r")\.?"
_ORD = r"(?:st|nd|rd|th)?"
_ISO_DATE = re.compile(r"(?<!\d)(\d{4})[-/.](\d{1,2})[-/.](\d{1,2})(?!\d)")
# Day, month and year in figures (26/08/2026, 26.08.2026, 8/26/2026): read both ways
# where both are dates, as the day-first and the month-first conventions write them.
_NUMERIC_DATE = re.compile(r"(?<![\d/.-])(\d{1,2})[/.](\d{1,2})[/.](\d{4})(?![\d]|[/.-]\d)")
_OF = r"(?:of|de|di|del)"  # "23 de agosto de 2026", "23 di agosto"
_DAY_MONTH = re.compile(rf"(?<!\d)(\d{{1,2}})(?:{_ORD}|\.)\s+(?:{_OF}\s+)?{_MONTH},?\s+"
                        rf"(?:{_OF}\s+)?(\d{{4}})(?!\d)", re.I)
_MONTH_DAY = re.compile(rf"(?<![a-z]){_MONTH}\s+(\d{{1,2}}){_ORD},?\s+(\d{{4}})(?!\d)", re.I)
# A range of days in one month ("27-30 Aug 2026", "del 20 al 23 de agosto de 2026"):
# its first day is a date the text writes too.
_DAY_RANGE = re.compile(rf"(?<!\d)(\d{{1,2}}){_ORD}\s*(?:-|–|to|al|au|bis)\s*\d{{1,2}}{_ORD}\.?\s+"
                        rf"(?:{_OF}\s+)?{_MONTH},?\s+(?:{_OF}\s+)?(\d{{4}})(?!\d)", re.I)
# The same without a year ("on 24 Aug", "August 24th"): read as the year of the value
# it is compared with (a message about the coming days does not repeat the year). A
# number after it that is no year ("Thursday 27 August, 250-minute flight") does not
# hide the date.
_DAY_MONTH_NY = re.compile(rf"(?<!\d)(\d{{1,2}})(?:{_ORD}|\.)\s+(?:{_OF}\s+)?{_MONTH}(?![a-z])"
                           rf"(?!,?\s+(?:{_OF}\s+)?\d{{4}}(?!\d))", re.I)
# A range's first day, the month written once after its last ("24-28 Aug", "24 to 28
# August") or before its first ("Aug 24-28"): a date the text writes (grading version
# 22, toolmaze-v10 play-test c4-0070 "Berlin trip 24-28 Aug ... landing 09:11").
_RANGE_START_NY = re.compile(rf"(?<![\d:.,/])(\d{{1,2}}){_ORD}\s*(?:-|–|to)\s*\d{{1,2}}{_ORD}\.?\s+"
                             rf"(?:{_OF}\s+)?{_MONTH}(?![a-z])(?!,?\s+(?:{_OF}\s+)?\d{{4}}(?!\d))",
                             re.I)
_MONTH_RANGE_START_NY = re.compile(rf"(?<![a-z]){_MONTH}\s+(\d{{1,2}}){_ORD}\s*(?:-|–|to)\s*"
                                   rf"\d{{1,2}}{_ORD}(?![\d:])(?!,?\s+\d{{4}})", re.I)
_MONTH_DAY_NY = re.compile(rf"(?<![a-z]){_MONTH}\s+(\d{{1,2}}){_ORD}(?![\d:])(?!,?\s+\d{{4}})",
                           re.I)
_ISO_DATETIME = re.compile(
    r"(?<!\d)(\d{4}-\d{2}-\d{2})([T ])(\d{1,2}:\d{2})(:\d{2}(?:\.\d+)?)?\s*"
    r"(?:([-\u2013])\s?(\d{1,2}:\d{2})(?![\d:])\s*)?"  # a range's end, or an offset
    r"(Z|UTC|GMT|[+-]\d{2}:?\d{2})?(?![\d:])", re.I)
# A bare "-11:02" after a clock time is a range ("08:00-11:02"), not an offset: clock
# times take a zone only from a word (Z, UTC, GMT, optionally with an offset).
# French and others write the hour mark as "h" ("06h00", "15 h 05").
# A whole hour may be written with its half of the day alone: "8 am UTC" is 08:00 UTC
# (grading version 17, v7 play-test c3-0006 P2).
# Its half of the day is a word of its own (``_HALF_DAY``).
_CLOCK = re.compile(r"(?:(?<![\d:])(\d{1,2})(?::|\s?h\s?)(\d{2})(?!\d)(?::\d{2})?\s*"
                    r"(?:" + _HALF_DAY + r")?"
                    r"|(?<![\d:.,])(1[0-2]|0?[1-9])\s?" + _HALF_DAY + r")"
                    r"(?:\s*\(?\s*((?:UTC|GMT)(?:[+-]\d{1,2}(?::?\d{2})?)?|Z\b))?", re.I)


# The end of a time range right after a clock: "-12:45", " – 14:45", " to 2:45 pm".
_RANGE_END = re.compile(r"\s*(?:-|\u2013|\u2014|to|until|till|bis)\s*\d{1,2}(?::|\s?h\s?)\d{2}"
                        r"(?!\d)(?:\s*" + _HALF_DAY + r")?", re.I)


def dates_in(text: str) -> set[str]:
    """Every calendar date ``text`` writes, as YYYY-MM-DD."""
    found: set[str] = set()

    def add(y: str, m: int | str, d: str) -> None:
        with contextlib.suppress(ValueError):
            found.add(date(int(y), int(m), int(d)).isoformat())

    for y, m, d in _ISO_DATE.findall(text):
        add(y, m, d)
    for a, b, y in _NUMERIC_DATE.findall(text):
        add(y, b, a)
        add(y, a, b)
    for d, mon, y in _DAY_MONTH.findall(text):
        add(y, _MONTHS[mon.lower()], d)
    for mon, d, y in _MONTH_DAY.findall(text):
        add(y, _MONTHS[mon.lower()], d)
    for d, mon, y in _DAY_RANGE.findall(text):
        add(y, _MONTHS[mon.lower()], d)
    return found


def dates_written(text: str, year: str) -> frozenset[str]:
    """Every calendar date ``text`` writes, one without a year ("21 August") read as in
    ``year``: whether a clock told beside it is on another day."""
    return _dates_of_year(text, year)


@lru_cache(maxsize=4096)  # a text's dates are read for each instant it is asked
def _dates_of_year(text: str, year: str, numeric: bool = False) -> frozenset[str]:
    """``dates_in``, with dates written without a year read as in ``year``; with
    ``numeric``, also a day and month in figures (``_day_months``)."""
    found = dates_in(text)
    if numeric:
        for month, day in _day_months(text):
            with contextlib.suppress(ValueError):
                found.add(date(int(year), month, day).isoformat())
    pairs = [(d, mon) for d, mon in _DAY_MONTH_NY.findall(text)]
    pairs += [(d, mon) for mon, d in _MONTH_DAY_NY.findall(text)]
    if numeric:  # grading's reading alone: the generator's checks stay as they were
        pairs += [(d, mon) for d, mon in _RANGE_START_NY.findall(text)]
        pairs += [(d, mon) for mon, d in _MONTH_RANGE_START_NY.findall(text)]
    for d, mon in pairs:
        if mon.islower() and mon.lower() in ("may", "mars", "mai"):  # "I may 3 times"
            continue
        with contextlib.suppress(ValueError):
            found.add(date(int(year), _MONTHS[mon.lower()], int(d)).isoformat())
    return frozenset(found)


# A day and month in figures without a year: "14/09", "09/14", "14.09." (a dotted one
# ends with its dot, as German and Scandinavian texts write it: "14.09" alone is a
# number). Not part of a longer date or number ("14/09/2026", "1.14.09.").
_SLASH_DAY_MONTH = re.compile(r"(?<![\d/.,])(\d{1,2})/(\d{1,2})(?![/.,]?\d)")
_DOT_DAY_MONTH = re.compile(r"(?<![\d/.,])(\d{1,2})\.(\d{1,2})\.(?![\d])")


def _day_months(text: str) -> list[tuple[int, int]]:
    """The (month, day) pairs a text writes in figures without a year where the
    reading is not in doubt (grading version 15, v6 play-test c3-0050): a dotted one
    is day first; a slashed one is read where only one order is a date (14/09, 09/14),
    both orders give the same date (09/09), or the text's other dates in figures settle
    its convention (14/09 or 14/09/2026 writes the day first, and none the month
    first). "05/09" alone stays unread. Generator-side checks (``loosely=False``) never
    read these."""
    pairs = [(int(b), int(a)) for a, b in _DOT_DAY_MONTH.findall(text)]
    slashed = [(int(a), int(b)) for a, b in _SLASH_DAY_MONTH.findall(text)]
    slashed += [(int(a), int(b)) for a, b, _ in _NUMERIC_DATE.findall(text)]
    day_first = any(a > 12 >= b for a, b in slashed)
    month_first = any(b > 12 >= a for a, b in slashed)
    for a, b in ((int(x), int(y)) for x, y in _SLASH_DAY_MONTH.findall(text)):
        if a > 12 >= b or a == b or (day_first and not month_first and max(a, b) <= 12):
            pairs.append((b, a))
        elif b > 12 >= a or (month_first and not day_first and max(a, b) <= 12):
            pairs.append((a, b))
    return pairs


def _offset(zone: str | None) -> str | None:
    """``+HH:MM`` for a written zone (Z, UTC, GMT, UTC+2, +0200, -05:00); None if unreadable."""
    rest = re.sub(r"^(?:UTC|GMT|Z)", "", (zone or "").strip(), flags=re.I)
    if not rest:
        return "+00:00"
    m = re.fullmatch(r"([+-])(\d{1,2})(?::?(\d{2}))?", rest)
    return f"{m[1]}{int(m[2]):02d}:{m[3] or '00'}" if m else None


def datetimes_in(text: str, bare: str | None = "+00:00", only: str | None = None) -> set[str]:
    """Every date-and-time ``text`` writes in ISO form, normalised to UTC minutes; one
    written without a zone is read at the offset ``bare`` (a range's start and end
    both at the zone written after it: "2026-08-23 08:00-08:45 UTC"); ``bare`` None:
    none but those with a zone. ``only``: just those written at that offset (a wall
    clock of that zone)."""
    norm = values.get("iso_datetime").normalise
    found: set[str] = set()
    for m in _ISO_DATETIME.finditer(text):
        day, clocks, zone = _read_iso(m)
        offsets = [_offset(zone)] if zone else _zone_after(text, m.end(), day) or [bare]
        for offset in offsets:
            if only is not None and offset != only:
                continue
            for hm in clocks if offset is not None else ():
                with contextlib.suppress(ValueError):
                    found.add(norm(f"{day}T{int(hm[:-3]):02d}:{hm[-2:]}:00{offset}"))
    return found


@lru_cache(maxsize=1)
def _zone_words() -> tuple[dict[str, tuple[str, ...]], re.Pattern[str]]:
    """(readings per written zone, the pattern that finds one after a clock time):
    abbreviations from ``data/world/zone_names.json``, "<City> time" from the
    gazetteer, and the same in the languages texts are asked in ("19h30, heure de
    Berlin", "ora di Berlino": ``city_time_before`` and the cities' exonyms)."""
    data = load_data("zone_names.json")
    abbr = {k: tuple(v) for k, v in data["abbreviations"].items()}
    cities = {c[0].casefold(): (c[3],) for c in load_data("cities.json")}
    local = dict(cities)
    for city, names in load_data("exonyms.json").items():
        if not city.startswith("_") and city.casefold() in cities:
            for name in names.values():
                for form in (name, _unaccented(name)):
                    local.setdefault(form.casefold(), cities[city.casefold()])
    readings = {**abbr, **local}
    names = "|".join(re.escape(c) for c in sorted(cities, key=len, reverse=True))
    codes = "|".join(sorted(abbr, key=len, reverse=True))
    any_name = "|".join(re.escape(c) for c in sorted(local, key=len, reverse=True))
    before = "|".join(re.escape(w).replace(r"\ ", r"\s+")
                      for w in sorted(data["city_time_before"], key=len, reverse=True))
    pattern = re.compile(rf"\s*(?:Uhr\s+|h\s+)?\(?\s*(?:(?-i:({codes}))(?![\w+-])"
                         rf"|(?:in\s+)?({names})(?:'s)?\s+(?:local\s+)?time\b"
                         rf"|,?\s*(?:{before})\s*({any_name})(?!\w))", re.I)
    return readings, pattern


def _zone_after(text: str, pos: int, day: str) -> list[str]:
    """The offsets a zone written right after a clock time at ``pos`` is read as on
    ``day`` ("MESZ": +02:00; "London time": +01:00 in August; "CET": +01:00, or the
    local time it loosely names); empty where none is written."""
    readings, pattern = _zone_words()
    m = pattern.match(text, pos)
    if m is None:
        return []
    out = []
    for r in readings[m[1] or (m[2] or m[3]).casefold()]:
        if r[0] in "+-":
            out.append(r)
            continue
        with contextlib.suppress(ValueError, KeyError):
            minutes = int(zones.offset(r, datetime.fromisoformat(f"{day}T12:00"))
                          .total_seconds() // 60)
            out.append(f"{'-' if minutes < 0 else '+'}{abs(minutes) // 60:02d}:"
                       f"{abs(minutes) % 60:02d}")
    return out


def _read_iso(m: re.Match[str]) -> tuple[str, tuple[str, ...], str]:
    """(day, clock times, zone) of an ISO datetime match. A "-HH:MM" after the time is
    an offset in the "T" form, after seconds, or where it would end a range before it
    starts ("2026-08-23 08:00-04:00"); else the end of a range ("08:00-08:45")."""
    day, sep, hm, secs, dash, end, zone = m.groups()
    if end and not zone and dash == "-" and (sep == "T" or secs or _minutes(end) <= _minutes(hm)):
        return day, (hm,), f"-{end}"
    return day, (hm, end) if end else (hm,), zone or ""


def _minutes(hm: str) -> int:
    h, _, m = hm.partition(":")
    return int(h) * 60 + int(m)


def _written_instants(text: str, year: str, bare: str | None, numeric: bool = False,
                      only: str | None = None) -> set[str]:
    """Each date ``text`` writes joined with each clock time it writes, in UTC
    minutes: a clock with a zone at that zone ("10:19 (UTC-5)"), one without at
    ``bare`` (None: none but those with a zone); ``only``: just the clocks read at that
    offset."""
    days = _dates_of_year(text, year, numeric)
    if not days:
        return set()
    norm = values.get("iso_datetime").normalise
    out: set[str] = set()
    for clock in _CLOCK.finditer(text):
        h, m, ampm, hour_only, half, zone = clock.groups()
        if hour_only:  # "8 am": the whole hour
            h, m, ampm = hour_only, "00", half
        hour = int(h)
        if ampm:
            hour = hour % 12 + (12 if ampm.lower().startswith("p") else 0)
        if hour >= 24 or int(m) >= 60:
            continue
        # a range's zone is written after its end ("12:00-12:45 Berlin time": both
        # ends Berlin's; grading version 26, toolmaze-v11 review c2-0086)
        after = clock.end()
        if not zone and (end := _RANGE_END.match(text, after)):
            after = end.end()
        for day in days:
            offsets = [_offset(zone)] if zone else _zone_after(text, after, day) \
                or [bare]
            for offset in offsets:
                if offset is None or (only is not None and offset != only):
                    continue
                with contextlib.suppress(ValueError):
                    out.add(norm(f"{day}T{hour:02d}:{m}:00{offset}"))
    return out


def _date_mentioned(text: str, type_name: str, value: Any, loosely: bool = True) -> bool:
    try:
        want = values.get(type_name).normalise(value)
    except (TypeError, ValueError, AttributeError):
        return False
    return want in _dates_of_year(text, str(want)[:4], numeric=loosely)


def _datetime_mentioned(text: str, type_name: str, value: Any, loosely: bool = True) -> bool:
    # A time written without a zone is the value's own clock: the local time a value
    # with an offset shows ("10:19" for 2026-08-27T10:19:00-05:00, as "2026-08-19 05:00
    # New York time"), never its UTC clock unlabelled ("15:19 local time" is five hours
    # off). Else a date and a clock time written apart ("29 Aug 2026, 08:00 UTC").
    # A clock glossed in brackets by another zone's that tells another instant tells
    # neither for sure: "13:00 Singapore time (13:00 UTC)" is no 21:00+08:00 told.
    return _instant_told(text, type_name, value, numeric=loosely, own_zone_only=False) \
        and not _gloss_disagrees(text, type_name, value)


def wall_clock_mentioned(text: str, type_name: str, value: Any) -> bool:
    """Whether ``text`` tells the datetime ``value`` as the clock of its own zone: a
    time written bare or with a zone read at the value's offset ("11:00 ora di Città
    del Messico", "11:13 local time" for 2026-08-19T11:13:00+02:00), not the same
    instant in another zone ("09:13 UTC"). A value with no offset is UTC's clock."""
    return _instant_told(text, type_name, value, numeric=True, own_zone_only=True)


def _instant_told(text: str, type_name: str, value: Any, numeric: bool,
                  own_zone_only: bool) -> bool:
    """Whether ``text`` writes the instant ``value``, a clock without a zone read at the
    value's own offset; ``own_zone_only``: only as a clock of that offset. The ISO
    datetimes read whole are not read again in pieces; their dates stay, for a clock
    written elsewhere ("2026-08-23 08:00 UTC ... 18:45 Sydney time")."""
    try:
        want = values.get(type_name).normalise(value)
    except (TypeError, ValueError, AttributeError):
        return False
    local = _LOCAL.match(str(value))
    own = "+00:00" if local is None or local[3] == "Z" else local[3]
    only = own if own_zone_only else None
    if want in datetimes_in(text, bare=own, only=only):
        return True
    rest = _ISO_DATETIME.sub(lambda m: f" {m[1]} ", text)
    if want in _written_instants(rest, str(value)[:4], own, numeric=numeric, only=only):
        return True
    # A text that writes no date at all tells a clock on the value's own day: the
    # request or the thread fixed it ("landing 09:11 (UTC+2)" in the trip's itinerary;
    # grading version 22, toolmaze-v10 play-test c4-0070, review c2-0002), as a zone
    # asked is read (``grading.zone_told.clock_told``). Generator-side checks
    # (``numeric`` False) never read it.
    return numeric and local is not None and _ISO_DATETIME.search(text) is None \
        and not _DAY_WORD.search(text) and not _dates_of_year(text, str(value)[:4], numeric=True) \
        and want in _written_instants(f"{rest} ({local[1]})", str(value)[:4], own,
                                      numeric=True, only=only)


# A day named by a word ("next Friday", "tomorrow", "Fri"): a text that writes one
# writes a date, right or wrong, so no clock of its is read on the value's day.
_DAY_WORD = re.compile(r"\b(?:mon|tue|tues|wed|thu|thur|thurs|fri|sat|sun)(?:day)?\b|\bwednesday\b"
                       r"|\bsaturday\b|\b(?:today|tonight|tomorrow|yesterday)\b", re.I)
_LOCAL = re.compile(r"^(\d{4}-\d{2}-\d{2})[T ](\d{2}:\d{2})(?::\d{2}(?:\.\d+)?)?"
                    r"(Z|[+-]\d{2}:\d{2})$")

# A bracket after a clock, in the same sentence: a gloss in another zone, "(13:00 UTC)"
_GLOSS = re.compile(r"\(([^()]*)\)")
_SENTENCE_START = re.compile(r"(?:^|(?<=[.!?;])\s+|\n)")


def _gloss_disagrees(text: str, type_name: str, value: Any) -> bool:
    """Whether ``text`` writes a clock with its zone and glosses it in brackets with a
    clock in another zone ("13:00 Singapore time ... (13:00 UTC)"), one of the two the
    instant ``value`` and the two never the same instant: a wrong conversion beside a
    right clock leaves the reader two times (toolmaze-v9 play-test c2-0041 P2, grading
    version 21). Unlabelled clocks are read at no zone here: "21:00 (13:00 UTC)" is a
    local clock and its UTC gloss."""
    if "(" not in text:
        return False
    try:
        want = values.get(type_name).normalise(value)
    except (TypeError, ValueError, AttributeError):
        return False
    day = str(value)[:10]
    bare = _GLOSS.sub(lambda g: " " * len(g[0]), text)  # brackets blanked, places kept
    for m in _GLOSS.finditer(text):
        glossed = _zoned_instants(m[1], day)
        if not glossed:
            continue
        start = max((s.end() for s in _SENTENCE_START.finditer(bare, 0, m.start())), default=0)
        seg = bare[start:m.start()]
        cut = _glossed_from(seg)
        dates = dates_in(seg[:cut])
        before = _zoned_instants(seg[cut:], min(dates) if len(dates) == 1 else day)
        if before and not before & glossed and want in before | glossed:
            return True
    return False


def _glossed_from(seg: str) -> int:
    """Where the clock a bracket glosses begins in ``seg`` (the sentence up to the
    bracket): the last clock written, or the range it ends. An earlier clock of the
    sentence is another event's ("departs 18:15 UTC and lands at 21:15 local time
    (19:15 UTC)": the gloss is the landing's; v21 play-test c4-0090 P1)."""
    clocks = list(_CLOCK.finditer(seg))
    if not clocks:
        return 0
    last = clocks[-1].start()
    return min((s.start() for s in _SPAN.finditer(seg) if s.start() < last < s.end()),
               default=last)


# A zone written right after a clock: "UTC", "(GMT+2)", "Z" (as ``_CLOCK`` reads one)
_UTC_AFTER = re.compile(r"\s*\(?\s*(?:(?:UTC|GMT)(?:[+-]\d{1,2}(?::?\d{2})?)?|Z\b)", re.I)


def _range_starts_zoned(text: str) -> str:
    """``text`` with a range's start written with the zone written after its end
    ("08:00-08:30 UTC" as "08:00 UTC and 08:30 UTC"): the zone is both ends'."""
    _, pattern = _zone_words()

    def zoned(m: re.Match[str]) -> str:
        after = _UTC_AFTER.match(text, m.end()) or pattern.match(text, m.end())
        if after is None:
            return m[0]
        start = text[m.start(): m.end(3) if m[3] else m.end(2)]
        return f"{start} {after[0].strip()} and {text[m.start(4): m.end()]}"

    return _SPAN.sub(zoned, text)


def _zoned_instants(text: str, day: str) -> set[str]:
    """The instants of the clocks ``text`` writes with a zone, on the dates it writes
    or else on ``day``; a range's start at the zone written after its end."""
    rest = _range_starts_zoned(_ISO_DATETIME.sub(lambda m: f" {m[1]} ", text))
    found = datetimes_in(text, bare=None)
    if _CLOCK.search(rest):
        found |= _written_instants(f"{rest} ({day})", day[:4], None)
    return found


# ---------------------------------------------------------------- text and names

_QUOTES = str.maketrans({"\u2018": "'", "\u2019": "'", "\u201c": '"', "\u201d": '"'})
_EDGE = " \t\n.,;:!?\"'()[]{}<>«»"


def _flat(text: str) -> str:
    return " ".join(text.translate(_QUOTES).casefold().split())


# Leading articles a phrase of the request may carry that a text need not repeat
# ("Quarterly bookkeeping" for "the quarterly bookkeeping"): en, es, fr, de, it, pt.
_ARTICLES = frozenset((
    "the", "a", "an",  # en
    "el", "la", "los", "las", "un", "una", "unos", "unas",  # es
    "le", "les", "une", "des",  # fr
    "der", "die", "das", "den", "dem", "ein", "eine", "einen", "einem", "einer", "eines",  # de
    "il", "lo", "gli", "uno",  # it
    "o", "os", "as", "um", "uma", "uns", "umas"))  # pt
_ELIDED = ("l'", "un'")  # "l'ordre du jour", "un'offerta"


# The labels a tool's generated text opens with ("Price: 7,620.00 EUR (Euro)",
# text.format_price; data/world/generated_texts.json). Only these: a request's own
# "Quote: 40 × ..." is a subject, not a label and a value.
GENERATED_LABELS = frozenset({"Price"})
_LABELLED = re.compile(r"(?P<label>[^\W\d_]+): (?P<rest>\S.*)", re.S)


def unlabelled(value: str) -> str:
    """``value`` without a generated text's label: "7,620.00 EUR (Euro)" for
    "Price: 7,620.00 EUR (Euro)". Dropped into a sentence's hole the label reads as
    a form's ("We received Price: ..."), so a request's texts leave it out and a text
    that does still mentions the value."""
    m = _LABELLED.fullmatch(value)
    return m.group("rest") if m and m.group("label") in GENERATED_LABELS else value


@lru_cache(maxsize=4096)  # the same asked phrase is looked for in every text of a grade
def _phrases(value: str) -> tuple[str, ...]:
    """The forms of a phrase a text may carry: whole, without a leading article, and
    without a generated text's label (``unlabelled``)."""
    needle = _flat(value).strip(_EDGE)
    if not needle:
        return ()
    rest = _flat(unlabelled(value.strip())).strip(_EDGE)
    if rest != needle:
        return needle, rest
    first, _, rest = needle.partition(" ")
    if first in _ARTICLES and rest:
        return needle, rest
    for elided in _ELIDED:
        if needle.startswith(elided) and len(needle) > len(elided):
            return needle, needle[len(elided):]
    return (needle,)


def _in_word(c: str) -> bool:
    """Whether ``c`` is part of a word that spaces delimit: letters and digits of the
    scripts written with spaces (Chinese and Japanese run words together)."""
    return c.isalnum() and c < "\u2e80"


def _contains_words(hay: str, needle: str) -> bool:
    """Whether ``needle`` is in ``hay`` and no longer word holds either of its ends
    ("quarterly bookkeeping" is not in "biquarterly bookkeepings")."""
    start = hay.find(needle)
    while start >= 0:
        end = start + len(needle)
        if not (_in_word(needle[0]) and start > 0 and _in_word(hay[start - 1])) and \
                not (_in_word(needle[-1]) and end < len(hay) and _in_word(hay[end])):
            return True
        start = hay.find(needle, start + 1)
    return False


def _text_mentioned(text: str, value: Any) -> bool:
    hay = _flat(text)
    return any(_contains_words(hay, n) for n in _phrases(str(value)))


# People join names with these ("Seoul-Milan", "Seoul–Milan", "Seoul/Milan").
_JOINERS = "-/\u2010\u2011\u2012\u2013\u2014\u2015"
# A sheet row's cells, written "Hotel,245.73,EUR" (grading version 19, v8 play-test
# c3-0031: "245.73,EUR" named no currency, one word to the splitter): a comma or
# semicolon apart words like a space, except between two digits ("1,250.00", "245,73").
_CELLS = ",;"
_SIGILS = "#@"  # a channel's "#", a handle's "@": how the name is written, not the name
# A plain name or code: words of letters and digits, apart by spaces, apostrophes,
# "&", joiners or an abbreviating ". " ("St. Louis", "O'Hare", "release-train").
_PLAIN = re.compile(r"\w+(?:(?:[\s'\u2019&]|\.\s|[-\u2010-\u2015])+\w+)*\.?")


def _words(text: str, value: str) -> list[str]:
    """``text``'s words for finding ``value``: split at spaces and at the joiners.

    A joiner the value itself contains is part of a word ("release-train",
    "BK-7Q2X9ZLM"), so the value is never found inside a longer word built with it
    ("release-train-2"); every other joiner splits like a space, and so does a
    sheet row's cell separator (``_CELLS``) the value does not contain. Values that are not
    plain names or codes (e-mail addresses, URLs, file names) are found only whole,
    between spaces: "bob-ana@example.com" is not "ana@example.com".
    """
    joiners = "".join(c for c in _JOINERS if c not in value)
    if not joiners or not _PLAIN.fullmatch(value.strip(_EDGE).lstrip(_SIGILS)):
        return text.split()
    cells = "".join(c for c in _CELLS if c not in value)
    apart = rf"|(?<!\d)[{cells}]|[{cells}](?!\d)" if cells else ""
    return [w for w in re.split(rf"\s+|[{re.escape(joiners)}]{apart}", text) if w]


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


def spoken_forms(type_name: str, value: Any, *, loosely: bool = True) -> tuple[str, ...]:
    """Other ways people write ``value`` than the value itself: a language code by
    the language's name ("es": "Spanish"), an IANA zone by its city ("America/Toronto":
    "Toronto time"), as queries and texts do. ``loosely=False`` (the generator) names a
    train by a two-character operator code only, as toolmaze-v5 was built."""
    if type_name == "language_code" and isinstance(value, str):
        name = load_data("languages.json").get(value.strip().lower())
        return (name,) if name else ()
    if type_name in SERVICE_IDS and isinstance(value, str):
        m = (_SERVICE_ID if loosely else _SERVICE_ID_BUILT).match(value.strip())
        if not m:
            return ()
        return (m[1], *_spaced(m[1])) if loosely else (m[1],)
    if type_name == "timezone" and isinstance(value, str) and "/" in value:
        return (value.rsplit("/", 1)[1].replace("_", " ") + " time",)  # "Toronto time"
    return ()


@lru_cache(maxsize=256)
def _exonyms(city: str) -> tuple[str, ...]:
    """A city's names in the languages texts are asked in ("Estambul" for Istanbul,
    ``data/world/exonyms.json``), also without their accents ("Munich" aside)."""
    names = load_data("exonyms.json").get(city) or {}
    if not isinstance(names, dict):
        return ()
    forms = [*names.values(), *(_unaccented(n) for n in names.values())]
    return tuple(dict.fromkeys(f for f in forms if f.casefold() != city.casefold()))


def _unaccented(text: str) -> str:
    return "".join(c for c in unicodedata.normalize("NFKD", text)
                   if not unicodedata.combining(c))


# A flight or train is named by its service number ("EC4298", "LH6014", "ICE5447"); the
# ids here add the route and the day ("EC4298-ZRHMUC-20260831"), which no traveller
# writes. A rail operator's code may have three letters (ICE, TGV, AWC:
# ``data/world/travel.json``), an airline's two characters (U2, W6).
SERVICE_IDS = frozenset({"train_id", "flight_id"})
_SERVICE_ID = re.compile(r"^([A-Z0-9]{2,3}\d{1,5})-[A-Z]{6}-\d{8}$")
_SERVICE_ID_BUILT = re.compile(r"^([A-Z0-9]{2}\d{1,5})-[A-Z]{6}-\d{8}$")  # before version 13


def _spaced(number: str) -> tuple[str, ...]:
    """A service number as timetables and people also write it, a space between the
    operator code and the number ("ICE 4215", "LH 6014"; grading version 15, v6
    play-test c4-0081). The code is three letters (a rail operator) or two characters
    (an airline's, "U2 123"); a split whose rest is not all digits is no reading."""
    splits = [k for k in (2, 3) if number[k:].isdigit() and (k == 2 or number[:3].isalpha())]
    return tuple(f"{number[:k]} {number[k:]}" for k in splits)


# ---------------------------------------------------------------- the rule


def mentions(text: Any, type_name: str, value: Any, *, loosely: bool = True) -> bool:
    """Whether free text ``text`` mentions ``value`` of semantic type ``type_name``.

    ``loosely=False`` leaves out the readings that tell a value without writing it (a
    temperature in whole degrees, a duration by a time range): whether a *corrupted*
    value reached a text (over-trust, claims) and what a request already states (the
    generator) are asked of the written figure, so 19 °C told for a setpoint of 19.0 is
    not a corrupted reading of 18.92 passed on."""
    if not isinstance(text, str) or value is None:
        return False
    try:
        return _mentions(text, type_name, value, loosely)
    except TypeError:  # an unhashable value (a list or a dict): not cached
        return _mention_rule(text, type_name, value, loosely)


@lru_cache(maxsize=8192)  # the same text is checked on every valid path; bounded
def _mentions(text: str, type_name: str, value: Any, loosely: bool = True) -> bool:
    return _mention_rule(text, type_name, value, loosely)


def _mention_rule(text: str, type_name: str, value: Any, loosely: bool = True) -> bool:
    if type_name == "weather_condition" and isinstance(value, str):
        text = without_wider_conditions(text, value)
    t = values.get(type_name) if type_name else None
    kind = t.schema.get("type") if t is not None else None
    if type_name == FREE_TEXT or (t is None and isinstance(value, str) and " " in value):
        return _text_mentioned(text, value)
    if type_name in DATE_TYPES:
        return _date_mentioned(text, type_name, value, loosely)
    if type_name in DATETIME_TYPES:
        return _datetime_mentioned(text, type_name, value, loosely)
    if kind in ("number", "integer") or (t is None and is_number(value)):
        return _number_mentioned(text, type_name, value, loosely)
    # A city may be written as the text's language names it ("Estambul"); the request
    # itself still names it in English, so exonyms are no ``spoken_forms``.
    others = (*spoken_forms(type_name, value, loosely=loosely),
              *(_exonyms(value.strip()) if type_name == "city_name" and isinstance(value, str)
                else ()))
    return _named(text, type_name, value) or any(_named(text, "", v) for v in others) \
        or (type_name == "currency_code"
            and (_signed(text, value) or _named_currency(text, value))) \
        or (type_name in STATUS_TYPES and isinstance(value, str) and status_told(text, value)) \
        or (type_name == "flight_status" and isinstance(value, str)
            and flight_status_told(text, value))


def without_wider_conditions(text: str, condition: str) -> str:
    """``text`` less every other weather condition whose name holds ``condition`` as a
    word: "light rain" says no rain and "partly cloudy" no cloudy day (grading version
    31, toolmaze-v14 review c2-0087, c2-0026: both passed on the word inside)."""
    wider = _wider_conditions(condition.strip().casefold())
    return wider.sub(" ", text) if wider is not None else text


@lru_cache(maxsize=16)
def _wider_conditions(condition: str) -> re.Pattern[str] | None:
    names = [c for c in load_data("condition_synonyms.json")["synonyms"]
             if c != condition and re.search(rf"\b{re.escape(condition)}\b", c)]
    if not names:
        return None
    return re.compile("|".join(rf"\b{re.escape(n)}\b" for n in names), re.I)


def _signed(text: str, code: Any) -> bool:
    """A currency by the sign written beside an amount ("£192.00", "192,00 €", "1.250 kr"),
    as ``data/world/currency_signs.json`` lists them."""
    signs = load_data("currency_signs.json").get(str(code).strip().upper(), ())
    return any(_sign_pattern(sign).search(text) for sign in signs)


def _named_currency(text: str, code: Any) -> bool:
    """A currency by its English name right after an amount ("570 Swiss francs",
    "509.42 pounds"), as ``data/world/currency_names.json`` lists them: a push that
    says "570 Swiss francs" tells CHF as "570 CHF" does (v21 play-test c3-0058 P1).
    Only right after a figure, so a qualified name ("570 Canadian dollars") is not the
    bare one ("dollars", USD) and a word elsewhere ("won the bid") says no currency."""
    pattern = _name_pattern(str(code).strip().upper())
    return pattern is not None and pattern.search(text) is not None


@lru_cache(maxsize=64)
def _name_pattern(code: str) -> re.Pattern[str] | None:
    names = load_data("currency_names.json").get(code, ())
    if not names:
        return None
    alts = "|".join(re.escape(n) for n in sorted(names, key=len, reverse=True))
    return re.compile(rf"\d\s?(?:{alts})(?!\w)", re.IGNORECASE)


@lru_cache(maxsize=64)
def _sign_pattern(sign: str) -> re.Pattern[str]:
    s = re.escape(sign)
    # Not inside a longer sign ("US$" is no bare "$", "E£" no bare "£") or a word.
    return re.compile(rf"(?<![\w$£¥]){s}\s?[-−]?\d|\d\s?{s}(?![\w$])")


def mentions_all(text: Any, required: Iterable[tuple[str, Any]], *,
                 loosely: bool = True) -> bool:
    """Whether ``text`` mentions every (type, value) pair of ``required`` (further
    items of an entry, such as where the value came from, are ignored)."""
    return all(mentions(text, m[0], m[1], loosely=loosely) for m in required)
