"""Tasks: DAG assembly, validation, enumeration, queries and suites."""

from toolmaze_gym.tasks.model import LEVELS, Call, Input, Slot, SolutionPath, Source, Task

__all__ = ["LEVELS", "Call", "Input", "Slot", "SolutionPath", "Source", "Task"]
