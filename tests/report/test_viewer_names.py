"""Viewer file names and anchors: one page per (task, mode) and one anchor per trajectory,
whatever characters or length the ids have, and the index links to the right one.

Task ids that differ only in punctuation ("task/one", "task one", "task-one") once
shared a page, so two of them showed another task's trajectory; a 300-character id
made a file name the file system refused.
"""

from __future__ import annotations

import html
import json
import re

import pytest

from toolmaze_gym.report import load_rows
from toolmaze_gym.report.viewer import page_name, write_viewer
from toolmaze_gym.runner import RunConfig, Selection, run
from toolmaze_gym.tasks.suite import load_suite

from .test_viewer import index_rows

IDS = ("task/one", "task one", "task-one", "x" * 300)
AGENTS = ("naive", "naive b", "naive-b")  # labels that share a slug


@pytest.fixture(scope="module")
def viewer(tmp_path_factory):
    """A real run over four suite tasks renamed to the colliding ids, by three agents."""
    root = tmp_path_factory.mktemp("names")
    c1 = [t for t in load_suite() if t.level == "C1"][: len(IDS)]
    lines = []
    for task, new_id in zip(c1, IDS, strict=True):
        data = task.to_dict()
        data["id"] = new_id
        lines.append(json.dumps(data))
    tasks = root / "tasks.jsonl"
    tasks.write_text("\n".join(lines) + "\n")
    dirs = []
    for label in AGENTS:
        sel = Selection(tasks=str(tasks), modes=["P0", "P2"])
        run(RunConfig("naive", label=label, selection=sel), root / label.replace(" ", "_"),
            progress=False)
        dirs.append(root / label.replace(" ", "_"))
    return write_viewer(load_rows(dirs), root / "viewer")


def test_every_task_and_mode_has_its_own_page(viewer):
    pages = sorted((viewer.parent / "t").glob("*.html"))
    assert len(pages) == len(IDS) * 2
    for task_id in IDS:
        for mode in ("P0", "P2"):
            text = (viewer.parent / page_name(task_id, mode)).read_text()
            assert f"<h1>{html.escape(task_id, quote=True)} · C1" in text


def test_names_are_short_and_keep_a_readable_stem(viewer):
    names = [p.name for p in (viewer.parent / "t").glob("*.html")]
    assert all(len(n) <= 100 for n in names)
    assert any(n.startswith("task-one-P0-") for n in names)
    assert page_name("task/one", "P0") != page_name("task one", "P0")
    assert page_name("task/one", "P0") == page_name("task/one", "P0")  # stable


def test_index_links_open_the_page_and_trajectory_they_name(viewer):
    rows = index_rows(viewer)
    assert len(rows) == len(IDS) * 2 * len(AGENTS)
    anchors = set()
    for row in rows:
        href, anchor = row["h"].split("#")
        page = (viewer.parent / href).read_text()
        assert f"<h1>{html.escape(row['t'], quote=True)} · C1" in page  # the task it names
        section = page.split(f'id="{anchor}"')[1].split("</section>")[0]
        assert f'data-agent="{html.escape(row["a"], quote=True)}"' in section  # its own
        anchors.add((href, anchor))
    assert len(anchors) == len(rows)


def test_agents_whose_labels_share_a_slug_get_their_own_card_link(viewer):
    page = (viewer.parent / page_name(IDS[0], "P2")).read_text()
    cards = re.findall(r'<div class="agent" id="([^"]+)" data-agent="([^"]+)">', page)
    assert cards == [("agent-naive", "naive"), ("agent-naive-b", "naive b"),
                     ("agent-naive-b-2", "naive-b")]
