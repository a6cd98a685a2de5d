"""A static, self-contained HTML trajectory viewer (the paper's Appendix E layout).

One page per (task, mode): on the left the query, the task's tool DAG with the
victim tools highlighted in red, and the perturbed response; on the right every
compared trajectory of that episode side by side, each with its own DAG (the
agent's calls overlaid in call order, the tool that took the fault filled red) and
its steps. An index page lists the trajectories with filters by agent, cell and
outcome. Everything is inline (CSS, JS, SVG): the pages open from disk with no
network, and can be copied anywhere.

A full-suite baseline run has thousands of episodes; pages are capped (``max_pages``)
and chosen deterministically: episodes that the most agents played first (so model
runs on a sample are always shown next to the baselines), then round-robin over the
(C, P) cells.
"""

from __future__ import annotations

import html
import json
import re
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

import networkx as nx

from toolmaze_gym import hashing
from toolmaze_gym.report.runs import PROMPT_LABELS, Row
from toolmaze_gym.runner import record_key
from toolmaze_gym.tasks.model import Task

MAX_PAGES = 200
SLUG_CHARS = 80  # readable part of a page name or anchor
HASH_CHARS = 10  # hex digits of the exact key's hash (40 bits)
PREVIEW_CHARS = 240
MODE_NAMES = {"P0": "NP (no fault)", "P1": "P1 explicit-transient",
              "P2": "P2 explicit-permanent", "P3": "P3 implicit-transient",
              "P4": "P4 implicit-permanent"}
NODE_W, NODE_H, GAP_X, GAP_Y = 190, 34, 24, 46

CSS = """
*{box-sizing:border-box}body{font:14px/1.45 system-ui,-apple-system,Segoe UI,sans-serif;
margin:0;color:#1d2330;background:#f5f6f8}header{background:#1d2330;color:#fff;
padding:10px 18px}header a{color:#9cc3ff}h1{font-size:18px;margin:0}h2{font-size:15px;
margin:14px 0 6px}.wrap{display:flex;gap:14px;padding:14px;align-items:flex-start}
.left{flex:0 0 430px;position:sticky;top:8px}.panel{background:#fff;border:1px solid #d8dce3;
border-radius:8px;padding:10px 12px;margin-bottom:12px}.query{font-size:15px;
border-left:4px solid #4c72b0;padding:6px 10px;background:#eef3fb;margin:0}
.trajs{display:flex;gap:12px;overflow-x:auto;flex:1}.traj{flex:0 0 470px;background:#fff;
border:1px solid #d8dce3;border-radius:8px;overflow:hidden}.traj>.head{padding:8px 12px;
color:#fff}.traj.success>.head{background:#2e7d32}.traj.failure>.head{background:#c62828}
.traj .body{padding:8px 12px}.meta{font-size:12px;color:#555}table{border-collapse:collapse;
width:100%}td,th{border-bottom:1px solid #e5e7eb;padding:4px 6px;text-align:left;
vertical-align:top;font-size:12.5px}th{background:#f0f2f5}pre{white-space:pre-wrap;
word-break:break-word;margin:0;font:12px/1.35 ui-monospace,Menlo,monospace}
.st{display:inline-block;padding:0 6px;border-radius:9px;font-size:11px;color:#fff}
.ok{background:#2e7d32}.err{background:#c62828}.end{background:#4c72b0}
.fault{background:#c62828;color:#fff;border-radius:4px;padding:1px 5px;font-size:11px}
tr.faulted{background:#fdecea}.lbl{display:inline-block;background:#eef0f4;
border-radius:4px;padding:0 5px;margin:1px;font-size:11px}svg{display:block;margin:0 auto;
width:100%;height:auto}
svg .node rect{fill:#fff;stroke:#8a94a6;stroke-width:1.2}svg .node text{font-size:11px;
font-family:ui-monospace,Menlo,monospace}svg .node.victim rect{fill:#fde0dc;stroke:#c62828;
stroke-width:2.5}svg .node.called rect{fill:#dbe8fb;stroke:#1f5fbf;stroke-width:2}
svg .node.fired rect{fill:#e53935;stroke:#8e0000;stroke-width:2.5}svg .node.fired text{
fill:#fff}svg .edge{stroke:#9aa3b2;stroke-width:1.3;fill:none}svg .path{stroke:#1f5fbf;
stroke-width:2.2;fill:none;opacity:.75}svg .node text.order{font-size:10px;fill:#1f5fbf;
font-weight:700}.filters{display:flex;gap:10px;flex-wrap:wrap;margin-bottom:10px}
.filters label{font-size:12px}#count{font-weight:600}a{color:#1f5fbf}
.steps td:nth-child(2){width:34%}.steps td:nth-child(4){width:50%}
"""

