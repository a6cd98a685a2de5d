"""A task's tool DAG as inline SVG, laid out by a layered-graph library.

The unit of the layout is the *slot* (one step of the task): each slot is a box that
holds its alternatives side by side, each alternative a column of the tools it chains.
A slot with several alternatives is an alternative group ("one of N"): completing any
one column completes the step. Slots are placed by grandalf's Sugiyama layout (the
layered algorithm behind graphviz ``dot``, pure Python, so ``pip`` installs it on any
machine and nothing needs a system package), data flowing left to right, or top to
bottom where a deep chain would make the drawing wider than a card (``MAX_WIDTH``).

Edges are routed so that none crosses a box, by construction: grandalf puts a dummy
vertex in every layer a long edge spans, and keeps it apart from the boxes of that
layer; an edge runs straight through a layer band only at its own source's, dummy's
or target's position and bends only in the empty gaps between layers (a cubic curve
whose control points stay in the gap). ``tests/report/test_dag.py`` checks it from the
SVG's geometry.

Everything is deterministic: the graph is built in the task's slot order and grandalf
orders layers by barycentres over insertion-ordered sets (no randomness); its ``Graph``
class, which collects edges in a plain set, is not used.
"""

from __future__ import annotations

import html
import itertools
from collections import defaultdict
from dataclasses import dataclass, field
from functools import lru_cache

from grandalf.graphs import Edge, Vertex, graph_core
from grandalf.layouts import SugiyamaLayout

from toolmaze_gym.tasks.model import Task

FONT_PX = 12  # tool labels; monospace, so a character is 0.6 em wide
CHAR_W = 0.6 * FONT_PX
LINE_H = 15
LINE_CHARS = 16  # a tool name wraps at underscores into lines of at most this many
NODE_PAD_X, NODE_PAD_Y = 8, 6
TITLE_H = 20  # a slot box's title bar ("s7 · one of 3")
BOX_PAD = 8
CHAIN_GAP = 16  # between two tools of one alternative (an arrow)
COL_GAP = 18  # between two alternatives of one slot
LAYER_GAP = 56  # between two layers (where edges bend)
ROW_GAP = 22  # between two boxes of one layer, and around edges passing between them
MARGIN = 10
EDGE_W = 6  # across the flow, what a passing edge takes in a layer
MAX_WIDTH = 1360  # what an agent's card holds at 1440 px without scrolling sideways


def esc(x: object) -> str:
    return html.escape(str(x), quote=True)


def wrap(tool: str) -> list[str]:
    """The tool's name in lines of at most ``LINE_CHARS``, broken after underscores, so
    a node stays narrow enough for a C4 DAG to be read at 1x (a word longer than a line
    keeps its own line)."""
    lines: list[str] = []
    for word in tool.replace("_", "_\0").split("\0"):
        if lines and len(lines[-1]) + len(word) <= LINE_CHARS:
            lines[-1] += word
        else:
            lines.append(word)
    return [ln for ln in lines if ln] or [tool]


@dataclass
class Node:
    """One tool of one alternative of a slot, placed inside the slot's box."""

    id: str
    tool: str
    slot: str
    lines: list[str]
    x: float = 0.0
    y: float = 0.0

    @property
    def w(self) -> float:
        return max(len(ln) for ln in self.lines) * CHAR_W + 2 * NODE_PAD_X

    @property
    def h(self) -> float:
        return len(self.lines) * LINE_H + 2 * NODE_PAD_Y


@dataclass
class Box:
    """One slot: its alternatives as columns of nodes, and its place in the layout."""

    slot: str
    columns: list[list[Node]]
    x: float = 0.0
    y: float = 0.0
    w: float = 0.0
    h: float = 0.0

    def measure(self) -> None:
        widths = [max(n.w for n in col) for col in self.columns]
        heights = [sum(n.h for n in col) + CHAIN_GAP * (len(col) - 1) for col in self.columns]
        self.w = sum(widths) + COL_GAP * (len(widths) - 1) + 2 * BOX_PAD
        self.h = max(heights) + TITLE_H + 2 * BOX_PAD

    def place(self, x: float, y: float) -> None:
        """Put the box's top-left corner at (x, y) and its nodes inside it."""
        self.x, self.y = x, y
        cx = x + BOX_PAD
        for col in self.columns:
            cw = max(n.w for n in col)
            cy = y + TITLE_H + BOX_PAD
            for n in col:
                n.x, n.y = cx + (cw - n.w) / 2, cy
                cy += n.h + CHAIN_GAP
            cx += cw + COL_GAP

    @property
    def group(self) -> bool:
        return len(self.columns) > 1


