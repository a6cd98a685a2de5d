"""The README runs and its numbers are what the tools print (no hand-kept numbers).

The Python example runs as written (with a stand-in for the model); Table 1 is the
output of ``toolmaze stats --paper --markdown``; the corpus counts are those of
``toolmaze corpus``; the baselines table is the output of ``toolmaze baselines``.
On a mismatch the failure shows the block to paste.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

README = Path(__file__).resolve().parents[1] / "README.md"
TOOLMAZE = Path(sys.executable).with_name("toolmaze")


def _readme() -> str:
    return README.read_text(encoding="utf-8")


def _toolmaze(*args: str) -> str:
    return subprocess.run([str(TOOLMAZE), *args], capture_output=True, text=True, check=True,
                          timeout=900).stdout


def _table(text: str, head: str) -> str:
    """The Markdown table of ``text`` whose first line starts with ``head``."""
    lines = text.splitlines()
    start = next((k for k, line in enumerate(lines) if line.startswith(head)), None)
    assert start is not None, f"README has no table starting {head!r}"
    end = start
    while end < len(lines) and lines[end].startswith("|"):
        end += 1
    return "\n".join(lines[start:end])


def test_quick_start_example_runs():
    code = re.search(r"## Quick start \(Python\)\n\n```python\n(.*?)```", _readme(),
                     re.S).group(1)
    stand_in = ("def generate(batch):\n"
                "    return ['{\"name\": \"finish\", \"arguments\": {}}' for _ in batch]\n")
    scope: dict = {}
    exec(compile(stand_in + code, "README.md", "exec"), scope)
    assert "grade" in scope["info"]
    assert scope["pool"].live == [3]  # the example restarts env 3 after the loop


def test_table1_is_what_stats_prints():
    printed = _toolmaze("stats", "--paper", "--markdown").strip()
    shown = _table(_readme(), "| metric |")
    assert shown == printed, f"regenerate README Table 1 with:\n{printed}"


def test_corpus_counts_are_what_corpus_prints():
    stats = json.loads(_toolmaze("corpus", "--json"))
    text = " ".join(_readme().split())
    para = text[text.index("from `toolmaze corpus`"):][:400]
    expected = [f"{name} {n}" for key in ("category", "domain")
                for name, n in stats[key].items()]
    g = stats["groups"]
    expected += [f"{stats['total']['groups']} alternative groups",
                 f"{g['one_to_one']} one-to-one", f"{g['one_to_n']} one-to-N",
                 f"{g['n_to_n']} N-to-N"]
    missing = [e for e in expected if e not in para]
    assert not missing, f"README's corpus sentence should say: {', '.join(expected)}"
    assert f"{stats['total']['tools']} simulated tools" in text


def test_baselines_table_is_what_baselines_prints():
    printed = _toolmaze("baselines", "--quiet").strip()
    shown = _table(_readme(), "| agent | TSR NP")
    assert shown == printed, f"regenerate the README's baselines table with:\n{printed}"
