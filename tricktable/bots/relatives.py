"""Computer players for the Court Piece relatives: Hidden Trump, Be-Ranga and
Mendikot (issue 7), on the Double Sar / Single Sar bots (``courtpiece.py``).

The card play is the family's (``Table``, ``choose_lead``, ``choose_follow``, pile
timing), with what each relative changes:

* **Hidden Trump** — calling: the best suit of the first five (the family's
  ``call_action``) and its *lowest* card goes face down (it is no trump until the
  reveal, and the low card is the one least missed meanwhile).  Change trump: a
  clearly better suit among the thirteen (``change_choice``), its lowest card.
  Until the reveal the table plays without trump; the player who put the card
  down knows the suit and keeps its cards when he throws off (they will be
  trumps), and nobody leads a boss into a hand known to be void (a void may ask
  for trump and ruff it).  **Reveal** when void and the trick is going the
  wrong way: the hider and his partner ask at once (trump is their suit); the
  hider's opponents ask only for a rich trick (Mendikot: a ten in it; Hidden
  Trump: a trick that would give the callers their seventh), since the reveal
  mostly helps the side that chose trump.  After the reveal the asker plays the
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

from dataclasses import replace
from functools import partial
from typing import Sequence

from tricktable.bots import courtpiece as cp
from tricktable.bots.courtpiece import Table, choose_card, choose_lead, is_safe, lowest, trick_winner
from tricktable.bots.courtpiece_kernel import BE_RANGA_CARDS, MENDIKOT_CARDS  # the same in its compiled build
from tricktable.bots.inference import weight_for
from tricktable.bots.search import SearchGame, team_value
from tricktable.cards import TEN, parse_card, rank_of
from tricktable.core.observation import Observation
from tricktable.core.protocol import GameSpec, GameState
from tricktable.games.courtpiece.actions import CHANGE, HIDE, PASS, REVEAL, SWAP, action_text, parse_action
from tricktable.games.courtpiece.observation import CourtPieceObservation
from tricktable.games.courtpiece.rules import NO_TRUMP, POWER, SUIT_MASKS, SUIT_OF, SUITS, TRICKS_TO_WIN
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


# -- card play -------------------------------------------------------------------------
def _winner_card(table: Table) -> tuple[int, int]:
    return trick_winner(table.trump, table.trick)


def partner_holds(table: Table) -> bool:
    """The trick is the partner's and stays his (a safe card, or nobody of the other team after us)."""
    if not table.trick:
        return False
    seat, card = _winner_card(table)
    if seat % 2 != table.seat % 2:
        return False
    after = table.seats_after()
    opponents_after = [s for s in after if s % 2 != table.seat % 2]
    if not opponents_after:
        return True
    if table.trump == NO_TRUMP and any(table.voids[s] >> SUIT_OF[table.trick[0][1]] & 1 for s in opponents_after):
        return False  # a void may still ask for trump (or, in Be-Ranga, set it) and ruff
    return is_safe(table, card, after)


def no_void_leads(table: Table, legal: Sequence[int]) -> list[int]:
    """While trump is hidden, a suit an opponent has shown out of can be ruffed
    after a reveal: lead it only when nothing else is left."""
    opponents = [s for s in range(4) if s % 2 != table.seat % 2]
    kept = [c for c in legal if not any(table.voids[s] >> SUIT_OF[c] & 1 for s in opponents)]
    return kept or list(legal)


def choose_relative(table: Table, legal: Sequence[int], known: int, hidden: bool, mendikot: bool,
                    after_reveal: bool = False) -> int:
    """A card for the relatives; ``table.trump`` is the trump in force (``NO_TRUMP``
    while hidden), ``known`` the trump suit as this seat knows it."""
    if len(legal) == 1:
        return legal[0]
    aware = replace(table, trump=known) if known != NO_TRUMP and known != table.trump else table
    if not table.trick:
        options = no_void_leads(table, legal) if hidden else list(legal)
        if mendikot:  # a ten is led only as a safe boss
            options = [c for c in options if not is_ten(c) or is_safe(table, c, table.seats_after())] or options
        return choose_lead(aware if hidden and known != NO_TRUMP else table, options)
    if after_reveal:
        return _ruff_after_reveal(table, legal)
    following = SUIT_OF[legal[0]] == SUIT_OF[table.trick[0][1]]
    if not following and table.trump == NO_TRUMP:
        # Nothing can win by throwing off while trump is hidden; the hider keeps
        # the cards of his suit (they will be trumps).
        choice = cp.throw_off(aware, legal)
    else:
        choice = choose_card(table, legal)
    return _mendikot_card(table, aware, legal, following, choice) if mendikot else choice


