"""A check before an Action decides nothing the grade disagrees with.

toolmaze-v5's c4-0092 asked to "lock the back door after checking its state" and
required the lock command even where the check showed the door locked; a careful
reader who sees "locked" has nothing to do and fails. Where a scenario reads a
device's state and then sets it (a lock's state, a light's power), the draw must
show the state the Action changes: a premise on the checked value (``premises =
["lock_state.locked == false"]``), so the check and the Action agree in every task.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from toolmaze_gym.tasks.scenarios import Scenario

# Action behaviour -> (the check behaviour that reads the same device, the key it reads)
CHECKED_BY: dict[str, tuple[str, str]] = {
    "iot.lock": ("iot.lock_status", "locked"),
    "iot.set_light_power": ("iot.light_state", "on"),
}


def check_then_act_problems(sc: Scenario) -> list[str]:
    """Every check-then-act pair whose checked value no premise fixes."""
    where = f"{sc.file}: {sc.id}"
    fixed = {o.ref for p in sc.premises for o in p.operands if o.kind == "field"}
    out = []
    for act in sc.steps:
        if act.use not in CHECKED_BY:
            continue
        check_use, key = CHECKED_BY[act.use]
        for check in sc.steps:
            ref = f"{check.id}.{key}"
            if check.use == check_use and ref not in fixed:
                out.append(f"{where}.steps.{act.id}: acts after step {check.id!r} checks the "
                           f"state, which may already be the one asked; add a premise on "
                           f"{ref!r} (the state the Action changes)")
    return out
