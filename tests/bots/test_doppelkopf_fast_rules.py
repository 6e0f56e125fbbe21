"""The Doppelkopf bot's fast ways to its rules' decisions agree with the rules as written:
the announcement the fast playout and inference's card replay decide on the hand's masks
(``doppelkopf_kernel.rules_announce``) is the one ``bots.doppelkopf.announcement`` makes
(the rollout policy, no bock), for every rank table, announcement, team knowledge and
contract, compiled and pure Python; and the rollout policy's reservations and poverty
cards (``heuristic_action``'s shortcuts) are the rules' choice among the legal texts."""

from __future__ import annotations

import random
from types import ModuleType

import pytest

from tricktable import speedups
from tricktable.bots import doppelkopf, doppelkopf_kernel
from tricktable.games.doppelkopf.actions import ACCEPT, ANNOUNCE_RE, POVERTY, SCHWARZ
from tricktable.games.doppelkopf.observation import Contract, Phase, Situation
from tricktable.cards import COPY_OFFSET
from tricktable.core.protocol import Deal
from tricktable.games.doppelkopf import house
from tricktable.games.doppelkopf.rules import FACES, NORMAL, TRUMP_MASK, TRUMP_ORDER
from tricktable.games.doppelkopf.spec import SPEC
from tricktable.games.doppelkopf.state import GIVING, OFFERING, RESERVING, RETURNING, DoppelkopfState

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


def _rules_choice(state: DoppelkopfState) -> int:
    """The rules on the seat's ``Situation`` and the legal texts (``choose_text``)."""
    legal = state.legal_actions()
    texts = [state.action_text(a) for a in legal]
    return state.parse_action(doppelkopf.choose_text(state.situation(state.to_move), texts))


def _poor_deal(rng: random.Random, options: dict[str, object]) -> Deal:
    """A deal in which a random seat holds at most three trumps (it may declare poverty)."""
    deck = list(house.deck(options))
    size = house.hand_size(options)
    trumps = [c for c in deck if TRUMP_MASK[NORMAL] >> (c % COPY_OFFSET) & 1]
    plain = [c for c in deck if c not in trumps]
    poor = rng.sample(trumps, rng.randrange(4))
    poor += rng.sample(plain, size - len(poor))
    rest = [c for c in deck if c not in poor]
    rng.shuffle(rest)
    seat = rng.randrange(4)
    hands = [rest[size * k:size * (k + 1)] for k in range(3)]
    hands.insert(seat, poor)
    return Deal(rng.randrange(4), tuple(tuple(sorted(hand)) for hand in hands))


@pytest.mark.parametrize("options", [{}, {"without_nines": True, "throwing_in": True}, {"tournament_list": True}])
def test_the_rollout_policy_makes_the_rules_reservations_and_exchanges(options):
    """Deals where a seat may declare poverty: every reservation, then the poor hand's
    three cards, the offers and the taker's return (random choices too, so that the hands
    vary), each the rules' choice."""
    options = SPEC.normalize_options(options)
    rng = random.Random(str(options))
    checked = {RESERVING: 0, GIVING: 0, OFFERING: 0, RETURNING: 0}
    for _ in range(600):
        state = SPEC.new_deal(_poor_deal(rng, options), options)
        while state.phase in checked:
            legal = state.legal_actions()
            if len(legal) > 1:
                assert doppelkopf.heuristic_action(state) == _rules_choice(state)
                checked[state.phase] += 1
            if POVERTY in legal or (ACCEPT in legal and rng.random() < 0.7):
                state.apply(POVERTY if POVERTY in legal else ACCEPT)  # seek the exchange
            else:
                state.apply(rng.choice(list(legal)) if rng.random() < 0.3 else doppelkopf.heuristic_action(state))
    assert min(checked.values()) >= 120, checked
