"""How uvicorn hosts both servers (``toolmaze serve``, the OpenEnv app's ``main``).

The settings are chosen for a trainer on the same machine sending hundreds of small
messages a second (issue 32):

* uvloop and httptools when installed (the ``serve`` extra installs them): the event
  loop and the HTTP parser in C instead of Python's own; without them uvicorn's
  pure-Python ones serve the same bytes, slower.
* No per-message deflate on WebSockets: an observation is a few kilobytes sent over
  loopback, and compressing every one (and inflating every action) cost the server
  more CPU than the step itself in the profile, for bandwidth nobody lacks.
* Frames bounded at ``MAX_BODY_BYTES`` like every other body (:mod:`.limits`).
"""

from __future__ import annotations

import contextlib
import importlib.util
import signal
from collections.abc import Callable, Iterator
from typing import Any

from toolmaze_gym.serving.limits import MAX_BODY_BYTES


def uvicorn_options() -> dict[str, Any]:
    """Keyword arguments for ``uvicorn.Config`` / ``uvicorn.run``."""
    fast = importlib.util.find_spec
    return {"loop": "uvloop" if fast("uvloop") else "asyncio",
            "http": "httptools" if fast("httptools") else "h11",
            "ws_per_message_deflate": False, "ws_max_size": MAX_BODY_BYTES}


@contextlib.contextmanager
def on_stop_signals(stop: Callable[[], None]) -> Iterator[None]:
    """Ctrl-C and SIGTERM call ``stop`` while the block runs (it sets a flag the server
    reads between messages: an exception raised into the middle of storing a record
    could lose it); the previous handlers come back after it."""
    def handler(_signum: int, _frame: Any) -> None:
        stop()

    previous = {sig: signal.signal(sig, handler) for sig in (signal.SIGINT, signal.SIGTERM)}
    try:
        yield
    finally:
        for sig, old in previous.items():
            signal.signal(sig, old)
