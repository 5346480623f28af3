"""Every sentence of the project is ours: no prose file repeats a seed's wording.

The seeds (`../shared/seeds/`) give us facts, cited by file name; their
sentences stay theirs. This test looks for runs of eight consecutive words
shared with a seed in every prose file we publish: the docs, the feature
files, the catalogue, the comparison data, the READMEs. (The catalogue's own
test checks it field by field.)
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

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


@pytest.mark.skipif(not SEEDS.is_dir(), reason="the seed documents are not beside the checkout")
@pytest.mark.parametrize("path", PROSE, ids=[str(p.relative_to(ROOT)) for p in PROSE])
def test_no_prose_file_repeats_a_seed(path: Path) -> None:
    seeds = set().union(*(runs(s.read_text(encoding="utf-8")) for s in SEEDS.glob("*.txt")))
    shared = runs(path.read_text(encoding="utf-8")) & seeds
    assert not shared, f"{path.name} repeats seed wording: " + "; ".join(
        repr(" ".join(run)) for run in sorted(shared)[:5]
    )
