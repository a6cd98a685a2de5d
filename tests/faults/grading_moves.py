"""Fault profiles a later grading version would place otherwise, kept as shipped.

A suite's fault profiles are built with the grader of their day: a step the grader lets a
careful agent skip takes no fault (``faults.skippable``). Grading version 23 reads "(when
will it come?)" as asking the order's delivery date (``grading/asked_delivery.py``), so
the beach-week task's shipping quote, the one step that tells that date, is no longer
skippable, and a rebuild faults it too in the explicit modes that fault every branch a
careful agent takes (P1, P2). The shipped suites keep their profiles as played: fewer
faults, each still on a step every careful agent takes; the next suite is built with the
rule."""

# suite -> {(task, mode): the slot a rebuild adds as a victim}
DELIVERY_QUOTE_VICTIMS = {
    suite: {(task, mode): "s5" for mode in ("P1", "P2")}
    for suite, task in (("toolmaze-v8", "tmz-v8-c4-0024"),
                        ("toolmaze-v10", "tmz-v10-c4-0024"))
}


def moved_by_grading(suite: str) -> dict[tuple[str, str], str]:
    """The (task, mode) profiles of ``suite`` a rebuild under today's grader changes,
    with the victim slot it adds."""
    return DELIVERY_QUOTE_VICTIMS.get(suite, {})
