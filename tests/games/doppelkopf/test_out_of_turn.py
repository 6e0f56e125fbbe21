"""Announcements out of turn (``shared/rules/doppelkopf.md``, "Announcements": "at any moment
before that player's next card, also while it is not his turn"), through the protocol's
``legal_actions_for`` / ``apply_for`` / ``act`` and the record notation ``"<seat>: <text>"``."""

from __future__ import annotations

import json
import random

import pytest

from tricktable.errors import IllegalAction, NotYourTurn, RecordError
from tricktable.catalog import replay
from tricktable.core.record import record_of
from tricktable.games.doppelkopf import SPEC
from tricktable.games.doppelkopf import state as st
from tricktable.games.doppelkopf.rules import RE


def normal(dk, seed: int = 0) -> st.DoppelkopfState:
    """A normal game: seats 1 and 2 hold the Q♣ (Re), seats 0 and 3 are Kontra; seat 0 leads."""
    return dk.run(dk.start(["", "QC", "QC", ""], dealer=3, seed=seed), "healthy", "healthy", "healthy", "healthy")


def cards_until(state: st.DoppelkopfState, done) -> st.DoppelkopfState:
    """Play the first legal card (no announcement) until ``done(state)``."""
    while not done(state):
        state.apply(next(a for a in state.legal_actions() if a < 52))
    return state


def snapshot(state: st.DoppelkopfState) -> list:
    return [state.history[:], state.levels[:], state.closed[:], state.to_move, [state.view(s) for s in range(4)]]


def assert_closed_after(state: st.DoppelkopfState, seat: int, cards: int, text: str, reason: str) -> None:
    """Play on until ``seat`` holds ``cards`` cards and someone else is to move: then nothing is
    offered to it out of turn, and ``text`` is refused for ``reason`` without changing anything."""
    cards_until(state, lambda s: s.counts[seat] == cards and s.to_move != seat)
    assert state.legal_actions_for(seat) == ()
    before = snapshot(state)
    with pytest.raises(IllegalAction, match=reason):
        state.act(seat, text)
    assert snapshot(state) == before


def test_person_answers_a_bots_re_before_his_own_card(dk):
    """Announcements: seat 0 (the person) has played his card of the trick; seat 1 says Re on its
    turn and plays; seat 0 answers Kontra while seat 2 is to move."""
    state = normal(dk)
    state.act(0, state.legal_texts()[1])
    state.act(1, "re")
    state.act(1, next(t for t in state.legal_texts() if t.startswith("play")))
    assert state.to_move == 2
    assert state.legal_actions_for(0) == (st.ANNOUNCE_KONTRA,)
    assert state.view(0)["legal"] == ["kontra"] and state.view(0)["to_move"] == 2
    assert state.act(0, "kontra") == st.ANNOUNCE_KONTRA
    assert state.levels == [0, 0] and state.to_move == 2  # announcing passes no turn
    assert state.view(2)["teams"][0] == "kontra"
    assert state.view(3)["actions"][-1] == [0, "kontra"]
    assert state.legal_actions_for(0) == (st.NO_90,)  # 11 cards: a timely Kontra, no 90 may follow


def test_person_replies_with_ten_cards_and_is_then_closed(dk):
    """Announcements: seat 0 won trick 1 and led trick 2 (10 cards); seat 1 says Re; seat 0 may
    still reply Kontra with 10 cards (one fewer than Re needed), a late reply that ends
    Kontra's announcements."""
    for seed in range(60):
        state = cards_until(normal(dk, seed), lambda s: len(s.tricks) == 1)
        if state.to_move == 0:
            break
    else:
        pytest.fail("no seed lets seat 0 win trick 1")
    state.act(0, state.legal_texts()[-1])
    state.act(1, "re")
    state.act(1, next(t for t in state.legal_texts() if t.startswith("play")))
    assert state.counts[0] == 10 and state.legal_actions_for(0) == (st.ANNOUNCE_KONTRA,)
    state.act(0, "kontra")
    assert state.closed == [False, True]
    assert state.legal_actions_for(0) == () and not any(a >= 52 for a in state.legal_actions_for(3))


def test_announcement_after_the_players_card_of_the_trick_is_refused(dk):
    """Announcements: Re needs 11 cards; once seat 1 has played its card of trick 2 (10 cards),
    its Re is refused, out of turn as on its turn, and nothing changes."""
    state = cards_until(normal(dk), lambda s: len(s.tricks) == 1 and s.to_move not in (1,))
    assert st.ANNOUNCE_RE in state.legal_actions_for(1)  # 11 cards, before its next card
    assert_closed_after(state, 1, 10, "re", "needs 11 cards")


