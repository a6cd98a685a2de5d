"""Two runs side by side: ``toolmaze report A B --compare --out DIR``.

What a researcher asks of a second run (a fine-tune, a new prompt, another model):
which episodes changed ("A passes, B fails"), and is the change in each metric more
than noise. So this module pairs the two runs' records by episode (task, mode,
prompt, repeat), lists every paired episode whose grade differs (outcome first,
then recovery, exposure, recovery cost, behaviour labels, ending), each with links
to both trajectories in the viewer, and gives B − A for TSR, PRR, RC and the
composite, per mode, per level and per cell, with a paired bootstrap interval
(``metrics.paired_bootstrap``). It writes compare.html, compare.md and compare.csv
next to the usual report of both runs.

Runs of different suites (or of task files that disagree on a task) are refused in
one line: their "same" episodes are different tasks. Grades are always derived again
under this code's grading version, so runs stored under other versions are compared
like for like; the page says so loudly, as it does for runs that played fault
profiles of different versions or did not play the same episodes.
"""

from __future__ import annotations

import csv
import html
import io
from collections import Counter
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from toolmaze_gym import metrics
from toolmaze_gym.report.regrade import Regraded
from toolmaze_gym.report.runs import PROMPT_LABELS, Row, load_graded
from toolmaze_gym.runner import RunError, record_key

FILES = {"html": "compare.html", "md": "compare.md", "csv": "compare.csv"}
# Grade fields whose change is shown, in the order a reader cares about them.
ASPECTS = ("success", "exposed", "recovered", "c_rec", "labels", "ended_by")
METRICS = ("TSR", "PRR", "RC")
CSV_HEAD = ["task_id", "C", "P", "prompt", "repeat", "change", "differs", "A_success",
            "B_success", "A_recovered", "B_recovered", "A_c_rec", "B_c_rec", "A_labels",
            "B_labels", "A_link", "B_link"]


@dataclass
class Side:
    """One of the two runs: its label in the report, rows and records by episode key."""

    source: str
    label: str
    rows: list[Row]
    graded: Regraded
    records: dict[str, dict[str, Any]]


@dataclass
class Difference:
    """One paired episode whose grades differ."""

    key: str
    a: dict[str, Any]
    b: dict[str, Any]
    differs: list[str]

    @property
    def change(self) -> str:
        sa, sb = bool(self.a["grade"]["success"]), bool(self.b["grade"]["success"])
        if sa != sb:
            return "A passes, B fails" if sa else "A fails, B passes"
        return "same outcome, " + ", ".join(self.differs) + " differ" \
            if len(self.differs) > 1 else f"same outcome, {self.differs[0]} differs"


@dataclass
class Comparison:
    """What ``compare`` found and where it wrote it."""

    a: Side
    b: Side
    shared: list[str]
    differences: list[Difference]
    delta: dict[str, Any]
    ci: dict[str, Any]
    notes: list[str] = field(default_factory=list)
    files: list[Path] = field(default_factory=list)

    def counts(self) -> Counter:
        return Counter(d.change if d.change.startswith("A ") else "other" for d in
                       self.differences)


# ---------------------------------------------------------------- loading and pairing


def _side(source: str) -> Side:
    rows, graded = load_graded([source])
    agents = sorted({r.agent for r in rows})
    if len(agents) > 1:
        raise RunError(f"{source} holds {len(agents)} agents ({', '.join(agents)}); --compare "
                       "sets one agent's run against another's")
    records = {record_key(rec): rec for row in rows for rec in row.records}
    return Side(source, agents[0], rows, graded, records)


def _relabel(side: Side, label: str) -> None:
    side.label = label
    side.rows = [replace(r, agent=label) for r in side.rows]  # its run.json kept


def _labels(a: Side, b: Side) -> None:
    """Distinct names for the two sides: the agent's, then its directory's, then A/B."""
    if a.label != b.label:
        return
    first, second = Path(a.source).name, Path(b.source).name
    if first == second:
        first, second = f"A: {a.source}", f"B: {b.source}"
    _relabel(a, f"{a.label} [{first}]")
    _relabel(b, f"{b.label} [{second}]")


