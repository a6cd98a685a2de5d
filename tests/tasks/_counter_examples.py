"""What the counter-example tests of each suite's review share: a scenario as it was
(a fixture file of the scenarios as the reviewed suite was built from them), the same
scenario in the library now, and the phrasings a check's reports name."""

from __future__ import annotations

from pathlib import Path

from toolmaze_gym.tasks.scenarios import load_library, parse_file


def fixture_scenario(path: Path, sid: str):
    """Scenario ``sid`` as the fixture at ``path`` keeps it (the file must parse clean)."""
    scenarios, problems = parse_file(path)
    assert problems == []
    return next(s for s in scenarios if s.id == sid)


def library_scenario(sid: str):
    """Scenario ``sid`` as the library holds it now."""
    return next(s for s in load_library() if s.id == sid)


def phrasing_indexes(problems: list[str]) -> set[int]:
    """The phrasings (by index) that ``problems`` name."""
    return {int(p.split(".phrasings[")[1].split("]")[0]) for p in problems if ".phrasings[" in p}