def test_card_count_limits_out_of_turn(dk):
    """Announcements: each level needs its own card count, out of turn too: with Re said,
    no 90 (≥ 10 cards) is open to Re's other player while he holds 10, not with 9."""
    state = normal(dk)
    state.act(0, state.legal_texts()[1])
    state.act(1, "re")  # seat 1, 12 cards, on its turn
    assert state.legal_actions_for(2) == (st.NO_90,)  # seat 2: Re's partner, 12 cards, out of turn
    cards_until(state, lambda s: s.counts[2] == 10 and s.to_move != 2)
    assert state.legal_actions_for(2) == (st.NO_90,)
    assert_closed_after(state, 2, 9, "no 90", "needs 10 cards")


def test_several_announcements_at_once_out_of_turn(dk):
    """Announcements: several at once, each after its predecessor and meeting its own count."""
    state = normal(dk)
    dk.run(state, state.legal_texts()[1])  # seat 0 plays; seat 1 to move
    for text in ("re", "no 90", "no 60", "no 30", "schwarz"):
        state.act(2, text)
    assert state.levels[RE] == 4 and state.to_move == 1
    assert state.legal_actions_for(2) == () and state.legal_actions_for(1)[0] < 52


def test_out_of_turn_only_announcements(dk):
    """Out of turn only an announcement may be made; a card is not your turn."""
    state = normal(dk)
    before = snapshot(state)
    with pytest.raises(NotYourTurn):
        state.act(1, "play " + state.view(1)["hand"][0])
    with pytest.raises(IllegalAction, match="next announcement"):
        state.act(1, "no 90")  # out of order
    with pytest.raises(IllegalAction, match="next announcement is 'kontra'"):
        state.act(3, "re")  # the other team's word
    assert snapshot(state) == before


def test_no_announcement_out_of_turn_before_the_play(dk):
    """Announcements begin with the play: during the reservations none is offered out of turn."""
    state = dk.start(["", "QC", "QC", ""], dealer=3)
    assert all(state.legal_actions_for(s) == () for s in range(4) if s != state.to_move)
    with pytest.raises(IllegalAction, match="begin with the play"):
        state.act(1, "re")


def test_no_announcement_out_of_turn_before_the_marriage_is_decided(dk):
    """Announcements: in a marriage no one may announce until the deciding trick is complete."""
    state = dk.run(dk.start(["QC QC", "", "", ""], dealer=3), "marriage", "healthy", "healthy", "healthy")
    assert all(a < 52 for s in range(4) for a in state.legal_actions_for(s))
    with pytest.raises(IllegalAction, match="marriage"):
        state.act(2, "kontra")


def test_record_writes_the_acting_seat_and_replays(dk):
    """Records: an action by a seat that is not to move reads ``"<seat>: <text>"`` and replays
    to the identical state; entries without a seat are the seat to move's."""
    state = normal(dk)
    dk.run(state, state.legal_texts()[1])
    state.act(2, "re")
    state.act(3, "kontra")
    record = record_of(state)
    assert record.actions[-2:] == ["2: re", "3: kontra"]
    again = replay(json.loads(record.dumps()))
    assert again.history == state.history and again.out_of_turn_history() == {5: 2, 6: 3}
    assert [again.view(s) for s in range(4)] == [state.view(s) for s in range(4)]


def test_replay_validates_out_of_turn_entries(dk):
    """Records: a seat prefix is checked like any action — the seat to move writes none, a card
    is never out of turn, and an announcement the seat may not make is refused (action number given)."""
    state = normal(dk)
    dk.run(state, state.legal_texts()[1])
    data = record_of(state).to_json()
    for bad, reason in ((f"{state.to_move}: re", "is to move"), ("2: play QC", "turn"), ("0: re", "next announcement"),
                        ("7: re", "no seat")):
        with pytest.raises(RecordError, match=reason) as error:
            replay({**data, "actions": [*data["actions"], bad]})
        assert error.value.action_number == len(data["actions"]) + 1


def test_match_records_out_of_turn_actions(dk):
    """A match forwards out-of-turn actions to its deal and its record keeps the acting seat."""
    match = SPEC.new_match("out-of-turn", SPEC.normalize_options({}))
    rng = random.Random(0)
    announced = []
    while len(announced) < 3 and not match.is_terminal():
        others = [s for s in range(4) if s != match.to_move and match.legal_actions_for(s)]
        if others:
            seat = others[0]
            match.apply_for(seat, match.legal_actions_for(seat)[0])
            announced.append(seat)
        else:
            match.apply(rng.choice([a for a in match.legal_actions() if a < 52 or a == st.HEALTHY] or
                                   list(match.legal_actions())))
    record = record_of(match)
    assert sum(":" in text for text in record.actions) == len(announced) == 3
    again = replay(json.loads(record.dumps()))
    assert again.history == match.history and again.view(0) == match.view(0)
