"""Card diagrams for the rules site: cards, columns and whole tables as HTML.

Everything is plain HTML styled by ``scorpion_conformance/site/assets/cards.css``: white
cards with rank and suit, red for ♦ and ♥, black for ♣ and ♠, face-down cards
drawn as a patterned back, columns overlapping downwards as on the table, and
the stock beside them. Nothing is fetched from anywhere.

Positions are the protocol's JSON values (``{"columns": [{"down": [...],
"up": [...]}, ...], "stock": [...], "removed": [...]}``), as
``Case.plan()`` gives them.

>>> card_html("9D")[:60]
'<span class="sc-card sc-up sc-red" data-card="9D" role="img"'
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from scorpion_conformance.escaping import html_text
from scorpion_shared import vocabulary

__all__ = [
    "SUIT_NAMES",
    "UNKNOWN",
    "card_html",
    "card_label",
    "column_html",
    "expected_html",
    "inline_cards",
    "position_html",
]

# The card alphabet is the vocabulary's.
SUITS: Mapping[str, str] = vocabulary.SUIT_SYMBOLS
SUIT_NAMES: Mapping[str, str] = vocabulary.SUIT_NAMES
RANK_TEXT = {letter: label for letter, label in vocabulary.RANK_LABELS.items() if label != letter}
RANK_NAMES = {r.letter: r.name for r in vocabulary.VOCABULARY.ranks if r.name != r.letter}
RED = vocabulary.RED_SUITS
#: A card as step text writes it, such as 10♦.
_INLINE_CARD = re.compile(
    r"(?<![\w])("
    + "|".join(sorted(map(re.escape, vocabulary.RANK_LABELS.values()), key=len, reverse=True))
    + ")([" + "".join(SUITS.values()) + "])"
)
DASH = "\u2013"  # an en dash, as between King and Ace
#: A face-down card whose identity the diagram does not show.
UNKNOWN = "??"
#: Asks for the text (not emoji) form of the suit symbols.
TEXT_STYLE = "\ufe0e"


def _split(code: str) -> tuple[str, str]:
    if len(code) != 2 or code[1] not in SUITS:
        raise ValueError(f"{code!r} is not a protocol card such as 9D or TH")
    return code[0], code[1]


def card_label(code: str) -> str:
    """The card as printed: ``"TD"`` → ``"10♦"``.

    >>> card_label("TD")
    '10♦'
    """
    rank, suit = _split(code)
    return RANK_TEXT.get(rank, rank) + SUITS[suit]


def _spoken(code: str) -> str:
    rank, suit = _split(code)
    return f"{RANK_NAMES.get(rank, rank)} of {SUIT_NAMES[suit]}"


def _colour(suit: str) -> str:
    return "sc-red" if suit in RED else "sc-black"


def card_html(code: str, *, down: bool = False, peek: bool = True, mark: bool = False) -> str:
    """One card: face up with rank and suit, or face down as a patterned back.

    A face-down card whose identity the example knows (``peek``) shows it in
    a small tag on its back, so a reader can follow it when it turns up;
    ``"??"`` is a face-down card of unknown identity. Raises
    :class:`ValueError` for a code that is not a card.
    """
    extra = " sc-mark" if mark else ""
    if down and code == UNKNOWN:
        return (
            '<span class="sc-card sc-down" role="img" aria-label="face-down card" '
            'title="face-down card"></span>'
        )
    rank, suit = _split(code)
    label = card_label(code)
    if down:
        spoken = f"face-down card ({_spoken(code)})" if peek else "face-down card"
        tag = (
            f'<span class="sc-peek {_colour(suit)}">{html_text(label)}{TEXT_STYLE}</span>'
            if peek
            else ""
        )
        return (
            f'<span class="sc-card sc-down{extra}" data-card="{code}" role="img" '
            f'aria-label="{spoken}" title="{html_text(spoken)}">{tag}</span>'
        )
    shown_rank = RANK_TEXT.get(rank, rank)
    symbol = SUITS[suit] + TEXT_STYLE
    face = " sc-face" if rank in "JQK" else ""
    centre = (
        f'<span class="sc-centre">{shown_rank}<span class="sc-centre-suit">{symbol}</span></span>'
        if face
        else f'<span class="sc-centre">{symbol}</span>'
    )
    return (
        f'<span class="sc-card sc-up {_colour(suit)}{face}{extra}" data-card="{code}" role="img" '
        f'aria-label="{_spoken(code)}" title="{label}">'
        f'<span class="sc-index"><span class="sc-rank">{shown_rank}</span>'
        f'<span class="sc-suit">{symbol}</span></span>'
        f"{centre}"
        f'<span class="sc-index sc-index-end"><span class="sc-rank">{shown_rank}</span>'
        f'<span class="sc-suit">{symbol}</span></span>'
        "</span>"
    )


def column_html(
    column: Mapping[str, Sequence[str]],
    label: str,
    *,
    peek: bool = True,
    marks: Iterable[str] = (),
    open_end: bool = False,
) -> str:
    """One column as on the table, bottom card first; an empty column is a dashed space.

    ``open_end`` draws a fold above the cards, for a column of which only the
    top end is known (``Then column 2 ends with ...``).
    """
    marked = set(marks)
    cards = [card_html(c, down=True, peek=peek, mark=c in marked) for c in column.get("down", ())]
    cards += [card_html(c, mark=c in marked) for c in column.get("up", ())]
    if not cards:
        pile = '<span class="sc-slot" role="img" aria-label="empty column"></span>'
    else:
        fold = '<span class="sc-fold" title="more cards below">⋯</span>' if open_end else ""
        pile = fold + "".join(cards)
    return (
        f'<div class="sc-col"><div class="sc-col-label">{html_text(label)}</div>'
        f'<div class="sc-pile">{pile}</div></div>'
    )


def _stock_html(stock: Sequence[str], peek: bool) -> str:
    if not stock:
        return (
            '<div class="sc-stock sc-stock-empty"><div class="sc-col-label">stock</div>'
            '<span class="sc-slot" role="img" aria-label="the stock is empty" '
            'title="the stock is empty"><span>empty</span></span></div>'
        )
    backs = "".join(card_html(c, down=True, peek=peek) for c in reversed(stock))
    return (
        f'<div class="sc-stock"><div class="sc-col-label">stock · {len(stock)}</div>'
        f'<div class="sc-stock-pile" data-count="{len(stock)}">{backs}</div></div>'
    )


def _collected_html(removed: Sequence[str]) -> str:
    slots = "".join(
        f'<span class="sc-run {_colour(s)}" role="img" aria-label="{SUIT_NAMES[s]} run collected" '
        f'title="the {SUITS[s]} run has been collected">K{SUITS[s]}{TEXT_STYLE}'
        f"<small>{DASH}A</small></span>"
        for s in sorted(removed)
    )
    return (
        f'<div class="sc-collected"><div class="sc-col-label">collected</div>'
        f'<div class="sc-runs">{slots}</div></div>'
    )


def position_html(
    position: Mapping[str, Any],
    *,
    caption: str = "",
    peek: bool = True,
    marks: Iterable[str] = (),
    show_stock: bool = True,
) -> str:
    """A whole table: the stock, the seven columns and any collected runs.

    Kept out of the search index (``data-search-exclude``): the steps and the
    captions say the same in words.
    """
    marks = tuple(marks)
    columns = "".join(
        column_html(column, str(number), peek=peek, marks=marks)
        for number, column in enumerate(position.get("columns", ()), start=1)
    )
    stock = _stock_html(position.get("stock", ()), peek) if show_stock else ""
    removed = position.get("removed", ())
    collected = _collected_html(removed) if removed else ""
    figcaption = f"<figcaption>{caption}</figcaption>" if caption else ""
    return (
        '<figure class="sc-diagram" data-search-exclude>'
        f'<div class="sc-felt">{stock}<div class="sc-columns">{columns}</div>{collected}</div>'
        f"{figcaption}</figure>"
    )


def expected_html(
    columns: Sequence[tuple[int, Mapping[str, Sequence[str]], bool]], *, caption: str = ""
) -> str:
    """Only the columns an example checks: (number, column, open_end) each."""
    body = "".join(
        column_html(column, f"column {number}", open_end=open_end)
        for number, column, open_end in columns
    )
    figcaption = f"<figcaption>{caption}</figcaption>" if caption else ""
    return (
        '<figure class="sc-diagram sc-expected" data-search-exclude>'
        f'<div class="sc-felt"><div class="sc-columns">{body}</div></div>{figcaption}</figure>'
    )


def inline_cards(text: str) -> str:
    """Step text with every card in it coloured (the text is HTML-escaped first).

    >>> inline_cards("moves 9♦ to column 5")
    'moves <span class="sc-inline sc-red">9♦</span> to column 5'
    """

    def paint(match: re.Match[str]) -> str:
        suit = {symbol: letter for letter, symbol in SUITS.items()}[match.group(2)]
        return f'<span class="sc-inline {_colour(suit)}">{match.group(0)}</span>'

    return _INLINE_CARD.sub(paint, html_text(text))