def _check_same_suite(a: Side, b: Side) -> None:
    suites_a, suites_b = {r.suite for r in a.rows}, {r.suite for r in b.rows}
    if suites_a != suites_b:
        raise RunError(f"{a.source} ran on {_names(suites_a)} but {b.source} on "
                       f"{_names(suites_b)}: their episodes are different tasks; compare "
                       "two runs of one suite")


def _check_same_tasks(a: Side, b: Side, shared: list[str]) -> None:
    """Runs over task files: a task id both played must be the same task."""
    tasks_a = {k: t for r in a.rows for k, t in r.tasks.items()}
    tasks_b = {k: t for r in b.rows for k, t in r.tasks.items()}
    for tid in sorted({a.records[k]["task_id"] for k in shared}):
        if tid in tasks_a and tid in tasks_b and tasks_a[tid] != tasks_b[tid]:
            raise RunError(f"task {tid!r} differs between the task files of {a.source} and "
                           f"{b.source}; compare runs of the same tasks")


def _names(suites: set[str]) -> str:
    return ", ".join(s or "a task file" for s in sorted(suites))


def _notes(a: Side, b: Side, shared: list[str]) -> list[str]:
    """What a reader must know before trusting the comparison (loud, not fatal)."""
    from toolmaze_gym.grading import GRADING_VERSION

    notes = []
    for side, name in ((a, "A"), (b, "B")):
        if side.graded.versions:
            stored = ", ".join(sorted(side.graded.versions))
            notes.append(f"{name} ({side.source}) was stored under grading version {stored}: "
                         f"both runs are re-graded here under version {GRADING_VERSION}, so "
                         "they are compared like for like, but their stored figures are not")
    prof_a = {str(r.get("profile_version")) for r in a.records.values()}
    prof_b = {str(r.get("profile_version")) for r in b.records.values()}
    if prof_a != prof_b:
        notes.append(f"the runs played fault profiles of different versions (A: "
                     f"{', '.join(sorted(prof_a))}; B: {', '.join(sorted(prof_b))}): one "
                     "(task, mode) may have met different faults")
    notes += _setup_notes(a, b)
    only_a, only_b = len(a.records) - len(shared), len(b.records) - len(shared)
    if only_a or only_b:
        notes.append(f"only the {len(shared)} episodes both runs played are compared "
                     f"({only_a} only in A, {only_b} only in B)")
    return notes


def _setup_notes(a: Side, b: Side) -> list[str]:
    """How the two runs were set up differently (tool documentation, calling
    convention): a comparison may be that very experiment, so it is said, not refused."""
    from toolmaze_gym.report.basis import differences

    return [f"the runs differ in {found}: B − A measures that change as well as the agent"
            for found in differences([*a.rows, *b.rows])
            if found.startswith(("tool documentation", "calling convention"))]


def differing(a: dict[str, Any], b: dict[str, Any]) -> list[str]:
    """The grade aspects in which two runs of one episode differ."""
    ga, gb = a["grade"], b["grade"]
    out = []
    for aspect in ASPECTS:
        x, y = ga.get(aspect), gb.get(aspect)
        if aspect == "labels":
            x, y = sorted(x or []), sorted(y or [])
        if aspect == "recovered" and not (ga.get("exposed") and gb.get("exposed")):
            continue  # recovery is only comparable where both met the fault
        if x != y:
            out.append(aspect)
    return out


