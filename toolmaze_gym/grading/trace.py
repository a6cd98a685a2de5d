"""A trajectory matched against the valid paths of its task, each path once, on demand.

Later questions (how far a side got before a step, which side of a slot was
completed after a fault, which Actions no expected call accounts for) are lookups
into the matches that ``toolmaze_gym.grading.resolution`` made.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Sequence

from toolmaze_gym.episode import Step
from toolmaze_gym.grading.effects import as_expected
from toolmaze_gym.grading.index import PathIndex, TaskIndex
from toolmaze_gym.grading.resolution import EpisodeView, PathMatch, SlotMemo, resolve_path


class Trace:
    def __init__(self, idx: TaskIndex, steps: Sequence[Step]) -> None:
        self.idx = idx
        # A shown Action with the step's effect on its target is that step's call.
        steps = as_expected(idx, steps)
        self.steps = steps
        self.view = EpisodeView(steps, idx.task.query, idx.body)
        self._matches: list[PathMatch | None] = [None] * len(idx.paths)
        self._pos: dict[int, list[int]] = {}
        self._memo: SlotMemo = {}
        self.actions = [i for i, s in enumerate(steps)
                        if s.clean_ok and s.action.get("name") in idx.actions]
        self.faults = [i for i, s in enumerate(steps) if s.fault is not None]
        self._best: tuple[PathMatch, bool] | None = None

    def match(self, k: int) -> PathMatch:
        """The trajectory against path ``k`` (resolved once, on first use)."""
        m = self._matches[k]
        if m is None:
            m = self._matches[k] = resolve_path(self.idx, self.view, self.idx.paths[k],
                                                    self._memo)
        return m

    @property
    def matches(self) -> list[PathMatch]:
        return [self.match(k) for k in range(len(self.idx.paths))]

    @property
    def pos(self) -> dict[int, list[int]]:
        """Call id -> the steps that are it, on any path (probing after a block)."""
        return {cid: self.positions(cid) for cid in range(len(self.idx.calls))}

    def positions(self, cid: int) -> list[int]:
        """The steps that are call ``cid`` on any path it is on (those paths resolved)."""
        got = self._pos.get(cid)
        if got is None:
            found = {self.match(k).steps.get(cid) for k in self.idx.paths_with.get(cid, ())}
            got = self._pos[cid] = sorted(i for i in found if i is not None)
        return got

    def extra_actions(self, m: PathMatch) -> list[int]:
        """Actions the path does not account for: wrong, unrequested or duplicated."""
        return [i for i in self.actions if i not in m.used]

    def best(self) -> tuple[PathMatch, bool]:
        """``_best``, once (the grade and c* both ask)."""
        if self._best is None:
            self._best = self._find_best()
        return self._best

    def _find_best(self) -> tuple[PathMatch, bool]:
        """The completed path with the fewest extra Actions, then the most calls
        accounted for, the first such in path order (True); or else the path the
        trajectory came closest to (False).

        Paths are resolved in order only until no later path can beat the best
        completed one: a path accounts at most for its calls whose tool the agent
        called cleanly, so a completed path without extra Actions that reaches
        that bound for every later path ends the search (the usual clean episode)."""
        called = set(self.view.by_tool)
        bound = [sum(1 for c in p.cids if self.idx.calls[c].tool in called)
                 for p in self.idx.paths]
        rest = [0] * (len(bound) + 1)
        for k in range(len(bound) - 1, -1, -1):
            rest[k] = max(bound[k], rest[k + 1])
        best: PathMatch | None = None
        best_key: tuple[int, int] = (0, 0)
        for k in range(len(self.idx.paths)):
            m = self.match(k)
            if m.complete:
                key = (len(self.extra_actions(m)), -len(m.steps))
                if best is None or key < best_key:
                    best, best_key = m, key
            if best is not None and best_key[0] == 0 and -best_key[1] >= rest[k + 1]:
                return best, True
        if best is not None:
            return best, True
        return min(self.matches, key=lambda m: (len(m.missing), len(self.extra_actions(m)),
                                               -len(m.steps))), False

    def match_path(self, path: PathIndex) -> list[int] | None:
        """The steps of a completed ``path`` (None when it was not completed)."""
        m = self.match(self.idx.paths.index(path))
        return sorted(m.steps.values()) if m.complete else None

    def side_progress(self, cids: Sequence[int], start: int, limit: int) -> int:
        """How many of ``cids`` were made cleanly, in order, in steps (start, limit],
        on any path: the steps that are each call are pooled over the paths it is on.

        Pooling more paths can only add progress, so the paths already resolved are
        pooled first and the search stops once the side is complete; and a call is
        looked for only where its tool was called cleanly in that window, so slots
        the agent never reached cost no path resolution."""
        if not cids or not self._called(cids[0], start, limit):
            return 0
        ks = sorted({k for cid in cids for k in self.idx.paths_with.get(cid, ())},
                    key=lambda k: (self._matches[k] is None, k))
        found: dict[int, set[int]] = {cid: set() for cid in cids}
        n = 0
        for k in ks:
            steps = self.match(k).steps
            for cid in cids:
                if cid in steps:
                    found[cid].add(steps[cid])
            n = _in_order([sorted(found[cid]) for cid in cids], start, limit)
            if n == len(cids):
                break
        return n

    def _called(self, cid: int, start: int, limit: int) -> bool:
        made = self.view.by_tool.get(self.idx.calls[cid].tool, ())
        j = bisect_right(made, start)
        return j < len(made) and made[j] <= limit

    def slot_completed_after(self, slot_id: str, start: int, limit: int | None = None
                             ) -> int | None:
        """The first side of ``slot_id`` completed cleanly, in order, after step ``start``."""
        limit = len(self.steps) - 1 if limit is None else limit
        for k, cids in enumerate(self.idx.sides[slot_id]):
            if cids and self.side_progress(cids, start, limit) == len(cids):
                return k
        return None


def _in_order(found: Sequence[Sequence[int]], start: int, limit: int) -> int:
    """How many leading calls have a step each, increasing, in (start, limit]."""
    i, n = start, 0
    for steps in found:
        j = bisect_right(steps, i)
        if j == len(steps) or steps[j] > limit:
            break
        i = steps[j]
        n += 1
    return n
