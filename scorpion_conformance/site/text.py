"""Small helpers shared by the page generators: escaping, fragments, pages.

A generated page is Markdown, so that MkDocs resolves and checks its links
and the search plugin indexes its headings. Diagrams are HTML; to keep them
whole wherever they sit (in a content tab, an admonition, a list), the
Markdown carries a placeholder token on a line of its own and the HTML is
put back after conversion (:meth:`GeneratedPage.resolve`).

>>> page = GeneratedPage("x.md", "X")
>>> token = page.fragment('<div class="d">9♦</div>')
>>> page.resolve(f"<p>{token}</p>")
'<div class="d">9♦</div>'
"""

from __future__ import annotations

import hashlib
import posixpath
import re
from dataclasses import dataclass, field

from scorpion_conformance.escaping import html_text

__all__ = [
    "FRAGMENT_TOKEN",
    "GeneratedPage",
    "md_escape",
    "page_url",
    "relative_href",
    "resolve_fragments",
    "slug_of_source",
]

FRAGMENT_TOKEN = re.compile(r"scfrag([0-9a-f]{20})")
_WRAPPED = re.compile(r"<p>\s*(scfrag[0-9a-f]{20})\s*</p>")
_MD_SPECIAL = re.compile(r"([\\`*_\[\]{}#|!])")


def md_escape(text: str) -> str:
    """Text shown as it is in Markdown: HTML and Markdown syntax escaped.

    >>> md_escape("A group led by <card> *is* refused")
    'A group led by &lt;card&gt; \\\\*is\\\\* refused'
    >>> md_escape("an 'x' & a #")
    'an &#x27;x&#x27; &amp; a \\\\#'
    """
    return html_text(_MD_SPECIAL.sub(r"\\\1", text))


def slug_of_source(source: str) -> str:
    """The anchor of a source on the comparison page: ``000_7f.txt`` → ``source-000``."""
    stem = source.split("_", 1)[0] if source[:3].isdigit() else source
    return "source-" + re.sub(r"[^a-z0-9]+", "-", stem.lower()).strip("-")


@dataclass
class GeneratedPage:
    """A page made at build time: its path under ``docs/``, Markdown and HTML fragments."""

    path: str
    title: str
    markdown: str = ""
    fragments: dict[str, str] = field(default_factory=dict)
    #: What could not be drawn; the MkDocs hook logs each as a warning.
    problems: list[str] = field(default_factory=list)

    def fragment(self, markup: str) -> str:
        """Store an HTML fragment; returns the token to put on a line of its own."""
        token = "scfrag" + hashlib.sha1(markup.encode("utf-8")).hexdigest()[:20]
        self.fragments[token] = markup
        return token

    def resolve(self, content: str) -> str:
        """The converted page with every fragment token replaced by its HTML."""
        return resolve_fragments(content, self.fragments)


def resolve_fragments(content: str, fragments: dict[str, str]) -> str:
    """Put HTML fragments back in place of their tokens (a token alone in a paragraph
    replaces the paragraph). Unknown tokens are left as they are."""
    content = _WRAPPED.sub(lambda m: fragments.get(m.group(1), m.group(0)), content)
    return FRAGMENT_TOKEN.sub(lambda m: fragments.get(m.group(0), m.group(0)), content)


def page_url(path: str, directory_urls: bool = True) -> str:
    """The URL (from the site root) MkDocs gives the page at ``path`` under ``docs/``.

    >>> page_url("rules/deal.md"), page_url("index.md"), page_url("rules/index.md", False)
    ('rules/deal/', '', 'rules/index.html')
    """
    stem = path[:-3] if path.endswith(".md") else path
    if not directory_urls:
        return stem + ".html"
    if stem == "index" or stem.endswith("/index"):
        return stem[: -len("index")]
    return stem + "/"


def relative_href(here: str, target: str, directory_urls: bool = True) -> str:
    """A link from the page ``here`` to ``target`` (``"rules/deal.md#R-DEAL-ONE-DECK"``),
    for raw HTML, where MkDocs does not rewrite ``.md`` links.

    >>> relative_href("rulesets.md", "rules/deal.md#R-DEAL-ONE-DECK")
    '../rules/deal/#R-DEAL-ONE-DECK'
    """
    path, _, anchor = target.partition("#")
    here_url = "/" + page_url(here, directory_urls)
    base = here_url if here_url.endswith("/") else posixpath.dirname(here_url) + "/"
    dest = "/" + page_url(path, directory_urls)
    link = posixpath.relpath(dest, base)
    if link == ".":
        link = "./"
    elif dest.endswith("/"):
        link += "/"
    return link + (f"#{anchor}" if anchor else "")
