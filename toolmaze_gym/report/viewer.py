"""A static, self-contained HTML trajectory viewer (the paper's Appendix E layout).

One page per (task, mode), ``t/<page_name(task, mode)>``: on top the query, the
perturbed response and the task's tool DAG (``dag``: slots as boxes, alternative groups
as "one of N" boxes, the tools that may fail in this mode in pale red, a legend); below,
every agent's trajectory stacked full width in the index's agent order, each with its
own DAG (its calls numbered by step, the fault that fired in solid red) beside its
steps. A sticky picker on top reaches every card; ``#agent-<slug(agent)>`` opens the
page at that agent (``agent_anchor``). The index (``viewer_index``) lists every
trajectory. Everything is inline (CSS, JS, SVG): the pages open from disk with no
network, and can be copied anywhere.

Every episode gets its page; ``max_pages`` may cap them (chosen deterministically:
episodes that the most agents played first, then round-robin over the (C, P) cells),
and the index then says so and still lists every trajectory.
"""

from __future__ import annotations

import functools
import html
import json
import re
from collections import defaultdict
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any

from toolmaze_gym import hashing
from toolmaze_gym.agents.compact_tools import render_tools
from toolmaze_gym.call_checks import closest_path
from toolmaze_gym.corpus import Corpus, Simulator, load_corpus
from toolmaze_gym.episode import Step
from toolmaze_gym.explain import explain
from toolmaze_gym.prompts import clock_line, system_prompt
from toolmaze_gym.report import dag
from toolmaze_gym.report.runs import PROMPT_LABELS, Row
from toolmaze_gym.runner import record_key
from toolmaze_gym.tasks.model import Task
from toolmaze_gym.transcript import episode_tools

SLUG_CHARS = 80  # readable part of a page name or anchor
HASH_CHARS = 10  # hex digits of the exact key's hash (40 bits)
PREVIEW_CHARS = 240
MODE_NAMES = {"P0": "NP (no fault)", "P1": "P1 explicit-transient",
              "P2": "P2 explicit-permanent", "P3": "P3 implicit-transient",
              "P4": "P4 implicit-permanent"}

PICKER_PX = 60  # the sticky agent picker's height until the script measures it

CSS = """
*{box-sizing:border-box}body{font:14px/1.45 system-ui,-apple-system,Segoe UI,sans-serif;
margin:0;color:#1d2330;background:#f5f6f8}header{background:#1d2330;color:#fff;
padding:10px 18px}header a{color:#9cc3ff}h1{font-size:18px;margin:0}h2{font-size:15px;
margin:10px 0 6px}main{padding:12px 14px}.panel{background:#fff;border:1px solid #d8dce3;
border-radius:8px;padding:10px 12px;margin-bottom:12px;min-width:0}.query{font-size:15px;
border-left:4px solid #4c72b0;padding:6px 10px;background:#eef3fb;margin:0}
.top{display:flex;gap:12px;flex-wrap:wrap;align-items:flex-start}.top .info{flex:1 1 380px}
.top .dagpanel{flex:0 1 auto;width:min-content;max-width:100%}
.dagwrap{overflow-x:auto;max-width:100%}
.picker{position:sticky;top:0;z-index:5;display:flex;flex-wrap:wrap;gap:6px;align-items:center;
background:#fff;border-bottom:1px solid #d8dce3;padding:8px 14px;box-shadow:0 2px 4px #0001}
.picker b{margin-right:4px}.pick{padding:2px 9px;border-radius:12px;text-decoration:none;
font-size:13px;color:#fff;white-space:nowrap}.pick.success{background:#2e7d32}
.pick.failure{background:#c62828}.pick.current{outline:3px solid #f2b705}
.agent,.agentrow{scroll-margin-top:var(--pick,PICKERpx)}
.traj{background:#fff;border:1px solid #d8dce3;border-radius:8px;overflow:hidden;
margin-bottom:14px;scroll-margin-top:var(--pick,PICKERpx)}
.traj>.head{padding:8px 12px;color:#fff}.traj.success>.head{background:#2e7d32}
.traj.failure>.head{background:#c62828}.traj .body{padding:8px 12px}
.cols{display:flex;flex-wrap:wrap;gap:14px;align-items:flex-start}
.cols>.dagwrap{flex:0 1 auto}.cols>.stepswrap{flex:1 1 440px;min-width:0}
.meta{font-size:12px;color:#555}table{border-collapse:collapse;width:100%}
td,th{border-bottom:1px solid #e5e7eb;padding:4px 6px;text-align:left;vertical-align:top;
font-size:12.5px}th{background:#f0f2f5}pre{white-space:pre-wrap;word-break:break-word;
margin:0;font:12px/1.35 ui-monospace,Menlo,monospace}.st{display:inline-block;
padding:0 6px;border-radius:9px;font-size:11px;color:#fff}.ok{background:#2e7d32}
.err{background:#c62828}.end{background:#4c72b0}.fault{background:#c62828;color:#fff;
border-radius:4px;padding:1px 5px;font-size:11px}tr.faulted{background:#fdecea}
.lbl{display:inline-block;background:#eef0f4;border-radius:4px;padding:0 5px;margin:1px;
font-size:11px}a{color:#1f5fbf}.steps td:nth-child(2){width:34%}
.steps td:nth-child(4){width:50%}
pre.why{background:#fdecea;border-left:4px solid #c62828;padding:6px 8px;margin:6px 0}
details{margin:4px 0}details>summary{cursor:pointer;color:#1f5fbf;font-size:12.5px}
details>pre,details>.meta{margin:4px 0 4px 14px}
""".replace("PICKER", str(PICKER_PX))

