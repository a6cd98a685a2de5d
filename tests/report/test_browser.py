"""The viewer in a real headless Chromium (the system package, driven by Playwright),
measuring what a person sees at 1440x900: every agent's card reachable from the picker
with no horizontal scrolling, DAG labels at least 10 px tall on screen at every level,
no edge drawn through a box (from the rendered SVG geometry), the index's filters,
sorting, paging and search, and deep links (filters in the address, one agent of one
episode). One screenshot per level (C1..C4) and of the index is saved to
``$TOOLMAZE_SHOTS`` (default: the report's screenshots/ folder) and printed.

Skipped, with the reason, where no browser or driver is installed (``make
browser-test`` installs both); marked slow, so plain ``make test`` leaves them out.
``TOOLMAZE_VIEWER=DIR`` also checks an existing report (e.g. ``runs/eval/report``) and
saves its screenshots in DIR/screenshots.
"""

from __future__ import annotations

import json
import os
import re
import shutil
from pathlib import Path

import pytest

from toolmaze_gym.report import build_report
from toolmaze_gym.report.viewer import agent_anchor, page_name
from toolmaze_gym.runner import RunConfig, Selection, run
from toolmaze_gym.tasks.suite import get_task

BROWSERS = ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable")
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--no-first-run"]
VIEWPORT = {"width": 1440, "height": 900}
AGENTS = ("oracle", "validator", "retry", "naive", "random")
MIN_LABEL_PX = 10

pytestmark = pytest.mark.slow  # a browser and ~1 min: `make browser-test`, `make test-all`


def _browser() -> str:
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        pytest.skip("no browser driver: pip install playwright (or run `make browser-test`)")
    for name in BROWSERS:
        path = shutil.which(name)
        if path:
            return path
    pytest.skip("no Chromium installed: apt-get install -y chromium (or `make browser-test`)")


@pytest.fixture(scope="module")
def page():
    exe = _browser()
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=exe, args=ARGS)
        pg = browser.new_page(viewport=VIEWPORT, device_scale_factor=1)
        yield pg
        browser.close()


@pytest.fixture(scope="module")
def report(tmp_path_factory) -> Path:
    """Five agents, both prompts, one task per (C, P) cell: up to nine cards a page."""
    _browser()
    root = tmp_path_factory.mktemp("browser")
    sel = Selection(limit=1, prompts=["standard", "failure_aware"])
    for agent in AGENTS:
        run(RunConfig(agent, selection=sel), root / agent, progress=False)
    build_report([root / a for a in AGENTS], root / "report", resamples=0, plots=False)
    return root / "report"


def _shots(report_dir: Path) -> Path:
    out = Path(os.environ.get("TOOLMAZE_SHOTS") or report_dir / "screenshots")
    out.mkdir(parents=True, exist_ok=True)
    return out.resolve()


def _rows(page) -> list[dict]:
    return json.loads(page.locator("#rows").text_content())


def _open(page, path: Path, fragment: str = "") -> None:
    page.goto(path.resolve().as_uri() + fragment)
    page.wait_for_load_state("load")


def _pages_per_level(report_dir: Path) -> dict[str, Path]:
    """For each level, the page of a faulted episode with the most trajectories."""
    index = (report_dir / "viewer" / "index.html").read_text()
    rows = json.loads(re.search(r'<script id="rows" type="application/json">(.*?)</script>',
                                index, re.S).group(1))
    best: dict[str, tuple[int, str]] = {}
    for key in {(r["t"], r["p"], r["c"]) for r in rows if r["h"] and r["p"] in ("P2", "P4")}:
        n = sum(1 for r in rows if (r["t"], r["p"]) == key[:2])
        best[key[2]] = max(best.get(key[2], (0, "")), (n, page_name(*key[:2])))
    return {lv: report_dir / "viewer" / href for lv, (_, href) in sorted(best.items())}


# ---------------------------------------------------------------- checks