def _ruff_after_reveal(table: Table, legal: Sequence[int]) -> int:
    trump = table.trump
    trumps = [c for c in legal if SUIT_OF[c] == trump]
    if not trumps:
        return cp.throw_off(table, legal)
    after = table.seats_after()
    team = table.seat % 2
    led = SUIT_OF[table.trick[0][1]]
    danger = any(s % 2 != team and table.voids[s] >> led & 1 for s in after)
    return max(trumps, key=lambda c: POWER[trump][c]) if danger else lowest(trump, trumps)


def _mendikot_card(table: Table, aware: Table, legal: Sequence[int], following: bool, choice: int) -> int:
    """The tens: grease the partner's sure trick, fight for a trick holding a ten,
    never hand a ten to the opponents when another card will do."""
    tens = [c for c in legal if is_ten(c)]
    if partner_holds(table):
        return tens[0] if tens else choice  # a ten on the partner's sure winner
    seat, card = _winner_card(table)
    trick_tens = sum(is_ten(c) for _, c in table.trick)
    winners = [c for c in legal if cp.beats(table.trump, c, card)]
    if seat % 2 != table.seat % 2 and trick_tens and winners:
        after = table.seats_after()
        opponents_after = [s for s in after if s % 2 != table.seat % 2]
        sure = [c for c in winners if not opponents_after or is_safe(table, c, after)]
        power = POWER[table.trump]
        return min(sure or winners, key=lambda c: (is_ten(c), power[c] if sure or not following else -power[c]))
    if is_ten(choice) and not cp.beats(table.trump, choice, card):
        others = [c for c in legal if not is_ten(c)]
        if others:
            return min(others, key=lambda c: POWER[table.trump][c]) if following else cp.throw_off(aware, others)
    if is_ten(choice) and seat % 2 == table.seat % 2:
        others = [c for c in legal if not is_ten(c)]
        if others:  # the partner leads the trick but not surely: keep the ten back
            return min(others, key=lambda c: POWER[table.trump][c]) if following else cp.throw_off(aware, others)
    return choice


# -- the reveal ---------------------------------------------------------------------------
def should_reveal(table: Table, hider: int, known: int, mendikot: bool, captured: Sequence[int]) -> bool:
    """Ask to see trump (void in the led suit, trump hidden)?"""
    if partner_holds(table):
        return False
    team = table.seat % 2
    seat, _ = _winner_card(table)
    if hider % 2 == team:
        return True  # our suit: a void is a ruff (the hider gets the card back, so he always can)
    if mendikot:
        return any(is_ten(c) for _, c in table.trick) and seat % 2 != team
    return captured[1 - team] >= TRICKS_TO_WIN - 1 and seat % 2 != team


# -- Be-Ranga -------------------------------------------------------------------------
def set_trump_card(table: Table, legal: Sequence[int]) -> int:
    """Void while no trump is set: the card makes its suit trump, so choose the
    suit we are longest and strongest in, and play its lowest card."""
    hand = list(cards_in(table.hand))
    suit = max({SUIT_OF[c] for c in legal}, key=lambda s: cp.suit_points(hand, s))
    return min((c for c in legal if SUIT_OF[c] == suit), key=rank_of)


def beranga_table(table: Table, trump_trick: int) -> Table:
    """No pair captures before the trick after the trump-setting trick: while that
    holds, this trick's place in a pair is worth nothing more than the pile."""
    number = table.tricks_played + 1
    if table.trump == NO_TRUMP or number <= trump_trick:
        return replace(table, open_seat=-1)
    return table


