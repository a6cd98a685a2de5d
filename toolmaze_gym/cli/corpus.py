"""``toolmaze corpus``: the corpus statistics (the paper's Table 4), tool lists, schemas."""

from __future__ import annotations

import argparse
import json

from toolmaze_gym.cli.common import UsageError, exit_statuses


def table4(stats: dict) -> str:
    """Table 4's three columns (categories, domains, alternative groups) as text."""
    cats, doms, grps = (list(stats[k].items()) for k in ("category", "domain", "groups"))
    rows = ["Functional categories | Domain breakdown   | Alternative groups",
            "----------------------+--------------------+-------------------"]
    for i in range(max(len(cats), len(doms), len(grps))):
        c = f"{cats[i][0]:<12}{cats[i][1]:>9}" if i < len(cats) else " " * 21
        d = f"{doms[i][0]:<10}{doms[i][1]:>8}" if i < len(doms) else " " * 18
        g = f"{grps[i][0]:<12}{grps[i][1]:>6}" if i < len(grps) else ""
        rows.append(f"{c} | {d} | {g}")
    rows.append(f"{'Total tools':<12}{stats['total']['tools']:>9} | {'':18} | "
                f"{'Total groups':<12}{stats['total']['groups']:>6}")
    return "\n".join(rows)


def cmd_corpus(ns: argparse.Namespace) -> int:
    from toolmaze_gym.corpus import load_corpus
    from toolmaze_gym.corpus.spec import DOMAINS

    corpus = load_corpus()
    if ns.show is not None:  # `--show ""` names no tool: an error, not the table
        if ns.show not in corpus:
            raise UsageError(f"no tool named {ns.show!r} (try `toolmaze corpus --list`)")
        spec = corpus[ns.show]
        groups = [g.id for g in corpus.groups_of[spec.name]]
        print(json.dumps({"name": spec.name, "domain": spec.domain, "category": spec.category,
                          "stateful": spec.stateful, "groups": groups,
                          "schema": spec.openai_schema()}, indent=2, ensure_ascii=False))
        return 0
    if ns.domain and ns.domain not in DOMAINS:
        raise UsageError(f"unknown domain {ns.domain!r}; choose from {', '.join(DOMAINS)}")
    if ns.list or ns.domain:
        for spec in sorted(corpus.tools.values(), key=lambda t: (t.domain, t.category, t.name)):
            if ns.domain in (None, spec.domain):
                print(f"{spec.domain:<10} {spec.category:<10} {spec.name}")
        return 0
    stats = corpus.stats()
    print(json.dumps(stats, indent=2) if ns.json else table4(stats))
    return 0


def add_commands(sub) -> None:
    from toolmaze_gym.corpus.spec import DOMAINS

    p = sub.add_parser("corpus", help="corpus statistics (Table 4), list or show tools",
                       epilog=exit_statuses("the statistics, list or tool are printed"))
    p.add_argument("--domain", help=f"list the tools of one domain ({', '.join(DOMAINS)})")
    p.add_argument("--list", action="store_true", help="list every tool")
    p.add_argument("--show", metavar="NAME", help="print one tool's schema and groups")
    p.add_argument("--json", action="store_true", help="print the statistics as JSON")
    p.set_defaults(func=cmd_corpus)
