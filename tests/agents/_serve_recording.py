"""``transformers serve`` on 127.0.0.1, recording the token ids of every prompt it builds.

    python tests/agents/_serve_recording.py MODEL_DIR PORT RECORD_FILE

The server is the real one (``transformers.cli.serve.Serve``, what ``transformers
serve`` runs); the only addition is a wrapper around the tokenizer's
``apply_chat_template`` that appends each tokenised prompt to RECORD_FILE (one JSON
list of ids per line), so a test can compare the exact tokens the server's model
was given with the tokens the ``hf`` policy gives its own model.
"""

from __future__ import annotations

import json
import sys

from transformers.tokenization_utils_base import PreTrainedTokenizerBase


def _recording(record: str):
    original = PreTrainedTokenizerBase.apply_chat_template

    def apply_chat_template(self, *args, **kwargs):
        out = original(self, *args, **kwargs)
        if kwargs.get("tokenize") and kwargs.get("return_dict"):
            ids = out["input_ids"]
            ids = ids.tolist() if hasattr(ids, "tolist") else list(ids)
            if ids and isinstance(ids[0], list):
                ids = ids[0]
            with open(record, "a", encoding="utf-8") as fh:
                fh.write(json.dumps(ids) + "\n")
        return out

    return apply_chat_template


def main() -> None:
    model_dir, port, record = sys.argv[1], int(sys.argv[2]), sys.argv[3]
    PreTrainedTokenizerBase.apply_chat_template = _recording(record)
    from transformers.cli.serve import Serve

    Serve(force_model=model_dir, host="127.0.0.1", port=port, device="cpu", dtype="float32",
          log_level="error")


if __name__ == "__main__":
    main()
