"""One episode played by a person as the agent (``toolmaze play``).

The session drives the Gymnasium env itself, so a person meets exactly what a model
meets: the same system prompt (with the world's clock), request, tool
documentation, responses, faults and grade. It shows only that, never the task's
data, reference path or victim, until the episode is over (``reveal``). Input is
read line by line in the play syntax (``toolmaze_gym.play_input``); what is not an
action costs no step. The finished episode's record has the runner's format, so
``toolmaze grade`` and ``toolmaze report`` read it like any run.
"""

from __future__ import annotations

import json
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from toolmaze_gym.actions import parse_action
from toolmaze_gym.agents.compact_tools import HEADER, render_tool
from toolmaze_gym.envs.env import ToolMazeEnv
from toolmaze_gym.episode import Step
from toolmaze_gym.explain import explain, reveal
from toolmaze_gym.faults import get_mode
from toolmaze_gym.play_input import HELP, Bad, Command, Send, parse_line
from toolmaze_gym.prompts import TEXT
from toolmaze_gym.runner import EpisodeSpec, prompt_for
from toolmaze_gym.tasks.model import Task
from toolmaze_gym.tasks.suite import SUITE_NAME, suite_of

RULE = "─" * 72
LONE_SURROGATE = ("the action holds a lone surrogate (such as \\ud800), which is not text: "
                  "it could be neither shown nor recorded as sent")


@dataclass(frozen=True)
class Reply:
    """What the session says to one line: ``text`` for the transcript, or ``error``
    (one line) when the line was not understood and cost nothing."""

    text: str = ""
    error: str = ""


