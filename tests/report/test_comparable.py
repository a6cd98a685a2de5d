"""Reports set side by side only what can be compared (issue 30 item 5).

Small real runs: scripted agents, and the ``openai`` agent against the stub endpoint
(it answers in prose, so each episode is one request). Rows that ran other episodes,
another suite, other tool documentation, another calling convention or under another
grading version are refused in one report, with one line naming the difference, unless
``--allow-mixed``; then the report says so. Every table says what a row covers, and an
average over a single cell says so.
"""

from __future__ import annotations

import csv
import json
import shutil
from pathlib import Path

import pytest

from tests.agents._fake_endpoint import endpoint  # noqa: F401  (a fixture: the stub server)
from toolmaze_gym.cli.app import main
from toolmaze_gym.grading import GRADING_VERSION
from toolmaze_gym.report import build_report
from toolmaze_gym.report.basis import MixedRuns
from toolmaze_gym.runner import RUN_FILE, RunConfig, Selection, run
from toolmaze_gym.tasks.suite import SUITE_NAME

QUICK = {"resamples": 20, "plots": False, "viewer": False}


def _run(out: Path, agent: str = "validator", options: dict | None = None, **selection):
    selection = {"levels": ["C1"], "limit": 1, **selection}
    run(RunConfig(agent, options or {}, selection=Selection(**selection)), out, progress=False)
    return out


def _edit_run_json(run_dir: Path, **fields) -> None:
    path = run_dir / RUN_FILE
    data = json.loads(path.read_text(encoding="utf-8"))
    path.write_text(json.dumps({**data, **fields}), encoding="utf-8")


def _edit_records(run_dir: Path, **fields) -> None:
    recs = run_dir / "records.jsonl"
    lines = [json.loads(ln) for ln in recs.read_text(encoding="utf-8").splitlines()]
    recs.write_text("".join(json.dumps({**r, **fields}) + "\n" for r in lines),
                    encoding="utf-8")


@pytest.fixture(scope="module")
def scripted(tmp_path_factory) -> dict[str, Path]:
    root = tmp_path_factory.mktemp("cmp")
    return {"full": _run(root / "validator"),
            "naive": _run(root / "naive", "naive"),
            "one": _run(root / "one", "naive", modes=["P2"]),
            "oracle-one": _run(root / "oracle-one", "oracle", modes=["P2"]),
            "v2": _run(root / "v2", suite="toolmaze-v2")}


def _model_run(out: Path, url: str, **options) -> Path:
    """The openai agent on the stub (model "tiny"; ``model=None``: not given, so read
    from the endpoint as ``eval`` does without --model)."""
    options = {"model": "tiny", "base_url": url, "temperature": 0, "max_tokens": 64,
               **options}
    return _run(out, "openai", {k: v for k, v in options.items() if v is not None},
                modes=["P0", "P2"])


# ---------------------------------------------------------------- refused together


def test_runs_over_other_episodes_are_refused_with_one_line(scripted, tmp_path, capsys):
    with pytest.raises(MixedRuns, match=r"coverage: C1 × NP, P1–P4 · 1 task · n=5 "
                       r"\(validator \(standard\)\) vs C1 × P2 · 1 task · n=1"):
        build_report([scripted["full"], scripted["one"]], tmp_path / "r", **QUICK)
    assert not (tmp_path / "r").exists()  # refused before anything is written
    code = main(["report", str(scripted["full"]), str(scripted["one"]), "--out",
                 str(tmp_path / "cli"), "--no-plots", "--no-viewer", "--quiet"])
    err = capsys.readouterr().err.strip().splitlines()
    assert code == 2 and len(err) == 1
    assert err[0].startswith("toolmaze report: error: these runs cannot share a report, "
                             "their coverage:") and "--allow-mixed" in err[0]


def test_runs_over_the_same_episodes_share_a_report(scripted, tmp_path):
    rep = build_report([scripted["full"], scripted["naive"]], tmp_path / "r", **QUICK)
    assert rep.mixed == []
    assert "Mixed runs" not in rep.markdown.read_text(encoding="utf-8")


def test_other_suites_are_refused_by_name(scripted, tmp_path):
    with pytest.raises(MixedRuns, match=rf"their suite: {SUITE_NAME} \(validator \[validator\]"
                       r" \(standard\)\) vs toolmaze-v2"):
        build_report([scripted["full"], scripted["v2"]], tmp_path / "r", **QUICK)


