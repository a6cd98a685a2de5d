"""A request never ends a sentence on a name that may end in a period.

Listed companies are named like "Xanbriis Realty Corp." and the quote and earnings
tools look a company up by its exact name. toolmaze-v6's c1-0093 said "Our investor
club is looking at Xanbriis Realty Corp. Get the share price": the name's period
also ends the sentence, so a reader cannot tell "Corp" from "Corp." and the lookup
may miss. A phrasing puts no sentence stop right after a param whose drawn values may
end in a period (``DOTTED_TYPES``); a comma, a colon or more words keep the name whole.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from toolmaze_gym.tasks.scenarios import Scenario

DOTTED_TYPES = frozenset({"listed_company_name"})  # "… Corp.", "… Inc.", "… Co."
_STOPPED = re.compile(r"\{([a-z][a-z0-9_]*)\}\.")


def name_stop_problems(sc: Scenario) -> list[str]:
    """Each phrasing that ends a sentence on a name whose value may end in a period."""
    where = f"{sc.file}: {sc.id}"
    params = sc.param_by_name
    return [f"{where}.phrasings[{k}]: ends a sentence on {{{name}}}, whose value may end "
            "in a period of its own (\"Corp.\"): reword so the exact name stays whole"
            for k, p in enumerate(sc.phrasings) for name in _STOPPED.findall(p)
            if name in params and params[name].type in DOTTED_TYPES]