def check_cards_reachable(page, url: Path) -> int:
    """Every card: its picker chip scrolls it into the viewport, below the sticky picker,
    whole across the width; the page never scrolls sideways. Returns the card count."""
    _open(page, url)
    assert page.evaluate("document.documentElement.scrollWidth") <= VIEWPORT["width"]
    sideways = page.evaluate("[...document.querySelectorAll('.dagwrap')].filter(d=>"
                             "d.scrollWidth>d.clientWidth+1).length")
    assert sideways == 0, f"{sideways} DAGs scroll sideways"
    chips = page.locator("#picker a.pick")
    cards = page.locator("section.traj")
    assert chips.count() == cards.count() >= 1
    order = page.evaluate("[...document.querySelectorAll('section.traj')].map(s=>s.id)")
    assert [h.lstrip("#") for h in page.evaluate(
        "[...document.querySelectorAll('#picker a.pick')].map(a=>a.hash)")] == order
    for k in range(chips.count()):
        chips.nth(k).click()
        page.wait_for_timeout(30)
        box = page.evaluate("""id => {const r=document.getElementById(id)
            .getBoundingClientRect(),p=document.getElementById('picker').getBoundingClientRect();
            const h=document.getElementById(id).querySelector('.head').getBoundingClientRect();
            const top=document.elementFromPoint(h.left+h.width/2,h.top+h.height/2);
            return {top:r.top,left:r.left,right:r.right,picker:p.bottom,
                    mine:!!top&&document.getElementById(id).contains(top)}}""", order[k])
        assert box["picker"] - 1 <= box["top"] < VIEWPORT["height"], (order[k], box)
        assert box["left"] >= 0 and box["right"] <= VIEWPORT["width"], (order[k], box)
        assert box["mine"], f"card {order[k]}'s head is covered"
    return chips.count()


def check_label_heights(page, url: Path) -> float:
    """The smallest on-screen height of a tool label line in any DAG of the page."""
    _open(page, url)
    heights = page.evaluate("""[...document.querySelectorAll('svg.dag text.label tspan')]
        .filter(t=>!t.closest('.legend')).map(t=>t.getBoundingClientRect().height)""")
    assert heights, "no DAG labels on the page"
    return min(heights)


EDGE_CHECK = """() => {
  const bad=[];let edges=0;
  for (const svg of document.querySelectorAll('svg.dag')) {
    if (svg.closest('.legend')) continue;
    const boxes=[...svg.querySelectorAll('.slot>rect.box,.node>rect')]
      .map(r=>r.getBoundingClientRect());
    for (const p of svg.querySelectorAll('path.edge')) {
      edges++;const m=p.getScreenCTM(),len=p.getTotalLength();
      for (let s=0;s<=len;s+=3) {
        const q=p.getPointAtLength(s),x=m.a*q.x+m.c*q.y+m.e,y=m.b*q.x+m.d*q.y+m.f;
        const hit=boxes.find(b=>x>b.left+1.5&&x<b.right-1.5&&y>b.top+1.5&&y<b.bottom-1.5);
        if (hit) {bad.push([p.dataset.from,p.dataset.to,Math.round(x),Math.round(y)]);break;}
      }
    }
  }
  return {edges,bad};
}"""


def check_edges_clear(page, url: Path) -> int:
    _open(page, url)
    found = page.evaluate(EDGE_CHECK)
    assert not found["bad"], f"edges through a box: {found['bad'][:5]}"
    return found["edges"]


