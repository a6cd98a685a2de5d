"""The viewer's DAG drawing, read back from the SVG it writes: on every task of the
suite no edge runs through a box, no two boxes overlap, alternative groups are drawn as
groups, labels fit their nodes, the legend explains every mark, and the drawing is the
same in every process."""

from __future__ import annotations

import hashlib
import os
import re
import subprocess
import sys

import pytest

from toolmaze_gym.report import dag
from toolmaze_gym.tasks.suite import load_suite

NUM = r"(-?[\d.]+)"
RECT = re.compile(rf'<rect (?:class="box" )?x="{NUM}" y="{NUM}" width="{NUM}" height="{NUM}"')


@pytest.fixture(scope="module")
def drawn() -> list[tuple[object, str]]:
    return [(t, dag.svg(t)) for t in load_suite()]


def _boxes(svg: str) -> list[tuple[str, tuple[float, float, float, float]]]:
    """Every slot box and tool node as (kind, (x, y, w, h))."""
    out = []
    for m in re.finditer(r'<g class="(slot[^"]*|node[^"]*)"[^>]*>(?:<title>[^<]*</title>)?'
                         rf"{RECT.pattern}", svg):
        out.append((m.group(1), tuple(float(m.group(k)) for k in range(2, 6))))
    return out


def _points(d: str, per: int = 24) -> list[tuple[float, float]]:
    """Points along SVG path data made of M, L, H, V and C commands."""
    tokens = re.findall(r"[MLHVC]|-?[\d.]+", d)
    pts, cur, k = [], (0.0, 0.0), 0
    while k < len(tokens):
        op = tokens[k]
        if op in "ML":
            nxt = (float(tokens[k + 1]), float(tokens[k + 2]))
            k += 3
            seg = [nxt] if op == "M" else [(cur[0] + (nxt[0] - cur[0]) * i / per,
                                            cur[1] + (nxt[1] - cur[1]) * i / per)
                                           for i in range(per + 1)]
        elif op in "HV":
            v = float(tokens[k + 1])
            k += 2
            nxt = (v, cur[1]) if op == "H" else (cur[0], v)
            seg = [(cur[0] + (nxt[0] - cur[0]) * i / per, cur[1] + (nxt[1] - cur[1]) * i / per)
                   for i in range(per + 1)]
        else:
            c = [(float(tokens[k + i]), float(tokens[k + i + 1])) for i in (1, 3, 5)]
            k += 7
            p0, nxt = cur, c[2]
            seg = []
            for i in range(per + 1):
                t = i / per
                a, b, cc, dd = (1 - t) ** 3, 3 * (1 - t) ** 2 * t, 3 * (1 - t) * t * t, t ** 3
                seg.append((a * p0[0] + b * c[0][0] + cc * c[1][0] + dd * nxt[0],
                            a * p0[1] + b * c[0][1] + cc * c[1][1] + dd * nxt[1]))
        pts += seg
        cur = nxt
    return pts


def _inside(p: tuple[float, float], r: tuple[float, float, float, float],
            margin: float = 1.5) -> bool:
    x, y, w, h = r
    return x + margin < p[0] < x + w - margin and y + margin < p[1] < y + h - margin


def test_no_edge_runs_through_a_box_on_any_task(drawn):
    crossings = []
    for task, svg in drawn:
        boxes = _boxes(svg)
        for m in re.finditer(r'<path class="edge" data-from="([^"]+)" data-to="([^"]+)" '
                             r'd="([^"]+)"', svg):
            for p in _points(m.group(3)):
                hit = [kind for kind, r in boxes if _inside(p, r)]
                if hit:
                    crossings.append((task.id, m.group(1), m.group(2), hit[0]))
                    break
    assert not crossings, f"{len(crossings)} edges cross a box, e.g. {crossings[:3]}"
    assert sum(svg.count('class="edge"') for _, svg in drawn) > 1000  # edges were read


