"""Provably fair deals: the commitment before the game, the seeds after it,
``tricktable verify`` on an honest record and on tampered ones, and the
derivation of docs/fairness.md followed step by step without our helpers."""

from __future__ import annotations

import copy
import hashlib
import json

import pytest

from tricktable.cli import main
from tricktable.server.trust import fairness as fairness_module
from tests.harness import finish


def fair_game(client, game="euchre", client_seed="my-own-value-42"):
    offer = client.post("/api/commitments").json()
    answer = client.post("/api/games", json={"game": game, "fairness": {"nonce": offer["nonce"], "client_seed": client_seed}})
    assert answer.status_code == 201, answer.text
    return offer, answer.json()


def test_the_commitment_comes_first_and_the_seed_at_the_end(client):
    offer, state = fair_game(client)
    assert state["fairness"] == {"commitment": offer["commitment"], "client_seed": "my-own-value-42",
                                 "server_seed": None, "revealed": False}
    answer = client.get(f"/api/games/{state['id']}/record")
    assert answer.status_code == 403 and "over" in answer.json()["detail"]
    state = finish(client, state, seed=4)
    server_seed = state["fairness"]["server_seed"]
    assert hashlib.sha256(server_seed.encode()).hexdigest() == offer["commitment"]
    record = client.get(f"/api/games/{state['id']}/record").json()
    assert record["seed"] == hashlib.sha256(f"{server_seed}/client/my-own-value-42".encode()).hexdigest()


def test_a_commitment_is_used_once(client):
    offer = client.post("/api/commitments").json()
    body = {"game": "euchre", "fairness": {"nonce": offer["nonce"], "client_seed": "a"}}
    assert client.post("/api/games", json=body).status_code == 201
    body["fairness"]["client_seed"] = "b"  # grinding for a better deal under the same commitment
    assert client.post("/api/games", json=body).status_code == 409


def test_the_client_seed_changes_the_cards(client):
    hands = set()
    for value in ("a", "b", "c"):
        offer = client.post("/api/commitments").json()
        state = client.post("/api/games", json={"game": "euchre", "fairness": {"nonce": offer["nonce"], "client_seed": value}}).json()
        hands.add(str(state["view"]["hand"]))
    assert len(hands) == 3


@pytest.fixture
def honest_record(client, tmp_path):
    _offer, state = fair_game(client)
    state = finish(client, state, seed=4)
    record = client.get(f"/api/games/{state['id']}/record").json()
    assert len(record["deals"]) >= 2
    return record


def run_verify(tmp_path, record, capsys):
    path = tmp_path / "record.json"
    path.write_text(json.dumps(record))
    code = main(["verify", str(path)])
    return code, capsys.readouterr().out


def test_verify_accepts_an_honest_record(honest_record, tmp_path, capsys):
    code, out = run_verify(tmp_path, honest_record, capsys)
    assert code == 0 and out.startswith("verified") and f"all {len(honest_record['deals'])} deals" in out


def _swap_two_cards(record):
    hands = record["deals"][0]["hands"]
    first, second = hands[0].split(), hands[1].split()
    first[0], second[0] = second[0], first[0]
    hands[0], hands[1] = " ".join(first), " ".join(second)


@pytest.mark.parametrize("tamper, words", [
    (_swap_two_cards, "deal 1"),
    (lambda r: r["fairness"].update(server_seed="0" * 64), "commitment"),
    (lambda r: r["fairness"].update(commitment="0" * 64), "commitment"),
    (lambda r: r["fairness"].update(client_seed="other"), "match seed"),
    (lambda r: r.update(seed="f" * 64), "match seed"),
    (lambda r: r["deals"].pop(), "lists"),
    (lambda r: r.update(actions=r["actions"][:3] + ["play XX"] + r["actions"][4:]), "replay"),
])
def test_verify_refuses_a_tampered_record(honest_record, tmp_path, capsys, tamper, words):
    record = copy.deepcopy(honest_record)
    tamper(record)
    code, out = run_verify(tmp_path, record, capsys)
    assert code == 1 and out.startswith("NOT verified") and words in out, out


def test_the_daily_seed_is_revealed_when_its_day_has_ended(client, monkeypatch):
    state = client.post("/api/daily/euchre").json()
    assert state["fairness"]["server_seed"] is None and len(state["fairness"]["commitment"]) == 64
    assert client.get(f"/api/games/{state['id']}/record").status_code == 403
    state = finish(client, state, seed=4)
    assert state["fairness"]["server_seed"] is None  # over, but the day is not: others still play it
    assert client.get(f"/api/games/{state['id']}/record").status_code == 403
    monkeypatch.setattr(fairness_module, "utc_day", lambda now=None: "9999-12-31")
    record = client.get(f"/api/games/{state['id']}/record").json()
    seed = record["fairness"]["server_seed"]
    assert record["seed"] == seed and record["fairness"]["client_seed"] is None
    assert hashlib.sha256(seed.encode()).hexdigest() == state["fairness"]["commitment"]
    assert "bot_secret" not in json.dumps(record) and client.app.state.room.store.load(state["id"]).bot_secret not in json.dumps(record)


# -- docs/fairness.md, followed literally ---------------------------------------------------
def stream_words(seed: str):
    counter = 0
    while True:
        block = hashlib.sha256(seed.encode() + b"\x00" + counter.to_bytes(8, "big")).digest()
        for i in range(0, 32, 4):
            yield int.from_bytes(block[i:i + 4], "big")
        counter += 1


def doc_shuffle(deck, seed):
    words, cards = stream_words(seed), list(deck)
    for i in range(len(cards) - 1, 0, -1):
        n = i + 1
        limit = n * (2**32 // n)
        while (w := next(words)) >= limit:
            pass
        j = w % n
        cards[i], cards[j] = cards[j], cards[i]
    return cards


def test_the_documented_derivation_gives_the_euchre_deals(honest_record):
    ranks, suits = ["9", "10", "J", "Q", "K", "A"], "CDHS"
    deck = [r + s for s in suits for r in ranks]  # clubs, diamonds, hearts, spades; nine to ace
    for deal in honest_record["deals"]:
        seed = hashlib.sha256(f"{honest_record['seed']}/deal/{deal['index']}".encode()).hexdigest()
        cards, hands = doc_shuffle(deck, seed), [[], [], [], []]
        for packets in ((3, 2, 3, 2), (2, 3, 2, 3)):
            for offset, size in enumerate(packets):
                hands[(deal["dealer"] + 1 + offset) % 4] += cards[:size]
                cards = cards[size:]
        assert [" ".join(h) for h in hands] == deal["hands"] and " ".join(cards) == deal["rest"]