def compare(source_a: str | Path, source_b: str | Path, resamples: int = 1000,
            seed: int = 0) -> Comparison:
    """Load, check and pair two runs; the differing episodes and B − A with intervals."""
    a, b = _side(str(source_a)), _side(str(source_b))
    _check_same_suite(a, b)
    shared = sorted(set(a.records) & set(b.records), key=lambda k: _order(a.records[k]))
    if not shared:
        raise RunError(f"{source_a} and {source_b} share no episode (task, mode, prompt, "
                       "repeat): nothing to compare")
    _check_same_tasks(a, b, shared)
    _labels(a, b)
    diffs = [Difference(k, a.records[k], b.records[k], d) for k in shared
             if (d := differing(a.records[k], b.records[k]))]
    pairs = [(a.records[k], b.records[k]) for k in shared]
    delta = metrics.table_delta(metrics.table(p for p, _ in pairs),
                                metrics.table(q for _, q in pairs))
    ci = metrics.paired_bootstrap(pairs, n=resamples, seed=seed) if resamples else {}
    return Comparison(a, b, shared, diffs, delta, ci, _notes(a, b, shared))


def _order(rec: dict[str, Any]) -> tuple:
    return (rec["level"], rec["task_id"], rec["mode"], rec.get("prompt") or "standard",
            int(rec.get("repeat", 0)))


# ---------------------------------------------------------------- links


def row_label(agent: str, rec: dict[str, Any]) -> str:
    """The viewer's name of the row a trajectory belongs to: agent (prompt)."""
    prompt = rec.get("prompt") or "standard"
    return f"{agent} ({PROMPT_LABELS.get(prompt, prompt)})"


def trajectory_link(agent: str, rec: dict[str, Any], viewer: str = "viewer") -> str:
    """The viewer's deep link to one (task, mode, agent): its task page and the card of
    the agent's row there."""
    from toolmaze_gym.report.viewer import page_name, slug

    return f"{viewer}/{page_name(rec['task_id'], rec['mode'])}#agent-" \
        f"{slug(row_label(agent, rec))}"


# ---------------------------------------------------------------- writing


def _pct(x: float | None, signed: bool = False) -> str:
    if x is None:
        return "n/a"
    return f"{100 * x:+.1f}" if signed else f"{100 * x:.1f}"


def _ci(lo_hi) -> str:
    return "n/a" if not lo_hi else f"[{100 * lo_hi[0]:+.1f}, {100 * lo_hi[1]:+.1f}]"


def delta_rows(cmp: Comparison) -> list[list[str]]:
    """One line per (scope, key): B − A of TSR, PRR and RC (points) with intervals."""
    out = []
    label = {"per_mode": "mode", "per_level": "level", "cells": "cell"}
    for scope in ("per_mode", "per_level", "cells"):
        for key, vals in cmp.delta[scope].items():
            cis = cmp.ci.get(scope, {}).get(key, {}) if cmp.ci else {}
            name = "NP" if key == "P0" else key.replace("/P0", "/NP")
            out.append([label[scope], name, *(_with_ci(vals[x], cis.get(x)) for x in METRICS)])
    comp = cmp.ci.get("composite") if cmp.ci else None
    out.append(["all", "composite", _with_ci(cmp.delta["composite"], comp), "", ""])
    return out


def _with_ci(value: float | None, lo_hi) -> str:
    """``+12.5 [+3.1, +21.9]``; ``n/a`` where undefined; the value alone without CIs."""
    if value is None:
        return "n/a"
    return _pct(value, True) + (f" {_ci(lo_hi)}" if lo_hi else "")


def _outcome(rec: dict[str, Any]) -> str:
    """A trajectory's grade in a few words: outcome, recovery (with its cost where it
    met a fault), labels and ending."""
    g = rec["grade"]
    rec_txt = (("recovered" if g.get("recovered") else "not recovered")
               + f" · c_rec {g.get('c_rec', 0):.2f}") if g.get("exposed") else "not exposed"
    labels = f" · {', '.join(g['labels'])}" if g.get("labels") else ""
    return (f"{'success' if g['success'] else 'failure'} · {rec_txt}{labels} · ended by "
            f"{g.get('ended_by') or 'step limit'}")


