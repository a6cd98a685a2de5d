"""``toolmaze report A B --compare``: the page lists exactly the paired episodes whose
grades differ, links to both trajectories in the viewer's deep-link form, and refuses
runs that cannot be compared in one line."""

from __future__ import annotations

import csv
import json
import re
import shutil
import subprocess
import sys

import pytest

from toolmaze_gym.report.compare import build_comparison, compare
from toolmaze_gym.report.viewer import page_name, slug
from toolmaze_gym.runner import RunConfig, Selection, read_records, record_key, run
from toolmaze_gym.tasks.suite import SUITE_NAME

KEY = re.compile(r'<tr class="episode (\w+)" data-key="([^"]+)">')


def _listed(page: str) -> dict[str, str]:
    return {key: kind for kind, key in KEY.findall(page)}


@pytest.fixture(scope="module")
def compared(run_dirs, tmp_path_factory):
    out = tmp_path_factory.mktemp("cmp")
    cmp, _ = build_comparison(run_dirs["validator"], run_dirs["naive"], out, resamples=200,
                              plots=False)
    return cmp, out


def test_the_page_lists_exactly_the_episodes_whose_grades_differ(compared, records):
    _, out = compared
    a = {record_key(r): r["grade"] for r in records["validator"]}
    b = {record_key(r): r["grade"] for r in records["naive"]}
    listed = _listed((out / "compare.html").read_text(encoding="utf-8"))
    outcome = {k for k in a if a[k]["success"] != b[k]["success"]}
    assert outcome, "the fixture's runs should differ in outcome somewhere"
    assert {k for k, kind in listed.items() if kind in ("worse", "better")} == outcome
    assert all(listed[k] == "worse" for k in outcome if a[k]["success"])  # A passes, B fails
    same = {k for k in a if all(a[k].get(f) == b[k].get(f) for f in
                                ("success", "exposed", "recovered", "c_rec", "labels",
                                 "ended_by"))}
    assert set(listed) == set(a) - same
    with (out / "compare.csv").open(encoding="utf-8") as fh:
        assert len(list(csv.DictReader(fh))) == len(listed)


def test_same_outcome_with_another_recovery_is_listed_too(run_dirs, records, tmp_path):
    """oracle and validator both succeed; where validator pays for its recovery (a
    higher c_rec, other labels) the episode is listed, and nowhere else."""
    from tests.report.conftest import SELECTION

    run(RunConfig("oracle", selection=SELECTION), tmp_path / "oracle", progress=False)
    oracle = {record_key(r): r["grade"] for r in read_records(tmp_path / "oracle")}
    valid = {record_key(r): r["grade"] for r in records["validator"]}
    build_comparison(tmp_path / "oracle", run_dirs["validator"], tmp_path / "out",
                     resamples=0, plots=False)
    listed = _listed((tmp_path / "out" / "compare.html").read_text(encoding="utf-8"))
    costly = {k for k in oracle if oracle[k]["success"] == valid[k]["success"]
              and (oracle[k]["c_rec"], oracle[k]["labels"]) != (valid[k]["c_rec"],
                                                                 valid[k]["labels"])}
    assert costly and {k for k, kind in listed.items() if kind == "other"} == costly


def test_links_point_at_both_trajectories_on_a_page_that_exists(compared):
    cmp, out = compared
    page = (out / "compare.html").read_text(encoding="utf-8")
    d = cmp.differences[0]
    page_file = page_name(d.a["task_id"], d.a["mode"])
    prompt = {"standard": "standard", "failure_aware": "failure-aware"}[d.a.get("prompt")
                                                                          or "standard"]
    for agent in ("validator", "naive"):
        assert f'href="viewer/{page_file}#agent-{slug(f"{agent} ({prompt})")}"' in page
    hrefs = re.findall(r'href="(viewer/[^"#]+)#', page)
    assert hrefs and all((out / h).is_file() for h in hrefs)


