"""The Court Piece family — ``shared/rules/court-piece.md``: Double Sar (the pile)
and Single Sar, and its relatives (Hidden Trump, Be-Ranga, Mendikot), as one
state machine with composed rule parts.

Modules: ``rules`` (tables), ``actions`` (the action space and its notation),
``state`` (the one state machine), the parts ``trump`` (called, hidden card,
first void), ``tricks`` (single tricks, the pile) and ``scoring`` (seven tricks,
tens), ``variants`` (each game's composition), ``spec`` (options, dealing, the
games), ``match`` (draw, rotation, points/kots, bonus, daily) and ``sampling``
(worlds for the search bots).

Decisions taken here where the spec leaves room (each is documented where it is
implemented):

* Seats are the room's (0 South, 1 West, 2 North, 3 East); play and deal go to the
  right, ``NEXT[s] = (s + 3) % 4``.
* **New cards** is offered to "the person" = option ``person_seat`` (default 0,
  South, the seat the CLI and the web page give the person); ``new_cards="any
  seat"`` offers it to everyone (a table of people), ``"off"`` to nobody.  Since
  computer players call at once, the person can ask only on his own calling turn
  (as caller, or as partner after a pass or a timeout).  It throws the deal in;
  the same dealer deals fresh cards from the next deal seed and the redeal cannot
  be refused again.  Daily games switch it off.
* **Change trump** belongs to the caller (the player to the dealer's right, who
  leads): it is offered together with his first card, once, even when his
  partner named trump or trump came from the flip.
* **Timeouts**: the view carries ``deadline_seconds`` (20, or 10 with option
  ``first_game``) while trump is called; the server applies ``timeout`` with
  ``apply_referee``.  The flip card is the stock card at a position drawn from
  ``derive_seed(deal seed, "flip")``; it stays in the hand it is dealt to.
* The 13th trick always takes the rest of the pile; the house rules only block
  pair captures.
"""

from tricktable.games.courtpiece.match import CourtPieceMatch
from tricktable.games.courtpiece.spec import BE_RANGA, DOUBLE_SAR, FAMILY, HIDDEN_TRUMP, MENDIKOT, SINGLE_SAR, CourtPieceSpec
from tricktable.games.courtpiece.state import CourtPieceState

__all__ = ["BE_RANGA", "DOUBLE_SAR", "FAMILY", "HIDDEN_TRUMP", "MENDIKOT", "SINGLE_SAR", "CourtPieceMatch", "CourtPieceSpec",
           "CourtPieceState"]