def check_index(page, report_dir: Path) -> None:
    """Counts, a filter and its address, a deep link restoring filters, search, sort,
    paging, and a row's link opening that trajectory."""
    index = report_dir / "viewer" / "index.html"
    _open(page, index)
    rows = _rows(page)
    count = page.locator("#count")
    assert count.inner_text() == str(len(rows))
    shown = page.locator("#trajectories tbody tr")
    assert shown.count() == min(100, len(rows))

    page.select_option("select[name=outcome]", "failure")
    failures = [r for r in rows if not r["o"]]
    assert count.inner_text() == str(len(failures))
    assert page.locator('#trajectories tbody tr[data-outcome="success"]').count() == 0
    assert "outcome=failure" in page.evaluate("location.hash")

    cell = next((r["c"], r["p"]) for r in rows if r["p"] == "P2")
    _open(page, index, f"#C={cell[0]}&P={cell[1]}&outcome=failure&exposure=unrecovered")
    want = [r for r in rows if (r["c"], r["p"]) == cell and not r["o"] and r["x"]
            and not r["v"]]
    assert page.locator("select[name=C]").input_value() == cell[0]
    assert page.locator("select[name=exposure]").input_value() == "unrecovered"
    assert count.inner_text() == str(len(want))
    assert want and all(tuple(tr) == (*cell, "failure") for tr in page.evaluate(
        "[...document.querySelectorAll('#trajectories tbody tr')].map(t=>"
        "[t.dataset.level,t.dataset.mode,t.dataset.outcome])"))

    _open(page, index, "?C=C4&per=all")  # the query form works too
    assert count.inner_text() == str(sum(r["c"] == "C4" for r in rows))
    page.locator("#reset").click()
    assert count.inner_text() == str(len(rows))

    label = next(lb for r in rows for lb in r["l"])
    page.select_option("select[name=label]", label)
    assert count.inner_text() == str(sum(label in r["l"] for r in rows))
    page.locator("#reset").click()
    task = rows[-1]["t"]
    page.fill("#q", task)
    assert count.inner_text() == str(sum(task in (r["t"] + " " + r["r"]) for r in rows))
    page.locator("#reset").click()

    page.select_option("select[name=per]", "all")
    assert shown.count() == len(rows)  # every trajectory reachable, no cap
    steps = page.locator('#trajectories th[data-key="steps"]')
    steps.click()
    steps.click()
    listed = [int(x) for x in page.evaluate("[...document.querySelectorAll("
                                            "'#trajectories tbody tr td:nth-child(8)')]"
                                            ".map(t=>t.textContent)")]
    assert listed == sorted((r["s"] for r in rows), reverse=True)
    assert "sort=steps" in page.evaluate("location.hash")

    page.locator("#reset").click()
    page.select_option("select[name=P]", "P2")
    link = page.locator("#trajectories tbody tr a").first
    href = link.get_attribute("href")
    task_id = link.inner_text()
    link.click()
    page.wait_for_load_state("load")
    assert page.get_by_text(get_task(task_id).query, exact=True).is_visible()
    anchor = href.split("#")[1]
    box = page.evaluate(f"document.getElementById('{anchor}').getBoundingClientRect().top")
    assert 0 <= box < VIEWPORT["height"]


def check_agent_deep_link(page, url: Path, agent: str, label: str | None = None) -> None:
    """``page#agent-<slug(label)>`` opens the page at that agent's cards (``label``: the
    agent, or a report row "agent (prompt)"), its chip marked."""
    anchor = agent_anchor(label or agent)
    _open(page, url, f"#{anchor}")
    page.wait_for_timeout(100)
    top = page.evaluate(f"document.getElementById('{anchor}').getBoundingClientRect().top")
    assert 0 <= top < 120, (anchor, top)
    current = page.locator("#picker a.pick.current")
    assert current.count() == 1 and current.get_attribute("data-agent") == agent


def screenshots(page, report_dir: Path, levels: dict[str, Path], out: Path) -> list[Path]:
    shots = []
    _open(page, report_dir / "viewer" / "index.html", "#outcome=failure")
    page.screenshot(path=str(out / "index.png"))
    shots.append(out / "index.png")
    for level, url in levels.items():
        _open(page, url)
        page.screenshot(path=str(out / f"{level}.png"))
        shots.append(out / f"{level}.png")
    _open(page, levels[max(levels)], f"#{agent_anchor('naive')}")
    page.wait_for_timeout(100)
    page.screenshot(path=str(out / f"{max(levels)}-naive.png"))
    shots.append(out / f"{max(levels)}-naive.png")
    print("\nscreenshots:", *shots, sep="\n  ")
    return shots


# ---------------------------------------------------------------- tests


def test_every_agent_card_is_reachable_at_1440x900(page, report):
    levels = _pages_per_level(report)
    assert sorted(levels) == ["C1", "C2", "C3", "C4"]
    counts = {lv: check_cards_reachable(page, url) for lv, url in levels.items()}
    assert max(counts.values()) >= 9, counts  # 5 agents, the hint prompt beside


def test_dag_labels_are_at_least_10px_on_screen_at_every_level(page, report):
    heights = {lv: check_label_heights(page, url)
               for lv, url in _pages_per_level(report).items()}
    print("\nsmallest label height (px):", heights)
    assert min(heights.values()) >= MIN_LABEL_PX, heights


