"""Every sentence of the project is ours: no prose file repeats a seed's wording.

The seeds (`../shared/seeds/`) give us facts, cited by file name; their
sentences stay theirs. This test looks for runs of eight consecutive words
shared with a seed in every prose file we publish: the docs, the feature
files, the catalogue (whole, and field by field), the comparison data, the
READMEs. It is one test, so a checkout without the sources beside it says so
once.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[1]
SEEDS = ROOT.parent / "shared" / "seeds"
RUN = 8

PROSE = [
    *sorted((ROOT / "docs").rglob("*.md")),
    *sorted((ROOT / "features").glob("*.feature")),
    ROOT / "scorpion_ref" / "catalogue.yaml",
    *sorted((ROOT / "scorpion_conformance" / "site").glob("*.yaml")),
    ROOT / "README.md",
    *sorted((ROOT / "adapters").rglob("README.md")),
]


def words(text: str) -> list[str]:
    return re.findall(r"[a-z0-9]+", text.lower())


def runs(text: str) -> set[tuple[str, ...]]:
    w = words(text)
    return {tuple(w[i : i + RUN]) for i in range(len(w) - RUN + 1)}


def _texts() -> Iterator[tuple[str, str]]:
    """Every text we publish, named: each prose file whole, and each catalogue rule's own
    fields as the YAML reader gives them (an escape in the file cannot hide a copied run)."""
    for path in PROSE:
        yield str(path.relative_to(ROOT)), path.read_text(encoding="utf-8")
    catalogue = yaml.safe_load((ROOT / "scorpion_ref" / "catalogue.yaml").read_text(encoding="utf-8"))
    for rule in catalogue["rules"]:
        for field in ("title", "statement", "rationale"):
            if isinstance(rule.get(field), str):
                yield f"catalogue {rule['id']}.{field}", rule[field]


@pytest.mark.skipif(not SEEDS.is_dir(), reason=f"the source documents are not beside the checkout ({SEEDS}): "
                    "our wording was not compared with theirs")
def test_no_text_of_ours_repeats_a_source() -> None:
    seeds = set().union(*(runs(s.read_text(encoding="utf-8")) for s in SEEDS.glob("*.txt")))
    copied = [f"{name}: " + "; ".join(repr(" ".join(run)) for run in sorted(shared)[:5])
              for name, text in _texts() if (shared := runs(text) & seeds)]
    assert not copied, "wording shared with a source document:\n" + "\n".join(copied)
