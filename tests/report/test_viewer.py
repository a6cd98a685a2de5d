"""The HTML viewer: what each page shows (query, DAG with victims, the agent's calls, the
perturbed response, steps), that every trajectory is listed and every episode has a
page (or the index says which have none), agents in one order everywhere, stable agent
links, and that pages are self-contained and escaped."""

from __future__ import annotations

import copy
import json
import re
import sys

import pytest

from toolmaze_gym.faults.store import profile_for
from toolmaze_gym.report import load_rows
from toolmaze_gym.report.viewer import (
    agent_anchor,
    choose_pages,
    group_entries,
    page_name,
    unique_name,
    write_viewer,
)
from toolmaze_gym.tasks.suite import get_task


@pytest.fixture(scope="module")
def rows(run_dirs):
    return load_rows(list(run_dirs.values()))


@pytest.fixture(scope="module")
def viewer(rows, tmp_path_factory):
    return write_viewer(rows, tmp_path_factory.mktemp("viewer"))


def index_rows(index) -> list[dict]:
    """The rows the index's script lists, as the page carries them."""
    text = index.read_text()
    return json.loads(re.search(r'<script id="rows" type="application/json">(.*?)</script>',
                                text, re.S).group(1))


def _page(viewer, task_id: str, mode: str) -> str:
    return (viewer.parent / page_name(task_id, mode)).read_text()


def test_index_lists_every_trajectory_once_with_filter_data(viewer, records):
    listed = sorted((r["a"], r["c"], r["p"], r["t"], "success" if r["o"] else "failure")
                    for r in index_rows(viewer))
    expected = sorted((a, r["level"], r["mode"], r["task_id"], "success" if
                       r["grade"]["success"] else "failure")
                      for a, recs in records.items() for r in recs)
    assert listed == expected
    text = viewer.read_text()
    for name in ("agent", "C", "P", "outcome", "exposure", "ending", "label"):
        assert f'<select name="{name}">' in text
    assert '<input id="q" type="search"' in text
    for row in index_rows(viewer):
        assert row["e"] in ("finish", "abort", "answer", "step limit") or \
            row["e"].startswith("cut: ")
        assert (row["k"] is None) == (not row["x"])  # costs n/a where nothing was exposed


def test_every_episode_has_a_page_and_every_row_links_to_its_trajectory(viewer, records):
    episodes = {(r["task_id"], r["mode"]) for recs in records.values() for r in recs}
    pages = sorted(p.name for p in (viewer.parent / "t").glob("*.html"))
    assert pages == sorted(page_name(*e).removeprefix("t/") for e in episodes)
    for row in index_rows(viewer):
        href, anchor = row["h"].split("#")
        assert href == page_name(row["t"], row["p"])
        assert f'id="{anchor}" data-agent="{row["a"]}"' in (viewer.parent / href).read_text()


def test_agents_come_in_one_order_on_the_index_and_on_every_page(viewer, rows):
    order = list(dict.fromkeys(r.agent for r in rows))  # the report's row order
    assert order == ["validator", "naive"]  # given in this order, not alphabetical
    listed = index_rows(viewer)
    for key in {(r["t"], r["p"]) for r in listed}:
        on_index = list(dict.fromkeys(r["a"] for r in listed if (r["t"], r["p"]) == key))
        page = _page(viewer, *key)
        cards = re.findall(r'<div class="agent" id="[^"]+" data-agent="([^"]+)">', page)
        picker = list(dict.fromkeys(re.findall(r'class="pick [a-z]+" href="#[^"]+" '
                                               r'data-agent="([^"]+)"', page)))
        assert cards == on_index == picker == [a for a in order if a in on_index]
    agent_options = re.findall(r'<option value="([^"]+)">', viewer.read_text().split(
        '<select name="agent">')[1].split("</select>")[0])
    assert agent_options == order


def test_an_agent_has_a_stable_link_on_every_page(viewer, records):
    rec = records["naive"][0]
    page = _page(viewer, rec["task_id"], rec["mode"])
    assert agent_anchor("naive") == "agent-naive"
    card = page.split('id="agent-naive"')[1].split('<div class="agent"')[0]
    anchor = unique_name("naive", rec["task_id"], rec["mode"], rec.get("prompt") or
                         "standard", int(rec.get("repeat", 0)))
    assert f'id="{anchor}"' in card
    # a report row, "agent (prompt)", the form the comparison page links to
    assert agent_anchor("naive (standard)") == "agent-naive-standard"
    row = page.split('id="agent-naive-standard"')[1].split('<div class="agent')[0]
    assert f'id="{anchor}"' in row and 'data-row="naive (standard)"' in page