def test_other_grading_versions_are_refused(scripted, tmp_path):
    old = tmp_path / "old"
    shutil.copytree(scripted["naive"], old)
    _edit_records(old, grading_version="6")
    with pytest.raises(MixedRuns, match=rf"grading version: {GRADING_VERSION} \(validator .* "
                       r"vs 6 \(naive"):
        build_report([scripted["full"], old], tmp_path / "r", **QUICK)


def test_other_tool_docs_and_conventions_are_refused(endpoint, tmp_path):  # noqa: F811
    _, url = endpoint
    schemas = _model_run(tmp_path / "schemas", url)
    compact = _model_run(tmp_path / "compact", url, compact_tools=True)
    with pytest.raises(MixedRuns, match=r"tool documentation: schemas \(tiny \(native, "
                       r"standard\)\) vs compact \(tiny \(text, standard\)\)"):
        build_report([schemas, compact], tmp_path / "r1", **QUICK)
    old = tmp_path / "old"  # the same run as recorded before conventions were: text
    shutil.copytree(schemas, old)
    _edit_run_json(old, convention=None)
    _edit_records(old, convention=None)
    with pytest.raises(MixedRuns, match=r"calling convention: native .* vs text"):
        build_report([schemas, old], tmp_path / "r2", **QUICK)


def test_scripted_baselines_sit_beside_any_model_run(endpoint, scripted, tmp_path):  # noqa: F811
    """A scripted agent reads no prompt: its documentation and convention do not apply."""
    _, url = endpoint
    model = _model_run(tmp_path / "compact", url, compact_tools=True)
    base = _run(tmp_path / "oracle", "oracle", modes=["P0", "P2"])
    rep = build_report([model, base], tmp_path / "r", **QUICK)
    assert rep.mixed == []


def test_allow_mixed_reports_them_and_says_so(scripted, tmp_path, capsys):
    out = tmp_path / "r"
    code = main(["report", str(scripted["full"]), str(scripted["one"]), "--out", str(out),
                 "--no-plots", "--no-viewer", "--quiet", "--resamples", "20", "--allow-mixed"])
    assert code == 0
    assert "warning: mixed runs (--allow-mixed): coverage:" in capsys.readouterr().err
    md = (out / "results.md").read_text(encoding="utf-8")
    assert "**Mixed runs (--allow-mixed): the rows are not comparable as they stand;** " \
           "they differ in coverage:" in md
    summary = json.loads((out / "summary.json").read_text(encoding="utf-8"))
    assert summary["mixed"] and summary["mixed"][0].startswith("coverage:")
    sub = json.loads((out / "submission.json").read_text(encoding="utf-8"))
    assert sub["comparable"] is False and sub["mixed"] == summary["mixed"]


# ---------------------------------------------------------------- what a row covers


def _section(md: str, title: str) -> str:
    return md.split(f"## {title}", 1)[1].split("\n## ", 1)[0]


def test_a_c1_only_run_is_not_said_to_average_c1_to_c4(scripted, tmp_path):
    md = build_report([scripted["full"]], tmp_path / "r", **QUICK).markdown.read_text(
        encoding="utf-8")
    assert "over C1–C4" not in md
    assert "## Table 2: per perturbation mode (%, macro-averaged over C1 only, not C1–C4)" in md
    assert "each Avg is over C1 only, not C1–C4" in _section(md, "Table 20")
    assert "|  | Avg (C1 only) | 5 |" in _section(md, "Table 21")
    cover = _section(md, "Coverage")
    assert f"| validator (standard) | — | — | — | — | — | {SUITE_NAME} | " \
           f"{GRADING_VERSION} | C1 | NP, P1–P4 | 1 | 5 |" in cover


def test_an_average_over_one_cell_says_so(scripted, tmp_path):
    md = build_report([scripted["oracle-one"]], tmp_path / "r", **QUICK).markdown.read_text(
        encoding="utf-8")
    table2 = _section(md, "Table 2")
    line = next(ln for ln in table2.splitlines() if ln.startswith("| oracle"))
    assert "| 100.00 (C1/P2 only) |" in line and "| 100.00 |" in line  # the P2 cell itself
    assert "| 100.00 (P2 only) |" in line  # TSR Avg over the one fault mode run
    assert "TSR Avg is over the fault modes run: P2 only, not P1–P4" in table2
    summary = _section(md, "Summary")
    assert "100.00 (C1/P2 only)" in summary


