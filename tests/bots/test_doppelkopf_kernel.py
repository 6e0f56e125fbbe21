"""The Doppelkopf kernel's own copies of the bot's decisions agree with the bot's rules:
the announcement the fast playout and inference's card replay decide on the hand's masks
(``doppelkopf_kernel.rules_announce``) is the one ``bots.doppelkopf.announcement`` makes
(the rollout policy, no bock), for every rank table, announcement, team knowledge and
contract, compiled and pure Python."""

from __future__ import annotations

import random
from types import ModuleType

import pytest

from tricktable import speedups
from tricktable.bots import doppelkopf, doppelkopf_kernel
from tricktable.games.doppelkopf.actions import ANNOUNCE_RE, SCHWARZ
from tricktable.games.doppelkopf.observation import Contract, Phase, Situation
from tricktable.games.doppelkopf.rules import FACES, TRUMP_ORDER
from tricktable.games.doppelkopf.spec import SPEC
from tricktable.games.doppelkopf.state import DoppelkopfState

_TEXT = DoppelkopfState(SPEC, SPEC.deal_from_seed("kernel", 0, SPEC.normalize_options({})),
                        SPEC.normalize_options({})).action_text


def _kernels() -> list[ModuleType]:
    """The pure module, and the compiled one the bots run (it must be there and fresh)."""
    fresh, why = speedups.compiled_is_fresh(doppelkopf_kernel.__name__)
    assert fresh, why
    assert doppelkopf.kernel is not doppelkopf_kernel, speedups.status()
    doppelkopf.install_tables(doppelkopf_kernel)  # the pure module as the bots would install it
    return [doppelkopf_kernel, doppelkopf.kernel]


def _strong_hand(rng: random.Random, table: int) -> list[int]:
    """Twelve faces of the double deck, often with many of ``table``'s trumps."""
    deck = [f for f in sorted(FACES) for _ in range(2)]
    trumps = [f for f in deck if f in TRUMP_ORDER[table]]
    hand = rng.sample(trumps, min(len(trumps), rng.randrange(13))) if trumps else []
    for f in hand:
        deck.remove(f)
    return sorted(hand + rng.sample(deck, 12 - len(hand)))


@pytest.mark.parametrize("kernel", _kernels(), ids=["pure", "compiled"])
def test_the_kernel_announces_exactly_what_the_rules_announce(kernel):
    rng = random.Random(14)
    seen: dict[tuple[int, bool], int] = {}
    for _ in range(6000):
        table = rng.randrange(len(TRUMP_ORDER))
        hand = _strong_hand(rng, table)
        once = both = 0
        for f in hand:
            both |= once & 1 << f
            once |= 1 << f
        action = rng.randrange(ANNOUNCE_RE, SCHWARZ + 1)
        partners = rng.choice([0, 0b0010, 0b1010])
        contract = rng.choice([Contract.NORMAL, Contract.SILENT_SOLO, Contract.MARRIAGE, Contract.solo(1)])
        situation = Situation(0, Phase.PLAYING, contract, table, tuple(hand), (), 0, 0,
                              frozenset(s for s in range(4) if partners >> s & 1))
        expected = doppelkopf.announcement(situation, [_TEXT(action)]) is not None
        assert kernel.rules_announce(action, once, both, table, partners, contract.is_solo) == expected, (
            hand, table, action, partners, contract)
        seen[action, expected] = seen.get((action, expected), 0) + 1
    # Re, Kontra and no 90 both made and declined; the deeper ones never made.
    assert all(seen.get((ANNOUNCE_RE + k, made), 0) >= 20 for k in range(3) for made in (True, False)), seen
    assert not any(made for (action, made) in seen if action > ANNOUNCE_RE + 2)