INDEX_JS = """
function applyFilters(){const f={};document.querySelectorAll('.filters select').forEach(
s=>{f[s.name]=s.value});let n=0;document.querySelectorAll('#trajectories tbody tr')
.forEach(tr=>{const show=Object.keys(f).every(k=>!f[k]||tr.dataset[k]===f[k]);
tr.style.display=show?'':'none';if(show)n++});document.getElementById('count')
.textContent=n;}
document.querySelectorAll('.filters select').forEach(s=>s.addEventListener('change',
applyFilters));applyFilters();
"""


@dataclass
class Entry:
    """One trajectory on a page."""

    row: str  # the report row's name (agent and prompt)
    agent: str
    rec: dict[str, Any]

    @property
    def anchor(self) -> str:
        rec = self.rec
        return unique_name(self.agent, rec["task_id"], rec["mode"],
                           rec.get("prompt") or "standard", int(rec.get("repeat", 0)))

    @property
    def success(self) -> bool:
        return bool(self.rec["grade"]["success"])


def slug(text: str) -> str:
    return re.sub(r"[^A-Za-z0-9_.-]+", "-", text).strip("-.")


def unique_name(*key: object) -> str:
    """A name for ``key`` that is safe in a file name or an HTML id: a readable slug of
    its parts, capped at ``SLUG_CHARS``, and a hash of the exact parts. The slug alone
    maps "task/one", "task one" and "task-one" to one name (one page would overwrite
    the others) and keeps a long id whole (past the file system's 255 bytes); the hash
    keeps every key apart and the cap keeps every name short."""
    readable = slug("-".join(str(k) for k in key))[:SLUG_CHARS].rstrip("-.")
    exact = json.dumps([str(k) for k in key], ensure_ascii=False)
    return f"{readable or 'x'}-{hashing.digest(exact) % 16**HASH_CHARS:0{HASH_CHARS}x}"


def page_name(task_id: str, mode: str) -> str:
    """The page of episode (task, mode), relative to the viewer folder."""
    return f"t/{unique_name(task_id, mode)}.html"


def esc(x: Any) -> str:
    return html.escape(str(x), quote=True)


# ---------------------------------------------------------------- choosing pages


def group_entries(rows: list[Row]) -> dict[tuple[str, str], list[Entry]]:
    """Trajectories per (task, mode); an NP record shared by two prompt rows appears once."""
    groups: dict[tuple[str, str], list[Entry]] = defaultdict(list)
    seen: set[tuple[str, str]] = set()
    for row in rows:
        for rec in row.records:
            ident = (row.agent, record_key(rec))
            if ident in seen:
                continue
            seen.add(ident)
            prompt = rec.get("prompt") or "standard"
            name = f"{row.agent} ({PROMPT_LABELS.get(prompt, prompt)})"
            groups[(rec["task_id"], rec["mode"])].append(Entry(name, row.agent, rec))
    return groups


def choose_pages(groups: dict[tuple[str, str], list[Entry]],
                 max_pages: int) -> list[tuple[str, str]]:
    """Episodes with the most agents first, then round-robin over (C, P) cells."""
    by_cover: dict[int, dict[tuple[str, str], list[tuple[str, str]]]] = defaultdict(
        lambda: defaultdict(list))
    for key, entries in sorted(groups.items()):
        cover = len({e.agent for e in entries})
        cell = (entries[0].rec["level"], key[1])
        by_cover[cover][cell].append(key)
    chosen: list[tuple[str, str]] = []
    for cover in sorted(by_cover, reverse=True):
        cells = [by_cover[cover][c] for c in sorted(by_cover[cover])]
        k = 0
        while len(chosen) < max_pages and any(k < len(c) for c in cells):
            chosen += [c[k] for c in cells if k < len(c)][: max_pages - len(chosen)]
            k += 1
    return chosen


