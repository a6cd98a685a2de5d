"""``toolmaze sft-data``: expert recovery trajectories as a Hugging Face dataset.

The careful expert (``toolmaze_gym.training.careful``) plays ``--n`` procedural
tasks of ``--split`` (disjoint from the reference suite) in every mode, with the
standard prompt and, under faults, the failure-aware one; the episodes worth
imitating are written as JSON lines to ``--out``/train.jsonl (one set of columns,
so ``datasets.load_dataset(DIR)`` opens it), with ``build.json`` (the command, counts
per cell, what was dropped and why) beside them; a progress bar on stderr counts the
tasks (``--quiet``: none). ``training_scripts/sft_recovery.py --data DIR`` trains on it.
"""

from __future__ import annotations

import argparse
import sys
import time

from toolmaze_gym.cli.common import UsageError, output_dir, positive


def _choices(value: str | None, allowed: tuple[str, ...], flag: str) -> list[str]:
    if not value:
        return list(allowed)
    picked = [v.strip().upper() for v in value.split(",") if v.strip()]
    bad = [v for v in picked if v not in allowed]
    if bad or not picked:
        raise UsageError(f"{flag} {value!r}: choose from {', '.join(allowed)} "
                         "(comma-separated)")
    return picked


def cmd_sft_data(ns: argparse.Namespace) -> int:
    from toolmaze_gym.faults import MODE_NAMES
    from toolmaze_gym.tasks.model import LEVELS
    from toolmaze_gym.tasks.suite import SuiteError

    positive(ns.n, "--n")
    out = output_dir(ns.out)
    if out.is_dir() and any(out.iterdir()) and not ns.force:
        raise UsageError(f"--out {ns.out} is not empty (pass --force to overwrite)")
    levels = _choices(ns.levels, LEVELS, "--levels")
    modes = _choices(ns.modes, MODE_NAMES, "--modes")
    try:
        import datasets  # noqa: F401
    except ImportError:
        raise UsageError("sft-data needs the `datasets` package: "
                         "pip install 'toolmaze-gym[llm]'") from None
    from tqdm import tqdm

    from toolmaze_gym.training import sft_data

    started = time.monotonic()
    stats = sft_data.BuildStats()
    tasks = tqdm(sft_data.split_tasks(ns.split, ns.n, ns.seed, levels), total=ns.n,
                 desc=f"sft-data {ns.split}", unit="task", disable=ns.quiet, file=sys.stderr)
    try:
        dataset = sft_data.build_dataset(modes=modes, stats=stats, tasks=tasks)
    except SuiteError as exc:
        raise UsageError(str(exc)) from None
    except ValueError as exc:
        raise UsageError(str(exc)) from None
    finally:
        tasks.close()
    meta = {"command": "toolmaze sft-data " + " ".join(sys.argv[2:]), "split": ns.split,
            "n": ns.n, "seed": ns.seed, "levels": levels, "modes": modes,
            "expert": "careful", **stats.to_dict()}
    sft_data.save(dataset, out, meta)
    print(f"kept {stats.kept} of {stats.played} expert episodes ({ns.n} {ns.split} tasks) "
          f"in {time.monotonic() - started:.0f} s; wrote {out}", file=sys.stderr)
    return 0


def add_commands(sub) -> None:
    from toolmaze_gym.tasks.suite import SPLITS

    p = sub.add_parser("sft-data", help="expert recovery trajectories as a Hugging Face "
                       "dataset (for SFT)")
    p.add_argument("--split", choices=SPLITS, default="train",
                   help="procedural split the tasks come from")
    p.add_argument("--n", type=int, default=200, help="number of tasks (levels round-robin)")
    p.add_argument("--seed", type=int, default=0, help="seed of the split's task stream")
    p.add_argument("--levels", help="comma-separated levels, e.g. C1,C2 (default: all)")
    p.add_argument("--modes", help="comma-separated modes, e.g. P0,P2 (default: all)")
    p.add_argument("--out", required=True, help="output directory: train.jsonl (opens with "
                   "datasets.load_dataset(DIR)) and build.json")
    p.add_argument("--force", action="store_true", help="overwrite a non-empty --out")
    p.add_argument("--quiet", action="store_true", help="no progress bar")
    p.set_defaults(func=cmd_sft_data)
