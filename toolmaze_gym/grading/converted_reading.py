"""A °F figure converted from a reading the agent worked out itself carries that
reading's rounding.

A dew point is a computed figure: the tool prints 15.4 °C, the agent that applies the
documented Magnus rule itself has 15.448 °C, and its °F is 59.8 where the tool's
chain (15.4 °C, then °F) gives 59.7 (v7 play-test c2-0078 P3). Both are right to the
tool's tenth: the °C reading's half a tenth becomes 0.09 °F after the conversion. So
where a text must tell a °F figure converted from a Processor's °C output, a figure
with a degree unit within the two figures' rounding plus that carried slack says it
(grading version 17): 59.8 °F for 59.7, never 59.9. A °F figure converted from a
reading a Source printed (a forecast's high) keeps no such slack: nobody had the
unrounded reading, so 84.3 °F is no 84.4.
"""

from __future__ import annotations

from typing import Any

from toolmaze_gym.mentions import finer_within
from toolmaze_gym.values.numbers import is_number

CONVERTED_F = "converted_f"  # a pseudo type: (CONVERTED_F, °F value of a computed °C)
CARRIED = 1.8  # the °C reading's half-unit of rounding, in °F per °C


def converted_said(text: str, value: Any) -> bool:
    """Whether ``text`` tells the °F ``value`` as converted from the unrounded reading."""
    if not is_number(value):
        return False
    return finer_within(text, float(value), CARRIED)