# ---------------------------------------------------------------- the DAG


def dag_nodes(task: Task) -> tuple[nx.DiGraph, dict[tuple[str, str], str]]:
    """Tool nodes of the task (one per tool of every alternative), edges in run order;
    and (slot, tool) → node id."""
    g = nx.DiGraph()
    where: dict[tuple[str, str], str] = {}
    ends: dict[str, list[tuple[str, str]]] = {}
    for slot in task.slots:
        ends[slot.id] = []
        for a, side in enumerate(slot.alternatives):
            prev = None
            for p, tool in enumerate(side):
                nid = f"{slot.id}.{a}.{p}"
                g.add_node(nid, tool=tool, slot=slot.id)
                where.setdefault((slot.id, tool), nid)
                if prev:
                    g.add_edge(prev, nid)
                prev = nid
            ends[slot.id].append((f"{slot.id}.{a}.0", prev or ""))
    for up, down, _ in task.edges():
        for _, last in ends[up]:
            for first, _ in ends[down]:
                g.add_edge(last, first)
    return g, where


@cache
def _layout(task_json: str) -> tuple[dict[str, tuple[float, float]], float, float]:
    task = Task.from_json(task_json)
    g, _ = dag_nodes(task)
    for layer, nodes in enumerate(nx.topological_generations(g)):
        for n in nodes:
            g.nodes[n]["layer"] = layer
    pos = nx.multipartite_layout(g, subset_key="layer", align="horizontal")
    layers = defaultdict(list)
    for n, (x, _) in pos.items():
        layers[g.nodes[n]["layer"]].append((x, n))
    width = max(len(v) for v in layers.values()) * (NODE_W + GAP_X) + GAP_X
    out = {}
    for layer, items in layers.items():
        items.sort()
        row_w = len(items) * (NODE_W + GAP_X) - GAP_X
        for k, (_, n) in enumerate(items):
            out[n] = ((width - row_w) / 2 + k * (NODE_W + GAP_X),
                      GAP_Y / 2 + layer * (NODE_H + GAP_Y))
    return out, width, len(layers) * (NODE_H + GAP_Y)


def dag_svg(task: Task, victims: set[tuple[str, str]] = frozenset(),
            calls: list[tuple[str, str | None, bool]] = (),
            fired: set[tuple[str, str]] = frozenset()) -> str:
    """The task's DAG as inline SVG.

    ``victims``: (slot, tool) that may take the fault (red outline); ``calls``: the
    agent's calls in order as (tool, faulted slot or None, clean); ``fired``: (slot, tool)
    that did take a fault (filled red).
    """
    g, where = dag_nodes(task)
    pos, width, height = _layout(task.to_json())
    by_tool: dict[str, str] = {}
    for (_, tool), nid in where.items():
        by_tool.setdefault(tool, nid)
    victim_ids = {where[v] for v in victims if v in where}
    fired_ids = {where[v] for v in fired if v in where}
    order: dict[str, list[int]] = defaultdict(list)
    path = []
    for k, (tool, slot, _) in enumerate(calls, 1):
        nid = where.get((slot, tool)) if slot else by_tool.get(tool)
        if nid:
            order[nid].append(k)
            path.append(nid)
    parts = [f'<svg viewBox="0 0 {width:.0f} {height:.0f}" style="max-width:{width:.0f}px" '
             'xmlns="http://www.w3.org/2000/svg" '
             f'role="img" aria-label="tool DAG of {esc(task.id)}">',
             '<defs><marker id="arr" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="6" '
             'markerHeight="6" orient="auto"><path d="M0,0L10,5L0,10z" fill="#9aa3b2"/>'
             '</marker></defs>']
    for a, b in g.edges():
        (x1, y1), (x2, y2) = pos[a], pos[b]
        parts.append(f'<path class="edge" marker-end="url(#arr)" d="M{x1 + NODE_W / 2:.0f},'
                     f'{y1 + NODE_H:.0f} L{x2 + NODE_W / 2:.0f},{y2:.0f}"/>')
    if len(path) > 1:
        pts = " ".join(f"{pos[n][0] + NODE_W / 2 + 6:.0f},{pos[n][1] + NODE_H / 2:.0f}"
                       for n in path)
        parts.append(f'<polyline class="path" points="{pts}"/>')
    for n in g.nodes:
        x, y = pos[n]
        cls = ["node"]
        cls += ["victim"] if n in victim_ids else []
        cls += ["called"] if n in order else []
        cls += ["fired"] if n in fired_ids else []
        tool = g.nodes[n]["tool"]
        name = tool if len(tool) <= 26 else tool[:25] + "…"
        parts.append(f'<g class="{" ".join(cls)}" data-tool="{esc(tool)}" '
                     f'data-slot="{esc(g.nodes[n]["slot"])}"><title>{esc(tool)} (slot '
                     f'{esc(g.nodes[n]["slot"])})</title><rect x="{x:.0f}" y="{y:.0f}" '
                     f'width="{NODE_W}" height="{NODE_H}" rx="6"/><text x="{x + 8:.0f}" '
                     f'y="{y + 21:.0f}">{esc(name)}</text>')
        if n in order:
            nums = ",".join(map(str, order[n][:6])) + ("…" if len(order[n]) > 6 else "")
            parts.append(f'<text class="order" x="{x + NODE_W - 4:.0f}" y="{y - 3:.0f}" '
                         f'text-anchor="end">{nums}</text>')
        parts.append("</g>")
    parts.append("</svg>")
    return "".join(parts)


