"""The HTML viewer: what each page shows (query, DAG with victims, the agent's path, the
perturbed response, steps), that it is self-contained, escaped, and capped."""

from __future__ import annotations

import copy
import re

import pytest

from toolmaze_gym.faults.store import profile_for
from toolmaze_gym.report import load_rows
from toolmaze_gym.report.viewer import (
    choose_pages,
    group_entries,
    page_name,
    unique_name,
    write_viewer,
)
from toolmaze_gym.tasks.suite import get_task


@pytest.fixture(scope="module")
def viewer(run_dirs, tmp_path_factory):
    out = tmp_path_factory.mktemp("viewer")
    return write_viewer(load_rows(list(run_dirs.values())), out)


def _page(viewer, task_id: str, mode: str) -> str:
    return (viewer.parent / page_name(task_id, mode)).read_text()


def test_index_lists_every_trajectory_once_with_filter_data(viewer, records):
    text = viewer.read_text()
    rows = re.findall(r'<tr data-agent="([^"]+)" data-level="(C\d)" data-mode="(P\d)" '
                      r'data-outcome="(success|failure)">', text)
    expected = sorted((a, r["level"], r["mode"], "success" if r["grade"]["success"]
                       else "failure") for a, recs in records.items() for r in recs)
    assert sorted(rows) == expected
    for name in ("agent", "level", "mode", "outcome"):
        assert f'<select name="{name}">' in text


def test_a_page_shows_query_victims_path_fault_and_steps(viewer, records, sim):
    rec = next(r for r in records["naive"] if r["mode"] == "P2" and any(
        s["fault"] for s in r["steps"]))
    task = get_task(rec["task_id"])
    text = _page(viewer, rec["task_id"], "P2")
    assert task.query.replace("'", "&#x27;").replace('"', "&quot;") in text
    victims = {t for v in profile_for(task, "P2", sim).victims for t in v.tools}
    marked = set(re.findall(r'<g class="node victim[^"]*" data-tool="([^"]+)"', text))
    assert marked == victims
    fired = next(s["fault"] for s in rec["steps"] if s["fault"])
    assert f'class="node called fired" data-tool="{fired["tool"]}"' in text
    anchor = unique_name("naive", rec["task_id"], "P2", "standard", 0)
    section = text.split(f'id="{anchor}"')[1].split("</section>")[0]
    assert section.count('<tr class="step') == len(rec["steps"])
    assert "Perturbed response" in text and "FAULT explicit" in text


def test_pages_are_self_contained_and_escape_agent_text(run_dirs, records, tmp_path):
    rows = load_rows(list(run_dirs.values()))
    row = rows[0]
    evil = copy.deepcopy(row.records[0])
    evil["steps"][0]["raw"] = evil["steps"][0]["action"]["name"] = "<script>alert(1)</script>"
    row.records[0] = evil
    index = write_viewer([row], tmp_path)
    pages = [index, *sorted((tmp_path / "t").glob("*.html"))]
    for page in pages:
        text = page.read_text()
        assert "<script>alert(1)" not in text
        assert not re.search(r'(src|href)="(https?:)?//', text)  # nothing fetched
        assert "<link" not in text
    assert any("&lt;script&gt;alert(1)&lt;/script&gt;" in p.read_text() for p in pages)


def test_pages_are_capped_and_shared_episodes_come_first(run_dirs, tmp_path):
    rows = load_rows(list(run_dirs.values()))
    groups = group_entries(rows)
    shared = sorted(groups)[-1]  # the only episode both agents played
    mixed = {k: (v if k == shared else [e for e in v if e.agent == "naive"])
             for k, v in groups.items()}
    chosen = choose_pages(mixed, 3)
    assert chosen[0] == shared and len(chosen) == 3
    cells = {(mixed[k][0].rec["level"], k[1]) for k in chosen[1:]}
    assert len(cells) == 2  # round-robin over cells, not several pages of one cell
    write_viewer(rows, tmp_path, max_pages=4)
    assert len(list((tmp_path / "t").glob("*.html"))) == 4
    assert "capped" in (tmp_path / "index.html").read_text()