@dataclass
class Layout:
    """A task's DAG placed: slot boxes, tool nodes, and each slot edge's path."""

    boxes: dict[str, Box]
    edges: list[tuple[str, str, str]]  # (from slot, to slot, SVG path data)
    width: float
    height: float
    nodes: dict[tuple[str, str], Node] = field(default_factory=dict)  # (slot, tool)
    flow: str = "right"  # or "down"


def _boxes(slots: tuple) -> dict[str, Box]:
    boxes = {}
    for sid, alternatives in slots:
        cols = [[Node(f"{sid}.{a}.{p}", tool, sid, wrap(tool)) for p, tool in enumerate(side)]
                for a, side in enumerate(alternatives)]
        boxes[sid] = Box(sid, [c for c in cols if c] or [[Node(f"{sid}.0.0", sid, sid,
                                                               [sid])]])
        boxes[sid].measure()
    return boxes


def _slot_edges(task: Task) -> list[tuple[str, str]]:
    """Slot-to-slot edges once each (the task lists one per type that flows)."""
    return list(dict.fromkeys((up, down) for up, down, _ in task.edges() if up != down))


class _View:
    """grandalf's vertex view: the extent across a layer (w) and along the flow (h). The
    flow runs left to right, so the layout's horizontal is the page's vertical."""

    def __init__(self, w: float, h: float) -> None:
        self.w, self.h, self.xy = w, h, (0.0, 0.0)


def _separate(layer: list, gap: float) -> None:
    """Push a layer's vertices apart (in grandalf's x) so that no two overlap: grandalf
    averages four placements, which keeps the order but not always the spacing."""
    layer = sorted(layer, key=lambda v: v.view.xy[0])
    for a, b in itertools.pairwise(layer):
        least = a.view.xy[0] + (a.view.w + b.view.w) / 2 + gap
        if b.view.xy[0] < least:
            b.view.xy = (least, b.view.xy[1])


def _route(points: list[tuple[float, float, float]], lr: bool) -> str:
    """Path data through (across, start along, end along) stops: straight along each stop's
    band, a cubic curve through each gap between bands. The layout's frame (across,
    along) is the page's (y, x) when the flow runs right, (x, y) when it runs down."""

    def pt(across: float, along: float) -> str:
        return f"{along:.0f},{across:.0f}" if lr else f"{across:.0f},{along:.0f}"

    x0, a0, b0 = points[0]
    d = [f"M{pt(x0, a0)}", f"L{pt(x0, b0)}"]
    for (xp, _, bp), (xn, an, bn) in itertools.pairwise(points):
        mid = (bp + an) / 2
        d.append(f"C{pt(xp, mid)} {pt(xn, mid)} {pt(xn, an)}")
        d.append(f"L{pt(xn, bn)}")
    return "".join(d)


def _extent(box: Box, lr: bool) -> tuple[float, float]:
    """A box's size across the flow and along it."""
    return (box.h, box.w) if lr else (box.w, box.h)


def _component(boxes: dict[str, Box], slots: list[str], edges: list[tuple[str, str]],
               offset: float, lr: bool) -> tuple[list[tuple[str, str, str]], float, float]:
    """Lay out one connected component starting at ``offset`` across, the flow running
    right (``lr``) or down; returns its edge paths, its extent across and along."""
    verts = {s: Vertex(s) for s in slots}
    for s, v in verts.items():
        v.view = _View(*_extent(boxes[s], lr))
    es = [Edge(verts[a], verts[b]) for a, b in edges]
    # graph_core, not Graph: Graph gathers a component's edges in a set of objects, whose
    # order (memory addresses) would change the drawing from one process to the next
    sug = SugiyamaLayout(graph_core(list(verts.values()), es))
    sug.xspace, sug.yspace = ROW_GAP, LAYER_GAP
    sug.dw, sug.dh = EDGE_W, 1  # a dummy: an edge's width across, nothing along the flow
    sug.init_all()
    sug.draw()
    for layer in sug.layers:
        _separate(list(layer), ROW_GAP)
    lo = min(v.view.xy[0] - v.view.w / 2 for layer in sug.layers for v in layer)
    hi = max(v.view.xy[0] + v.view.w / 2 for layer in sug.layers for v in layer)

    def across(x: float) -> float:  # mirrored: grandalf puts the first slots last
        return offset + hi - x

    bands = []
    for layer in sug.layers:  # along the flow: where each layer starts and ends
        real = [v for v in layer if not hasattr(v, "ctrl")] or list(layer)
        c = layer[0].view.xy[1]
        half = max(v.view.h for v in real) / 2
        bands.append((c - half + MARGIN, c + half + MARGIN))
    for s, v in verts.items():
        start, _ = bands[sug.grx[v].rank]
        side = across(v.view.xy[0]) - _extent(boxes[s], lr)[0] / 2
        boxes[s].place(*((start, side) if lr else (side, start)))
    paths = []
    for (a, b), e in zip(edges, es, strict=True):
        ra, rb = sug.grx[verts[a]].rank, sug.grx[verts[b]].rank
        stops = [(_mid(boxes[a], lr), _end(boxes[a], lr), bands[ra][1])]
        ctrl = sug.ctrls.get(e, {})
        for r in range(ra + 1, rb):
            stops.append((across(ctrl[r].view.xy[0]), bands[r][0], bands[r][1]))
        stops.append((_mid(boxes[b], lr), bands[rb][0], _end(boxes[b], lr, start=True)))
        paths.append((a, b, _route(stops, lr)))
    return paths, hi - lo, bands[-1][1]