def csv_text(cmp: Comparison) -> str:
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(CSV_HEAD)
    for d in cmp.differences:
        ga, gb = d.a["grade"], d.b["grade"]
        w.writerow([d.a["task_id"], d.a["level"], "NP" if d.a["mode"] == "P0" else d.a["mode"],
                    d.a.get("prompt") or "standard", int(d.a.get("repeat", 0)), d.change,
                    " ".join(d.differs), int(bool(ga["success"])), int(bool(gb["success"])),
                    ga.get("recovered"), gb.get("recovered"), ga.get("c_rec"), gb.get("c_rec"),
                    " ".join(ga.get("labels", [])), " ".join(gb.get("labels", [])),
                    trajectory_link(cmp.a.label, d.a), trajectory_link(cmp.b.label, d.b)])
    return buf.getvalue()


def _summary_lines(cmp: Comparison) -> list[str]:
    from toolmaze_gym.grading import GRADING_VERSION

    c = cmp.counts()
    return [f"A = {cmp.a.label} (`{cmp.a.source}`), B = {cmp.b.label} (`{cmp.b.source}`); "
            f"suite {_names({r.suite for r in cmp.a.rows})}; grading version "
            f"{GRADING_VERSION}.",
            f"{len(cmp.shared)} paired episodes; {len(cmp.differences)} differ: "
            f"{c['A passes, B fails']} A passes, B fails; {c['A fails, B passes']} A fails, "
            f"B passes; {c['other']} with the same outcome but another grade."]


def markdown(cmp: Comparison) -> str:
    head = ["| scope | key | ΔTSR | ΔPRR | ΔRC |", "|---|---|---|---|---|"]
    deltas = ["| " + " | ".join(r) + " |" for r in delta_rows(cmp)]
    eps = ["| task | C | P | prompt | repeat | change | A | B | trajectories |",
           "|---|---|---|---|---|---|---|---|---|"]
    for d in cmp.differences:
        eps.append(f"| {d.a['task_id']} | {d.a['level']} | {_mode(d.a)} | "
                   f"{d.a.get('prompt') or 'standard'} | {int(d.a.get('repeat', 0))} | "
                   f"{d.change} | {_outcome(d.a)} | {_outcome(d.b)} | "
                   f"[A]({trajectory_link(cmp.a.label, d.a)}) "
                   f"[B]({trajectory_link(cmp.b.label, d.b)}) |")
    notes = [f"**Note:** {n}." for n in cmp.notes]
    return "\n".join(["# Comparison: B − A", "", *_summary_lines(cmp), "", *notes,
                      *([""] if notes else []),
                      "## Change in each metric (B − A, percentage points, paired bootstrap "
                      "95% interval)", "", "RC: lower is better, so a negative ΔRC is an "
                      "improvement. n/a: undefined in A or B (nothing exposed).", "", *head,
                      *deltas, "", "## Episodes that differ", "", *eps]) + "\n"


def _mode(rec: dict[str, Any]) -> str:
    return "NP" if rec["mode"] == "P0" else rec["mode"]


CSS = """body{font:14px system-ui,sans-serif;margin:0;color:#222}
header{background:#2d3142;color:#fff;padding:12px 18px}h1{font-size:19px;margin:0}
main{padding:14px 18px}table{border-collapse:collapse;margin:8px 0 18px}
td,th{border:1px solid #ddd;padding:3px 7px;text-align:left;vertical-align:top}
th{background:#f3f3f3}.note{background:#fff3cd;border:1px solid #e0c060;padding:8px;
margin:6px 0;font-weight:600}.pass{color:#1a7f37}.fail{color:#b42318}
tr.better td.change{color:#1a7f37}tr.worse td.change{color:#b42318}"""


def _esc(x: Any) -> str:
    return html.escape(str(x), quote=True)


def _html_deltas(cmp: Comparison) -> str:
    rows = "".join("<tr>" + "".join(f"<td>{_esc(c)}</td>" for c in r) + "</tr>"
                   for r in delta_rows(cmp))
    return ("<table id='deltas'><thead><tr><th>scope</th><th>key</th><th>ΔTSR</th>"
            f"<th>ΔPRR</th><th>ΔRC</th></tr></thead><tbody>{rows}</tbody></table>")


