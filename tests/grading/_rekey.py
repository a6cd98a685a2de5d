"""Record ids a replayed file tells that today's world keys anew, and their new ids.

A record's id is the world's: a message's hashes its body, a ticket's its fields, and a
world of an older suite keys records its own way. So a probe or a slip (the played episode
with one change) whose change gives a record a new id, but whose later texts keep the id
the episode showed when played, tells an id its replay never showed; and so does an episode
as played on an older world. Since grading version 23 such an id is an invented one
(``grading/invented_ids.py``). ``tests/data/played/rekeyed.tsv`` records, per file, the id
it was played with and the id today's replay gives the same record, and
``test_played.played_text`` writes the second for the first (``test_played.replay_changed``
does the same for the one-change variants tests write on the fly), so each file is judged
on what it was made to test.

An id is re-keyed only where it is the played episode's own (the episode as played tells
it) and the record is one the file's replay makes: the same tool's call at the same place,
else (a probe that made it with another tool, or an episode played on an older world) the
one id of that kind the replay showed and the file does not tell. An id made up
(``RTK-ZZZZ9999``), mistyped or of a record never made is left as written, and so is a slip
whose point is the stale id itself (``POINT``).

``python -m tests.grading._rekey`` (from the repository root) writes the table anew; it
replays the files as written, so run it after a change of the world.
"""

from __future__ import annotations

import glob
import sys
from collections.abc import Callable, Mapping
from functools import partial
from pathlib import Path

from toolmaze_gym.corpus import load_corpus
from toolmaze_gym.grading.invented_ids import id_kinds, ids_in
from toolmaze_gym.play import PlaySession
from toolmaze_gym.tasks.suite import get_task

DATA = Path(__file__).parent.parent / "data"
TABLE = DATA / "played" / "rekeyed.tsv"
# slips whose point is a stale id: told on purpose after the change re-keyed the record
POINT = {"played/v10-g22/slips/tmz-v10-c2-0020-P3.finish-wrong-task-id.actions"}

Calls = Mapping[tuple[str, int], str]  # (tool, k) -> the response of its k-th call


def record(text: str, episode: str) -> dict:
    """The record of ``text``'s actions replayed as ``episode``."""
    task_id, mode = episode.rsplit("-", 1)
    s = PlaySession(get_task(task_id), mode, prompt="failure_aware")
    for line in text.splitlines():
        if s.done:
            break
        s.handle(line)
    if not s.done:
        s.stop("input ended")
    return s.env.record()


def calls(rec: dict) -> Calls:
    out: dict[tuple[str, int], str] = {}
    seen: dict[str, int] = {}
    for step in rec["steps"]:
        name = (step.get("action") or {}).get("name")
        if name in (None, "finish", "abort"):
            continue
        k = seen[name] = seen.get(name, -1) + 1
        out[(name, k)] = step.get("observation") or ""
    return out


def invented(rec: dict) -> list[dict]:
    """The ids the grade of ``rec`` lists as invented."""
    return [u for u in rec["grade"].get("unanswered", [])
            if isinstance(u, dict) and u.get("invented")]


def new_id(told: str, kind: str, text: str, mine: Calls, base: Calls | None,
           episode: str, same_call_only: bool) -> str | None:
    """The id today's replay (``mine``) gives the record ``text`` tells as ``told``, which
    the played episode's replay (``base``) showed; ``same_call_only``: only the same
    call's (a slip's change may have made another record)."""
    kinds = id_kinds(get_task(episode.rsplit("-", 1)[0]).tools, load_corpus())

    def fresh(obs: str) -> list[str]:
        return sorted({t for t, k in ids_in(obs, kinds) if k == kind and t not in text})

    if base is not None:
        at = next((key for key, obs in base.items() if told in obs), None)
        if at in mine:  # the same call: its record or none
            got = fresh(mine[at])
            return got[0] if len(got) == 1 else None
    if same_call_only:
        return None
    got = sorted({t for obs in mine.values() for t in fresh(obs)})
    return got[0] if len(got) == 1 else None


def rekeyed(text: str, own: str, episode: str, base: Callable[[], Calls | None],
            slip: bool) -> list[tuple[str, str]]:
    """(id played, id replayed) for each invented id of ``text`` replayed that the played
    episode's own text ``own`` tells; ``base``: the played episode's calls, replayed
    (None: ``text`` is the episode as played)."""
    rec = record(text, episode)
    told = [u for u in invented(rec) if u["told"] in own]
    if not told:
        return []
    out, before = [], base()
    for u in told:
        new = new_id(u["told"], u["type"], text, calls(rec), before, episode, slip)
        if new:
            out.append((u["told"], new))
    return out


def _files():
    for p in sorted(glob.glob(str(DATA / "played" / "**" / "*.actions"), recursive=True)):
        p = Path(p)
        yield p, p.name.split(".")[0]
    for p in sorted(glob.glob(str(DATA / "reviews" / "*" / "actions" / "*.txt"))):
        p = Path(p)
        yield p, f"tmz-{p.parts[-3]}-{p.name.split('.')[0]}-P0"
    for p in sorted(glob.glob(str(DATA / "explained" / "*.actions"))):
        p = Path(p)  # tmz-v5-c3-0096-P2-noref: the episode, then what the file shows
        yield p, p.name[:p.name.index("-P") + 3]


def _base(path: Path, episode: str) -> Path | None:
    """The episode as played that ``path`` changes one thing of (None: it is one)."""
    if path.name == f"{episode}.actions":
        return None
    near = path.parent.parent / f"{episode}.actions"
    if near.exists():
        return near
    found = sorted(glob.glob(str(DATA / "played" / "*" / f"{episode}.actions")))
    return Path(found[0]) if found else None


def _played_calls(own: str, episode: str, changed: bool) -> Calls | None:
    return calls(record(own, episode)) if changed else None


def main() -> None:
    rows = []
    for path, episode in _files():
        name = str(path.relative_to(DATA))
        if name in POINT:
            continue
        base = _base(path, episode)
        try:
            own = (base or path).read_text(encoding="utf-8")
            pairs = rekeyed(path.read_text(encoding="utf-8"), own, episode,
                            partial(_played_calls, own, episode, base is not None),
                            path.parent.name == "slips")
        except KeyError as e:  # a task no suite ships any more
            print(f"{path}: {e}", file=sys.stderr)
            continue
        rows += [(name, a, b) for a, b in pairs]
    TABLE.write_text("file\tplayed\treplayed\n" + "".join(
        f"{a}\t{b}\t{c}\n" for a, b, c in sorted(set(rows))), encoding="utf-8")
    print(f"{len(rows)} ids re-keyed in {len({r[0] for r in rows})} files")


if __name__ == "__main__":
    main()
