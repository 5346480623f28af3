"""The JavaScript engine's vocabulary, ``adapters/javascript/vocabulary.js``, generated.

The JavaScript engine is another language, so it cannot import
``scorpion_ref/vocabulary.json`` through Python; it reads the same words from
a module rendered from that file, never from a copy by hand.
``python -m scorpion_conformance.kit.vocabulary_js --write`` rewrites it,
``--check`` says whether it is stale, and ``tests/test_one_source.py`` fails
while it is. The module loads under Node (``require``), in a page
(``<script>``, as ``ScorpionVocabulary``) and in a Web Worker
(``importScripts``).

>>> render(json.loads(VOCABULARY.read_text("utf-8"))).startswith("// Generated")
True
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

__all__ = ["COMMAND", "MODULE", "VOCABULARY", "main", "render", "stale"]

_ROOT = Path(__file__).resolve().parents[2]
#: The one vocabulary, and the module made from it.
VOCABULARY = _ROOT / "scorpion_ref" / "vocabulary.json"
MODULE = _ROOT / "adapters" / "javascript" / "vocabulary.js"
COMMAND = "python -m scorpion_conformance.kit.vocabulary_js --write"

_WRAPPER = """\
// Generated from scorpion_ref/vocabulary.json by `{command}`: do not edit.
// The words the JavaScript engine shares with the reference: rule options and their values,
// the named rule sets, reason and error codes, statuses and the card alphabet.
(function (root, make) {{
  if (typeof module === 'object' && module.exports) module.exports = make();
  else root.ScorpionVocabulary = make();
}}(typeof self !== 'undefined' ? self : this, function () {{
  'use strict';
  const freeze = (value) => {{
    if (value && typeof value === 'object') Object.values(value).forEach(freeze);
    return Object.freeze(value);
  }};
  return freeze({body});
}}));
"""


def _data(vocabulary: dict[str, Any]) -> dict[str, Any]:
    """What the engine reads: no prose but the rule sets' summaries."""
    return {
        "options": [
            {"name": o["name"], "values": [v["value"] for v in o["values"]],
             **({"default": o["default"]} if "default" in o else {})}
            for o in vocabulary["options"]
        ],
        "rulesets": [
            {"name": s["name"], "summary": s["summary"], "options": s["options"]}
            for s in vocabulary["rulesets"]
        ],
        "reasons": [r["code"] for r in vocabulary["reasons"]],
        "error_codes": [e["code"] for e in vocabulary["error_codes"]],
        "statuses": [s["name"] for s in vocabulary["statuses"]],
        "ranks": vocabulary["cards"]["ranks"],
        "suits": vocabulary["cards"]["suits"],
    }


def render(vocabulary: dict[str, Any]) -> str:
    """The module's text for a vocabulary read from ``vocabulary.json``."""
    body = json.dumps(_data(vocabulary), indent=2, ensure_ascii=False)
    body = "\n".join(("  " + line if i else line) for i, line in enumerate(body.splitlines()))
    return _WRAPPER.format(command=COMMAND, body=body)


def stale() -> bool:
    """Whether the module on disk differs from what the vocabulary renders."""
    wanted = render(json.loads(VOCABULARY.read_text(encoding="utf-8")))
    return not MODULE.exists() or MODULE.read_text(encoding="utf-8") != wanted


def main(argv: list[str] | None = None) -> int:
    """``--write`` rewrites the module; ``--check`` exits 1 when it is stale."""
    parser = argparse.ArgumentParser(prog="python -m scorpion_conformance.kit.vocabulary_js",
                                     description=__doc__.splitlines()[0])
    group = parser.add_mutually_exclusive_group(required=True)
    group.add_argument("--write", action="store_true", help="rewrite adapters/javascript/vocabulary.js")
    group.add_argument("--check", action="store_true", help="exit 1 when it is stale")
    args = parser.parse_args(argv)
    if args.check:
        if stale():
            print(f"{MODULE.relative_to(_ROOT)} is stale: run `{COMMAND}`", file=sys.stderr)
            return 1
        return 0
    MODULE.write_text(render(json.loads(VOCABULARY.read_text(encoding="utf-8"))), encoding="utf-8")
    print(f"wrote {MODULE.relative_to(_ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
