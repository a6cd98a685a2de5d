"""``build-suite --out DIR`` and ``generate --jobs`` through the real console script.

``build-suite`` builds toolmaze-v3 (its rebuild test is tests/tasks/test_suite_v2.py)
and refuses the suites kept for loading only (``generate`` refuses v2); ``stats``,
``show`` and ``baselines --suite DIR`` read a built directory; ``generate --jobs N``
writes the same bytes as a serial run and shows its progress.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from toolmaze_gym.tasks.suite_v2 import ID_PREFIX, SUITE_NAME, SUITE_SEED

TOOLMAZE = Path(sys.executable).with_name("toolmaze")
FILES = ("C1.jsonl", "C2.jsonl", "C3.jsonl", "C4.jsonl", "profiles.jsonl", "manifest.json")


def toolmaze(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([str(TOOLMAZE), *args], capture_output=True, text=True,
                          timeout=600, check=False)


def test_build_suite_refuses_a_suite_kept_for_loading_only(tmp_path):
    """toolmaze-v1 to v3 were built under an older world, older fault rules or an older
    scenario library: they load, but no longer rebuild bit for bit, and build-suite says
    so in one line."""
    for name in ("toolmaze-v1", "toolmaze-v2", "toolmaze-v3"):
        proc = toolmaze("build-suite", "--suite", name, "--out", str(tmp_path / name))
        assert proc.returncode == 2 and f"invalid choice: '{name}'" in proc.stderr
        assert f"(choose from '{SUITE_NAME}')" in proc.stderr
        assert len(proc.stderr.strip().splitlines()) == 1, proc.stderr
        assert not (tmp_path / name).exists()


@pytest.mark.parametrize("name", ["toolmaze-v2", "toolmaze-v3"])
def test_generate_refuses_an_old_library_suite_and_offers_the_suites_with_a_generator(
        tmp_path, name):
    proc = toolmaze("generate", "--suite", name, "--out", str(tmp_path / "t.jsonl"))
    assert proc.returncode == 2 and f"invalid choice: '{name}'" in proc.stderr
    assert f"(choose from '{SUITE_NAME}', 'toolmaze-v1')" in proc.stderr
    assert not (tmp_path / "t.jsonl").exists()


@pytest.fixture(scope="module")
def small(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("suites") / "small"
    proc = toolmaze("build-suite", "--out", str(out), "--per-level", "2", "--quiet")
    assert proc.returncode == 0, proc.stderr
    return out


def test_stats_show_baselines_and_grade_accept_the_directory(small, tmp_path):
    stats = toolmaze("stats", str(small), "--json")
    assert stats.returncode == 0, stats.stderr
    assert {lv: row["tasks"] for lv, row in json.loads(stats.stdout).items()} == \
        {"C1": 2, "C2": 2, "C3": 2, "C4": 2}
    show = toolmaze("show", f"{ID_PREFIX}-c2-0001", "--suite", str(small))
    assert show.returncode == 0 and f"{ID_PREFIX}-c2-0001" in show.stdout, show.stderr
    assert show.stdout.startswith("goal: ")
    runs = tmp_path / "runs.jsonl"
    base = toolmaze("baselines", "--agents", "oracle", "--suite", str(small), "--quiet",
                    "--out", str(runs))
    assert base.returncode == 0, base.stderr
    assert base.stdout.splitlines()[2] == "| oracle | " + " | ".join(["100.0"] * 9 + ["0.0"] * 4) \
        + " | 100.0 |"
    grade = toolmaze("grade", str(runs), "--tasks", str(small))
    assert grade.returncode == 0 and "0 grades changed" in grade.stderr, grade.stderr


def test_build_suite_builds_v15_by_default_and_names_it_in_the_manifest(small):
    manifest = json.loads((small / "manifest.json").read_text())
    assert manifest["name"] == f"{SUITE_NAME}-seed{SUITE_SEED}-n2" == \
        "toolmaze-v15-seed20261201-n2" and manifest["scenarios"]
    assert "profiles.jsonl" in manifest["files"]


def test_a_tampered_suite_directory_is_refused(small, tmp_path):
    copy = tmp_path / "copy"
    copy.mkdir()
    for name in FILES:
        (copy / name).write_bytes((small / name).read_bytes())
    with (copy / "C3.jsonl").open("a") as fh:
        fh.write("\n")
    proc = toolmaze("stats", str(copy))
    assert proc.returncode != 0 and proc.stderr.count("\n") == 1
    assert "C3.jsonl does not match its manifest checksum" in proc.stderr


def test_generate_in_parallel_writes_the_serial_bytes_and_shows_progress(tmp_path):
    serial, parallel = tmp_path / "serial.jsonl", tmp_path / "parallel.jsonl"
    a = toolmaze("generate", "--n", "6", "--seed", "4", "--out", str(serial), "--quiet")
    b = toolmaze("generate", "--n", "6", "--seed", "4", "--out", str(parallel), "--jobs", "3")
    assert a.returncode == 0 and b.returncode == 0, (a.stderr, b.stderr)
    assert serial.read_bytes() == parallel.read_bytes()
    assert len(serial.read_text().splitlines()) == 6
    assert "generating train" in b.stderr and "6/6" in b.stderr
    assert "wrote 6 tasks" in b.stderr