# A card scrolled to lies below the picker, however many lines its chips take; the
# picker marks the card in view (and the one a link or the address names).
PAGE_JS = """
const picks=[...document.querySelectorAll('.pick')],bar=document.getElementById('picker');
function fit(){document.documentElement.style.setProperty('--pick',bar.offsetHeight+6+'px');}
addEventListener('resize',fit);fit();
function mark(id){picks.forEach(p=>p.classList.toggle('current',p.hash==='#'+id));}
const seen=new IntersectionObserver(es=>{es.forEach(e=>{if(e.isIntersecting)
mark(e.target.id)})},{rootMargin:'-PICKERpx 0px -60% 0px'});
document.querySelectorAll('.traj').forEach(s=>seen.observe(s));
function opened(){const id=decodeURIComponent(location.hash.slice(1));if(!id)return;
const el=document.getElementById(id);if(!el)return;el.scrollIntoView();
const t=el.classList.contains('traj')?el:el.querySelector('.traj');if(t)mark(t.id);}
addEventListener('hashchange',opened);opened();
""".replace("PICKER", str(PICKER_PX))


@dataclass
class Shared:
    """What every card of a page reads alike: the episode's fault profile (None: its
    task is unknown), the corpus its grade is explained against, the world's clock."""

    profile: Any = None
    corpus: Corpus = field(default_factory=load_corpus)
    now: datetime = field(default_factory=lambda: _simulator().world.now)


@functools.cache
def _simulator() -> Simulator:
    """One simulator per process for pages written without one (its world's clock is
    the one every prompt states)."""
    return Simulator()


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


def call_steps(rec: dict[str, Any], task: Task, corpus: Corpus | None = None
               ) -> tuple[dict[tuple[str, str], list[int]], set[tuple[str, str]]]:
    """(slot, tool) → the step numbers (as the steps table numbers them) of the agent's
    calls to it, and the (slot, tool) where a fault fired.

    A call is drawn on the step it served, as the grader's path match decided it
    (``call_checks.closest_path``: the path the grade compared, each call's step), not
    by its tool's name: where one tool serves two steps (a C4 task recording two
    expenses), the first slot offering the tool would take both calls and the second
    would look uncalled. A call the match did not take (a fault, a failed try, a
    repeat) goes to the slot its fault names, else to the slot of the nearest matched
    call of the same tool (the next one first: a failed try precedes its success), else
    to a slot of the tool that no call served. Where every tool serves one step (most
    tasks) its name says where, and the path match (a re-grade) is not needed."""
    offering: dict[str, list[str]] = defaultdict(list)
    for slot in task.slots:
        for tool in slot.tools:
            if slot.id not in offering[tool]:
                offering[tool].append(slot.id)
    shared = any(len(slots) > 1 for slots in offering.values())
    served = _served(rec, task, corpus or load_corpus()) if shared else {}
    calls = [(k, (s.get("action") or {}).get("name", ""), s.get("fault"))
             for k, s in enumerate(rec["steps"])
             if (s.get("action") or {}).get("kind") == "call"]
    steps: dict[tuple[str, str], list[int]] = defaultdict(list)
    fired = set()
    for k, tool, fault in calls:
        if fault:
            fired.add((fault.get("slot"), fault.get("tool")))
        slot = (served.get(k) or (fault or {}).get("slot")
                or _nearest_served(k, tool, calls, served) or _unserved(tool, offering, served))
        if slot:
            steps[(slot, tool)].append(k + 1)
    return dict(steps), fired


