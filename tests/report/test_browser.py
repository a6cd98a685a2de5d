"""The viewer in a real headless Chromium (the system package, driven by Playwright):
what a user sees — the query, the victim in red, the step rows, working filters — with
screenshots saved beside the report. Skipped, with the reason, where no browser or
driver is installed (``make browser-test`` installs both).

``TOOLMAZE_VIEWER=DIR`` also checks an existing report (e.g. ``runs/eval/report``) and
saves its screenshots in DIR/screenshots.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from toolmaze_gym.report import build_report
from toolmaze_gym.tasks.suite import get_task

BROWSERS = ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable")


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
        browser = p.chromium.launch(executable_path=exe, args=["--no-sandbox"])
        pg = browser.new_page(viewport={"width": 1600, "height": 1000})
        yield pg
        browser.close()


def check_viewer(page, report_dir: Path) -> list[Path]:
    """Open the index, filter it, open an episode with a fault; returns the screenshots."""
    shots = report_dir / "screenshots"
    shots.mkdir(exist_ok=True)
    page.goto((report_dir / "viewer" / "index.html").resolve().as_uri())
    rows = page.locator("#trajectories tbody tr")
    total = rows.count()
    assert total > 0 and page.locator("#count").inner_text() == str(total)
    page.select_option("select[name=outcome]", "failure")
    failures = page.locator('#trajectories tbody tr[data-outcome="failure"]').count()
    assert page.locator("#count").inner_text() == str(failures)
    assert page.locator('#trajectories tbody tr[data-outcome="success"]').first.is_hidden() \
        or failures == total
    page.screenshot(path=str(shots / "index.png"))

    page.select_option("select[name=outcome]", "")
    link = page.locator('#trajectories tbody tr[data-mode="P2"] a').first
    task_id = link.inner_text()
    link.click()
    page.wait_for_load_state()
    query = get_task(task_id).query
    assert page.get_by_text(query, exact=True).is_visible()
    victim = page.locator("svg .node.victim rect").first
    assert victim.is_visible()
    stroke = victim.evaluate("e => getComputedStyle(e).stroke")
    assert stroke == "rgb(198, 40, 40)", stroke  # red
    first = page.locator("section.traj").first
    steps = first.locator("tr.step")
    assert steps.count() >= 1 and steps.first.is_visible()
    assert first.locator("tr.step td").first.inner_text() == "1"
    page.evaluate("window.scrollTo(0, 0)")
    page.screenshot(path=str(shots / "trajectory.png"))
    return [shots / "index.png", shots / "trajectory.png"]


def test_viewer_in_headless_chromium(page, run_dirs, tmp_path_factory):
    out = tmp_path_factory.mktemp("browser-report")
    build_report(list(run_dirs.values()), out, resamples=0, plots=False)
    for shot in check_viewer(page, out):
        assert shot.stat().st_size > 10_000


def test_existing_report_in_headless_chromium(page):
    target = os.environ.get("TOOLMAZE_VIEWER")
    if not target:
        pytest.skip("set TOOLMAZE_VIEWER=REPORT_DIR to check an existing report")
    shots = check_viewer(page, Path(target))
    print("screenshots:", *shots)
