"""``toolmaze eval`` and ``toolmaze report``: run an agent over a selection of the suite,
and turn run directories into the paper's tables, figures and a trajectory viewer.

    toolmaze eval --agent hf --limit 2 --prompt standard --prompt failure_aware --out runs/hf
    toolmaze eval --agent oracle --tasks dev.jsonl --limit 1 --out runs/oracle-dev
    toolmaze eval --agent openai --model Qwen/Qwen3-8B --base-url http://host:8000/v1 \\
        --shard 0/4 --out runs/qwen          # one of four machines
    toolmaze report runs/hf runs/qwen --out runs/report
    toolmaze report runs/base runs/tuned --compare --out runs/base-vs-tuned
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from toolmaze_gym.cli.common import UsageError, label_name, output_dir

# flag → option name, per kind of agent (None: the flag does not apply)
_FLAG_OPTIONS = {
    "model": {"hf": "model", "openai": "model"},
    "base_url": {"openai": "base_url"},
    "api_key_env": {"openai": "api_key_env"},
    "temperature": {"hf": "temperature", "openai": "temperature"},
    "top_p": {"hf": "top_p", "openai": "top_p"},
    "max_tokens": {"hf": "max_new_tokens", "openai": "max_tokens"},
    "max_completion_tokens": {"openai": "max_completion_tokens"},
    "extra_body": {"openai": "extra_body"},
    "concurrency": {"openai": "concurrency"},
    "timeout": {"openai": "timeout"},
    "compact_tools": {"hf": "compact_tools", "openai": "compact_tools"},
    "brief_tools": {"hf": "brief_tools", "openai": "brief_tools"},
    "device": {"hf": "device"},
    "strict_calls": {"hf": "strict_calls"},
    "seed": {"hf": "seed", "openai": "seed", "random": "seed"},
}


def _option_value(text: str) -> Any:
    try:
        return json.loads(text)
    except ValueError:
        return text


def agent_options(ns: argparse.Namespace) -> dict[str, Any]:
    """The policy options the flags give, with a clear error for a flag that does not
    apply to the chosen agent. A flag not given is None (or False for a switch); a
    given 0 is an option like any other (``--temperature 0`` is greedy, ``--seed 0``
    a seed), so the test is identity, never truthiness or ``==`` (``0 == False``)."""
    kind = ns.agent if ns.agent in ("hf", "openai", "random") else "scripted"
    opts: dict[str, Any] = {}
    for flag, names in _FLAG_OPTIONS.items():
        value = getattr(ns, flag)
        if value is None or value is False:
            continue
        if kind not in names:
            raise UsageError(f"--{flag.replace('_', '-')} does not apply to the "
                             f"{ns.agent} agent")
        if flag == "base_url":  # one endpoint stays a URL; several are a list
            value = value[0] if len(value) == 1 else value
        opts[names[kind]] = extra_body(value) if flag == "extra_body" else value
    for item in ns.option:
        name, sep, value = item.partition("=")
        if not sep or not name:
            raise UsageError(f"bad --option {item!r}: use KEY=VALUE (VALUE as JSON or text)")
        opts[name] = _option_value(value)
    return opts


def extra_body(text: str) -> dict[str, Any]:
    """``--extra-body``'s JSON object, or one line saying why it is not one (a typo
    must not reach the endpoint as a string, or be dropped without a word)."""
    try:
        value = json.loads(text)
    except ValueError as exc:
        raise UsageError(f"--extra-body is not JSON ({exc}); give a JSON object, e.g. "
                         """'{"reasoning_effort": "low"}'""") from None
    if not isinstance(value, dict):
        raise UsageError(f"--extra-body must be a JSON object, not {type(value).__name__} "
                         """(e.g. '{"reasoning_effort": "low"}')""")
    return value


def _split(values: list[str] | None) -> list[str]:
    return [v.strip() for item in values or [] for v in item.split(",") if v.strip()]


def cmd_eval(ns: argparse.Namespace) -> int:
    from toolmaze_gym.faults import MODE_NAMES
    from toolmaze_gym.runner import (
        EXIT_ENDPOINT,
        EndpointStop,
        RunConfig,
        RunError,
        Selection,
        parse_shard,
        run,
    )
    from toolmaze_gym.tasks.model import LEVELS
    from toolmaze_gym.tasks.suite import SUITE_NAME

    opts = agent_options(ns)
    if ns.agent == "hf":
        from toolmaze_gym.agents.threads import configure_cpu_threads

        configure_cpu_threads()  # before anything imports torch
    label = ns.agent if ns.label is None else label_name(ns.label)
    out = Path(ns.out or f"runs/{label}")
    check_run_files(out)
    try:
        if ns.tasks is not None and ns.suite is not None:
            raise RunError("--tasks replaces --suite: give one task source")
        sel = Selection(suite=ns.suite or SUITE_NAME, tasks=ns.tasks,
                        levels=_split(ns.level) or list(LEVELS),
                        modes=_split(ns.mode) or list(MODE_NAMES), task_ids=_split(ns.task_id),
                        limit=ns.limit, sample_seed=ns.sample_seed,
                        prompts=_split(ns.prompt) or ["standard"], repeats=ns.repeats)
        batch = ns.batch
        if batch is None and ns.agent == "openai":  # concurrency is per endpoint
            batch = opts.get("concurrency", 8) * len(ns.base_url or [None])
        cfg = RunConfig(agent=ns.agent, agent_options=opts, label=label, selection=sel,
                        max_steps=ns.max_steps, loop_guard=ns.loop_guard, batch=batch,
                        shard=parse_shard(ns.shard), share_turns=not ns.no_share_turns)
        if batch is not None and batch < 1:
            raise RunError("--batch must be at least 1")
        with naming_the_run(out):
            summary = run(cfg, out, resume=ns.resume, progress=not ns.quiet)
    except EndpointStop as exc:  # endpoint trouble: no model score, its own exit code
        print(f"toolmaze eval: error: {_secretless(str(exc), ns)}", file=sys.stderr)
        return EXIT_ENDPOINT
    except RunError as exc:
        raise UsageError(_secretless(str(exc), ns)) from None
    print(summary_text(summary), file=sys.stderr)
    for warning in summary.warnings:
        print(f"warning: {warning}", file=sys.stderr)
    if not ns.no_report:
        with naming_the_run(out):
            _report([str(out)], out / "report", ns.quiet)
    return 0


def _secretless(text: str, ns: argparse.Namespace) -> str:
    """``text`` without the configured key, the environment's secrets or a key the
    endpoint's URL carries in its path (as the run's records are written)."""
    from toolmaze_gym.redact import Redactor, named_secrets
    from toolmaze_gym.runner import endpoint_urls

    try:
        body = json.loads(getattr(ns, "extra_body", None) or "null")
    except ValueError:
        body = None
    return Redactor.from_environment([ns.api_key_env or ""],
                                     urls=endpoint_urls(getattr(ns, "base_url", None)),
                                     values=named_secrets(body))(text)


def check_run_files(out: Path) -> None:
    """Refuse, before any episode runs, a run folder whose files cannot be written:
    a run.json, task or records path that is a folder (or a device) would otherwise be
    found only at the end, after the whole run, with its records or run.json unwritten."""
    from toolmaze_gym.runner import RECORDS_GLOB, RUN_FILE, TASKS_FILE

    output_dir(str(out))
    if not out.is_dir():
        return
    for path in [out / RUN_FILE, out / TASKS_FILE, *sorted(out.glob(RECORDS_GLOB))]:
        if path.exists() and not path.is_file():
            raise UsageError(f"{path} is not a regular file; the run cannot write it")
    if (out / "report").exists() and not (out / "report").is_dir():
        raise UsageError(f"{out / 'report'} is not a directory; the report cannot go there")


@contextmanager
def naming_the_run(out: Path) -> Iterator[None]:
    """An OS error that names no file (a full disk fails a write, not an open) gets the
    run folder as its file, so the one error line says where; exit status 1."""
    try:
        yield
    except OSError as exc:
        if exc.filename is not None or not exc.strerror:
            raise
        raise OSError(exc.errno, exc.strerror, str(out)) from None


def summary_text(summary) -> str:
    """What a run did, for the terminal: the session's work, and the TSR of every
    episode recorded (a resumed run's earlier sessions included)."""
    tsr = f"TSR {100 * summary.recorded_tsr:.1f}%"
    if summary.episodes == 0 and summary.skipped:
        return (f"nothing left to run: {summary.skipped} episodes already recorded; {tsr}"
                f"\nrecords: {summary.records_path}")
    if summary.skipped:
        tsr += f" over the {summary.recorded} episodes recorded"
    return (f"{summary.episodes} episodes run ({summary.skipped} already done) in "
            f"{summary.wall_s:.1f} s; {tsr}; "
            f"{summary.prompt_tokens} prompt + {summary.completion_tokens} completion tokens; "
            f"{100 * summary.outside_share:.1f}% of wall time outside the model"
            + (f"; cut: {summary.cuts}" if summary.cuts else "")
            + f"\nrecords: {summary.records_path}")


def _report(sources: list[str], out: Path, quiet: bool, resamples: int = 1000, seed: int = 0,
            max_pages: int | None = None, plots: bool = True, viewer: bool = True,
            allow_mixed: bool = False) -> None:
    from toolmaze_gym.report import build_report
    from toolmaze_gym.runner import RunError

    try:
        rep = build_report(sources, out, resamples=resamples, seed=seed, plots=plots,
                           viewer=viewer, max_pages=max_pages, allow_mixed=allow_mixed)
    except RunError as exc:
        raise UsageError(str(exc)) from None
    if not quiet:
        print(rep.markdown.read_text(encoding="utf-8").split("\n## ", 2)[1].join(["## ", ""]))
    if rep.regrade.disagreed:
        print(f"warning: {rep.regrade.said()}; the report uses the grades the trajectories "
              "give", file=sys.stderr)
    if rep.regrade.unreplayable:
        print(f"warning: {rep.regrade.replay_said()}", file=sys.stderr)
    if rep.mixed:
        print(f"warning: mixed runs (--allow-mixed): {'; '.join(rep.mixed)}", file=sys.stderr)
    print(f"report: {rep.markdown}" + (f"\nviewer: {rep.viewer}" if rep.viewer else ""),
          file=sys.stderr)


def _compare(ns: argparse.Namespace) -> int:
    """``report A B --compare``: both runs' report and the comparison page in --out."""
    from toolmaze_gym.report.compare import FILES, build_comparison
    from toolmaze_gym.runner import RunError

    if len(ns.runs) != 2:
        raise UsageError(f"--compare takes exactly two runs, A and B (got {len(ns.runs)})")
    if ns.out is None:
        raise UsageError("pass --out DIR for the comparison of two runs")
    if ns.max_pages is not None:
        raise UsageError("--max-pages does not apply to --compare (every compared episode "
                         "gets its viewer page, so that every link resolves)")
    out = output_dir(ns.out)
    for run_path in ns.runs:
        if not Path(run_path).exists():
            raise UsageError(f"no such run directory or records file: {run_path}")
    try:
        cmp, _ = build_comparison(ns.runs[0], ns.runs[1], out, ns.resamples, ns.seed,
                                  not ns.no_plots, not ns.no_viewer)
    except RunError as exc:
        raise UsageError(str(exc)) from None
    for note in cmp.notes:
        print(f"note: {note}", file=sys.stderr)
    c = cmp.counts()
    if not ns.quiet:
        tsr = cmp.delta["per_mode"]
        print(" · ".join(f"ΔTSR {'NP' if m == 'P0' else m} "
                         f"{100 * v['TSR']:+.1f}" for m, v in tsr.items()
                         if v["TSR"] is not None))
    print(f"{len(cmp.shared)} paired episodes, {len(cmp.differences)} differ "
          f"({c['A passes, B fails']} A passes/B fails, {c['A fails, B passes']} A fails/B "
          f"passes, {c['other']} other)\ncomparison: {out / FILES['html']}", file=sys.stderr)
    return 0


def cmd_report(ns: argparse.Namespace) -> int:
    if ns.resamples < 0:
        raise UsageError("--resamples must be 0 (no CIs) or more")
    if ns.max_pages is not None and ns.max_pages < 0:
        raise UsageError("--max-pages must be 0 or more")
    if ns.compare:
        return _compare(ns)
    if ns.out is None and len(ns.runs) > 1:
        raise UsageError("pass --out DIR for a report over several runs")
    first = Path(ns.runs[0])
    if not first.exists():
        raise UsageError(f"no such run directory or records file: {first}")
    default = first / "report" if first.is_dir() else first.with_name(f"{first.stem}-report")
    out = Path(ns.out) if ns.out else default
    _report(ns.runs, out, ns.quiet, ns.resamples, ns.seed, ns.max_pages, not ns.no_plots,
            not ns.no_viewer, ns.allow_mixed)
    return 0


EVAL_EPILOG = """\
exit status: 0 the run is done; 1 a file could not be written or read (a full disk, no
permission; the error line names the path): every record written is kept, --resume
plays the rest; 2 bad input, or the run directory is taken (another configuration,
records without --resume, a live run writing it); 3 the endpoint failed (a rejected key,
a dead server): nothing was booked for it, --resume plays the rest; 130 interrupted.
Records and run.json never hold a key: secrets are redacted wherever they appear."""

REPORT_EPILOG = """\
exit status: 0 the report is written; 1 a file could not be written or read (the error
line names the path); 2 bad input: a record that cannot be read, or runs that cannot share
one report (they differ in suite, tool documentation, calling convention, grading version
or coverage: the line names the difference; --allow-mixed reports them anyway)."""

# What each agent is, for ``--agent``'s help.
AGENT_HELP = {
    "oracle": "scripted, follows the task's plan and also knows the fault profile "
              "(the upper bound)",
    "naive": "scripted plan follower that never retries and trusts all data",
    "retry": "scripted plan follower that retries explicit errors 3 times, then an "
             "alternative tool",
    "validator": "like retry, and also checks each response against the tool's documented "
                 "invariants",
    "random": "calls shown tools with arguments sampled from their types (seeded by --seed)",
    "hf": "a local transformers model (default: the embedded SmolLM2-135M-Instruct)",
    "openai": "any OpenAI-compatible chat-completions endpoint (--base-url)",
}


def add_commands(sub) -> None:
    from toolmaze_gym.agents.policy import POLICY_NAMES
    from toolmaze_gym.faults import MODE_NAMES
    from toolmaze_gym.tasks.suite import SUITE_NAME, shipped_suites

    p = sub.add_parser("eval", help="run an agent over the suite (resumable, shardable) and "
                       "write records and a report", epilog=EVAL_EPILOG)
    p.add_argument("--agent", required=True, choices=POLICY_NAMES, metavar="AGENT",
                   help="the agent to evaluate (required): " + "; ".join(
                       f"{name}: {AGENT_HELP.get(name, 'a policy')}" for name in POLICY_NAMES))
    p.add_argument("--out", help="run directory (default runs/LABEL)")
    p.add_argument("--label", help="the agent's name in records and reports (default: --agent)")
    p.add_argument("--suite", help=f"shipped task suite to run ({', '.join(shipped_suites())}; "
                   f"default: {SUITE_NAME})")
    p.add_argument("--tasks", metavar="FILE", help="run these tasks instead of a shipped suite: "
                   "a JSONL task file (e.g. from `toolmaze generate --split dev`) or a suite "
                   "directory (`toolmaze build-suite --out`); the selection flags apply alike "
                   "(default: none, the shipped suite)")
    p.add_argument("--level", action="append", help="C1..C4 (repeat or comma list; default all)")
    p.add_argument("--mode", action="append",
                   help=f"NP/P0..P4 (repeat or comma list; default all: {','.join(MODE_NAMES)})")
    p.add_argument("--task-id", action="append",
                   help="only these tasks (repeat or comma list; default every task)")
    p.add_argument("--limit", type=int, help="tasks per (C, P) cell, sampled with --sample-seed "
                   "(default: every task)")
    p.add_argument("--sample-seed", type=int, default=0,
                   help="seed of the --limit sample (the same tasks in every mode)")
    p.add_argument("--prompt", action="append",
                   help="standard and/or failure_aware (failure-aware applies to P1-P4; "
                   "NP always runs with the standard prompt; default standard)")
    p.add_argument("--repeats", type=int, default=1,
                   help="runs per episode (pass^k); a sampling agent's seed for each run "
                   "includes the repeat index, so repeats differ and a rerun reproduces them")
    p.add_argument("--shard", default="0/1", help="i/n: run the i-th of n disjoint shards")
    p.add_argument("--resume", action="store_true", help="continue a run; skip finished episodes")
    p.add_argument("--batch", type=int, help="episodes in flight (default: the agent's choice)")
    p.add_argument("--max-steps", type=int, default=25,
                   help="agent actions per episode before it is cut off (truncated)")
    p.add_argument("--loop-guard", type=int, default=8,
                   help="cut an episode going round in a loop: when its last N actions, "
                   "with the responses they got, repeat one cycle of at most N/2 actions "
                   "(A,A,A... or A,B,A,B... or A,B,C,A,B,C...; 0: off)")
    p.add_argument("--no-share-turns", action="store_true",
                   help="ask a greedy model again for a conversation it has already answered "
                   "(by default the reply is reused: every mode shares the opening turns)")
    g = p.add_argument_group("agent options")
    g.add_argument("--model", help="hf: local checkpoint dir (default: the embedded "
                   "SmolLM2-135M-Instruct); openai: model name (default: the endpoint's only "
                   "model)")
    g.add_argument("--base-url", action="append",
                   help="openai: endpoint, e.g. http://host:8000/v1; repeat it for several "
                   "endpoints serving one model (one vLLM per machine): each task's episodes "
                   "go to one of them, and a resume or shard may use other endpoints "
                   "(default: $OPENAI_BASE_URL, else https://api.openai.com/v1)")
    g.add_argument("--api-key-env", help="openai: environment variable holding the key "
                   "(default: OPENAI_API_KEY)")
    g.add_argument("--temperature", type=float,
                   help="hf, openai: sampling temperature, 0 = greedy (default: hf 0, openai 1)")
    g.add_argument("--top-p", type=float,
                   help="hf, openai: nucleus sampling mass (default: not restricted; openai: "
                   "not sent, the endpoint's default)")
    g.add_argument("--max-tokens", type=int,
                   help="hf, openai: new tokens per turn (default: hf 256, openai 1024)")
    g.add_argument("--max-completion-tokens", type=int,
                   help="openai: new tokens per turn sent as max_completion_tokens, the field "
                   "reasoning models take (o-series and GPT-5 get it by default instead of "
                   "max_tokens; give one of the two; run.json says which was sent)")
    g.add_argument("--extra-body", metavar="JSON",
                   help="openai: a JSON object merged into every request, for provider and "
                   "server options, e.g. '{\"reasoning_effort\": \"low\"}' or vLLM's "
                   "'{\"top_k\": 20}' (recorded in run.json, secrets redacted; it may not "
                   "set what ToolMaze sends itself; default: none)")
    g.add_argument("--concurrency", type=int,
                   help="openai: requests in flight per endpoint (default: 8)")
    g.add_argument("--timeout", type=float, help="openai: seconds per request (default: 120)")
    g.add_argument("--compact-tools", action="store_true",
                   help="hf, openai: document the tools as compact text in the system prompt "
                   "instead of JSON schemas (openai: no `tools` field is sent; the model "
                   "calls tools in <tool_call> text)")
    g.add_argument("--brief-tools", action="store_true",
                   help="hf, openai: like --compact-tools, with each tool's response named "
                   "field by field without the fields' glosses (arguments, bounds and "
                   "relations stay; what each value is and its range go, which are "
                   "witnesses of silent faults): about a third fewer first-turn tokens")
    g.add_argument("--strict-calls", action="store_true",
                   help="hf: constrain every reply to one call of a shown tool with "
                   "arguments valid for its schema (or finish/abort), by grammar-constrained "
                   "decoding (xgrammar); the report names the row '<label> (strict)'")
    g.add_argument("--device", help="hf: cpu, cuda, cuda:1, ... (default: cuda when torch sees "
                   "a GPU, else cpu)")
    g.add_argument("--seed", type=int, help="hf, openai, random: sampling seed, combined with "
                   "each episode's key (default: 0; openai: none, the endpoint's own "
                   "randomness)")
    g.add_argument("--option", action="append", default=[], metavar="KEY=VALUE",
                   help="any other policy option (VALUE parsed as JSON when it is JSON; "
                   "default: none)")
    p.add_argument("--no-report", action="store_true", help="skip the report at the end")
    p.add_argument("--quiet", action="store_true", help="no progress bar or table")
    p.set_defaults(func=cmd_eval)

    p = sub.add_parser("report", help="tables (results.md/csv), figures and the trajectory "
                       "viewer for one or more run directories", epilog=REPORT_EPILOG)
    p.add_argument("runs", nargs="+", help="run directories (or JSONL record files)")
    p.add_argument("--out", help="output directory (default RUN/report for one run)")
    p.add_argument("--resamples", type=int, default=1000, help="bootstrap resamples (0: no CIs)")
    p.add_argument("--seed", type=int, default=0, help="bootstrap seed")
    p.add_argument("--max-pages", type=int,
                   help="viewer pages at most (default: one for every episode; the index "
                        "lists every trajectory either way)")
    p.add_argument("--no-plots", action="store_true",
                   help="skip the figures (PNG plots); tables and viewer only")
    p.add_argument("--no-viewer", action="store_true",
                   help="skip the static HTML trajectory viewer")
    p.add_argument("--compare", action="store_true",
                   help="RUNS are A and B: list the episodes whose grades differ (links to "
                   "both trajectories) and B − A of each metric with a paired bootstrap "
                   "interval, in OUT/compare.html, .md and .csv, beside the report of both")
    p.add_argument("--allow-mixed", action="store_true",
                   help="report runs together that differ in suite, tool documentation, "
                   "calling convention, grading version or coverage (episodes run); "
                   "without it they are refused with one line naming the difference (exit "
                   "2), with it the report says what differs")
    p.add_argument("--quiet", action="store_true", help="do not print the main table")
    p.set_defaults(func=cmd_report)
