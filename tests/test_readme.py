"""The README's Python example runs as written (with a stand-in for the model)."""

from __future__ import annotations

import re
from pathlib import Path

README = Path(__file__).resolve().parents[1] / "README.md"


def test_quick_start_example_runs():
    text = README.read_text(encoding="utf-8")
    code = re.search(r"## Quick start \(Python\)\n\n```python\n(.*?)```", text, re.S).group(1)
    stand_in = ("def generate(batch):\n"
                "    return ['{\"name\": \"finish\", \"arguments\": {}}' for _ in batch]\n")
    scope: dict = {}
    exec(compile(stand_in + code, "README.md", "exec"), scope)
    assert "grade" in scope["info"]
    assert scope["pool"].live == [3]  # the example restarts env 3 after the loop