def test_metric_changes_come_with_paired_intervals(compared):
    cmp, out = compared
    md = (out / "compare.md").read_text(encoding="utf-8")
    p1 = cmp.delta["per_mode"]["P1"]["TSR"]
    lo, hi = cmp.ci["per_mode"]["P1"]["TSR"]
    assert lo <= p1 <= hi and p1 < 0  # naive never recovers what validator does
    assert f"| mode | P1 | {100 * p1:+.1f} [{100 * lo:+.1f}, {100 * hi:+.1f}]" in md
    assert "| cell | C1/NP |" in md and "| all | composite |" in md
    # NP has no exposure: PRR and RC change are undefined, never a 0 change
    assert re.search(r"\| mode \| NP \| [^|]+ \| n/a \| n/a \|", md)


def test_a_run_against_its_copy_differs_nowhere(run_dirs, tmp_path):
    copy = tmp_path / "validator"
    shutil.copytree(run_dirs["validator"], copy)
    cmp = compare(run_dirs["validator"], copy, resamples=50)
    assert cmp.differences == [] and len(cmp.shared) == len(read_records(copy))
    assert cmp.a.label != cmp.b.label  # one agent twice is still told apart
    assert cmp.ci["composite"] == (0.0, 0.0)


def test_episodes_only_one_run_played_are_left_out_loudly(run_dirs, records, tmp_path):
    part = tmp_path / "naive-part.jsonl"
    keep = records["naive"][: len(records["naive"]) // 2]
    part.write_text("".join(json.dumps(r) + "\n" for r in keep), encoding="utf-8")
    cmp = compare(run_dirs["validator"], part, resamples=0)
    assert len(cmp.shared) == len(keep)
    assert any(f"{len(records['validator']) - len(keep)} only in A" in n for n in cmp.notes)


def _cli(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "toolmaze_gym.cli", "report", *args],
                          capture_output=True, text=True, timeout=120)


@pytest.fixture(scope="module")
def v2_run(tmp_path_factory):
    out = tmp_path_factory.mktemp("v2") / "naive-v2"
    run(RunConfig("naive", selection=Selection(suite="toolmaze-v2", levels=["C1"], limit=1,
                                               modes=["P0"])), out, progress=False)
    return out


def test_runs_of_different_suites_are_refused_in_one_line(run_dirs, v2_run, tmp_path):
    res = _cli(str(run_dirs["naive"]), str(v2_run), "--compare", "--out", str(tmp_path / "o"))
    assert res.returncode == 2
    assert res.stderr.count("\n") == 1 and "Traceback" not in res.stderr
    assert "toolmaze-v2" in res.stderr and SUITE_NAME in res.stderr


@pytest.mark.parametrize("args, said", [
    (["A"], "exactly two runs"),
    (["A", "B", "C"], "exactly two runs"),
    (["A", "B"], "--out"),
    (["A", "missing", "--out", "OUT"], "no such run directory"),
    (["A", "B", "--out", "OUT", "--max-pages", "5"], "--max-pages"),
])
def test_bad_compare_command_lines_are_one_line_errors(run_dirs, tmp_path, args, said,
                                                      capsys):
    """In process (the console script's path is covered by the suite test above)."""
    from toolmaze_gym.cli.app import main

    names = {"A": str(run_dirs["validator"]), "B": str(run_dirs["naive"]),
             "C": str(run_dirs["naive"]), "OUT": str(tmp_path / "o"),
             "missing": str(tmp_path / "missing")}
    assert main(["report", *(names.get(a, a) for a in args), "--compare"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("toolmaze report: error: ") and err.count("\n") == 1
    assert said in err and not (tmp_path / "o").exists()


def test_two_agents_in_one_side_are_refused(run_dirs, records, tmp_path):
    both = tmp_path / "both.jsonl"
    both.write_text("".join(json.dumps(r) + "\n" for r in records["validator"]
                            + records["naive"]), encoding="utf-8")
    res = _cli(str(both), str(run_dirs["naive"]), "--compare", "--out", str(tmp_path / "o"))
    assert res.returncode == 2 and "holds 2 agents" in res.stderr
    assert res.stderr.count("\n") == 1
