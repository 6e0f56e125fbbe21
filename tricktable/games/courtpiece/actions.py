"""The Court Piece family's action space, declared in one place, and its notation.

Actions are ints: a card id (0-51) plays that card; every other action lives in
one of the ranges below.  ``RANGES`` lists them all so a test can check that they
never overlap; the numbers are those of every stored record (the notation is
text, but the ints are what the search and the bots compare).

>>> action_text(CALL + 2), parse_action("change trump ♦") == CHANGE + 1
('call H', True)
>>> action_text(HIDE + 10, hidden=True), parse_action("reveal", hidden=True) == REVEAL
('hide QC', True)
"""

from __future__ import annotations

from tricktable.cards import SUIT_LETTERS, card_text, parse_card, parse_suit
from tricktable.core.errors import NotationError

CALL = 64  # + suit: name trump
CHANGE = 68  # + suit: change trump to an open suit
PASS = 72  # the caller passes the choice to his partner
NEW_CARDS = 73  # the person throws the deal in
TIMEOUT = 74  # the referee: the calling time ran out
REVEAL = 75  # Hidden Trump: ask to see the face-down card
HIDE = 128  # + card: put the card face down as trump
SWAP = 192  # + card: change trump by putting this card face down instead

RANGES: dict[str, range] = {
    "play": range(0, 52),
    "call": range(CALL, CALL + 4),
    "change trump": range(CHANGE, CHANGE + 4),
    "pass to partner": range(PASS, PASS + 1),
    "new cards": range(NEW_CARDS, NEW_CARDS + 1),
    "timeout": range(TIMEOUT, TIMEOUT + 1),
    "reveal": range(REVEAL, REVEAL + 1),
    "hide": range(HIDE, HIDE + 52),
    "change trump card": range(SWAP, SWAP + 52),
}
"""Every action of the family by kind; the hidden-card kinds (``reveal``, ``hide``,
``change trump card``) exist only in games that put trump face down."""

HIDDEN_KINDS = frozenset({"reveal", "hide", "change trump card"})
MASKED = {"hide": "hide ?", "change trump card": "change trump ?"}
"""How other seats read a face-down card being put down."""

_WORDS = {"pass to partner": PASS, "pass": PASS, "new cards": NEW_CARDS, "timeout": TIMEOUT}


def kind_of(action: int) -> str | None:
    """The range an action belongs to, or None."""
    for kind, numbers in RANGES.items():
        if action in numbers:
            return kind
    return None


def action_text(action: int, hidden: bool = False) -> str:
    """The notation of ``action``; ``hidden``: the game has the face-down card."""
    kind = kind_of(action)
    if kind is None or (kind in HIDDEN_KINDS and not hidden):
        raise NotationError(f"{action!r} is not a Court Piece action")
    offset = action - RANGES[kind].start
    if kind in ("play", "hide"):
        return f"{kind} {card_text(offset)}"
    if kind == "change trump card":
        return f"change trump {card_text(offset)}"
    if kind in ("call", "change trump"):
        return f"{kind} {SUIT_LETTERS[offset]}"
    return kind


def parse_action(text: str, hidden: bool = False) -> int:
    """The action a notation means; ``NotationError`` if none."""
    words = " ".join(text.lower().split())
    if words in _WORDS:
        return _WORDS[words]
    verb, _, rest = words.partition(" ")
    if hidden:
        if words == "reveal":
            return REVEAL
        if verb == "hide" and rest:
            return HIDE + parse_card(rest)
        if words.startswith("change trump "):
            try:
                return SWAP + parse_card(words[len("change trump "):])
            except NotationError:
                pass  # a suit: the open-trump change after a flip
    if verb == "play" and rest:
        return parse_card(rest)
    if verb == "call" and rest:
        return CALL + parse_suit(rest)
    if words.startswith("change trump "):
        return CHANGE + parse_suit(words[len("change trump "):])
    raise NotationError(
        f"{text!r} is not a Court Piece action (try: call H, pass to partner, new cards, "
        "change trump D, play QS)"
    )