def test_no_edge_is_drawn_through_a_box(page, report):
    edges = sum(check_edges_clear(page, url) for url in _pages_per_level(report).values())
    assert edges > 20


def test_index_filters_sorting_and_deep_links(page, report):
    check_index(page, report)
    c4 = _pages_per_level(report)["C4"]
    check_agent_deep_link(page, c4, "naive")
    check_agent_deep_link(page, c4, "random", "random (failure-aware)")


def test_screenshots_of_each_level_and_the_index(page, report):
    for shot in screenshots(page, report, _pages_per_level(report), _shots(report)):
        assert shot.stat().st_size > 10_000


def test_existing_report_in_headless_chromium(page):
    target = os.environ.get("TOOLMAZE_VIEWER")
    if not target:
        pytest.skip("set TOOLMAZE_VIEWER=REPORT_DIR to check an existing report")
    report_dir = Path(target)
    levels = _pages_per_level(report_dir)
    for url in levels.values():
        check_cards_reachable(page, url)
        assert check_label_heights(page, url) >= MIN_LABEL_PX
        check_edges_clear(page, url)
    check_index(page, report_dir)
    out = report_dir / "screenshots"
    out.mkdir(exist_ok=True)
    screenshots(page, report_dir, levels, out)


# ---------------------------------------------------------------- one tool, two steps

SHARED_TASK = "tmz-v3-c4-0003"  # record_trip_expense serves s9 and s10


@pytest.fixture(scope="module")
def shared_tool_viewer(tmp_path_factory) -> Path:
    """The oracle and the naive agent on a C4 task where one tool serves two steps: the
    oracle calls it at steps 9 (s9) and 10 (s10); the naive agent fails under P1."""
    _browser()
    from toolmaze_gym.report import load_rows
    from toolmaze_gym.report.viewer import write_viewer

    root = tmp_path_factory.mktemp("shared")
    sel = Selection(suite="toolmaze-v3", levels=["C4"], modes=["P0", "P1"],
                    task_ids=[SHARED_TASK])
    for agent in ("oracle", "naive"):
        run(RunConfig(agent, selection=sel), root / agent, progress=False)
    return write_viewer(load_rows([root / "oracle", root / "naive"]), root / "viewer")


def _badges(page, card: str) -> dict[str, str]:
    """(slot) → the step numbers drawn on that slot's record_trip_expense node."""
    return page.evaluate("""id => Object.fromEntries([...document.getElementById(id)
        .querySelectorAll('svg.dag .node[data-tool="record_trip_expense"]')]
        .map(n=>[n.dataset.slot, n.querySelector('.badge text')?.textContent||'']))""", card)


def test_c4_calls_are_drawn_on_the_step_they_served(page, shared_tool_viewer):
    url = shared_tool_viewer.parent / page_name(SHARED_TASK, "P0")
    _open(page, url)
    oracle = page.evaluate("document.querySelector('section.traj[data-agent=oracle]').id")
    assert _badges(page, oracle) == {"s9": "9", "s10": "10"}
    called = page.evaluate("""id => [...document.getElementById(id).querySelectorAll(
        'svg.dag .node[data-tool="record_trip_expense"]')].map(n=>n.classList
        .contains('called'))""", oracle)
    assert called == [True, True]  # s10 no longer looks uncalled


def test_c4_episode_says_why_it_failed_and_what_the_agent_saw(page, shared_tool_viewer):
    url = shared_tool_viewer.parent / page_name(SHARED_TASK, "P1")
    _open(page, url)
    card = page.locator("section.traj.failure[data-agent=naive]")
    why = card.locator(".why")
    assert why.is_visible()
    assert why.inner_text().startswith("grade: FAILURE, because:")
    seen = card.locator("details.context")
    assert not seen.locator("pre.system").is_visible()  # closed until clicked
    seen.locator("summary").click()
    assert "The current date and time is" in seen.locator("pre.system").inner_text()
    assert seen.locator(".clock").is_visible()
    assert re.search(r"\d+ prompt tokens", seen.inner_text())
    seen.locator("a.docs").click()  # the task's tool docs, as the agent got them
    page.wait_for_load_state("load")
    assert "record_trip_expense" in page.locator("pre.docs").inner_text()