def test_a_page_shows_query_victims_calls_fault_and_steps(viewer, records, sim):
    rec = next(r for r in records["naive"] if r["mode"] == "P2" and any(
        s["fault"] for s in r["steps"]))
    task = get_task(rec["task_id"])
    text = _page(viewer, rec["task_id"], "P2")
    assert task.query.replace("'", "&#x27;").replace('"', "&quot;") in text
    top = text.split('<div class="agent"')[0]
    victims = {t for v in profile_for(task, "P2", sim).victims for t in v.tools}
    marked = set(re.findall(r'<g class="node victim[^"]*" data-tool="([^"]+)"', top))
    assert marked == victims
    anchor = unique_name("naive", rec["task_id"], "P2", "standard", 0)
    section = text.split(f'id="{anchor}"')[1].split("</section>")[0]
    fired = next(s["fault"] for s in rec["steps"] if s["fault"])
    assert re.search(rf'class="node[^"]* fired" data-tool="{fired["tool"]}"', section)
    assert section.count('<tr class="step') == len(rec["steps"])
    first = next(k for k, s in enumerate(rec["steps"], 1) if s["action"]["kind"] == "call")
    tool = rec["steps"][first - 1]["action"]["name"]
    badge = re.search(rf'data-tool="{tool}"[^>]*>.*?<g class="badge">.*?>([\d,…]+)</text>',
                      section)
    assert badge and str(first) in badge.group(1).split(",")  # numbered by step
    assert "Perturbed response" in text and "FAULT explicit" in text
    assert "may fail in this mode" in text and "failed for this agent" in text  # legend


def test_pages_are_self_contained_and_escape_agent_text(run_dirs, records, tmp_path):
    rows = load_rows(list(run_dirs.values()))
    row = rows[0]
    evil = copy.deepcopy(row.records[0])
    evil["steps"][0]["raw"] = evil["steps"][0]["action"]["name"] = "<script>alert(1)</script>"
    evil["grade"]["labels"] = ["</script><script>alert(2)</script>"]
    row.records[0] = evil
    index = write_viewer([row], tmp_path)
    pages = [index, *sorted((tmp_path / "t").glob("*.html"))]
    for page in pages:
        text = page.read_text()
        assert "<script>alert(" not in text
        assert not re.search(r'(src|href)="(https?:)?//', text)  # nothing fetched
        assert "<link" not in text
    assert any("&lt;script&gt;alert(1)&lt;/script&gt;" in p.read_text() for p in pages)
    assert "alert(2)" in json.dumps(index_rows(index))  # carried as data, not as markup


def test_capped_pages_are_said_and_every_trajectory_still_listed(rows, tmp_path):
    groups = group_entries(rows)
    shared = sorted(groups)[-1]  # the only episode both agents played
    mixed = {k: (v if k == shared else [e for e in v if e.agent == "naive"])
             for k, v in groups.items()}
    chosen = choose_pages(mixed, 3)
    assert chosen[0] == shared and len(chosen) == 3
    cells = {(mixed[k][0].rec["level"], k[1]) for k in chosen[1:]}
    assert len(cells) == 2  # round-robin over cells, not several pages of one cell
    index = write_viewer(rows, tmp_path, max_pages=4)
    assert len(list((tmp_path / "t").glob("*.html"))) == 4
    listed = index_rows(index)
    assert len(listed) == sum(len(v) for v in groups.values())
    assert len({(r["t"], r["p"]) for r in listed if r["h"]}) == 4
    text = index.read_text()
    assert f"Pages were written for 4 of the {len(groups)} episodes (--max-pages 4)" in text


def test_a_missing_layout_library_is_one_line_before_any_work(run_dirs, tmp_path, capsys,
                                                              monkeypatch):
    from toolmaze_gym.cli.app import main

    monkeypatch.setitem(sys.modules, "grandalf", None)  # as if never installed
    monkeypatch.setitem(sys.modules, "grandalf.layouts", None)
    out = tmp_path / "rep"
    assert main(["report", str(run_dirs["naive"]), "--out", str(out), "--quiet"]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and "pip install 'grandalf==0.8'" in err, err
    assert "--no-viewer" in err and not out.exists()


def test_calls_of_a_tool_serving_two_steps_land_on_the_step_each_served(tmp_path):
    """C4 tmz-v3-c4-0003 records two expenses with one tool (s9, s10): each call is
    drawn on the step the grade's path match gave it, and a failed try before the
    second goes with the call that then served s10."""
    from toolmaze_gym.report.viewer import call_steps
    from toolmaze_gym.runner import RunConfig, Selection, read_records, run

    sel = Selection(suite="toolmaze-v3", levels=["C4"], modes=["P0"],
                    task_ids=["tmz-v3-c4-0003"])
    run(RunConfig("oracle", selection=sel), tmp_path, progress=False)
    rec = read_records(tmp_path)[0]
    task = get_task("tmz-v3-c4-0003")
    steps, _ = call_steps(rec, task)
    assert steps[("s9", "record_trip_expense")] == [9]
    assert steps[("s10", "record_trip_expense")] == [10]
    failed = copy.deepcopy(rec["steps"][9])
    failed.update(status=422, observation='{"error": "invalid amount"}')
    rec["steps"].insert(9, failed)
    steps, _ = call_steps(rec, task)
    assert steps[("s9", "record_trip_expense")] == [9]
    assert steps[("s10", "record_trip_expense")] == [10, 11]