def choose_beranga(table: Table, legal: Sequence[int], trump_trick: int) -> int:
    if len(legal) == 1:
        return legal[0]
    if table.trump == NO_TRUMP:
        if table.trick and SUIT_OF[legal[0]] != SUIT_OF[table.trick[0][1]]:
            return set_trump_card(table, legal)
        if not table.trick:
            bosses = [c for c in legal if cp.is_boss(table, c)]
            if bosses:
                return choose_lead(table, bosses)
            hand = table.hand
            return min(legal, key=lambda c: ((hand & SUIT_MASKS[SUIT_OF[c]]).bit_count(), rank_of(c)))
    return choose_card(beranga_table(table, trump_trick), legal)


# -- the rules: one decision for the seat to move ----------------------------------------
def decide(table: Table, legal: Sequence[int], game: str) -> int:
    """The rules' action for a relative (the one set of expert rules, for the bot
    and the rollouts); ``legal`` without new cards."""
    if len(legal) == 1:
        return legal[0]
    cards = [a for a in legal if a < 52]
    if game == "be-ranga":
        return choose_beranga(table, cards, table.trump_trick)
    mendikot = game == "mendikot"
    if table.phase in (CALLING, PARTNER_CALLING):
        choice = hide_choice(cards_in(table.hand), PASS in legal, mendikot)
        return PASS if choice is None else HIDE + choice
    if not table.trick:
        change = _change(table, legal)
        if change is not None:
            return change
    known = table.trump if table.trump != NO_TRUMP else (
        SUIT_OF[table.own_down] if table.own_down >= 0 else NO_TRUMP)
    if REVEAL in legal and should_reveal(table, table.trump_by, known, mendikot, table.captured):
        return REVEAL
    return choose_relative(table, cards, known, table.trump_hidden, mendikot, table.after_reveal)


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
    """The family's candidates (equal cards once); in Mendikot a ten is never
    equal to its neighbours, and of the cards to put face down only each suit's
    lowest (and its ten in Mendikot) are tried."""
    assert isinstance(obs, CourtPieceObservation)
    legal = cp.bot_actions(obs)
    kept = set(cp.distinct_actions(obs))
    mendikot = obs.game == "mendikot"
    if mendikot:
        gone = cp.played_mask(obs)
        kept |= {t for t in legal if t.startswith("play ") and _ten_matters(gone, parse_card(t.split()[1]))}
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
    return cp.sparing_partner(obs, [t for t in legal if t in kept])  # again: a ten of trump may be back


def _ten_matters(gone: int, c: int) -> bool:
    """A ten, or a card whose next lower live card is a ten (not equivalent in Mendikot)."""
    if is_ten(c):
        return True
    below = c - 1
    while below >= 0 and SUIT_OF[below] == SUIT_OF[c] and gone >> below & 1:
        below -= 1
    return below >= 0 and SUIT_OF[below] == SUIT_OF[c] and is_ten(below)


# -- search ------------------------------------------------------------------------
ROLLOUTS_PER_MS = 2.4
"""Rollouts per millisecond of budget on the 2-core machine, so that a 250 ms budget
costs about 250 ms CPU at p95 in the dearest relative (session 4, compiled kernel,
inference weights on: ``bench GAME --search --decisions 30`` at 1.2 gave p95 117 ms
in Hidden Trump, 96 in Be-Ranga, 121 in Mendikot on a loaded machine; 1.2 before)."""


def search_game(obs: Observation) -> SearchGame:
    from tricktable.games import get_spec

    return SearchGame(get_spec(obs.game), policy, team_value, weight=WEIGHT, rules=heuristic_text,
                      playout=partial(cp.playout, card_rules=KERNEL_CARD_RULES.get(obs.game, 0)))


def _spec() -> GameSpec:
    from tricktable.games.courtpiece import HIDDEN_TRUMP

    return HIDDEN_TRUMP


SEARCH = SearchGame(_spec(), policy, team_value, weight=WEIGHT, rules=heuristic_text)
"""The spec in ``SEARCH`` is only a default: ``search_game`` picks the observation's game."""


def worlds_for(budget_ms: float, actions: int = 1, inference: bool = True) -> int:
    return max(3, int(budget_ms * ROLLOUTS_PER_MS / max(1, actions)))