def _served(rec: dict[str, Any], task: Task, corpus: Corpus) -> dict[int, str]:
    """Step index → the slot whose expected call it is on the path the grade compared
    (a required Action sent with a wrong value included: the grade names its slot)."""
    grade = rec.get("grade") or {}
    try:
        steps = [Step.from_dict(s) for s in rec["steps"]]
        _, checks = closest_path(grade, task, steps, corpus)
    except (KeyError, IndexError, TypeError, ValueError):  # a record of another build
        return {}
    served = {c.step: c.call.slot for c in checks if c.step is not None}
    for m in grade.get("missing") or ():
        if isinstance(m, dict) and isinstance(m.get("step"), int) and m.get("slot"):
            served.setdefault(m["step"], m["slot"])
    return served


def _nearest_served(k: int, tool: str, calls: list[tuple[int, str, Any]],
                    served: dict[int, str]) -> str | None:
    """The slot of the next matched call of ``tool`` after step ``k``, else the last
    one before it."""
    same = [j for j, t, _ in calls if t == tool and j in served]
    later = [j for j in same if j > k]
    if later:
        return served[later[0]]
    earlier = [j for j in same if j < k]
    return served[earlier[-1]] if earlier else None


def _unserved(tool: str, offering: dict[str, list[str]], served: dict[int, str]
              ) -> str | None:
    """The first slot offering ``tool`` that no call served, else its first slot."""
    slots = offering.get(tool) or [None]
    done = set(served.values())
    return next((s for s in slots if s not in done), slots[0])


def trajectory_html(entry: Entry, task: Task | None, victims: set[tuple[str, str]],
                    shared: Shared | None = None) -> str:
    """One agent's card: outcome, recovery, ending and costs, why it got its grade,
    what it saw (one click away), its own DAG (the calls numbered by the step they
    served, the fault that fired in solid red) beside its steps."""
    shared = shared or Shared()
    rec, g = entry.rec, entry.rec["grade"]
    outcome = "success" if entry.success else "failure"
    recovered = {True: "recovered", False: "not recovered", None: "not exposed"}[
        g.get("recovered") if g.get("exposed") else None]
    labels = "".join(f'<span class="lbl">{esc(lb)}</span>' for lb in g.get("labels", []))
    cut = f' · cut: {esc(rec["cut"])}' if rec.get("cut") else ""
    usage = rec.get("usage") or {}
    tokens = (f' · {usage.get("prompt_tokens", 0)}+{usage.get("completion_tokens", 0)} tokens'
              if usage.get("prompt_tokens") else "")
    dag_part = off_html = ""
    if task:
        steps, fired = call_steps(rec, task, shared.corpus)
        dag_part = f'<div class="dagwrap">{dag.svg(task, victims, steps, fired)}</div>'
        called = {(s.get("action") or {}).get("name") for s in rec["steps"]
                  if (s.get("action") or {}).get("kind") == "call"}
        off = sorted(called - set(task.task_tools) - {None})
        off_html = (f'<div class="meta">calls outside the DAG: {esc(", ".join(off))}</div>'
                    if off else "")
    return (f'<section class="traj {outcome}" id="{esc(entry.anchor)}" '
            f'data-agent="{esc(entry.agent)}"><div class="head"><b>{esc(entry.row)}</b> — '
            f'{"Success" if entry.success else "Failure"}<div class="meta" style="color:#fff">'
            f'{recovered} · ended by {esc(g.get("ended_by") or "step limit")} · '
            f'{_costs(g)} · repeat {rec.get("repeat", 0)}{cut}'
            f'{tokens}</div></div><div class="body">{labels}{off_html}'
            f'{why_html(rec, task, shared.profile, shared.corpus)}'
            f'{context_html(rec, shared.now)}<div class="cols">'
            f'{dag_part}<div class="stepswrap">{steps_table(rec)}</div></div></div></section>')


