"""The viewer's index: every trajectory of the report, sortable, searchable, filtered.

A full run has 2,000 episodes per agent: one flat HTML table of 10,000 rows is tens of
thousands of pixels tall and slow to filter. So the rows travel as JSON inside the page
and a small script shows one page of them at a time (100 by default, or all), sorted
by any column, filtered by agent, cell (C, P), outcome, exposure, ending and label, and
searched by text. The filters live in the address (``index.html#C=C4&P=P2&outcome=
failure``), so a filtered view can be bookmarked or sent; ``?C=C4`` works alike.
Rows come in the agent order of the task pages (the report's row order).
"""

from __future__ import annotations

import json
from typing import Any

from toolmaze_gym.report.viewer import MODE_NAMES, Entry, _document, esc, ordered

FILTERS = ("agent", "C", "P", "outcome", "exposure", "ending", "label")
EXPOSURE = (("recovered", "exposed, recovered"), ("unrecovered", "exposed, not recovered"),
            ("none", "not exposed"))

INDEX_JS = r"""
const ROWS=JSON.parse(document.getElementById('rows').textContent);
const $=s=>document.querySelector(s),$$=s=>[...document.querySelectorAll(s)];
const FILTERS=[...$$('.filters select[name]')].map(s=>s.name).filter(n=>n!=='per');
const st={q:'',sort:'',dir:'asc',page:1,per:100};FILTERS.forEach(f=>st[f]='');
const h=s=>String(s).replace(/[&<>"']/g,c=>'&#'+c.charCodeAt(0)+';');
function exposure(r){return !r.x?'none':(r.v?'recovered':'unrecovered');}
function keep(r){
 if(st.agent&&r.a!==st.agent)return false;if(st.C&&r.c!==st.C)return false;
 if(st.P&&r.p!==st.P)return false;if(st.outcome&&(r.o?'success':'failure')!==st.outcome)
 return false;if(st.exposure&&exposure(r)!==st.exposure)return false;
 if(st.ending&&r.e!==st.ending)return false;
 if(st.label&&!(st.label==='(none)'?r.l.length===0:r.l.includes(st.label)))return false;
 if(st.q){const q=st.q.toLowerCase();if(!(r.t+' '+r.r+' '+r.l.join(' ')+' '+r.e)
 .toLowerCase().includes(q))return false;}return true;}
const KEY={agent:r=>r.i,task:r=>r.t,C:r=>r.c,P:r=>r.p,outcome:r=>r.o,
 exposure:r=>exposure(r),ending:r=>r.e,steps:r=>r.s,c:r=>r.k===null?1e9:r.k,
 labels:r=>r.l.join(' ')};
function sorted(rows){if(!st.sort||!KEY[st.sort])return rows;const k=KEY[st.sort],
 d=st.dir==='desc'?-1:1;return rows.map((r,n)=>[k(r),n,r]).sort((a,b)=>a[0]<b[0]?-d:
 a[0]>b[0]?d:a[1]-b[1]).map(x=>x[2]);}
function row(r){const task=r.h?'<a href="'+h(r.h)+'">'+h(r.t)+'</a>':h(r.t)+
 ' <span class="meta">(no page)</span>';const ex=exposure(r);return '<tr data-agent="'+
 h(r.a)+'" data-level="'+r.c+'" data-mode="'+r.p+'" data-outcome="'+(r.o?'success':
 'failure')+'"><td>'+h(r.r)+'</td><td>'+task+'</td><td>'+r.c+'</td><td>'+r.p+
 '</td><td><span class="st '+(r.o?'ok':'err')+'">'+(r.o?'success':'failure')+
 '</span></td><td>'+{none:'not exposed',recovered:'recovered',unrecovered:
 'not recovered'}[ex]+'</td><td>'+h(r.e)+'</td><td>'+r.s+'</td><td>'+(r.k===null?
 'n/a':r.k+' / '+r.m)+'</td><td>'+r.l.map(x=>'<span class="lbl">'+h(x)+'</span>')
 .join('')+'</td></tr>';}
function render(){const all=sorted(ROWS.filter(keep)),per=st.per==='all'?
 Math.max(all.length,1):+st.per||100,pages=Math.max(1,Math.ceil(all.length/per));
 st.page=Math.min(Math.max(1,+st.page||1),pages);const from=(st.page-1)*per,
 shown=all.slice(from,from+per);$('#trajectories tbody').innerHTML=shown.map(row).join('');
 $('#count').textContent=all.length;$('#range').textContent=all.length?
 (from+1)+'–'+(from+shown.length):'0';$('#pageno').textContent=st.page+' / '+pages;
 $('#prev').disabled=st.page<=1;$('#next').disabled=st.page>=pages;
 $$('#trajectories th[data-key]').forEach(th=>{th.dataset.dir=th.dataset.key===st.sort?
 st.dir:'';});write();}
function write(){const p=new URLSearchParams();for(const k of [...FILTERS,'q','sort',
 'dir','page','per']){const v=String(st[k]);if(v&&!(k==='dir'&&v==='asc')&&!(k==='page'
 &&v==='1')&&!(k==='per'&&v==='100'))p.set(k,v);}const s=p.toString();
 if(location.hash.slice(1)!==s)history.replaceState(null,'',s?'#'+s:location.pathname);}
function read(){const p=new URLSearchParams(location.hash.slice(1)||location.search.slice(1));
 for(const k of [...FILTERS,'q','sort']){st[k]=p.get(k)||'';}st.dir=p.get('dir')||'asc';
 st.page=+p.get('page')||1;st.per=p.get('per')||'100';
 $$('.filters select[name]').forEach(s=>{s.value=st[s.name];if(s.value!==String(st[s.name]))
 {st[s.name]=s.name==='per'?'100':'';s.value=st[s.name];}});$('#q').value=st.q;}
$$('.filters select[name]').forEach(s=>s.addEventListener('change',()=>{st[s.name]=s.value;
 st.page=1;render();}));
$('#q').addEventListener('input',e=>{st.q=e.target.value.trim();st.page=1;render();});
$$('#trajectories th[data-key]').forEach(th=>th.addEventListener('click',()=>{
 const k=th.dataset.key;st.dir=st.sort===k&&st.dir==='asc'?'desc':'asc';st.sort=k;
 st.page=1;render();}));
$('#prev').addEventListener('click',()=>{st.page--;render();});
$('#next').addEventListener('click',()=>{st.page++;render();});
$('#reset').addEventListener('click',()=>{history.replaceState(null,'',location.pathname);
 read();render();});
addEventListener('hashchange',()=>{read();render();});read();render();
"""

