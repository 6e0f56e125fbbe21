"""World sampling respects everything public ("World sampling"): voids,
team evidence, the marriage player's queens, the poverty exchange as each seat
saw it, and hidden losing reservations."""

from __future__ import annotations

import random

from tricktable.cards import card_text, cards_of, parse_card
from tricktable.games.doppelkopf import SPEC
from tricktable.games.doppelkopf import state as st
from tricktable.games.doppelkopf.rules import NORMAL, QC, TRUMP_MASK, face_mask

QC_TEXT = card_text(QC)


def worlds(state: st.DoppelkopfState, seat: int, count: int = 30, seed: int = 0):
    rng = random.Random(seed)
    obs = state.observe(seat)
    for _ in range(count):
        world = SPEC.sample_world(obs, rng)
        assert world.observe(seat) == obs
        yield world


def holds(world: st.DoppelkopfState, seat: int, text: str) -> bool:
    return bool(face_mask(world.hands[seat]) >> parse_card(text) & 1)


def test_announced_kontra_never_holds_queen_of_clubs(dk):
    state = dk.run(dk.start(["", "", "", ""], dealer=3, seed=4), "healthy", "healthy", "healthy", "healthy")
    kontra = next(s for s in range(1, 4) if state.team[s] == 1)
    while state.to_move != kontra:
        state.apply(next(a for a in state.legal_actions() if a < 52))
    dk.run(state, "kontra")
    observer = next(s for s in range(4) if s != kontra)
    assert all(not holds(w, kontra, QC_TEXT) for w in worlds(state, observer))


def test_announced_re_holds_queen_of_clubs(dk):
    state = dk.run(dk.start(["9C", "QC", "", "QC"], dealer=3), "healthy", "healthy", "healthy", "healthy")
    dk.run(state, "play 9C", "re")
    assert all(holds(w, 1, QC_TEXT) for w in worlds(state, 0))
    assert any(holds(w, 2, QC_TEXT) for w in worlds(state, 0))  # the other Q♣: anywhere but the known Kontra


def test_voids_shown_in_play_are_kept(dk):
    state = dk.run(dk.start(["10H", "9C 9C AC AC 10C 10C KC KC 9S 9S AS AS", "", ""], dealer=3),
                   "healthy", "healthy", "healthy", "healthy", "play 10H", "play 9C")
    trumps = TRUMP_MASK[NORMAL]
    assert all(face_mask(w.hands[1]) & trumps == 0 for w in worlds(state, 2))


def test_marriage_player_keeps_both_queens(dk):
    state = dk.run(dk.start(["", "QC QC", "", ""], dealer=3), "healthy", "marriage", "healthy", "healthy")
    assert all([card_text(c % 64) for c in cards_of(w.hands[1])].count(QC_TEXT) == 2 for w in worlds(state, 0))


POOR = "9C 9C AC AC 10C 10C KC KC 9S 9S AS QD"


def poverty_played(dk) -> st.DoppelkopfState:
    state = dk.run(dk.start([POOR, "", "", ""], dealer=3), "poverty", "healthy", "healthy", "healthy",
                   "give 9C 9C QD", "decline", "accept")
    return dk.run(state, state.legal_texts()[0], "play AC")


def test_poverty_seen_from_outside(dk):
    """A third seat does not know the exchanged cards: the worlds vary them, but the
    poor hand never kept a trump."""
    state = poverty_played(dk)
    given = {tuple(sorted(w.given)) for w in worlds(state, 3)}
    assert len(given) > 1
    for world in worlds(state, 3):
        dealt_trumps = sum(TRUMP_MASK[NORMAL] >> (c % 64) & 1 for c in world.deal.hands[0])
        assert dealt_trumps <= 3


def test_poverty_seen_by_giver_and_taker(dk):
    """Giver and taker know the three cards each way: every world agrees."""
    state = poverty_played(dk)
    for seat in (0, 2):
        assert {(tuple(sorted(c % 64 for c in w.given)), tuple(sorted(c % 64 for c in w.returned)))
                for w in worlds(state, seat, count=10)} == {
            (tuple(sorted(c % 64 for c in state.given)), tuple(sorted(c % 64 for c in state.returned)))}


def test_hidden_losing_reservation_is_explained(dk):
    """Seat 0 reserved before the solo of seat 1 and lost: it had a poverty or a marriage hand."""
    state = dk.run(dk.start(["QC QC", "", "", ""], dealer=3), "marriage", "solo jacks", "healthy", "healthy")
    for world in worlds(state, 2):
        assert world.reservations[0] in (st.MARRIAGE, st.POVERTY)