# ---------------------------------------------------------------- one page


def _action(step: dict[str, Any]) -> str:
    a = step.get("action") or {}
    kind = a.get("kind", "?")
    if kind == "call":
        args = json.dumps(a.get("arguments", {}), ensure_ascii=False)
        return f'<b>{esc(a.get("name"))}</b><pre>{esc(args)}</pre>'
    return f'<b>{esc(kind)}</b><pre>{esc(a.get("text", ""))}</pre>'


def _status(step: dict[str, Any]) -> str:
    s = step.get("status")
    if s is None:
        return '<span class="st end">end</span>'
    return f'<span class="st {"ok" if s < 400 else "err"}">{s}</span>'


def _observation(text: str) -> str:
    if not text:
        return ""
    if len(text) <= PREVIEW_CHARS:
        return f"<pre>{esc(text)}</pre>"
    return (f"<details><summary><pre>{esc(text[:PREVIEW_CHARS])}…</pre></summary>"
            f"<pre>{esc(text)}</pre></details>")


def _fault_note(fault: dict[str, Any] | None) -> str:
    if not fault:
        return ""
    note = f'<span class="fault">FAULT {esc(fault.get("kind", ""))}</span>'
    w = fault.get("witness") or {}
    if w.get("detail"):
        note += f'<div class="meta">witness: {esc(w["detail"])}</div>'
    return note


def steps_table(rec: dict[str, Any]) -> str:
    rows = []
    for k, step in enumerate(rec["steps"], 1):
        fault = step.get("fault")
        rows.append(f'<tr class="step{" faulted" if fault else ""}"><td>{k}</td>'
                    f"<td>{_action(step)}</td><td>{_status(step)}{_fault_note(fault)}</td>"
                    f"<td>{_observation(step.get('observation') or '')}</td></tr>")
    return ('<table class="steps"><thead><tr><th>#</th><th>action</th><th>status</th>'
            f'<th>response</th></tr></thead><tbody>{"".join(rows)}</tbody></table>')


def _calls(rec: dict[str, Any]) -> tuple[list[tuple[str, str | None, bool]],
                                         set[tuple[str, str]]]:
    calls, fired = [], set()
    for step in rec["steps"]:
        a = step.get("action") or {}
        if a.get("kind") != "call":
            continue
        fault = step.get("fault")
        slot = fault.get("slot") if fault else None
        if fault:
            fired.add((fault.get("slot"), fault.get("tool")))
        calls.append((a.get("name", ""), slot, (step.get("status") or 500) < 400 and not fault))
    return calls, fired


