"""Helpers shared by the General and IoT behaviour modules."""

from __future__ import annotations

from toolmaze_gym.corpus.behaviours import CallContext


def field_name(ctx: CallContext, canonical: str) -> str:
    """The tool's own name for a canonical argument, so errors name what the caller sent.

    Providers call the same argument ``city``, ``q`` or ``location``; an error body
    must name the parameter of the tool that was called.
    """
    from toolmaze_gym.corpus.catalog import load_corpus

    spec = load_corpus().tools.get(ctx.tool)
    if spec is None:
        return canonical
    return next((p.name for p in spec.params if p.canonical == canonical), canonical)
