"""A currency the request gives an account ("my CHF account ACC-…") is that account's.

toolmaze-v6's c3-0059 said "resend it from my CHF account ACC-34840116" while the
account held USD: a careful agent that read the account and converted to its real
currency failed on the request's false premise. A phrasing that puts a currency
param before the word "account" states the account's currency, so that param must be
read off the account (``from = "<bank account param>"``, ``tasks.derived``) or be
pinned to it by a premise (``"$currency == balance.currency"``); a free draw makes
the statement false in most tasks.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from toolmaze_gym.tasks.scenarios import Scenario

_STATED = re.compile(r"\{([a-z][a-z0-9_]*)\}[- ]accounts?\b", re.IGNORECASE)


def stated_currencies(sc: Scenario) -> dict[str, set[int]]:
    """Currency params a phrasing names an account by -> the phrasings that do."""
    params = sc.param_by_name
    out: dict[str, set[int]] = {}
    for k, phrasing in enumerate(sc.phrasings):
        for name in _STATED.findall(phrasing):
            p = params.get(name)
            if p is not None and p.type == "currency_code":
                out.setdefault(name, set()).add(k)
    return out


def _pinned(sc: Scenario, name: str) -> bool:
    """Whether the param is read off a bank account or equated to a drawn currency."""
    source = sc.param_by_name.get(sc.param_by_name[name].derived_from)
    if source is not None and source.type == "bank_account_id":
        return True
    for pr in sc.premises:
        sides = {(o.kind, o.ref) for o in pr.operands}
        if pr.op == "==" and ("param", name) in sides and any(
                kind == "field" and ref.endswith("currency") for kind, ref in sides):
            return True
    return False


def account_currency_problems(sc: Scenario) -> list[str]:
    """Each phrasing that states an account's currency the draw does not make true."""
    where = f"{sc.file}: {sc.id}"
    return [f"{where}.phrasings[{k}]: calls the account a {{{name}}} account, but "
            f"{{{name}}} is drawn freely: read it off the account (from = \"<account "
            f"param>\") or pin it by a premise (\"${name} == <step>.currency\")"
            for name, ks in sorted(stated_currencies(sc).items()) if not _pinned(sc, name)
            for k in sorted(ks)]