class PlaySession:
    """One episode of ``task`` under ``mode``, played one line at a time."""

    def __init__(self, task: Task, mode: str = "P0", prompt: str = "standard",
                 suite: str | None = None, max_steps: int = 25, full_docs: bool = False,
                 tasks_file: str | None = None) -> None:
        # without a suite, the one the task's id names (a stored tmz-v3 episode keeps
        # its suite's fault profiles), else the default suite
        suite = suite or suite_of(task.id) or SUITE_NAME
        self.task, self.mode = task, get_mode(mode).name
        self.prompt = prompt_for(self.mode, prompt)
        self.suite, self.full_docs, self.tasks_file = suite, full_docs, tasks_file
        self.env = ToolMazeEnv(level=task.level, mode=self.mode, suite=suite,
                               prompt=self.prompt, max_steps=max_steps)
        self.env.reset(options={"task": task, "mode": self.mode})
        self.tools = {t["function"]["name"]: t for t in self.env.tools}
        self.raw: list[str] = []
        self.t0 = time.perf_counter()

    # -- what the agent sees ---------------------------------------------------------

    def opening(self) -> str:
        """The episode as the agent starts it: system prompt, request, tool docs."""
        ep = self.env.episode
        assert ep is not None
        head = (f"episode: {self.task.id} ({self.task.level}, {self.mode} "
                f"{get_mode(self.mode).label}, {self.prompt} prompt, at most "
                f"{ep.max_steps} steps)")
        parts = [head]
        for m in self.env.messages:
            parts += [f"{RULE}\n[{m['role']}]", str(m.get("content") or "")]
        parts += [f"{RULE}\n[tools] {len(self.tools)} shown; `doc NAME` shows one again, "
                  "`help` the input syntax", self._docs()]
        return "\n".join(parts)

    def _docs(self) -> str:
        if self.full_docs:
            return "\n".join(json.dumps(t, indent=2, ensure_ascii=False)
                             for t in self.tools.values())
        return "\n\n".join([HEADER, *(render_tool(t) for t in self.tools.values())])

    @property
    def done(self) -> bool:
        ep = self.env.episode
        return ep is not None and ep.done

    @property
    def steps(self) -> list[Step]:
        ep = self.env.episode
        return [] if ep is None else ep.steps

    # -- input ------------------------------------------------------------------------

    def handle(self, line: str) -> Reply:
        """Act on one line; a line that is no action costs no step."""
        parsed = parse_line(line, self.tools)
        if parsed is None:
            return Reply()
        if isinstance(parsed, Bad):
            return Reply(error=parsed.message)
        if isinstance(parsed, Command):
            return self._command(parsed)
        assert isinstance(parsed, Send)
        if _lone_surrogate(parsed.text):
            return Reply(error=LONE_SURROGATE)
        return Reply(self._send(parsed.text))

    def _command(self, cmd: Command) -> Reply:
        if cmd.name == "help":
            return Reply(HELP)
        if cmd.name == "tools":
            return Reply("\n".join(f"  {name}: {_first_sentence(t)}"
                                   for name, t in self.tools.items()))
        if cmd.name == "doc":
            tool = self.tools[cmd.arg]
            return Reply(json.dumps(tool, indent=2, ensure_ascii=False) if self.full_docs
                         else render_tool(tool))
        if cmd.name == "history":
            return Reply(self.history() or "no steps yet")
        self.stop("quit")
        return Reply()

    def _send(self, text: str) -> str:
        self.raw.append(text)
        _, _, ended, truncated, _ = self.env.step(text)
        n = len(self.steps)
        step = self.steps[-1]
        out = [f"{RULE}\n[step {n}] {_step_line(step)}"]
        if step.kind in ("call", "invalid"):
            out.append(_pretty(step.observation))
        if ended:
            out.append("the episode is over (you ended it)")
        elif truncated:
            out.append(f"the episode is over: the step limit ({n}) is reached")
        return "\n".join(out)

    def history(self) -> str:
        return "\n".join(f"  {k}. {_step_line(s)}" for k, s in enumerate(self.steps, 1))

    def stop(self, reason: str) -> None:
        """End the episode before the agent did (input ran out, quit, Ctrl-C): it is
        graded like a cut-off run, never like an ending."""
        if not self.done:
            self.env.cut(reason)

    # -- the end ------------------------------------------------------------------------

    def closing(self, show_reference: bool = False) -> str:
        """The grade, explained; with ``show_reference`` also the reference path and
        the fault profile. An episode cut before the agent ended it (input ran out,
        quit, Ctrl-C) gets one short line: its explanation would only give away the
        path and the faults, so it is shown with ``show_reference`` alone."""
        ep = self.env.episode
        assert ep is not None and ep.done
        rec = self.env.record()
        lines = [f"{RULE}\n[grade]"]
        if ep.cut_reason:
            lines.append(f"episode cut before finish/abort ({ep.cut_reason}): not graded as "
                         "an ending; add finish or abort")
        if show_reference or not ep.cut_reason:
            lines += explain(rec["grade"], self.task, ep.profile, ep.steps,
                             self.env.sim.corpus, truncated=ep.truncated, cut=ep.cut_reason,
                             show_reference=show_reference)
        if show_reference:
            lines += [f"{RULE}\n[revealed]", *reveal(self.task, ep.profile)]
        return "\n".join(lines)

    @property
    def success(self) -> bool:
        return bool(self.env.record()["grade"]["success"])

    def record(self, label: str = "human") -> dict[str, Any]:
        """The episode's trajectory record, with the fields the runner adds."""
        rec = self.env.record(label)
        spec = EpisodeSpec(self.task.id, self.task.level, self.mode, self.prompt, 0)
        rec.update(prompt=self.prompt, repeat=0, key=spec.key, agent_options={}, sampling=None,
                   suite=self.suite, convention=TEXT,  # a person reads the text prompt
                   usage={"prompt_tokens": 0, "completion_tokens": 0,
                          "turns": len(self.raw), "shared_turns": 0},
                   wall_s=round(time.perf_counter() - self.t0, 4))  # raw: in the steps
        if self.tasks_file is not None:
            rec["tasks"] = str(Path(self.tasks_file).resolve())
        return rec


def _lone_surrogate(text: str) -> bool:
    """Whether ``text``, or the call the env would read from it (JSON escapes such as
    ``\\ud800`` decoded), holds a surrogate that UTF-8 cannot carry. A person's line
    with one is refused before it costs a step: its record could not be written as
    played. A pair (an emoji written as two escapes) is text and passes."""
    try:
        text.encode("utf-8")
        if "\\u" in text:
            json.dumps(parse_action(text).to_dict(), ensure_ascii=False).encode("utf-8")
    except UnicodeEncodeError:
        return True
    return False


def _step_line(step: Step) -> str:
    act = step.action
    if step.kind == "call":
        args = json.dumps(act.get("arguments"), ensure_ascii=False)
        return f"{act.get('name')} {args} -> {step.status}"
    if step.kind == "invalid":
        return f"not a valid call -> {step.status}"
    what = {"finish": "finish", "abort": "abort", "answer": "plain answer"}[step.kind]
    return f"{what}: {act.get('text', '')}"


def _pretty(observation: str) -> str:
    try:
        return json.dumps(json.loads(observation), indent=2, ensure_ascii=False)
    except ValueError:
        return observation


def _first_sentence(tool: dict[str, Any]) -> str:
    text = str(tool.get("function", {}).get("description", ""))
    end = text.find(". ")
    return text if end < 0 else text[: end + 1]