def test_boxes_do_not_overlap_and_nodes_sit_in_their_step(drawn):
    for task, svg in drawn:
        boxes = [r for kind, r in _boxes(svg) if kind.startswith("slot")]
        assert len(boxes) == len(task.slots)
        for i, a in enumerate(boxes):
            for b in boxes[i + 1:]:
                apart = (a[0] + a[2] <= b[0] or b[0] + b[2] <= a[0] or a[1] + a[3] <= b[1]
                         or b[1] + b[3] <= a[1])
                assert apart, (task.id, a, b)
        lay = dag.layout(task)
        for box in lay.boxes.values():
            for col in box.columns:
                for n in col:
                    assert box.x <= n.x and n.x + n.w <= box.x + box.w, (task.id, n.tool)
                    assert box.y <= n.y and n.y + n.h <= box.y + box.h, (task.id, n.tool)
        assert min(b[0] for b in boxes) >= 0 and max(b[0] + b[2] for b in boxes) <= lay.width


def test_alternative_groups_are_drawn_as_groups(drawn):
    groups = 0
    for task, svg in drawn:
        for slot in task.slots:
            part = svg.split(f'data-slot="{slot.id}">', 1)[1].split('<g class="slot', 1)[0]
            is_group = f'<g class="slot group" data-slot="{slot.id}">' in svg
            assert is_group == (len(slot.alternatives) > 1), (task.id, slot.id)
            if is_group:
                groups += 1
                assert f"{slot.id} · one of {len(slot.alternatives)}</text>" in part
                tools = re.findall(r'data-tool="([^"]+)"', part)
                assert tools == [t for side in slot.alternatives for t in side]
    assert groups > 100


def test_labels_wrap_into_their_nodes():
    for task in load_suite():
        for box in dag.layout(task).boxes.values():
            for n in (n for col in box.columns for n in col):
                assert "".join(n.lines) == n.tool
                assert all(len(ln) <= max(dag.LINE_CHARS, *map(len, n.tool.split("_")))
                           for ln in n.lines)
                assert max(map(len, n.lines)) * dag.CHAR_W <= n.w - 2 * dag.NODE_PAD_X + 0.01


def test_the_legend_explains_every_mark_a_dag_can_show():
    task = next(t for t in load_suite() if t.level == "C4")
    slot = next(s for s in task.slots if len(s.alternatives) > 1)
    tools = [(slot.id, side[0]) for side in slot.alternatives]
    svg = dag.svg(task, victims=set(tools), steps={tools[0]: [1], tools[1]: [2, 3]},
                  fired={tools[0]})
    legend = dag.legend_html()
    used = set(re.findall(r'<g class="(node[^"]*|slot[^"]*)"', svg))
    shown = set(re.findall(r'<g class="(node[^"]*|slot[^"]*)"', legend))
    marks = {" ".join(sorted(c.split())) for c in used}
    assert marks <= {" ".join(sorted(c.split())) for c in shown}
    assert "fired" in " ".join(shown) and "victim" in " ".join(shown)  # the red pair told apart
    assert 'class="badge"' in svg and 'class="badge"' in legend
    assert "may fail in this mode" in legend and "failed for this agent" in legend


def test_the_drawing_is_the_same_in_every_process():
    code = ("import hashlib;from toolmaze_gym.report import dag;"
            "from toolmaze_gym.tasks.suite import load_suite;"
            "print(hashlib.sha256(''.join(dag.svg(t) for t in load_suite() "
            "if t.level in ('C3','C4')).encode()).hexdigest())")
    here = hashlib.sha256("".join(dag.svg(t) for t in load_suite()
                                  if t.level in ("C3", "C4")).encode()).hexdigest()
    for seed in ("1", "12345"):
        env = {**os.environ, "PYTHONHASHSEED": seed}
        out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True,
                             text=True, check=True).stdout.strip()
        assert out == here


def test_every_drawing_fits_a_card_at_1440_px_wide():
    flows = {}
    for task in load_suite():
        lay = dag.layout(task)
        assert lay.width <= dag.MAX_WIDTH, (task.id, lay.width, lay.flow)
        flows[lay.flow] = flows.get(lay.flow, 0) + 1
    assert flows.get("down", 0) > 0 and flows["right"] > flows["down"]  # deep ones turn
