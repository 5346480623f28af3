"""What the solver's verdicts mean, in a player's words, and where the site explains them.

The words are the vocabulary's (``solver_verdicts`` in ``scorpion_ref/vocabulary.json``,
read through :data:`scorpion_shared.vocabulary.SOLVER_VERDICTS`); the Winnability
page shows the same table, generated from them. The page's address is the
published site's when it is known: ``SCORPION_SITE_URL`` (the variable the site
build reads) or the package's ``Documentation`` address. Otherwise the page is
named, never guessed.

>>> meaning("lost", "exhausted")
'every position that can be reached from here was visited, and none of them is won: no line of moves wins'
>>> explained({"SCORPION_SITE_URL": "https://me.example/scorpion/"})
'https://me.example/scorpion/winnability/#what-the-solver-says'
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from importlib import metadata

from scorpion_shared.vocabulary import SOLVER_VERDICTS

__all__ = ["PAGE", "PAGE_NAMED", "explained", "meaning"]

#: The section of the site that explains every verdict, relative to the site's address.
PAGE = "winnability/#what-the-solver-says"
#: How the section is named when the site's address is not known.
PAGE_NAMED = ("the section 'What the solver says' of the Winnability page of the rules site "
              "(docs/winnability.md)")


def meaning(outcome: str, why: str | None) -> str:
    """The meaning of a verdict, or a plain statement for a ``why`` the vocabulary does not know."""
    known = SOLVER_VERDICTS.get((outcome, why or ""))
    if known is not None:
        return known
    return SOLVER_VERDICTS.get((outcome, ""), f"the solver says {outcome}" + (f" ({why})" if why else ""))


def _documentation() -> str | None:
    try:
        urls = metadata.metadata("scorpion-conformance").get_all("Project-URL") or []
    except metadata.PackageNotFoundError:
        return None
    for entry in urls:
        label, _, url = str(entry).partition(",")
        if label.strip().lower() == "documentation" and url.strip().startswith(("https://", "http://")):
            return url.strip()
    return None


def explained(environ: Mapping[str, str] = os.environ) -> str:
    """Where every verdict is explained: the page's address on the published site, else its name."""
    site = environ.get("SCORPION_SITE_URL", "").strip() or _documentation()
    if not site or not site.startswith(("https://", "http://")):
        return PAGE_NAMED
    return site.rstrip("/") + "/" + PAGE