def _html_episodes(cmp: Comparison) -> str:
    rows = []
    for d in cmp.differences:
        kind = {"A passes, B fails": "worse", "A fails, B passes": "better"}.get(d.change,
                                                                             "other")
        link_a, link_b = trajectory_link(cmp.a.label, d.a), trajectory_link(cmp.b.label, d.b)
        rows.append(
            f'<tr class="episode {kind}" data-key="{_esc(d.key)}"><td>{_esc(d.a["task_id"])}'
            f'</td><td>{_esc(d.a["level"])}</td><td>{_mode(d.a)}</td>'
            f'<td>{_esc(d.a.get("prompt") or "standard")}</td>'
            f'<td>{int(d.a.get("repeat", 0))}</td><td class="change">{_esc(d.change)}</td>'
            f'<td>{_esc(_outcome(d.a))}</td><td>{_esc(_outcome(d.b))}</td>'
            f'<td><a class="a" href="{_esc(link_a)}">A</a> · '
            f'<a class="b" href="{_esc(link_b)}">B</a></td></tr>')
    return ("<table id='episodes'><thead><tr><th>task</th><th>C</th><th>P</th><th>prompt</th>"
            "<th>repeat</th><th>change</th><th>A</th><th>B</th><th>trajectories</th></tr>"
            f"</thead><tbody>{''.join(rows)}</tbody></table>")


def html_page(cmp: Comparison) -> str:
    notes = "".join(f'<div class="note">Note: {_esc(n)}.</div>' for n in cmp.notes)
    summary = "".join(f"<p>{_esc(line.replace('`', ''))}</p>" for line in _summary_lines(cmp))
    return (f'<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>Comparison: '
            f'{_esc(cmp.b.label)} − {_esc(cmp.a.label)}</title><style>{CSS}</style></head>'
            f'<body><header><h1>Comparison: B − A</h1></header><main>{summary}{notes}'
            "<h2>Change in each metric (B − A, points, paired bootstrap 95% interval)</h2>"
            "<p>RC: lower is better (a negative ΔRC is an improvement); n/a: undefined in A "
            f"or B.</p>{_html_deltas(cmp)}<h2>Episodes that differ "
            f"({len(cmp.differences)})</h2>{_html_episodes(cmp)}"
            f'<p><a href="results.md">tables of both runs</a> · '
            f'<a href="viewer/index.html">all trajectories</a></p></main></body></html>\n')


def write_comparison(cmp: Comparison, out: Path) -> list[Path]:
    """compare.html, compare.md and compare.csv in ``out``."""
    paths = [out / FILES[k] for k in ("html", "md", "csv")]
    for path, text in zip(paths, (html_page(cmp), markdown(cmp), csv_text(cmp)), strict=True):
        path.write_text(text, encoding="utf-8")
    cmp.files = paths
    return paths


def _merged(a: Regraded, b: Regraded) -> Regraded:
    return Regraded(a.records + b.records, a.stored + b.stored, a.disagreed + b.disagreed,
                    a.versions + b.versions)


def build_comparison(source_a: str | Path, source_b: str | Path, out: str | Path,
                     resamples: int = 1000, seed: int = 0, plots: bool = True,
                     viewer: bool = True) -> tuple[Comparison, Any]:
    """The report of both runs in ``out`` (tables, downloads, figures, a viewer with a
    page for every episode, so that every link resolves) and the comparison beside it."""
    from toolmaze_gym.report import write_report

    cmp = compare(source_a, source_b, resamples, seed)
    rows = cmp.a.rows + cmp.b.rows
    pages = len({(r["task_id"], r["mode"]) for row in rows for r in row.records})
    rep = write_report(rows, _merged(cmp.a.graded, cmp.b.graded),
                       [cmp.a.source, cmp.b.source], out, resamples, seed, plots, viewer,
                       max_pages=pages)
    write_comparison(cmp, Path(out))
    return cmp, rep
