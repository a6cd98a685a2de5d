"""The README runs and its numbers are what the tools print (no hand-kept numbers).

The Python example runs as written (with a stand-in for the model); Table 1 is the
output of ``toolmaze stats --paper --markdown``; the corpus counts are those of
``toolmaze corpus``; the baselines table is the output of ``toolmaze baselines``.
On a mismatch the failure shows the block to paste.
"""

from __future__ import annotations

import argparse
import functools
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


def _blocks(lang: str) -> list[str]:
    """The README's fenced code blocks in ``lang`` (``bash`` and ``sh`` alike)."""
    langs = ("bash", "sh") if lang in ("bash", "sh") else (lang,)
    return [m.group(2) for m in re.finditer(r"^```(\w+)\n(.*?)^```", _readme(), re.S | re.M)
            if m.group(1) in langs]


def test_python_examples_run_verbatim(tmp_path, monkeypatch):
    """Every Python block runs exactly as a reader pastes it (no stand-in added here:
    the quick start once called a ``generate`` it never defined)."""
    blocks = _blocks("python")
    assert blocks, "README has no python block"
    monkeypatch.chdir(tmp_path)
    for k, code in enumerate(blocks):
        scope: dict = {}
        exec(compile(code, f"README.md python block {k + 1}", "exec"), scope)
    first: dict = {}
    exec(compile(blocks[0], "README.md", "exec"), first)
    assert "grade" in first["info"]
    assert first["pool"].live == [3]  # the example restarts env 3 after the loop


def _commands() -> list[list[str]]:
    """Each ``toolmaze`` command line of the README's shell blocks (continuations joined,
    comments dropped), split into words."""
    out = []
    for block in _blocks("bash"):
        for line in block.replace("\\\n", " ").splitlines():
            words = line.split("#")[0].split()
            if "toolmaze" in words[:3]:
                out.append(words[words.index("toolmaze"):])
    return out


@functools.cache
def _help(*command: str) -> str:
    """``toolmaze COMMAND --help`` (from the parser itself: a process per command costs
    seconds), or "" when there is no such command."""
    from toolmaze_gym.cli.app import build_parser

    parser = build_parser()
    for name in command:
        subs = next((a.choices for a in parser._actions
                     if isinstance(a, argparse._SubParsersAction)), {})
        if name not in subs:
            return ""
        parser = subs[name]
    return parser.format_help()


def test_shell_commands_name_real_commands_and_options():
    """Every ``toolmaze`` line in the README (usage examples and the command synopsis)
    names a real command, and every ``--option`` it shows is one that command takes:
    ``--help`` is cheap, running each (an hour of evaluation) is not."""
    commands = _commands()
    assert len(commands) >= 15, commands
    wrong = []
    for words in commands:
        sub = words[1]
        text = _help(sub)
        # a command with commands of its own (scenarios check | capabilities): theirs too
        nested = re.search(r"\{([a-z,-]+)\}", text)
        text += "".join(_help(sub, w) for w in words[2:]
                        if nested and w in nested.group(1).split(","))
        wrong += [f"toolmaze {sub} {opt}" for w in words[2:]
                  for opt in re.findall(r"--[a-z][a-z0-9-]*", w)
                  if not re.search(rf"{re.escape(opt)}\b", text)]
        if not text:
            wrong.append(f"toolmaze {sub} (no such command)")
    assert not wrong, f"README shows options the commands do not take: {sorted(set(wrong))}"


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


def test_scripted_eval_lines_run_verbatim(tmp_path, monkeypatch, capsys):
    """The README's ``toolmaze eval`` lines that need no model or endpoint (a scripted
    agent) run as pasted, in a folder holding the ``runs/`` that ``make eval`` (the
    README's first step) leaves, and write the run they name."""
    from toolmaze_gym.agents import SCRIPTED
    from toolmaze_gym.cli.app import main

    lines = [w for w in _commands() if w[1] == "eval" and "--agent" in w
             and w[w.index("--agent") + 1] in SCRIPTED]
    assert lines, "README has no eval line of a scripted agent"
    monkeypatch.chdir(tmp_path)
    (tmp_path / "runs").mkdir()
    for words in lines:
        assert main(words[1:]) == 0, " ".join(words)
        out = tmp_path / words[words.index("--out") + 1]
        assert (out / "records.jsonl").stat().st_size > 0, " ".join(words)
    capsys.readouterr()
