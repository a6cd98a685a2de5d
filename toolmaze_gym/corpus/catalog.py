"""The corpus: every tool spec and alternative group, loaded from package data."""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import replace
from functools import cache, cached_property
from importlib import resources

from toolmaze_gym.corpus.spec import (
    CATEGORIES,
    DOMAINS,
    GROUP_KINDS,
    AltGroup,
    ToolSpec,
    group_from_dict,
    tool_from_dict,
)
from toolmaze_gym.world.edition import field_shown, has


class Corpus:
    def __init__(self, tools: list[ToolSpec], groups: list[AltGroup]) -> None:
        self.tools: dict[str, ToolSpec] = {}
        for t in tools:
            if t.name in self.tools:
                raise ValueError(f"tool {t.name!r} defined twice")
            self.tools[t.name] = t
        self.groups = groups
        self.group_by_id = {g.id: g for g in groups}

    def __len__(self) -> int:
        return len(self.tools)

    def __contains__(self, name: object) -> bool:
        return name in self.tools

    def __getitem__(self, name: str) -> ToolSpec:
        return self.tools[name]

    def by_domain(self, domain: str) -> list[ToolSpec]:
        return [t for t in self.tools.values() if t.domain == domain]

    @cached_property
    def groups_of(self) -> dict[str, list[AltGroup]]:
        out: dict[str, list[AltGroup]] = {name: [] for name in self.tools}
        for g in self.groups:
            for t in g.tools:
                out[t].append(g)
        return out

    def stats(self) -> dict[str, dict[str, int]]:
        """Table 4 of the paper, computed from the data."""
        cat = Counter(t.category for t in self.tools.values())
        dom = Counter(t.domain for t in self.tools.values())
        grp = Counter(g.kind for g in self.groups)
        return {
            "category": {c: cat[c] for c in CATEGORIES},
            "domain": {d: dom[d] for d in DOMAINS},
            "groups": {k: grp[k] for k in GROUP_KINDS},
            "total": {"tools": len(self.tools), "groups": len(self.groups)},
        }


def _data_files() -> list[str]:
    root = resources.files("toolmaze_gym") / "data" / "tools"
    return sorted(p.name for p in root.iterdir() if p.name.endswith(".json"))


def _read(name: str) -> dict:
    path = resources.files("toolmaze_gym") / "data" / "tools" / name
    return json.loads(path.read_text(encoding="utf-8"))


@cache
def load_corpus() -> Corpus:
    """The shipped corpus (one JSON file per domain), parsed once per process."""
    tools: list[ToolSpec] = []
    groups: list[AltGroup] = []
    for name in _data_files():
        data = _read(name)
        tools += [tool_from_dict(t) for t in data.get("tools", ())]
        groups += [group_from_dict(g) for g in data.get("groups", ())]
    return Corpus(tools, groups)


_EDITION_CORPORA: dict[tuple[int, int], tuple[Corpus, Corpus]] = {}


def edition_corpus(corpus: Corpus, edition: int) -> Corpus:
    """``corpus`` as world ``edition`` documents it: without the parameters and
    response fields that arrived in a later edition (``world.edition.FIELDS``: an
    edition-1 order tool has no ``ship_to_city`` to send nor ``ship_to`` to read), so
    the tools an old suite's task offers, and what they accept and answer, are as
    they were when it was played. The same corpus when nothing is left out; built
    once per (corpus, edition)."""
    hit = _EDITION_CORPORA.get((id(corpus), edition))
    if hit is not None and hit[0] is corpus:
        return hit[1]
    tools = [_edition_spec(t, edition) for t in corpus.tools.values()]
    same = all(a is b for a, b in zip(tools, corpus.tools.values(), strict=True))
    out = corpus if same else Corpus(tools, corpus.groups)
    _EDITION_CORPORA[(id(corpus), edition)] = (corpus, out)  # holds the corpus: id stays
    return out


def _edition_spec(spec: ToolSpec, edition: int) -> ToolSpec:
    """``spec`` as ``edition`` documents it: its fields of that edition, and its
    description before each change the edition lacks (``description_before``: the
    loan tools said "rounded up" until edition 6 rounded half-up)."""
    params = tuple(p for p in spec.params if field_shown(edition, p.canonical))
    returns = tuple(f for f in spec.returns if field_shown(edition, f.canonical))
    description = next((text for change, text in spec.earlier_descriptions
                        if not has(edition, change)), spec.description)
    if len(params) == len(spec.params) and len(returns) == len(spec.returns) \
            and description == spec.description:
        return spec
    return replace(spec, params=params, returns=returns, description=description)

