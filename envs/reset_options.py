"""The arguments of ``ToolMazeEnv.reset``, checked before anything changes.

``reset`` is not ``step``: a wrong argument is the caller's bug, not an agent's
move, so it raises, and (as Gymnasium's own envs do for bad arguments) it always
raises ``ValueError`` with one line naming the argument and what it takes, never
an ``AttributeError``, ``KeyError`` or ``TypeError`` from deep inside.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np

from toolmaze_gym.faults import get_mode
from toolmaze_gym.tasks.model import LEVELS, Task


@dataclass(frozen=True)
class ResetOptions:
    """What a reset's ``options`` ask for; None where they leave the env's choice."""

    task: Task | None = None
    task_id: str | None = None
    level: str | None = None
    mode: str | None = None


def check_seed(seed: Any) -> int | None:
    """``seed`` as an int, or None; a float, text, bool or negative seed is refused
    (it would reach NumPy's seeding as a TypeError, or silently pick another task)."""
    if seed is None:
        return None
    if isinstance(seed, bool) or not isinstance(seed, int | np.integer) or seed < 0:
        raise ValueError(f"reset(seed=...) takes a non-negative int or None, got {seed!r}")
    return int(seed)


def check_options(options: Any) -> ResetOptions:
    """The ``options`` of a reset, each known key checked; other keys are ignored."""
    if options is None:
        return ResetOptions()
    if not isinstance(options, Mapping):
        raise ValueError(f"reset(options=...) takes a dict or None, got {_kind(options)}")
    return ResetOptions(task=_task(options), task_id=_task_id(options),
                        level=_level(options), mode=_mode(options))


def _task(options: Mapping[str, Any]) -> Task | None:
    if "task" not in options:
        return None
    t = options["task"]
    if isinstance(t, Task):
        return t
    if not isinstance(t, Mapping):
        raise ValueError(f"reset option 'task' takes a Task or a task's dict (Task.to_dict()), "
                         f"got {_kind(t)}")
    try:
        return Task.from_dict(dict(t))
    except KeyError as exc:
        raise ValueError(f"reset option 'task': the task's dict has no {exc.args[0]!r}") \
            from None
    except (TypeError, ValueError, AttributeError, IndexError) as exc:
        raise ValueError(f"reset option 'task' is not a task's dict: {exc}") from None


def _task_id(options: Mapping[str, Any]) -> str | None:
    if "task_id" not in options:
        return None
    value = options["task_id"]
    if not isinstance(value, str):
        raise ValueError(f"reset option 'task_id' takes a task id (text), got {_kind(value)}")
    return value


def _level(options: Mapping[str, Any]) -> str | None:
    value = options.get("level")
    if "level" in options and value not in LEVELS:
        raise ValueError(f"reset option 'level' takes one of {', '.join(LEVELS)}, "
                         f"got {value!r}")
    return value


def _mode(options: Mapping[str, Any]) -> str | None:
    if "mode" not in options:
        return None
    value = options["mode"]
    try:
        if not isinstance(value, str):
            raise ValueError
        return get_mode(value).name
    except ValueError:
        raise ValueError(f"reset option 'mode' takes one of P0 (NP), P1-P4, got {value!r}") \
            from None


def _kind(value: Any) -> str:
    text = repr(value)
    return f"{type(value).__name__} {text[:40]}{'…' if len(text) > 40 else ''}"