# ---------------------------------------------------------------- what produced a row


def test_model_endpoint_sampling_and_convention_travel_with_the_figures(endpoint, tmp_path):  # noqa: F811
    _, url = endpoint
    host = url.split("//")[1].split("/")[0]  # 127.0.0.1:PORT
    keyed = url.replace("/v1", "/key-sk-abcdefghijklmnopqrstuvwx/v1")
    out = _model_run(tmp_path / "m", url, model=None)  # no --model, no --label
    recs = [json.loads(ln) for ln in (out / "records.jsonl").read_text().splitlines()]
    _edit_records(out, agent_options={**recs[0]["agent_options"], "base_url": keyed})
    rep = build_report([out], tmp_path / "r", **QUICK)
    (st,) = rep.stats
    # named by the model, not "openai", and how it called tools (BFCL's FC vs prompt)
    assert st.row.name == "tiny (native, standard)"

    with rep.csv.open(encoding="utf-8") as fh:
        avg = next(ln for ln in csv.DictReader(fh) if ln["C"] == "Avg")
    assert (avg["agent"], avg["model"], avg["endpoint"], avg["convention"]) == \
        ("tiny", "tiny", host, "native")
    assert (avg["temperature"], avg["max_tokens"], avg["tool_docs"]) == ("0", "64", "schemas")
    assert json.loads(avg["sampling"])["max_tokens"] == 64
    assert (avg["levels"], avg["modes"], avg["tasks"]) == ("C1", "P0 P2", "1")

    with (rep.out / "scores.csv").open(encoding="utf-8") as fh:
        meta = {ln["task_id"]: ln["tiny (native, standard)"] for ln in csv.DictReader(fh)
                if ln["task_id"].startswith("#")}
    assert meta["#model"] == "tiny" and meta["#endpoint"] == host
    assert meta["#convention"] == "native" and json.loads(meta["#sampling"])["temperature"] == 0

    row = json.loads((rep.out / "summary.json").read_text(encoding="utf-8"))["rows"][0]
    assert (row["model"], row["endpoint"], row["convention"]) == ("tiny", host, "native")
    assert row["sampling"]["max_tokens"] == 64
    assert row["covers"] == {"levels": ["C1"], "modes": ["P0", "P2"], "tasks": 1, "n": 2}
    for name in ("results.csv", "scores.csv", "summary.json", "submission.json",
                 "results.md"):
        assert "sk-abcdefghij" not in (rep.out / name).read_text(encoding="utf-8")
        assert "key-" not in (rep.out / name).read_text(encoding="utf-8")


def test_a_submission_a_leaderboard_can_take(scripted, tmp_path):
    a = build_report([scripted["full"]], tmp_path / "a", **QUICK)
    b = build_report([scripted["full"]], tmp_path / "b", **QUICK)
    text = (a.out / "submission.json").read_text(encoding="utf-8")
    assert text == (b.out / "submission.json").read_text(encoding="utf-8")  # deterministic
    sub = json.loads(text)
    assert sub["format"] == "toolmaze-submission/1" and sub["comparable"] is True
    assert sub["grading_version"] == GRADING_VERSION and sub["suites"][0]["name"] == SUITE_NAME
    (entry,) = sub["entries"]
    started = json.loads((scripted["full"] / RUN_FILE).read_text())["started"]
    assert entry["date"] == started[:10]  # the run's date, not the report's
    assert entry["name"] == "validator (standard)" and entry["convention"] is None
    assert entry["covers"]["full_grid"] is False and entry["covers"]["cells"] == 5
    cell = entry["cells"]["C1/P2"]
    assert cell["n"] == 1 and set(cell) == {"n", "exposed", "TSR", "PRR", "RC"}
    assert cell["TSR"]["value"] == a.stats[0].table["cells"]["C1/P2"]["TSR"]
    lo, hi = cell["TSR"]["ci95"]
    assert lo <= cell["TSR"]["value"] <= hi
    assert entry["composite"]["ci95"] is not None
    assert set(entry["per_mode"]) == {"NP", "P1", "P2", "P3", "P4"}