def _mid(box: Box, lr: bool) -> float:
    """Where an edge meets the box across the flow: the middle of its side."""
    return box.y + box.h / 2 if lr else box.x + box.w / 2


def _end(box: Box, lr: bool, start: bool = False) -> float:
    """Where the box starts (an edge arrives) or ends (an edge leaves) along the flow."""
    if lr:
        return box.x if start else box.x + box.w
    return box.y if start else box.y + box.h


def _components(slots: list[str], edges: list[tuple[str, str]]) -> list[list[str]]:
    comp = {s: s for s in slots}

    def root(s: str) -> str:
        while comp[s] != s:
            s = comp[s]
        return s

    for a, b in edges:
        comp[root(b)] = root(a)
    groups: dict[str, list[str]] = defaultdict(list)
    for s in slots:
        groups[root(s)].append(s)
    return list(groups.values())


def _key(task: Task) -> tuple:
    """What the layout depends on: the slots' tools and the slot edges."""
    slots = tuple((s.id, tuple(tuple(side) for side in s.alternatives)) for s in task.slots)
    return slots, tuple(_slot_edges(task))


def layout(task: Task) -> Layout:
    """The task's DAG placed (cached by structure: every agent's DAG on a page, and every
    mode's page of a task, shares one layout)."""
    return _compute(*_key(task))


@lru_cache(maxsize=4096)
def _compute(slots: tuple, slot_edges: tuple) -> Layout:
    """Flowing right, unless that is wider than a card and flowing down is narrower
    (a deep C4 chain): the labels keep their size either way."""
    lay = _place(slots, slot_edges, lr=True)
    if lay.width > MAX_WIDTH:
        down = _place(slots, slot_edges, lr=False)
        if down.width < lay.width:
            return down
    return lay


def _place(slots: tuple, slot_edges: tuple, lr: bool) -> Layout:
    boxes = _boxes(slots)
    names = list(boxes)
    edges = [(a, b) for a, b in slot_edges if a in boxes and b in boxes]
    paths, offset, along = [], float(MARGIN), 0.0
    for comp in _components(names, edges):
        inner = set(comp)
        mine = [(a, b) for a, b in edges if a in inner]
        p, across, length = _component(boxes, comp, mine, offset, lr)
        paths += p
        offset += across + ROW_GAP
        along = max(along, length)
    nodes: dict[tuple[str, str], Node] = {}
    for b in boxes.values():
        for col in b.columns:
            for n in col:
                nodes.setdefault((n.slot, n.tool), n)
    across_total = offset - ROW_GAP + MARGIN
    w, h = (along + MARGIN, across_total) if lr else (across_total, along + MARGIN)
    return Layout(boxes, paths, w, h, nodes, "right" if lr else "down")


# ---------------------------------------------------------------- drawing