def trajectory_html(entry: Entry, task: Task | None) -> str:
    rec, g = entry.rec, entry.rec["grade"]
    outcome = "success" if entry.success else "failure"
    calls, fired = _calls(rec)
    recovered = {True: "recovered", False: "not recovered", None: "not exposed"}[
        g.get("recovered") if g.get("exposed") else None]
    labels = "".join(f'<span class="lbl">{esc(lb)}</span>' for lb in g.get("labels", []))
    cut = f' · cut: {esc(rec["cut"])}' if rec.get("cut") else ""
    usage = rec.get("usage") or {}
    tokens = (f' · {usage.get("prompt_tokens", 0)}+{usage.get("completion_tokens", 0)} tokens'
              if usage.get("prompt_tokens") else "")
    dag = dag_svg(task, calls=calls, fired=fired) if task else ""
    off = sorted({c[0] for c in calls} - (set(task.task_tools) if task else set()))
    off_html = (f'<div class="meta">calls outside the DAG: {esc(", ".join(off))}</div>'
                if off else "")
    return (f'<section class="traj {outcome}" id="{esc(entry.anchor)}" '
            f'data-agent="{esc(entry.agent)}"><div class="head"><b>{esc(entry.row)}</b> — '
            f'{"Success" if entry.success else "Failure"}<div class="meta" style="color:#fff">'
            f'{recovered} · ended by {esc(g.get("ended_by") or "step limit")} · '
            f'{_costs(g)} · repeat {rec.get("repeat", 0)}{cut}'
            f'{tokens}</div></div><div class="body">{labels}{dag}{off_html}'
            f"{steps_table(rec)}</div></section>")


def _victims(profile) -> set[tuple[str, str]]:
    return {(v.slot, t) for v in profile.victims for t in v.tools} if profile else set()


def _perturbed_response(profile, entries: list[Entry]) -> str:
    for e in entries:
        for step in e.rec["steps"]:
            if step.get("fault"):
                f = step["fault"]
                return (f'<div class="meta">{esc(f.get("tool"))} returned ({e.row}):</div>'
                        f'<pre>{esc(step.get("observation", ""))}</pre>'
                        f'{_fault_note(f)}')
    if profile is None or not profile.victims:
        return '<div class="meta">No fault in this mode.</div>'
    parts = []
    for v in profile.victims:
        if v.error:
            parts.append(f"<pre>{esc(json.dumps(v.error, indent=1))}</pre>")
        for tool, recipe in v.recipes.items():
            w = (v.witnesses.get(tool) or {}).get("detail", "")
            parts.append(f'<div class="meta">{esc(tool)}: {esc(recipe)} — {esc(w)}</div>')
    return ('<div class="meta">No agent reached the victim; the planned fault:</div>'
            + "".join(parts))


def page_html(key: tuple[str, str], entries: list[Entry], task: Task | None, profile) -> str:
    task_id, mode = key
    level = entries[0].rec["level"]
    victims = _victims(profile)
    left = [f'<div class="panel"><h2>Query</h2><p class="query">'
            f'{esc(task.query if task else "(task not found in its suite)")}</p></div>']
    if task:
        vt = ", ".join(sorted({t for _, t in victims})) or "none"
        left.append(f'<div class="panel"><h2>Tool DAG</h2>{dag_svg(task, victims)}'
                    f'<div class="meta">victim tool(s) in red: {esc(vt)}</div></div>')
    left.append(f'<div class="panel"><h2>Perturbed response</h2>'
                f"{_perturbed_response(profile, entries)}</div>")
    entries = sorted(entries, key=lambda e: (not e.success, e.row))
    body = "".join(trajectory_html(e, task) for e in entries)
    return _document(f"{task_id} · {mode}",
                     f'<header><h1>{esc(task_id)} · {esc(level)} · {esc(MODE_NAMES[mode])}'
                     f'</h1><a href="../index.html">← all trajectories</a></header>'
                     f'<div class="wrap"><div class="left">{"".join(left)}</div>'
                     f'<div class="trajs">{body}</div></div>')


def _document(title: str, body: str, script: str = "") -> str:
    js = f"<script>{script}</script>" if script else ""
    return (f'<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>{esc(title)}'
            f"</title><style>{CSS}</style></head><body>{body}{js}</body></html>\n")


# ---------------------------------------------------------------- the index


