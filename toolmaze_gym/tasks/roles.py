"""People in their roles: colleagues share the user's company, the user's own accounts
carry the user's name.

The draft v4 review (issue 28, round 3) found a new hire at contoso.com welcomed by a
manager at fabrikam.eu (c4-0072), and "Priya Dubois's beach holiday" with sunglasses
ordered on priya.varga@fabrikam.eu "before I go" (c4-0023): drawn independently, two
e-mail addresses of one company, or the user's name and the user's account, disagree
in almost every task. So a scenario draws one of them and derives the other
(``from = "..."``, ``derived.py``): a colleague at the same domain, the name of the
account's owner. Which params are colleagues and which name the user are data
(``data/world/coherence.json``, ``people_roles``); this library check reads them.

And a person a request names and writes to is one person: "Nora Costa and I are going
... send aisha.varga@acme-corp.com a payment request for their share" (the draft v4
review's c4-0028) drew the friend's name and the friend's address apart. A name param
``<x>_name`` beside that person's address ``<x>`` is derived from the address.
"""

from __future__ import annotations

from functools import cache
from typing import Any

from toolmaze_gym.world.base import load_data


@cache
def _roles() -> dict[str, Any]:
    return load_data("coherence.json")["people_roles"]


def colleague_problems(sc: Any) -> list[str]:
    """Colleague e-mail params (the user's own, a manager, a team, a new hire) are one
    drawn address and others derived from it: at most one of them is drawn."""
    group = {p.name for p in sc.params if p.type == "email"
             and p.name in set(_roles()["colleagues"]) | set(_roles()["own_accounts"])}
    drawn = sorted(n for n in group if not sc.param_by_name[n].derived_from)
    if len(group) < 2 or len(drawn) < 2:
        return []
    return [f"{sc.file}: {sc.id}.params: colleagues {', '.join(drawn)} are drawn apart, so "
            f"their domains differ; derive all but one (from = \"{drawn[0]}\")"]


def own_name_problems(sc: Any) -> list[str]:
    """A name the request gives the user (the traveller beside the user's own account)
    is the account owner's: derived from that account."""
    accounts = [p.name for p in sc.params if p.type == "email"
                and p.name in _roles()["own_accounts"]]
    if not accounts:
        return []
    return [f"{sc.file}: {sc.id}.params.{p.name}: the user's name beside the user's own "
            f"account {accounts[0]!r}; derive it (from = \"{accounts[0]}\")"
            for p in sc.params if p.type == "person_name" and p.name in _roles()["own_names"]
            and p.derived_from not in accounts]


def same_person_problems(sc: Any) -> list[str]:
    """A person's name param (``friend_name``) beside that person's address param
    (``friend``, an e-mail or a phone) is derived from it, so both are one person."""
    by_name = {p.name: p for p in sc.params}
    out = []
    for p in sc.params:
        base = next((p.name[:-len(s)] for s in _roles()["name_suffixes"]
                     if p.type == "person_name" and p.name.endswith(s)), None)
        addr = by_name.get(base) if base else None
        if addr is None or addr.type not in ("email", "phone"):
            continue
        if p.derived_from != addr.name and addr.derived_from != p.name:
            out.append(f"{sc.file}: {sc.id}.params.{p.name}: the name of the person at "
                       f"{addr.name!r} is drawn apart from that address, so they are two "
                       f"people; derive it (from = \"{addr.name}\")")
    return out


def role_problems(sc: Any) -> list[str]:
    """The role checks, for ``scenarios.check_scenario``."""
    return colleague_problems(sc) + own_name_problems(sc) + same_person_problems(sc)