def svg(task: Task, victims: frozenset[tuple[str, str]] | set = frozenset(),
        steps: dict[tuple[str, str], list[int]] | None = None,
        fired: frozenset[tuple[str, str]] | set = frozenset()) -> str:
    """The task's DAG as inline SVG at its natural size (labels at ``FONT_PX``).

    ``victims``: (slot, tool) that may take this mode's fault (pale red); ``steps``:
    (slot, tool) → the step numbers of an agent's calls to it (blue, numbered);
    ``fired``: (slot, tool) where a fault fired for that agent (solid red).
    """
    lay, pieces = _template(*_key(task))
    steps = steps or {}
    out = [f'<svg class="dag" width="{lay.width:.0f}" height="{lay.height:.0f}" '
           f'viewBox="0 0 {lay.width:.0f} {lay.height:.0f}" '
           'xmlns="http://www.w3.org/2000/svg" role="img" '
           f'aria-label="tool DAG of {esc(task.id)}">']
    for piece in pieces:
        if isinstance(piece, str):
            out.append(piece)
            continue
        key, n, rest = piece
        cls = "node"
        cls += " victim" if key in victims else ""
        cls += " called" if key in steps else ""
        cls += " fired" if key in fired else ""
        out += ['<g class="', cls, rest, _badge(n, steps[key]) if key in steps else "", "</g>"]
    out.append("</svg>")
    return "".join(out)


MARKERS = ('<svg width="0" height="0" style="position:absolute" aria-hidden="true">'
           '<defs><marker id="arr" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" '
           'markerHeight="7" orient="auto"><path d="M0,0L10,5L0,10z" fill="#6b7385"/>'
           "</marker></defs></svg>")  # the arrowhead every DAG on a page refers to, once


@lru_cache(maxsize=4096)
def _template(slots: tuple, slot_edges: tuple) -> tuple[Layout, tuple]:
    """The SVG of a layout as fixed text and node slots (a node's classes and badge
    differ per agent): an agent's DAG is then a join, not a re-rendering."""
    lay = _compute(slots, slot_edges)
    pieces: list[str | tuple] = []
    for a, b, d in lay.edges:
        pieces.append(f'<path class="edge" data-from="{esc(a)}" data-to="{esc(b)}" d="{d}" '
                      'marker-end="url(#arr)"/>')
    for box in lay.boxes.values():
        pieces += _box_pieces(box)
    return lay, tuple(pieces)


def _box_pieces(box: Box) -> list[str | tuple]:
    n_alt = len(box.columns)
    title = f"{box.slot} · one of {n_alt}" if box.group else box.slot
    out: list[str | tuple] = [
        f'<g class="slot{" group" if box.group else ""}" data-slot="{esc(box.slot)}">'
        f'<rect class="box" x="{box.x:.0f}" y="{box.y:.0f}" width="{box.w:.0f}" '
        f'height="{box.h:.0f}" rx="8"/><text class="title" x="{box.x + BOX_PAD:.0f}" '
        f'y="{box.y + 14:.0f}">{esc(title)}</text>']
    for k, col in enumerate(box.columns):
        if k:
            x = col[0].x - COL_GAP / 2
            out.append(f'<path class="divider" d="M{x:.0f},{box.y + TITLE_H:.0f}'
                       f'V{box.y + box.h - BOX_PAD / 2:.0f}"/>')
        for up, down in itertools.pairwise(col):
            x = up.x + up.w / 2
            out.append(f'<path class="chain" d="M{x:.0f},{up.y + up.h:.0f}V{down.y:.0f}" '
                       'marker-end="url(#arr)"/>')
        out += [((n.slot, n.tool), n, _node_rest(n)) for n in col]
    out.append("</g>")
    return out


def _node_rest(n: Node) -> str:
    """A node's SVG after its class attribute's value, up to (not including) its badge."""
    spans = "".join(f'<tspan x="{n.x + NODE_PAD_X:.0f}" dy="{LINE_H if i else 0}">{esc(ln)}'
                    "</tspan>" for i, ln in enumerate(n.lines))
    return (f'" data-tool="{esc(n.tool)}" data-slot="{esc(n.slot)}">'
            f"<title>{esc(n.tool)} (step {esc(n.slot)})</title>"
            f'<rect x="{n.x:.0f}" y="{n.y:.0f}" width="{n.w:.0f}" height="{n.h:.0f}" rx="5"/>'
            f'<text class="label" x="{n.x + NODE_PAD_X:.0f}" '
            f'y="{n.y + NODE_PAD_Y + FONT_PX - 1:.0f}">{spans}</text>')


def _badge(n: Node, nums: list[int]) -> str:
    """The step numbers of an agent's calls to the node, on its top-right corner."""
    text = ",".join(map(str, nums[:5])) + ("…" if len(nums) > 5 else "")
    w = len(text) * 6.6 + 8
    bx, by = n.x + n.w - w + 6, n.y - 9
    return (f'<g class="badge"><rect x="{bx:.0f}" y="{by:.0f}" width="{w:.0f}" '
            f'height="15" rx="7"/><text x="{bx + w / 2:.0f}" y="{by + 11.5:.0f}" '
            f'text-anchor="middle">{text}</text></g>')