INDEX_CSS = """
.filters{display:flex;gap:8px 14px;flex-wrap:wrap;align-items:center;margin-bottom:8px}
.filters label{font-size:12.5px}#q{width:260px;padding:3px 6px}#count{font-weight:600}
#trajectories th[data-key]{cursor:pointer;user-select:none;white-space:nowrap}
#trajectories th[data-key]::after{content:" ↕";color:#999}
#trajectories th[data-dir=asc]::after{content:" ▲";color:#1d2330}
#trajectories th[data-dir=desc]::after{content:" ▼";color:#1d2330}
.pager{display:flex;gap:10px;align-items:center;margin:6px 0}.note{color:#ffd580}
"""

COLUMNS = (("agent", "agent"), ("task", "task"), ("C", "C"), ("P", "P"),
           ("outcome", "outcome"), ("exposure", "exposure"), ("ending", "ending"),
           ("steps", "steps"), ("c", "c / c*"), ("labels", "labels"))


def ending(entry: Entry) -> str:
    """How the episode ended: the agent's own ending, or the limit or cut that ended it."""
    g, rec = entry.rec["grade"], entry.rec
    if g.get("ended_by"):
        return str(g["ended_by"])
    return f'cut: {rec["cut"]}' if rec.get("cut") else "step limit"


