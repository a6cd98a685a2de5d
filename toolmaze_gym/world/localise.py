"""Dates and units in a translated text as its language writes them (world edition 4,
``localised_dates_units``; issue 28, the toolmaze-v6 review).

A translator fills a template's translation with the values of the text it is given,
and edition 3 kept them as they were: "Tu hotel está reservado desde el Monday 31
August", "maximale 26.3 C / 79.3 F" (toolmaze-v6 c4-0068, c2-0058). A date said in
any language here ("Monday 31 August", "lunes 31 de agosto") is said as the target
language says it (``data/world/date_forms.json``), a time with its zone on that date
("09:00 UTC on Sunday 23 August") as the language orders them ("zondag 23 augustus,
09:00 UTC"), and a temperature's bare "C" or "F" after a figure is written "°C" /
"°F", as each of those languages writes it. Figures keep their decimal point: a
grader reads the value the tool answered. Translating back gives the English again.
"""

from __future__ import annotations

import re
from functools import cache

from toolmaze_gym.world.base import load_data

_ENGLISH = {
    "form": "{weekday} {day} {month}", "datetime": "{clock} {zone} on {date}",
    "weekdays": ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"],
    "months": ["January", "February", "March", "April", "May", "June", "July", "August",
               "September", "October", "November", "December"],
}
_CLOCK = r"(?P<clock>\d{1,2}:\d{2}(?::\d{2})?) (?P<zone>UTC(?:[+-]\d{2}:\d{2})?)"
_UNIT = re.compile(r"(?<=\d) ([CF])\b(?![\w°-])")


def weekday_names() -> dict[str, tuple[str, ...]]:
    """Each language's weekday names, Monday first, English included."""
    return {code: tuple(form["weekdays"]) for code, form in _forms().items()}


@cache
def _forms() -> dict[str, dict]:
    data = load_data("date_forms.json")
    return {"en": _ENGLISH, **{k: v for k, v in data.items() if not k.startswith("_")}}


def _alternation(words: list[str]) -> str:
    return "(?:" + "|".join(re.escape(w) for w in sorted(words, key=len, reverse=True)) + ")"


def _date_rx(form: dict) -> str:
    """A language's date form as a pattern with the groups weekday, day and month."""
    first = re.escape(form.get("first_day", "1"))
    weekday = f"(?P<weekday>{_alternation(form['weekdays'])})"
    rx = re.escape(form["form"]).replace(r"\{weekday\}", weekday)
    rx = rx.replace(r"\{day\}", rf"(?P<day>{first}|\d{{1,2}})")
    return rx.replace(r"\{month\}", f"(?P<month>{_alternation(form['months'])})")


@cache
def _patterns() -> tuple[tuple[dict, re.Pattern[str], re.Pattern[str]], ...]:
    """(form, a datetime pattern, its date pattern) of every language, English first:
    one row per way the language orders a time on a date."""
    out = []
    for form in _forms().values():
        date_rx = _date_rx(form)
        for order in dict.fromkeys((_order(form, False), _order(form, True))):
            dt = re.escape(order)
            dt = dt.replace(r"\{date\}", date_rx).replace(r"\{clock\}\ \{zone\}", _CLOCK)
            out.append((form, re.compile(rf"(?<!\w){dt}(?!\w)"),
                        re.compile(rf"(?<!\w){date_rx}(?!\w)")))
    return tuple(out)


def _order(form: dict, clock_first: bool) -> str:
    """How ``form``'s language says a time on a date: its clock-first order (world
    edition 5) where it has one and ``clock_first`` asks it, else its own."""
    own = form.get("datetime", "{date}, {clock} {zone}")
    return form.get("datetime_clock_first", own) if clock_first else own


def _date(m: re.Match[str], source: dict, target: dict) -> str:
    day = 1 if m.group("day") == source.get("first_day") else int(m.group("day"))
    return target["form"].format(
        weekday=target["weekdays"][source["weekdays"].index(m.group("weekday"))],
        day=target.get("first_day", "1") if day == 1 else str(day),
        month=target["months"][source["months"].index(m.group("month"))])


def _datetime(m: re.Match[str], source: dict, target: dict, clock_first: bool) -> str:
    return _order(target, clock_first).format(
        date=_date(m, source, target), clock=m.group("clock"), zone=m.group("zone"))


def localised(text: str, target: str, clock_first: bool = False) -> str:
    """``text`` (a translation into ``target``) with its dates, and times on a date,
    said as ``target`` says them, and its temperatures' units written with a degree
    sign; a language without date forms here keeps its dates. With ``clock_first``
    (world edition 5, ``clock_first_datetimes``) a time on a date is said clock first,
    "a las 11:45 UTC del viernes 21 de agosto", not "a las viernes 21 de agosto,
    11:45 UTC" (toolmaze-v7 c4-0042)."""
    goal = _forms().get(target)
    if goal is not None:
        rows = [(form, dt_rx, date_rx) for form, dt_rx, date_rx in _patterns()
                if form is not goal]
        for form, dt_rx, _ in rows:  # times on a date first: any order a language has
            text = dt_rx.sub(lambda m, f=form: _datetime(m, f, goal, clock_first), text)
        for form, _, date_rx in rows:
            text = date_rx.sub(lambda m, f=form: _date(m, f, goal), text)
    return _UNIT.sub(lambda m: f" °{m.group(1)}", text)
