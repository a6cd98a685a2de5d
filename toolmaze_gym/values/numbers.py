"""What counts as a number in a JSON value: ``is_number``.

Python's ``bool`` is a subclass of ``int`` (``isinstance(True, int)`` holds and
``True == 1``), so a bare ``isinstance(v, int | float)`` lets a JSON ``true`` read as
the figure 1 and ``false`` as 0: a boolean field would then be summed, compared with an
amount, or "mentioned" by any text that writes a 1. Every check for a number in a tool's
arguments or response therefore excludes bools, and this module is that one check.

It sits in ``values`` (near the bottom of the layers: world -> values -> corpus -> tasks
-> faults -> episode -> grading) and imports only the standard library, so any layer
may use it.
"""

from __future__ import annotations

from typing import TypeGuard

# A tuple, not ``int | float``: ``isinstance`` reads a tuple at half the cost of a union
# built anew on every call, and the grader asks this 130,000 times per 2,000 episodes.
_NUMERIC = (int, float)


def is_number(value: object) -> TypeGuard[int | float]:
    """Whether ``value`` is an int or a float and not a bool (``True`` is no 1).

    Only the type is checked: NaN and the infinities are floats, so they are numbers
    here; a caller that needs a finite value checks ``math.isfinite`` as well.
    """
    return isinstance(value, _NUMERIC) and not isinstance(value, bool)
