"""The blind reviews' settled replays, graded again under the current grader.

Each folder under tests/data/reviews/ that has a ``verdicts.tsv`` holds the one-change
replays a lead ran to settle the reviewers' doubts (``actions/TASK.CHANGE.txt``, played at
P0) and the grade a fair grader gives each: ``success``, ``failure`` or ``none`` (the replay
ends without a grade, or the review left it open). Where today's grader disagrees, the row
names the defect (``strict``: a competent variant fails; ``lenient``: a wrong one passes;
``task``: the request itself leaves it open) and the replay is a strict xfail, so a fix
shows up as an unexpected pass to take off the list.
"""

from __future__ import annotations

import csv
from pathlib import Path

import pytest

from tests.grading.test_played import _replay

REVIEWS = Path(__file__).parent.parent / "data" / "reviews"


def _grade(path: Path, task_id: str) -> tuple[dict, str]:
    """The grade of the review's replay ``path`` of ``task_id`` (played at P0)."""
    return _replay(path, f"{task_id}-P0")


def review_changed(tmp_path: Path, source: Path, old: str, new: str) -> tuple[dict, str]:
    """The review's replay ``source`` with ``old`` written ``new``: its grade, and the
    grade as explained (a one-change variant; the change must land)."""
    text = source.read_text(encoding="utf-8")
    assert old in text
    path = tmp_path / source.name
    path.write_text(text.replace(old, new), encoding="utf-8")
    return _grade(path, f"tmz-v9-{source.name.partition('.')[0]}")


def _rows() -> list[tuple[Path, dict]]:
    out = []
    for table in sorted(REVIEWS.glob("*/verdicts.tsv")):
        with table.open(encoding="utf-8") as f:
            out += [(table.parent, row) for row in csv.DictReader(f, delimiter="\t")]
    return out


def _cases():
    for folder, row in _rows():
        if row["fair_grade"] == "none":
            continue
        marks = []
        if row["known"] != "-":
            marks = [pytest.mark.xfail(strict=True, reason=f"{row['known']}: {row['reason']}")]
        yield pytest.param(folder, row["replay"], row["fair_grade"] == "success",
                           id=f"{folder.name}/{row['replay']}", marks=marks)


@pytest.mark.parametrize(("folder", "replay", "fair"), list(_cases()))
def test_a_settled_replay_is_graded_as_a_fair_grader_grades_it(folder, replay, fair):
    task_id = replay.split(".")[0]
    tid = f"{folder.name.replace('v', 'tmz-v')}-{task_id}"
    g, text = _grade(folder / "actions" / f"{replay}.txt", tid)
    assert g["success"] is fair, text


def test_every_replay_has_a_verdict_and_every_verdict_a_replay():
    for table in REVIEWS.glob("*/verdicts.tsv"):
        listed = {row["replay"] for f, row in _rows() if f == table.parent}
        kept = {p.name.removesuffix(".txt") for p in (table.parent / "actions").glob("*.txt")}
        assert listed == kept, table.parent.name


def test_every_known_defect_has_its_reason():
    for _folder, row in _rows():
        assert row["known"] in ("-", "strict", "lenient", "task"), row
        assert (row["known"] == "-") == (not row["reason"]) or row["fair_grade"] == "none", row
