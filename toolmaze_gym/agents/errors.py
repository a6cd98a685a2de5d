"""The one error a model endpoint raises when it, not the model, is at fault.

A run that books endpoint trouble (a dead server, a rejected key, a server that keeps
answering 500, a reply that is not a chat completion, a server that drops the tools)
as the model's failed episodes reports a TSR that measures the server. So a policy
raises :class:`EndpointError`, the runner stops the run without writing a record for
the episodes concerned, and ``--resume`` plays them once the endpoint works.
"""

from __future__ import annotations


class EndpointError(RuntimeError):
    """The endpoint failed in a way retrying does not fix; ``keys`` are the episode
    keys whose turns got no usable reply. The message is one line."""

    def __init__(self, message: str, keys: list[str] | None = None) -> None:
        super().__init__(" ".join(str(message).split()))
        self.keys = list(keys or [])
