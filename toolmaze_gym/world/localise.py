"""Dates and units in a translated text as its language writes them (world edition 4,
``localised_dates_units``; issue 28, the toolmaze-v6 review).

A translator fills a template's translation with the values of the English text, and
edition 3 kept them as they were: "Tu hotel está reservado desde el Monday 31 August",
"maximale 26.3 C / 79.3 F" (toolmaze-v6 c4-0068, c2-0058). A date the English says as
"Monday 31 August" is said as the language says it (``data/world/date_forms.json``:
"lunes 31 de agosto", "mercredi 26 août"), and a temperature's bare "C" or "F" after
a figure is written "°C" / "°F", as every one of those languages writes it. Figures
keep their decimal point: a grader reads the value the tool answered.
"""

from __future__ import annotations

import re
from functools import cache

from toolmaze_gym.world.base import load_data

_WEEKDAYS = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")
_MONTHS = ("January", "February", "March", "April", "May", "June", "July", "August",
           "September", "October", "November", "December")
_DATE = re.compile(rf"\b({'|'.join(_WEEKDAYS)}) (\d{{1,2}}) ({'|'.join(_MONTHS)})\b")
_UNIT = re.compile(r"(?<=\d) ([CF])\b(?![\w°-])")


@cache
def _forms() -> dict[str, dict]:
    return {k: v for k, v in load_data("date_forms.json").items() if not k.startswith("_")}


def _date(m: re.Match[str], form: dict) -> str:
    day = int(m.group(2))
    return form["form"].format(
        weekday=form["weekdays"][_WEEKDAYS.index(m.group(1))],
        day=form.get("first_day", str(day)) if day == 1 else str(day),
        month=form["months"][_MONTHS.index(m.group(3))])


def localised(text: str, target: str) -> str:
    """``text`` (a translation into ``target``) with its English dates said as
    ``target`` says them and its temperatures' units written with a degree sign;
    a language without date forms here keeps its dates."""
    form = _forms().get(target)
    if form is not None:
        text = _DATE.sub(lambda m: _date(m, form), text)
    return _UNIT.sub(lambda m: f" °{m.group(1)}", text)
