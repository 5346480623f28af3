"""What a newcomer reads first: the pages that say how to write an adapter lead with
``new-adapter``, and the Python kit's README points into its protocol page by the names of
sections that page has. (The kit from an installed wheel: ``tests/test_wheel.py``.)"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def first_command(page: str) -> str:
    """The first command of the first shell block of a page."""
    block = re.search(r"```sh\n(.*?)```", page, re.DOTALL)
    assert block, "the page shows no command"
    return block.group(1).splitlines()[0]


@pytest.mark.parametrize("page", ["docs/adapters.md", "adapters/README.md"])
def test_the_pages_on_writing_an_adapter_start_with_new_adapter(page: str) -> None:
    text = (ROOT / page).read_text(encoding="utf-8")
    assert first_command(text).startswith("scorpion-conformance new-adapter python my-adapter"), page
    # ... within the page's first section (a title and a heading, or a title alone).
    second_heading = [m.start() for m in re.finditer(r"^## ", text, re.MULTILINE)][1]
    assert text.index("```sh") < second_heading, page


def test_the_python_readme_names_sections_the_protocol_page_has() -> None:
    readme = (ROOT / "adapters" / "python" / "README.md").read_text(encoding="utf-8")
    protocol = (ROOT / "adapters" / "python" / "protocol.md").read_text(encoding="utf-8")
    assert protocol == (ROOT / "docs" / "protocol.md").read_text(encoding="utf-8")
    headings = {line.lstrip("#").strip().strip("`") for line in protocol.splitlines() if line.startswith("#")}
    sections = set(re.findall(r'"([A-Z][a-z]+(?: [a-z]+)*)"', " ".join(readme.split())))
    assert sections >= {"Columns and positions", "States", "Actions", "Errors", "Reasons", "Named rule sets"}
    assert sections <= headings, sections - headings
