"""The comparison page in a real headless Chromium at 1440×900, as a researcher opens
it: every differing episode listed (and no other), each link landing on the task page
of that trajectory; a screenshot saved beside the report. Skipped, with the reason,
where no browser or driver is installed (``make browser-test`` installs both)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from toolmaze_gym.report.compare import build_comparison
from toolmaze_gym.runner import record_key

BROWSERS = ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable")


def _browser() -> str:
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        pytest.skip("no browser driver: pip install playwright (or run `make browser-test`)")
    for name in BROWSERS:
        if shutil.which(name):
            return shutil.which(name)
    pytest.skip("no Chromium installed: apt-get install -y chromium (or `make browser-test`)")


@pytest.fixture(scope="module")
def page():
    exe = _browser()
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=exe, args=["--no-sandbox"])
        yield browser.new_page(viewport={"width": 1440, "height": 900})
        browser.close()


def test_the_comparison_page_shows_exactly_the_differing_episodes(page, run_dirs, records,
                                                                   tmp_path):
    out = tmp_path / "cmp"
    build_comparison(run_dirs["validator"], run_dirs["naive"], out, resamples=100,
                     plots=False)
    a = {record_key(r): r["grade"] for r in records["validator"]}
    b = {record_key(r): r["grade"] for r in records["naive"]}
    differ = {k for k in a if any(a[k].get(f) != b[k].get(f) for f in
                                  ("success", "exposed", "recovered", "c_rec", "labels",
                                   "ended_by"))}
    page.goto((out / "compare.html").resolve().as_uri())
    rows = page.locator("#episodes tbody tr.episode")
    shown = {rows.nth(k).get_attribute("data-key") for k in range(rows.count())}
    assert shown == differ
    assert all(rows.nth(k).is_visible() for k in range(rows.count()))
    assert page.locator("#deltas").is_visible()
    shots = out / "screenshots"
    shots.mkdir()
    page.screenshot(path=str(shots / "compare.png"))
    link = rows.first.locator("a.b")
    href = link.get_attribute("href")
    link.click()
    page.wait_for_load_state()
    assert Path(page.url.split("#")[0].removeprefix("file://")) == \
        (out / href.split("#")[0]).resolve()
    assert page.url.endswith("#" + href.split("#")[1])
