"""Grading: a trajectory → its grade, one evaluator per criterion.

* ``arguments``  whether a call's arguments are the expected ones (types, free text);
* ``index``      what a task expects, as bindings resolved per episode;
* ``resolution`` a trajectory against each valid path, values from the episode;
* ``trace``      the trajectory matched once, for later questions;
* ``overtrust``  corrupted values passed on;
* ``costs``      c* and the remaining optimal cost;
* ``grade``      the grade (success, exposure, recovery, costs, labels).

The rules for users are in docs/grading.md.
"""

from toolmaze_gym.grading.arguments import Matcher, TextRule, matches
from toolmaze_gym.grading.costs import optimal_cost, remaining_optimal
from toolmaze_gym.grading.grade import (
           GRADING_VERSION,
           LABELS,
           RETRY_LOOP,
           Grade,
           grade,
           grade_record,
)
from toolmaze_gym.grading.index import TaskIndex, no_alternative, task_index
from toolmaze_gym.grading.overtrust import propagated

__all__ = ["GRADING_VERSION", "LABELS", "RETRY_LOOP", "Grade", "Matcher", "TaskIndex",
           "TextRule", "grade", "grade_record", "matches", "no_alternative", "optimal_cost",
           "propagated", "remaining_optimal", "task_index"]
