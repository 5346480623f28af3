// Generated from scorpion_ref/vocabulary.json by `python -m scorpion_conformance.generated --write`: do not edit.
// The words the JavaScript engine shares with the reference: rule options and their values,
// the named rule sets, reason and error codes, statuses and the card alphabet.
(function (root, make) {
  if (typeof module === 'object' && module.exports) module.exports = make();
  else root.ScorpionVocabulary = make();
}(typeof self !== 'undefined' ? self : this, function () {
  'use strict';
  const freeze = (value) => {
    if (value && typeof value === 'object') Object.values(value).forEach(freeze);
    return Object.freeze(value);
  };
  return freeze({
    "options": [
      {
        "name": "runs",
        "values": [
          "collect",
          "stay"
        ]
      },
      {
        "name": "stock",
        "values": [
          "any-time",
          "when-stuck"
        ]
      },
      {
        "name": "empty_column",
        "values": [
          "king",
          "any"
        ]
      },
      {
        "name": "whole_column_to_empty",
        "values": [
          "refused",
          "allowed"
        ]
      },
      {
        "name": "win",
        "values": [
          "four-runs",
          "one-run-per-column"
        ],
        "default": "four-runs"
      },
      {
        "name": "finished_run_moves",
        "values": [
          "ignored",
          "counted"
        ],
        "default": "ignored"
      }
    ],
    "rulesets": [
      {
        "name": "standard",
        "summary": "Finished runs leave the table; the stock may be dealt at any time.",
        "options": {
          "runs": "collect",
          "stock": "any-time",
          "empty_column": "king",
          "whole_column_to_empty": "refused",
          "win": "four-runs",
          "finished_run_moves": "ignored"
        }
      },
      {
        "name": "classic",
        "summary": "Finished runs stay in their column; the stock only when no other move is left.",
        "options": {
          "runs": "stay",
          "stock": "when-stuck",
          "empty_column": "king",
          "whole_column_to_empty": "refused",
          "win": "four-runs",
          "finished_run_moves": "ignored"
        }
      },
      {
        "name": "wasp",
        "summary": "Standard Scorpion whose empty columns take any card.",
        "options": {
          "runs": "collect",
          "stock": "any-time",
          "empty_column": "any",
          "whole_column_to_empty": "refused",
          "win": "four-runs",
          "finished_run_moves": "ignored"
        }
      },
      {
        "name": "pysolfc",
        "summary": "How PySolFC plays Scorpion: finished runs drop off, a whole King column may move.",
        "options": {
          "runs": "collect",
          "stock": "any-time",
          "empty_column": "king",
          "whole_column_to_empty": "allowed",
          "win": "four-runs",
          "finished_run_moves": "ignored"
        }
      },
      {
        "name": "aisleriot",
        "summary": "How GNOME Aisleriot plays Scorpion: runs stay and each must stand alone.",
        "options": {
          "runs": "stay",
          "stock": "any-time",
          "empty_column": "king",
          "whole_column_to_empty": "allowed",
          "win": "one-run-per-column",
          "finished_run_moves": "counted"
        }
      }
    ],
    "reasons": [
      "card-face-down",
      "card-in-stock",
      "card-not-in-play",
      "destination-is-source",
      "empty-column-needs-king",
      "whole-column-to-empty",
      "not-same-suit",
      "not-one-rank-lower",
      "stock-empty",
      "stock-locked"
    ],
    "error_codes": [
      "illegal-action",
      "invalid-position",
      "unsupported",
      "unsupported-position",
      "bad-request",
      "nothing-to-undo"
    ],
    "statuses": [
      "playing",
      "won",
      "lost"
    ],
    "ranks": [
      {
        "letter": "A",
        "label": "A",
        "name": "Ace"
      },
      {
        "letter": "2",
        "label": "2",
        "name": "2"
      },
      {
        "letter": "3",
        "label": "3",
        "name": "3"
      },
      {
        "letter": "4",
        "label": "4",
        "name": "4"
      },
      {
        "letter": "5",
        "label": "5",
        "name": "5"
      },
      {
        "letter": "6",
        "label": "6",
        "name": "6"
      },
      {
        "letter": "7",
        "label": "7",
        "name": "7"
      },
      {
        "letter": "8",
        "label": "8",
        "name": "8"
      },
      {
        "letter": "9",
        "label": "9",
        "name": "9"
      },
      {
        "letter": "T",
        "label": "10",
        "name": "10"
      },
      {
        "letter": "J",
        "label": "J",
        "name": "Jack"
      },
      {
        "letter": "Q",
        "label": "Q",
        "name": "Queen"
      },
      {
        "letter": "K",
        "label": "K",
        "name": "King"
      }
    ],
    "suits": [
      {
        "letter": "C",
        "name": "clubs",
        "symbol": "♣",
        "outline": "♧",
        "colour": "black"
      },
      {
        "letter": "D",
        "name": "diamonds",
        "symbol": "♦",
        "outline": "♢",
        "colour": "red"
      },
      {
        "letter": "H",
        "name": "hearts",
        "symbol": "♥",
        "outline": "♡",
        "colour": "red"
      },
      {
        "letter": "S",
        "name": "spades",
        "symbol": "♠",
        "outline": "♤",
        "colour": "black"
      }
    ]
  });
}));
