"""The reference adapter in this process: a client that talks to its session without a pipe.

The same bytes and the same answers as ``python -m scorpion_ref.adapter``,
through the same client and its checks, at the cost of a function call per
request: for the fuzzer's drafts, the check that every scenario holds under
every bundle its tags admit, and benchmarks. This module sits above both the
client and the reference adapter, so neither has to know the other.

>>> with in_process() as client:
...     info = client.hello()
...     state = client.start("standard", {"columns": [{"down": [], "up": []}] * 7,
...                                       "stock": [], "removed": []})
...     client.play({"type": "deal"}).error.reason
'stock-empty'
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from scorpion_ref import RuleSet
from scorpion_ref.adapter import Session

from .client import AdapterClient
from .transport import InProcessTransport

__all__ = ["NAME", "in_process"]

#: How the reference in this process is named in messages.
NAME = "scorpion-ref (in process)"


def in_process(rulesets: Mapping[str, RuleSet] | None = None, *,
               kind: type[AdapterClient] = AdapterClient, **options: Any) -> AdapterClient:
    """A client of the reference adapter in this process (``rulesets``: name → RuleSet to offer,
    as ``--all-bundles`` does for the process); ``kind`` is the client's class (a subclass that
    changes what it sends, in the tests), ``options`` its options."""
    return kind(lambda: InProcessTransport(lambda: Session(rulesets), NAME), **options)
