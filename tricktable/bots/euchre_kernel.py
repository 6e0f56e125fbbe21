"""Euchre's open-hand solver on bitmasks (issue 14, Speed): can the makers still win
``need`` of the ``left`` tricks with best play by all, every hand open?

Cards are in the solver's numbering for the trump (``bots.euchre.SolverCards``): each
effective suit is a block of eight bits in order of power, the trumps' block highest,
so a card beats the trick's best if its bit is higher and it follows suit or trumps.
``block_of[bit]`` is the mask of a bit's block.  The answer depends on that numbering
alone, not on which suit is trump, so positions between tricks are memoised across
solves under (hands, seat to lead, tricks needed, makers, seats sitting out): the
candidates of one sampled world, and the two thresholds of one solve, share most of
them.  Of two cards of one hand with no card still in play between them only one is
tried.

A compiled kernel (mypyc, ``tricktable.speedups``) is type-checked alone, so it imports
nothing of tricktable; the pure-Python module is the fallback and the reference.
"""

from __future__ import annotations

TRUMP_BLOCK = 0xFF << 24
"""The solver's bits of the trumps."""
MEMO_LIMIT = 200_000
"""Positions kept between solves; the memo starts afresh beyond this."""

_MEMO: dict[tuple[int, int, int, int, int], bool] = {}
"""(hands, seat to lead | tricks needed << 2 | makers << 5 | seats out << 6) -> reached."""


def reach(hands: list[int], turn: int, need: int, left: int, played: int, led: int, win_seat: int, win_bit: int,
          makers: int, out: int, following: list[int], block_of: list[int]) -> bool:
    """Whether the makers (team ``makers``: seats of that parity) win ``need`` of the
    ``left`` tricks from here: ``hands`` in solver bits, ``turn`` to play the
    ``played``-th card of the trick (0: to lead) whose led block is ``led`` and best card
    ``win_bit`` (of ``win_seat``); ``out``: the seats sitting out, ``following[seat]``:
    the next seat that plays."""
    if len(_MEMO) > MEMO_LIMIT:
        _MEMO.clear()
    active = 4 - ((out & 1) + (out >> 1 & 1) + (out >> 2 & 1) + (out >> 3 & 1))
    situation = (makers | out << 1) << 5
    if not played:
        return _lead(hands, turn, need, left, makers, situation, active, following, block_of)
    return _play(hands, turn, need, left, played, led, win_seat, win_bit, makers, situation, active, following,
                 block_of)


def _lead(hands: list[int], turn: int, need: int, left: int, makers: int, situation: int, active: int,
          following: list[int], block_of: list[int]) -> bool:
    if need <= 0:
        return True
    if need > left:
        return False
    key = (hands[0], hands[1], hands[2], hands[3], turn | need << 2 | situation)
    known = _MEMO.get(key)
    if known is None:
        known = _play(hands, turn, need, left, 0, -1, -1, -1, makers, situation, active, following, block_of)
        _MEMO[key] = known
    return known


def _play(hands: list[int], turn: int, need: int, left: int, played: int, led: int, win_seat: int, win_bit: int,
          makers: int, situation: int, active: int, following: list[int], block_of: list[int]) -> bool:
    hand = hands[turn]
    playable = hand & led if played else hand
    if not playable:
        playable = hand
    in_play = hands[0] | hands[1] | hands[2] | hands[3]
    if win_bit >= 0:
        in_play |= 1 << win_bit
    maximizing = turn % 2 == makers
    last = played + 1 == active
    nxt = following[turn]
    above = -1  # the card tried before, when of the same block
    while playable:
        b = playable.bit_length() - 1
        playable ^= 1 << b
        if above >= 0 and block_of[above] == block_of[b] and not in_play & ((1 << above) - (2 << b)):
            above = b
            continue  # next in power to the card tried before: the same play
        above = b
        if not played:
            new_led, new_seat, new_bit = block_of[b], turn, b
        elif b > win_bit and (block_of[b] == block_of[win_bit] or block_of[b] == TRUMP_BLOCK):
            new_led, new_seat, new_bit = led, turn, b
        else:
            new_led, new_seat, new_bit = led, win_seat, win_bit
        hands[turn] = hand & ~(1 << b)
        if last:
            gained = 1 if new_seat % 2 == makers else 0
            value = _lead(hands, new_seat, need - gained, left - 1, makers, situation, active, following, block_of)
        else:
            value = _play(hands, nxt, need, left, played + 1, new_led, new_seat, new_bit, makers, situation, active,
                          following, block_of)
        hands[turn] = hand
        if value == maximizing:
            return value
    return not maximizing
