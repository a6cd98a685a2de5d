"""A trajectory matched against the valid paths of its task, each path once, on demand.

Later questions (how far a side got before a step, which side of a slot was
completed after a fault, which Actions no expected call accounts for) are lookups
into the matches that ``toolmaze_gym.grading.resolution`` made.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Sequence

from toolmaze_gym.episode import Step
from toolmaze_gym.grading.index import PathIndex, TaskIndex
from toolmaze_gym.grading.resolution import EpisodeView, PathMatch, resolve_path


class Trace:
    def __init__(self, idx: TaskIndex, steps: Sequence[Step]) -> None:
        self.idx = idx
        self.steps = steps
        self.view = EpisodeView(steps, idx.task.query)
        self._matches: list[PathMatch | None] = [None] * len(idx.paths)
        self._pos: dict[int, list[int]] | None = None
        self.actions = [i for i, s in enumerate(steps)
                        if s.clean_ok and s.action.get("name") in idx.actions]
        self.faults = [i for i, s in enumerate(steps) if s.fault is not None]

    def match(self, k: int) -> PathMatch:
        """The trajectory against path ``k`` (resolved once, on first use)."""
        m = self._matches[k]
        if m is None:
            m = self._matches[k] = resolve_path(self.idx, self.view, self.idx.paths[k])
        return m

    @property
    def matches(self) -> list[PathMatch]:
        return [self.match(k) for k in range(len(self.idx.paths))]

    @property
    def pos(self) -> dict[int, list[int]]:
        """Call id -> the steps that are it, on any path (costs, recovery, probing)."""
        if self._pos is None:
            pos: dict[int, set[int]] = {}
            for m in self.matches:
                for cid, i in m.steps.items():
                    pos.setdefault(cid, set()).add(i)
            self._pos = {cid: sorted(found) for cid, found in pos.items()}
        return self._pos

    def extra_actions(self, m: PathMatch) -> list[int]:
        """Actions the path does not account for: wrong, unrequested or duplicated."""
        return [i for i in self.actions if i not in m.used]

    def best(self) -> tuple[PathMatch, bool]:
        """The completed path with the fewest extra Actions (True), or else the path
        the trajectory came closest to (False). A completed path that accounts for
        every Action and every call made ends the search (the usual clean episode)."""
        calls = sum(1 for s in self.steps if s.clean_ok)
        for k in range(len(self.idx.paths)):
            m = self.match(k)
            if m.complete and not self.extra_actions(m) and len(m.steps) == calls:
                return m, True
        done = [m for m in self.matches if m.complete]
        if done:
            return min(done, key=lambda m: (len(self.extra_actions(m)), -len(m.steps))), True
        return min(self.matches, key=lambda m: (len(m.missing), len(self.extra_actions(m)),
                                               -len(m.steps))), False

    def match_path(self, path: PathIndex) -> list[int] | None:
        """The steps of a completed ``path`` (None when it was not completed)."""
        m = self.match(self.idx.paths.index(path))
        return sorted(m.steps.values()) if m.complete else None

    def side_progress(self, cids: Sequence[int], start: int, limit: int) -> int:
        """How many of ``cids`` were made cleanly, in order, in steps (start, limit]."""
        i, n = start, 0
        for cid in cids:
            found = self.pos.get(cid, ())
            j = bisect_right(found, i)
            if j == len(found) or found[j] > limit:
                break
            i = found[j]
            n += 1
        return n

    def slot_completed_after(self, slot_id: str, start: int, limit: int | None = None
                             ) -> int | None:
        """The first side of ``slot_id`` completed cleanly, in order, after step ``start``."""
        limit = len(self.steps) - 1 if limit is None else limit
        for k, cids in enumerate(self.idx.sides[slot_id]):
            if cids and self.side_progress(cids, start, limit) == len(cids):
                return k
        return None
