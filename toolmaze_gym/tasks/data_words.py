"""Words of a request (and its goal) that the world's data must bear out.

The toolmaze-v8 blind review (tests/data/reviews/v8) found requests whose words the
data behind them contradict:

* c1-0073 "put our office thermostat there on the eco setpoint": the room is the
  world's home room "office" (one home per city, ``world.devices``), read as the
  workplace. A home room "office" is said "home office" after "our"/"my" (the
  generator, ``scenario_gen._fill``), never "our office".
* c4-0072 "Warm up a chilly room" of a living room at 19.7 °C: a room is called
  chilly or cold only where the world's reading there is below ``CHILLY_BELOW_C``.
* c4-0014 "latest earnings" of 2025-Q3 in August 2026: a goal or request that says
  "latest" earnings or results asks the world's latest reported quarter
  (``markets.reported_quarters()[0]``), or does not say "latest".

The toolmaze-v9 review's c4-0010 asked the "2024-Q2 EPS" of two stocks in August 2026:
on a world that draws the latest quarter (edition 7, ``latest_quarter_asked``) every
quarter a request names is the latest reported one, so earnings asked are news.

``data_word_problems`` reads a generated task with the scenario's goal and the world.
"""

from __future__ import annotations

import re
from typing import Any

from toolmaze_gym.tasks.model import Task

CHILLY_BELOW_C = 18.0  # below a usual 18-20 °C indoor comfort band: "chilly" fits
# said of a room, not of the weather ("a cold snap", "how cold it is outside")
_CHILLY = re.compile(r"\b(?:chilly|cold)\b(?! snap| night| weather| front| spell"
                     r"| it is out| it's out| it gets| outside| out there)", re.I)
_OUR_OFFICE = re.compile(r"\b(?:our|my)\s+office\b", re.I)
_LATEST = re.compile(r"\b(?:latest|most recent|last)\s+(?:\w+\s+)?(?:earnings|results|quarter)\b",
                     re.I)


def _literals(task: Task, type_: str) -> list[tuple[str, Any]]:
    """(slot id, value) of each literal input of ``type_``."""
    return [(s.id, i.source.value) for s in task.slots for i in s.inputs
            if i.type == type_ and i.source.is_literal]


def _room_readings(task: Task, world) -> list[float]:
    """The world's temperature in each room the task reads (room and site literal)."""
    out = []
    for s in task.slots:
        lit = {i.type: i.source.value for i in s.inputs if i.source.is_literal}
        if "home_room" in lit and "city_name" in lit and "temperature_c" not in {
                i.type for i in s.inputs}:
            out.append(world.devices.room_climate(lit["city_name"], lit["home_room"]).temp_c)
    return out


def data_word_problems(task: Task, goal: str, world) -> list[str]:
    """Each word of ``task``'s request or ``goal`` that the world's data contradict."""
    words = f"{goal}\n{task.query}"
    out = []
    if any(str(v).lower() == "office" for _, v in _literals(task, "home_room")) \
            and _OUR_OFFICE.search(task.query):
        out.append("says \"our office\" of the home room \"office\": a workplace to a "
                   "reader; say \"home office\"")
    readings = _room_readings(task, world)
    if _CHILLY.search(words) and readings and min(readings) >= CHILLY_BELOW_C:
        out.append(f"calls a room chilly or cold at {min(readings)} °C (chilly only below "
                   f"{CHILLY_BELOW_C} °C): use a neutral word")
    quarters = _literals(task, "fiscal_quarter")
    latest = world.markets.reported_quarters()[0]
    if _LATEST.search(words) and any(q != latest for _, q in quarters):
        out.append(f"says the latest earnings of {sorted({q for _, q in quarters})} where "
                   f"the latest reported quarter is {latest}: ask that one, or drop \"latest\"")
    old = sorted({q for _, q in quarters if q != latest})
    if old and world.has("latest_quarter_asked"):
        out.append(f"asks the earnings of {old}, not of the latest reported quarter "
                   f"{latest}: a request asks a recent quarter")
    return out
