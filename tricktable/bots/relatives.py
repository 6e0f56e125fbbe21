"""Computer players for the Court Piece relatives: Hidden Trump, Be-Ranga and
Mendikot, on the Double Sar / Single Sar bots (``courtpiece.py``).

The card play is the family's (second hand low, third hand high, pile timing),
with what each relative changes (the card play and the reveal are written once,
in the kernel: ``courtpiece_kernel``, with ``KERNEL_CARD_RULES``; calling and
changing trump here):

* **Hidden Trump** — calling: the best suit of the first five (the family's
  ``call_action``) and its *lowest* card goes face down (it is no trump until the
  reveal, and the low card is the one least missed meanwhile).  Change trump: a
  clearly better suit among the thirteen (``change_choice``), its lowest card.
  Until the reveal the table plays without trump; the player who put the card
  down knows the suit and keeps its cards when he throws off (they will be
  trumps), and nobody leads a boss into a hand known to be void (a void may ask
  for trump and ruff it).  **Reveal** when void and the trick is going the
  wrong way: the hider and his partner ask at once (trump is their suit), and
  so do the hider's opponents whenever the trick is not their side's (a trump of
  theirs may win it; keeping the reveal for a rich trick only lost, in both
  Hidden Trump and Mendikot).  After the reveal the asker plays the
  cheapest trump, or his highest when an opponent after him has shown out.
* **Be-Ranga** — while no trump is set, a void player's card makes trump: he
  picks the suit he is longest and strongest in and plays its lowest card.  A
  leader without a boss leads from his shortest suit, to be the one who shows out
  first and names trump.  Pile timing as in Double Sar, except that no pair
  captures up to the trump-setting trick (the stake of those tricks is only
  their place on the pile).
* **Mendikot** — tens decide.  A ten goes on a trick the partner surely wins
  (following or throwing off); a ten is never the card given to an opponent's
  trick when another card will do (keep 10 K under an ace: play the king); tens
  are not led unless they are the boss and safe; a trick holding a ten is worth
  trumping or overtaking.  Calling: the suit's ten counts extra, and if the
  chosen suit holds the ten it is the card put face down (out of reach until the
  reveal, then back in the hand as a trump).

``decide`` is the one set of rules: ``heuristic_text`` runs it on a seat's
observation, ``policy`` on a (sampled) state in the search's rollouts, with only
the seat's knowledge.
"""

from __future__ import annotations

from functools import partial
from typing import Sequence

from tricktable.bots import courtpiece as cp
from tricktable.bots.courtpiece import Table
from tricktable.bots.courtpiece_kernel import BE_RANGA_CARDS, MENDIKOT_CARDS  # the same in its compiled build
from tricktable.bots.inference import weight_for
from tricktable.bots.search import SearchGame, team_value
from tricktable.cards import TEN, parse_card, rank_of
from tricktable.core.observation import Observation
from tricktable.core.protocol import GameSpec, GameState
from tricktable.games.courtpiece.actions import CHANGE, HIDE, PASS, SWAP, action_text, parse_action
from tricktable.games.courtpiece.observation import CourtPieceObservation
from tricktable.games.courtpiece.rules import SUIT_OF, SUITS
from tricktable.games.courtpiece.state import CALLING, PARTNER_CALLING, CourtPieceState, cards_in

TEN_BONUS = 2.0
"""Mendikot: what holding a suit's ten adds to it as trump (it is then safe as a trump)."""


def is_ten(c: int) -> bool:
    return rank_of(c) == TEN


# -- calling (Hidden Trump, Mendikot) -----------------------------------------------------
def suit_points(cards: Sequence[int], suit: int, mendikot: bool) -> float:
    points = cp.suit_points(cards, suit)
    if mendikot and any(SUIT_OF[c] == suit and is_ten(c) for c in cards):
        points += TEN_BONUS
    return points


def best_suit(cards: Sequence[int], mendikot: bool) -> tuple[int, float]:
    return max(((s, suit_points(cards, s, mendikot)) for s in SUITS), key=lambda item: item[1])


def card_to_hide(cards: Sequence[int], suit: int, mendikot: bool) -> int:
    """The card of ``suit`` to put face down: the ten in Mendikot (safe there), else the lowest."""
    in_suit = [c for c in cards if SUIT_OF[c] == suit]
    tens = [c for c in in_suit if is_ten(c)]
    if mendikot and tens:
        return tens[0]
    return min(in_suit, key=rank_of)


def hide_choice(cards: Sequence[int], may_pass: bool, mendikot: bool) -> int | None:
    """The card to put face down from the first five, or None to pass to the partner."""
    suit, points = best_suit(cards, mendikot)
    if may_pass and points < cp.PASS_BELOW:
        return None
    return card_to_hide(cards, suit, mendikot)


def swap_choice(hand: Sequence[int], down: int) -> int | None:
    """Change trump (the caller who put the card down): a clearly better suit among
    his thirteen cards; its lowest card goes face down instead."""
    cards = list(hand) + [down]
    suit = cp.change_choice(cards, SUIT_OF[down])
    if suit is None:
        return None
    return min((c for c in hand if SUIT_OF[c] == suit), key=rank_of)


# -- the rules: one decision for the seat to move ----------------------------------------
def decide(table: Table, legal: Sequence[int], game: str) -> int:
    """The rules' action for a relative (the one set of expert rules, for the bot
    and the rollouts); ``legal`` without new cards.  Calling and changing trump here,
    the card play (and the reveal) in the kernel (``courtpiece.choose_card``)."""
    if len(legal) == 1:
        return legal[0]
    if table.phase in (CALLING, PARTNER_CALLING):
        choice = hide_choice(cards_in(table.hand), PASS in legal, game == "mendikot")
        return PASS if choice is None else HIDE + choice
    if not table.trick:
        change = _change(table, legal)
        if change is not None:
            return change
    return cp.choose_card(table, legal, KERNEL_CARD_RULES.get(game, 0))