def index_rows(groups: dict[tuple[str, str], list[Entry]], pages: dict[tuple[str, str], str],
               order: dict[str, int]) -> list[dict[str, Any]]:
    """One row per trajectory: episodes in (task, mode) order, agents in ``order``."""
    rows = []
    for key in sorted(groups):
        href = pages.get(key, "")
        for e in ordered(groups[key], order):
            g = e.rec["grade"]
            exposed = bool(g.get("exposed"))
            rows.append({"i": order.get(e.agent, len(order)), "a": e.agent, "r": e.row,
                         "t": key[0], "c": e.rec["level"], "p": key[1], "o": int(e.success),
                         "x": int(exposed), "v": int(bool(g.get("recovered"))),
                         "e": ending(e), "l": list(g.get("labels", [])),
                         "s": len(e.rec["steps"]), "k": g.get("c") if exposed else None,
                         "m": g.get("c_star") if exposed else None,
                         "h": f"{href}#{e.anchor}" if href else ""})
    return rows


def _select(name: str, label: str, values: list[tuple[str, str]]) -> str:
    opts = "".join(f'<option value="{esc(v)}">{esc(t)}</option>' for v, t in values)
    return (f'<label>{esc(label)} <select name="{name}"><option value="">all</option>{opts}'
            "</select></label>")


def _filters(rows: list[dict[str, Any]], order: dict[str, int]) -> str:
    agents = sorted({r["a"] for r in rows}, key=lambda a: (order.get(a, len(order)), a))
    labels = sorted({lb for r in rows for lb in r["l"]})
    return "".join([
        '<label>search <input id="q" type="search" placeholder="task id, agent, label">'
        "</label>",
        _select("agent", "agent", [(a, a) for a in agents]),
        _select("C", "C", [(c, c) for c in sorted({r["c"] for r in rows})]),
        _select("P", "P", [(p, MODE_NAMES.get(p, p)) for p in sorted({r["p"] for r in rows})]),
        _select("outcome", "outcome", [("success", "success"), ("failure", "failure")]),
        _select("exposure", "exposure", list(EXPOSURE)),
        _select("ending", "ending", [(x, x) for x in sorted({r["e"] for r in rows})]),
        _select("label", "label", [(x, x) for x in labels] + [("(none)", "(no label)")]),
        '<label>rows per page <select name="per"><option>50</option><option selected>100'
        "</option><option>500</option><option value=\"all\">all</option></select></label>",
        '<button id="reset" type="button">clear filters</button>'])


def _note(n_episodes: int, n_pages: int, n_rows: int, max_pages: int | None) -> str:
    note = f"{n_rows} trajectories of {n_episodes} episodes"
    if n_pages < n_episodes:
        note += (f'. <span class="note">Pages were written for {n_pages} of the '
                 f"{n_episodes} episodes (--max-pages {max_pages}): every trajectory is "
                 "listed below, those marked (no page) have none; run the report without "
                 "--max-pages to write them all.</span>")
    return note


def _json(data: object) -> str:
    """JSON safe inside a <script> element (no tag, comment or entity can start)."""
    text = json.dumps(data, ensure_ascii=False, separators=(",", ":"))
    return text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")


def index_html(groups: dict[tuple[str, str], list[Entry]], pages: dict[tuple[str, str], str],
               order: dict[str, int], max_pages: int | None = None) -> str:
    rows = index_rows(groups, pages, order)
    head = "".join(f'<th data-key="{k}">{esc(t)}</th>' for k, t in COLUMNS)
    body = (f'<header><h1>ToolMaze trajectories</h1><div class="meta" style="color:#ccc">'
            f'{_note(len(groups), len(pages), len(rows), max_pages)}</div></header><main>'
            f'<div class="panel"><div class="filters">{_filters(rows, order)}</div>'
            f'<div><span id="count">{len(rows)}</span> trajectories match; showing '
            f'<span id="range"></span></div><div class="pager"><button id="prev" '
            f'type="button">← previous</button><span id="pageno"></span><button id="next" '
            f'type="button">next →</button></div></div><div class="panel"><table '
            f'id="trajectories"><thead><tr>{head}</tr></thead><tbody></tbody></table></div>'
            "<noscript>This index needs JavaScript to list the trajectories; every task "
            "page (t/*.html) opens without it.</noscript></main>"
            f'<script id="rows" type="application/json">{_json(rows)}</script>'
            f"<style>{INDEX_CSS}</style>")
    return _document("ToolMaze trajectories", body, INDEX_JS)