def index_html(pages: list[tuple[tuple[str, str], str, list[Entry]]], total: int) -> str:
    agents = sorted({e.agent for _, _, es in pages for e in es})
    levels = sorted({es[0].rec["level"] for _, _, es in pages})
    modes = sorted({k[1] for k, _, _ in pages})

    def select(name: str, label: str, values: Iterable[tuple[str, str]]) -> str:
        opts = "".join(f'<option value="{esc(v)}">{esc(t)}</option>' for v, t in values)
        return (f'<label>{label} <select name="{name}"><option value="">all</option>{opts}'
                f"</select></label>")

    filters = (select("agent", "agent", ((a, a) for a in agents))
               + select("level", "C", ((lv, lv) for lv in levels))
               + select("mode", "P", ((m, MODE_NAMES[m]) for m in modes))
               + select("outcome", "outcome", (("success", "success"),
                                               ("failure", "failure"))))
    rows = []
    for (task_id, mode), href, entries in pages:
        for e in entries:
            g = e.rec["grade"]
            outcome = "success" if e.success else "failure"
            labels = " ".join(g.get("labels", []))
            rows.append(
                f'<tr data-agent="{esc(e.agent)}" data-level="{esc(e.rec["level"])}" '
                f'data-mode="{esc(mode)}" data-outcome="{outcome}"><td>{esc(e.row)}</td>'
                f'<td><a href="{esc(href)}#{esc(e.anchor)}">{esc(task_id)}</a></td>'
                f'<td>{esc(e.rec["level"])}</td><td>{esc(mode)}</td>'
                f'<td><span class="st {"ok" if e.success else "err"}">{outcome}</span></td>'
                f"<td>{len(e.rec['steps'])}</td><td>{esc(labels)}</td></tr>")
    shown = sum(len(es) for _, _, es in pages)
    note = (f"{len(pages)} episodes with {shown} trajectories shown"
            + (f" (of {total} episodes; capped)" if total > len(pages) else ""))
    body = (f'<header><h1>ToolMaze trajectories</h1><div class="meta" style="color:#ccc">'
            f'{note}</div></header><div style="padding:14px"><div class="panel">'
            f'<div class="filters">{filters}</div><div><span id="count">{shown}</span> '
            f'trajectories match</div></div><div class="panel"><table id="trajectories">'
            f"<thead><tr><th>agent</th><th>task</th><th>C</th><th>P</th><th>outcome</th>"
            f"<th>steps</th><th>labels</th></tr></thead><tbody>{''.join(rows)}</tbody>"
            f"</table></div></div>")
    return _document("ToolMaze trajectories", body, INDEX_JS)


def write_viewer(rows: list[Row], out_dir: Path, max_pages: int = MAX_PAGES) -> Path:
    """Write the viewer under ``out_dir`` (index.html and t/*.html); returns the index."""
    from toolmaze_gym.corpus import Simulator
    from toolmaze_gym.faults.store import profile_for
    from toolmaze_gym.tasks.suite import SUITE_NAME, SuiteError, get_task

    (out_dir / "t").mkdir(parents=True, exist_ok=True)
    groups = group_entries(rows)
    suites = {r.agent: r.suite for r in rows}
    known = {k: t for r in rows for k, t in r.tasks.items()}  # runs over task files
    sim = None
    pages = []
    for key in choose_pages(groups, max_pages):
        entries = groups[key]
        suite = suites.get(entries[0].agent) or entries[0].rec.get("suite") or SUITE_NAME
        try:
            task = known.get(key[0]) or get_task(key[0], suite)
        except (SuiteError, FileNotFoundError):
            task, profile = None, None
        else:
            sim = sim or Simulator()
            profile = profile_for(task, key[1], sim, suite)
        href = page_name(*key)
        (out_dir / href).write_text(page_html(key, entries, task, profile), encoding="utf-8")
        pages.append((key, href, entries))
    index = out_dir / "index.html"
    index.write_text(index_html(pages, len(groups)), encoding="utf-8")
    return index


def _costs(g: dict) -> str:
    """c and c* where a fault fired; n/a where none did (nothing to recover from)."""
    if not g.get("exposed"):
        return "c=n/a c*=n/a"
    return f'c={g.get("c")} c*={g.get("c_star")}'
