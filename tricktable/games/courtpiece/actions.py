"""The Court Piece family's action space, declared in one place, and its notation.

Actions are ints: a card id (0-51) plays that card; every other action lives in
one of the ranges of ``ACTIONS`` (core's ``ActionSpace``, checked for overlaps by
the contract suite); the numbers are those the family always used.

>>> action_text(CALL + 2), parse_action("change trump ♦") == CHANGE + 1
('call H', True)
>>> action_text(HIDE + 10, hidden=True), parse_action("reveal", hidden=True) == REVEAL
('hide QC', True)
"""

from __future__ import annotations

from tricktable.cards import SUIT_LETTERS, card_text, parse_card, parse_suit
from tricktable.core.actions import ActionRange, ActionSpace
from tricktable.errors import NotationError

ACTIONS = ActionSpace(
    ActionRange("play", 0, 52),
    ActionRange("call", 64, 4),  # + suit: name trump
    ActionRange("change trump", 68, 4),  # + suit: change trump to an open suit
    ActionRange("pass to partner", 72),  # the caller passes the choice to his partner
    ActionRange("new cards", 73),  # the person throws the deal in
    ActionRange("timeout", 74),  # the referee: the calling time ran out
    ActionRange("reveal", 75),  # ask to see the face-down card
    ActionRange("hide", 128, 52),  # + card: put the card face down as trump
    ActionRange("change trump card", 192, 52),  # + card: put this card face down instead
)
"""Every action of the family by kind; the hidden-card kinds (``reveal``, ``hide``,
``change trump card``) exist only in games that put trump face down."""
CALL, CHANGE, PASS, NEW_CARDS, TIMEOUT, REVEAL, HIDE, SWAP = (ACTIONS[name].start for name in (
    "call", "change trump", "pass to partner", "new cards", "timeout", "reveal", "hide", "change trump card"))

HIDDEN_KINDS = frozenset({"reveal", "hide", "change trump card"})
MASKED = {"hide": "hide ?", "change trump card": "change trump ?"}
"""How other seats read a face-down card being put down."""

_WORDS = {"pass to partner": PASS, "pass": PASS, "new cards": NEW_CARDS, "timeout": TIMEOUT}


def kind_of(action: int) -> str | None:
    """The range an action belongs to, or None."""
    found = ACTIONS.range_of(action)
    return found.name if found else None


def action_text(action: int, hidden: bool = False) -> str:
    """The notation of ``action``; ``hidden``: the game has the face-down card.
    Looked up (``_TEXTS``): every view spells the deal's actions and the seat's
    legal ones, and the bots, records and inference ask for texts too."""
    text = _TEXTS[hidden].get(action) if isinstance(action, int) else None
    if text is None:
        raise NotationError(f"{action!r} is not a Court Piece action")
    return text


def masked_text(action: int) -> str | None:
    """How a seat other than the actor reads ``action`` (``MASKED``), or None
    when it reads the action's own text."""
    return _MASKED_TEXTS.get(action)


def _spelled(action: int, hidden: bool) -> str | None:
    """The notation of ``action`` from its range (None: no action of the game)."""
    kind = kind_of(action)
    if kind is None or (kind in HIDDEN_KINDS and not hidden):
        return None
    offset = action - ACTIONS[kind].start
    if kind in ("play", "hide"):
        return f"{kind} {card_text(offset)}"
    if kind == "change trump card":
        return f"change trump {card_text(offset)}"
    if kind in ("call", "change trump"):
        return f"{kind} {SUIT_LETTERS[offset]}"
    return kind


def _texts(hidden: bool) -> dict[int, str]:
    every = (action for r in ACTIONS.ranges for action in range(r.start, r.stop))
    return {action: text for action in every if (text := _spelled(action, hidden)) is not None}


_TEXTS = {False: _texts(False), True: _texts(True)}
"""Every action's text, without and with the face-down card's actions."""
_MASKED_TEXTS = {action: MASKED[kind] for action in _TEXTS[True] if (kind := kind_of(action)) in MASKED}


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