def _change(table: Table, legal: Sequence[int]) -> int | None:
    """Change trump: the card put down for one of a clearly better suit, or (after
    a flip) the open suit as in Single Sar."""
    if table.own_down >= 0 and any(a >= SWAP for a in legal):
        swap = swap_choice(cards_in(table.hand), table.own_down)
        return None if swap is None else SWAP + swap
    if any(CHANGE <= a < CHANGE + 4 for a in legal):
        suit = cp.change_choice(cards_in(table.hand), table.trump)
        return None if suit is None else CHANGE + suit
    return None


KERNEL_CARD_RULES = {"mendikot": MENDIKOT_CARDS, "be-ranga": BE_RANGA_CARDS}
"""Which of ``decide``'s card rules the playout kernel plays (Hidden Trump: the
family's, with the reveal and the hidden-trump leads every relative shares)."""


def policy(state: GameState) -> int:
    """The rules' action for the seat to move in a (sampled) state; used by rollouts."""
    assert isinstance(state, CourtPieceState)
    game = state.spec.name
    fast = cp.kernel_action(state, KERNEL_CARD_RULES.get(game, 0))
    return fast if fast >= 0 else decide(cp.table_from_state(state), cp.bot_legal(state.legal_actions()), game)


CARDS = cp.card_replay(KERNEL_CARD_RULES)
"""The relatives' card play for inference, in the kernel (each with its card rules)."""
WEIGHT = weight_for(policy, cards=CARDS)
"""What the others' calls, hidden trump and card choices reveal (``bots.inference``)."""


def heuristic_text(obs: Observation) -> str:
    """The rules' action for an observation (the ``heuristic`` bot)."""
    assert isinstance(obs, CourtPieceObservation)
    legal = cp.bot_actions(obs)
    if len(legal) == 1:
        return legal[0]
    hidden = obs.game != "be-ranga"
    table = cp.table_from_observation(obs)
    return action_text(decide(table, [parse_action(t, hidden) for t in legal], obs.game), hidden)


def distinct_actions(obs: Observation) -> list[str]:
    """The family's candidates (equal cards once, as the rules' card where it is one of
    them); in Mendikot a ten is never equal to its neighbours, and of the cards to put
    face down only each suit's lowest (and its ten in Mendikot) are tried."""
    assert isinstance(obs, CourtPieceObservation)
    legal = cp.bot_actions(obs)
    mendikot = obs.game == "mendikot"
    kept = set(cp.distinct_actions(obs, heuristic_text(obs), tens_apart=mendikot))
    hides = [parse_card(t.split()[1]) for t in legal if t.startswith("hide ")]
    if hides:
        wanted = {card_to_hide(hides, s, mendikot) for s in {SUIT_OF[c] for c in hides}}
        wanted |= {min((c for c in hides if SUIT_OF[c] == s), key=rank_of) for s in {SUIT_OF[c] for c in hides}}
        kept = {t for t in kept if not t.startswith("hide ") or parse_card(t.split()[1]) in wanted}
    swaps = [t for t in legal if t.startswith("change trump ") and len(t.split()[2]) > 1]
    if swaps:  # one card per suit: the lowest
        lows: dict[int, str] = {}
        for t in swaps:
            c = parse_card(t.split()[2])
            if SUIT_OF[c] not in lows or rank_of(c) < rank_of(parse_card(lows[SUIT_OF[c]].split()[2])):
                lows[SUIT_OF[c]] = t
        kept = {t for t in kept if t not in swaps or t in lows.values()}
    return [t for t in legal if t in kept]


# -- search ------------------------------------------------------------------------
ROLLOUTS_PER_MS = 3.8
"""Rollouts per millisecond of budget on the 2-core machine, so that a 250 ms budget
costs at most about 230 ms CPU at p95 in the dearest relative (the 30 bench decisions
at 2.4 gave p95 121 ms in Hidden Trump, 90 in Be-Ranga, 144 in Mendikot on a loaded
machine, load average 12-14, and 215 / 157 / 227 ms at 3.8; before the kernel the rate
was 1.2)."""
ROLLOUTS_PER_MS_WITHOUT_INFERENCE = 6.5
"""The same without inference's weight (``search-noinfer``, the normal level, 50 ms):
about 50 ms CPU at p95 in the dearest relative (at 2.4: Hidden Trump 16 ms, Be-Ranga 12,
Mendikot 14; at 6.5: 48, 34, 46)."""


def search_game(obs: Observation) -> SearchGame:
    from tricktable.games.courtpiece import FAMILY

    return SearchGame(FAMILY[obs.game], policy, team_value, weight=WEIGHT, rules=heuristic_text,
                      playout=partial(cp.playout, card_rules=KERNEL_CARD_RULES.get(obs.game, 0)),
                      switch_z=cp.switch_z)


def _spec() -> GameSpec:
    from tricktable.games.courtpiece import HIDDEN_TRUMP

    return HIDDEN_TRUMP


SEARCH = SearchGame(_spec(), policy, team_value, weight=WEIGHT, rules=heuristic_text, switch_z=cp.switch_z)
"""The spec in ``SEARCH`` is only a default: ``search_game`` picks the observation's game."""


def worlds_for(budget_ms: float, actions: int = 1, inference: bool = True) -> int:
    rate = ROLLOUTS_PER_MS if inference else ROLLOUTS_PER_MS_WITHOUT_INFERENCE
    return max(3, int(budget_ms * rate / max(1, actions)))