def test_make_eval_reports_its_sample_beside_the_whole_suite_as_mixed():
    """`make eval` sets a one-task-per-cell model sample beside the baselines' whole
    suite: its report must allow (and so state) the mix, or the target fails."""
    import shlex
    import subprocess

    from toolmaze_gym.cli import build_parser

    root = Path(__file__).resolve().parents[2]
    if shutil.which("make") is None:
        pytest.skip("make is not installed")
    text = subprocess.run(["make", "-n", "-s", "eval", "TOOLMAZE=toolmaze", "STAMP="],
                          cwd=root, capture_output=True, text=True, check=True).stdout
    lines = [shlex.split(ln)[1:] for ln in text.replace("\\\n", " ").splitlines()
             if ln.startswith("toolmaze report")]
    assert len(lines) == 1 and build_parser().parse_args(lines[0]).allow_mixed


def test_max_completion_tokens_is_the_max_tokens_column(endpoint, tmp_path):  # noqa: F811
    """A reasoning model's cap travels as max_completion_tokens: the column still says it."""
    _, url = endpoint
    out = _model_run(tmp_path / "m", url, max_tokens=None, max_completion_tokens=96)
    rep = build_report([out], tmp_path / "r", **QUICK)
    with rep.csv.open(encoding="utf-8") as fh:
        avg = next(ln for ln in csv.DictReader(fh) if ln["C"] == "Avg")
    assert avg["max_tokens"] == "96"
    assert json.loads(avg["sampling"])["max_completion_tokens"] == 96


def test_compare_says_when_the_runs_were_set_up_differently(endpoint, tmp_path):  # noqa: F811
    """`report A B --compare` of native schemas vs compact text is an experiment in
    itself: allowed, and said."""
    from toolmaze_gym.report.compare import compare

    _, url = endpoint
    a = _model_run(tmp_path / "a", url)
    b = _model_run(tmp_path / "b", url, compact_tools=True)
    notes = compare(a, b, resamples=0).notes
    assert any(n.startswith("the runs differ in tool documentation: schemas") for n in notes)
    assert any(n.startswith("the runs differ in calling convention: native") for n in notes)


def test_the_compared_runs_report_keeps_what_made_each_row(endpoint, tmp_path):  # noqa: F811
    """Both sides of a comparison of two runs of one model are relabelled apart; their
    report still names the model, endpoint and recorded grading version of each."""
    from toolmaze_gym.report.compare import build_comparison

    _, url = endpoint
    a = _model_run(tmp_path / "a", url, model=None)
    b = _model_run(tmp_path / "b", url, model=None, temperature=1)
    _, rep = build_comparison(a, b, tmp_path / "cmp", resamples=0, plots=False, viewer=False)
    rows = json.loads((rep.out / "summary.json").read_text(encoding="utf-8"))["rows"]
    assert [r["model"] for r in rows] == ["tiny", "tiny"]
    entries = json.loads((rep.out / "submission.json").read_text(encoding="utf-8"))["entries"]
    assert [e["recorded_grading_version"] for e in entries] == [GRADING_VERSION] * 2
    assert all(e["date"] for e in entries)


def test_the_figure_of_a_c1_only_run_is_not_titled_c1_to_c4(scripted):
    from toolmaze_gym.report import compute, load_rows
    from toolmaze_gym.report.plots import figure_vs_p

    fig = figure_vs_p([compute(r, resamples=0) for r in load_rows([scripted["full"]])])
    title = fig._suptitle.get_text()
    assert "(averaged over C1 only, not C1–C4)" in title and "over C1–C4)" not in title


def test_task_files_with_the_same_ids_and_other_tasks_are_other_suites(tmp_path):
    """A run over a task file counts by the file's content, as resumes do: the same
    task id with another request is another task."""
    from toolmaze_gym.tasks.suite import task_index

    task = task_index("toolmaze-v3")["tmz-v3-c1-0082"].to_dict()
    files = []
    for k, query in enumerate([task["query"], task["query"].replace("45-m", "30-m")]):
        path = tmp_path / f"tasks{k}.jsonl"
        path.write_text(json.dumps({**task, "query": query}) + "\n", encoding="utf-8")
        files.append(_run(tmp_path / f"run{k}", "validator", tasks=str(path), modes=["P2"]))
    with pytest.raises(MixedRuns, match=r"their suite: task file \w{12} .* vs task file"):
        build_report(files, tmp_path / "r", **QUICK)