CSS = """
svg.dag{display:block;max-width:none}svg.dag text{font:12px/1 ui-monospace,SFMono-Regular,
Menlo,Consolas,monospace;fill:#1d2330}svg.dag .slot>.box{fill:#f7f8fa;stroke:#c5cbd6;
stroke-width:1}svg.dag .slot.group>.box{fill:#fff8e6;stroke:#b7791f;stroke-width:1.6;
stroke-dasharray:6 3}svg.dag text.title{font:600 11px/1 system-ui,sans-serif;fill:#6b5a2e}
svg.dag .slot:not(.group) text.title{fill:#6b7385}svg.dag .divider{stroke:#b7791f;
stroke-dasharray:3 3}svg.dag .node rect{fill:#fff;stroke:#8a94a6;stroke-width:1.2}
svg.dag .node.victim rect{fill:#fde0dc;stroke:#c62828;stroke-width:2;stroke-dasharray:5 2}
svg.dag .node.called rect{fill:#dbe8fb;stroke:#1f5fbf;stroke-width:2}
svg.dag .node.called.victim rect{stroke:#c62828;stroke-dasharray:5 2}
svg.dag .node.fired rect{fill:#c62828;stroke:#7f0000;stroke-width:2.5;stroke-dasharray:none}
svg.dag .node.fired text.label{fill:#fff}svg.dag .edge,svg.dag .chain{stroke:#6b7385;
stroke-width:1.4;fill:none}svg.dag .divider{fill:none}svg.dag .node.called .badge rect,
svg.dag .badge rect{fill:#1f5fbf;stroke:#fff;stroke-width:1;stroke-dasharray:none}
svg.dag .badge text{font:700 11px/1 system-ui,sans-serif;fill:#fff}
.legend{display:flex;flex-wrap:wrap;gap:6px 16px;font-size:12.5px;margin-top:6px}
.legend span{display:inline-flex;align-items:center;gap:6px}
.legend svg.dag{display:inline;flex:none}
"""

_SWATCH = ('<svg class="dag" width="{w}" height="22" viewBox="0 0 {w} 22" '
           'xmlns="http://www.w3.org/2000/svg">{body}</svg>')


def _swatch_node(cls: str, text: str = "tool") -> str:
    return _SWATCH.format(w=46, body=f'<g class="{cls}"><rect x="2" y="3" width="42" '
                          f'height="16" rx="4"/><text class="label" x="8" y="15">{text}</text>'
                          "</g>")


LEGEND_ITEMS = (
    ("node", "a tool the task can use"),
    ("node victim", "may fail in this mode (the fault profile's victim: the first of "
                    "these tools an agent calls in its step takes the fault)"),
    ("node called", "called by this agent"),
    ("node called victim", "called; could have failed, did not fail for this agent"),
    ("node victim called fired", "failed for this agent (the fault fired on its call)"),
)


def legend_html() -> str:
    """What every colour and mark of the DAGs means, with the same classes drawn small."""
    items = [f"<span>{_swatch_node(cls)}{esc(text)}</span>" for cls, text in LEGEND_ITEMS]
    badge = _SWATCH.format(w=30, body='<g class="badge"><rect x="1" y="3" width="28" '
                           'height="15" rx="7"/><text x="15" y="14.5" text-anchor="middle">'
                           "2,5</text></g>")
    group = _SWATCH.format(w=46, body='<g class="slot group"><rect class="box" x="1" y="1" '
                           'width="44" height="20" rx="6"/></g>')
    plain = _SWATCH.format(w=46, body='<g class="slot"><rect class="box" x="1" y="1" '
                           'width="44" height="20" rx="6"/></g>')
    arrow = _SWATCH.format(w=46, body='<path class="edge" d="M2,11H42" '
                           'marker-end="url(#arr)"/>')
    items += [f"<span>{badge}the agent's steps (# in its steps table) that called the tool"
              "</span>",
              f"<span>{plain}a step of the task (s1, s2, …); a column of tools is one "
              "chain, called top to bottom</span>",
              f"<span>{group}an alternative group (\u201cone of N\u201d): any one column "
              "completes the step</span>",
              f"<span>{arrow}data flows from step to step</span>"]
    return f'<div class="legend">{MARKERS}{"".join(items)}</div>'