def _victims(profile) -> set[tuple[str, str]]:
    return {(v.slot, t) for v in profile.victims for t in v.tools} if profile else set()


def _perturbed_response(profile, entries: list[Entry]) -> str:
    for e in entries:
        for step in e.rec["steps"]:
            if step.get("fault"):
                f = step["fault"]
                return (f'<div class="meta">{esc(f.get("tool"))} returned ({esc(e.row)}):'
                        f'</div><pre>{esc(step.get("observation", ""))}</pre>'
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


def agent_anchor(label: str) -> str:
    """The id of an agent's cards on a task page: ``viewer/<page_name(task, mode)>#``
    plus this opens that page at them. ``label`` is the agent (all its cards) or a
    report row, "agent (prompt)" (that prompt's cards: the form the comparison page
    links to). Two labels with one slug on one page: the later gets ``-2``, ``-3``..."""
    return f"agent-{slug(label) or 'x'}"


def _anchor_ids(labels: list[str]) -> dict[str, str]:
    """A unique id per label, in page order (the first keeps the plain slug)."""
    ids: dict[str, str] = {}
    for label in labels:
        base = name = agent_anchor(label)
        k = 1
        while name in ids.values():
            k += 1
            name = f"{base}-{k}"
        ids[label] = name
    return ids


def _cards(entries: list[Entry], task: Task | None, victims: set[tuple[str, str]],
           shared: Shared) -> str:
    """Every trajectory, grouped by agent (``#agent-<agent>``) and by report row
    (``#agent-<agent (prompt)>``), in the order given."""
    agents = list(dict.fromkeys(e.agent for e in entries))
    rows = {a: list(dict.fromkeys(e.row for e in entries if e.agent == a)) for a in agents}
    ids = _anchor_ids([x for a in agents for x in (a, *[r for r in rows[a] if r != a])])
    out = []
    for agent in agents:
        inner = "".join(
            f'<div class="agentrow" id="{esc(ids[row])}" data-row="{esc(row)}">'
            + "".join(trajectory_html(e, task, victims, shared) for e in entries
                      if e.agent == agent and e.row == row) + "</div>"
            for row in rows[agent])
        out.append(f'<div class="agent" id="{esc(ids[agent])}" data-agent="{esc(agent)}">'
                   f"{inner}</div>")
    return "".join(out)


def ordered(entries: list[Entry], order: dict[str, int]) -> list[Entry]:
    """An episode's trajectories in the index's agent order, then prompt and repeat."""
    prompts = list(PROMPT_LABELS)  # the standard prompt first, as in the tables

    def key(e: Entry) -> tuple:
        prompt = e.rec.get("prompt") or "standard"
        return (order.get(e.agent, len(order)), e.agent,
                prompts.index(prompt) if prompt in prompts else len(prompts), prompt,
                int(e.rec.get("repeat", 0)))

    return sorted(entries, key=key)


def _picker(entries: list[Entry]) -> str:
    chips = "".join(f'<a class="pick {"success" if e.success else "failure"}" '
                    f'href="#{esc(e.anchor)}" data-agent="{esc(e.agent)}">'
                    f'{"✓" if e.success else "✗"} {esc(e.row)}</a>' for e in entries)
    return f'<nav class="picker" id="picker"><b>Agents</b>{chips}</nav>'


def page_html(key: tuple[str, str], entries: list[Entry], task: Task | None, profile,
              order: dict[str, int] | None = None, sim: Simulator | None = None) -> str:
    """One episode (task, mode): query, fault, the task's DAG and its tool docs on top,
    then every agent's card stacked full width in the index's agent order, a sticky
    picker above."""
    task_id, mode = key
    level = entries[0].rec["level"]
    victims = _victims(profile)
    entries = ordered(entries, order or {})
    top = [f'<div class="panel info"><h2>Query</h2><p class="query">'
           f'{esc(task.query if task else "(task not found in its suite)")}</p>'
           f'<h2>Perturbed response</h2>{_perturbed_response(profile, entries)}'
           f'<h2>Reading the DAGs</h2>{dag.legend_html()}</div>']
    if task:
        vt = ", ".join(sorted({t for _, t in victims})) or "none"
        top.append(f'<div class="panel dagpanel"><h2>Tool DAG</h2><div class="dagwrap">'
                   f'{dag.svg(task, victims)}</div><div class="meta">may fail in this mode: '
                   f'{esc(vt)}</div></div>')
    sim = sim or _simulator()
    shared = Shared(profile, sim.corpus, sim.world.now)
    if task:
        top[0] = top[0].replace("<h2>Reading the DAGs</h2>",
                                f"{tool_docs_links(task, doc_forms(entries))}"
                                "<h2>Reading the DAGs</h2>")
    cards = _cards(entries, task, victims, shared)
    return _document(f"{task_id} · {mode}",
                     f'<header><h1>{esc(task_id)} · {esc(level)} · {esc(MODE_NAMES[mode])}'
                     f'</h1><a href="../index.html">← all trajectories</a></header>'
                     f'{_picker(entries)}<main><div class="top">{"".join(top)}</div>'
                     f'{cards}</main>', PAGE_JS)


def _document(title: str, body: str, script: str = "") -> str:
    js = f"<script>{script}</script>" if script else ""
    return (f'<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>{esc(title)}'
            f"</title><style>{CSS}{dag.CSS}</style></head><body>{body}{js}</body></html>\n")


# ---------------------------------------------------------------- why, and what it saw


def why_html(rec: dict[str, Any], task: Task | None, profile, corpus: Corpus) -> str:
    """Why the episode got its grade, in the words ``toolmaze play`` uses
    (``explain.explain``): a failure's reasons in plain sight, the whole explanation
    (the required Actions, the faults, the costs, the labels) one click away. A
    success needs no reason (its card's head says it), nor a card without its task or
    profile (a record of another suite build)."""
    if task is None or profile is None or (rec.get("grade") or {}).get("success"):
        return ""
    try:
        steps = [Step.from_dict(s) for s in rec["steps"]]
        lines = explain(rec.get("grade") or {}, task, profile, steps, corpus,
                        truncated=bool(rec.get("truncated")), cut=rec.get("cut"))
    except (KeyError, IndexError, TypeError, ValueError):
        return ""
    return (f'<pre class="why">{esc(lines[0])}</pre><details class="explain"><summary>why '
            f'this grade (as toolmaze play explains it)</summary>'
            f'<pre>{esc(chr(10).join(lines))}</pre></details>')


def doc_form(rec: dict[str, Any]) -> str:
    """How the agent was given the tools: its options say compact or brief docs in
    the system prompt; otherwise the JSON schemas (native tools, chat templates)."""
    options = rec.get("agent_options") or {}
    if options.get("brief_tools"):
        return "brief"
    return "compact" if options.get("compact_tools") else "schemas"


DOC_FORMS = {"schemas": "JSON schemas (sent as the request's tools)",
             "compact": "compact docs (in the system prompt)",
             "brief": "brief compact docs (in the system prompt)"}


def context_html(rec: dict[str, Any], now: datetime) -> str:
    """One click away on each card: the system prompt the agent got (its prompt
    variant, the world's clock), the clock alone, how the tools were documented
    (the docs themselves on the task's own page, ``tool_docs_name``) and the tokens
    it used."""
    usage = rec.get("usage") or {}
    prompt = rec.get("prompt") or "standard"
    calling = rec.get("convention")  # the runner records it per record (issue 30 item 3)
    try:  # worded for the record's calling convention where it names one
        system = system_prompt(prompt, now, *([calling] if calling else []))
    except (ValueError, TypeError):  # a prompt or convention this build does not know
        system = f"(prompt {prompt!r} is unknown to this build)"
    form = doc_form(rec)
    docs = tool_docs_name(str(rec.get("task_id")), form)
    pt, ct = int(usage.get("prompt_tokens") or 0), int(usage.get("completion_tokens") or 0)
    tokens = (f"{pt} prompt tokens, {ct} completion tokens over {usage.get('turns', '?')} "
              f"turns" + ("" if pt or ct else " (a scripted agent reads no tokens)"))
    return (f'<details class="context"><summary>what the agent saw: system prompt, clock, '
            f'tool docs, tokens</summary><div class="meta clock">{esc(clock_line(now))}</div>'
            f'<div class="meta">{esc(tokens)}</div><div class="meta">tools given as '
            f'{esc(DOC_FORMS[form])}: <a class="docs" href="../{esc(docs)}">tool docs</a>'
            '</div>'
            f'<pre class="system">{esc(system)}</pre></details>')


def doc_forms(entries: list[Entry]) -> list[str]:
    """The forms of tool docs the agents of a page were given, in ``DOC_FORMS`` order."""
    given = {doc_form(e.rec) for e in entries}
    return [f for f in DOC_FORMS if f in given]


def tool_docs_name(task_id: str, form: str) -> str:
    """The page of a task's tool docs in one form, relative to the viewer folder: one
    per task and form, shared by its five mode pages (about 20 kB each, too much to
    repeat on every page)."""
    return f"tools/{unique_name(task_id, form)}.html"


def tool_docs_links(task: Task, forms: list[str]) -> str:
    """Where a page's tool docs are, one link per form its agents were given."""
    links = " · ".join(f'<a href="../{esc(tool_docs_name(task.id, f))}">{esc(DOC_FORMS[f])}'
                       "</a>" for f in forms)
    return (f'<div class="meta tooldocs" id="tooldocs">Tool docs ({len(task.tools) + 2} '
            f"tools with finish and abort, as the agents were given them): {links}</div>")


def tool_docs_page(task: Task, form: str, sim: Simulator) -> str:
    """A task's tool docs in one form, exactly as an agent given them got them."""
    tools = episode_tools(task, sim)
    text = (json.dumps(tools, indent=1, ensure_ascii=False) if form == "schemas"
            else render_tools(tools, brief=form == "brief"))
    return _document(f"{task.id} · tool docs",
                     f'<header><h1>{esc(task.id)} · tool docs</h1><a href="../index.html">'
                     f'← all trajectories</a></header><main><div class="panel">'
                     f'<div class="meta">{esc(DOC_FORMS[form])}</div>'
                     f'<pre class="docs">{esc(text)}</pre></div></main>')


# ---------------------------------------------------------------- the whole viewer


def agent_order(rows: list[Row]) -> dict[str, int]:
    """Agents in the report's row order (the order the runs were given in): the index,
    its filters and every task page list them so."""
    return {a: k for k, a in enumerate(dict.fromkeys(r.agent for r in rows))}


def write_viewer(rows: list[Row], out_dir: Path, max_pages: int | None = None) -> Path:
    """Write the viewer under ``out_dir`` (index.html, t/*.html and the tasks' tool docs
    in tools/*.html); returns the index.
    Every episode gets its page unless ``max_pages`` caps them; the index lists every
    trajectory either way and says which have no page."""
    from toolmaze_gym.faults.store import profile_for
    from toolmaze_gym.report.viewer_index import index_html
    from toolmaze_gym.tasks.suite import SUITE_NAME, SuiteError, get_task

    for sub in ("t", "tools"):
        (out_dir / sub).mkdir(parents=True, exist_ok=True)
    groups = group_entries(rows)
    order = agent_order(rows)
    suites = {r.agent: r.suite for r in rows}
    known = {k: t for r in rows for k, t in r.tasks.items()}  # runs over task files
    chosen = (sorted(groups) if max_pages is None or max_pages >= len(groups)
              else choose_pages(groups, max_pages))
    sim = None
    pages: dict[tuple[str, str], str] = {}
    for key in chosen:
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
        for form in doc_forms(entries) if task else ():
            docs = out_dir / tool_docs_name(task.id, form)
            if not docs.exists():
                docs.write_text(tool_docs_page(task, form, sim or _simulator()),
                                encoding="utf-8")
        (out_dir / href).write_text(page_html(key, entries, task, profile, order, sim),
                                    encoding="utf-8")
        pages[key] = href
    index = out_dir / "index.html"
    index.write_text(index_html(groups, pages, order, max_pages), encoding="utf-8")
    return index


def _costs(g: dict) -> str:
    """c and c* where a fault fired; n/a where none did (nothing to recover from)."""
    if not g.get("exposed"):
        return "c=n/a c*=n/a"
    return f'c={g.get("c")} c*={g.get("c_star")}'
