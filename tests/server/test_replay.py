"""History, replay and records down and up: a person's games kept apart
from another's, newest first, filtered and paged; a finished game told again
action by action with every hand face up, for its owner and a share link's
holder only (and the daily's only once its day has ended); the downloaded
record read by ``tricktable replay``; an uploaded record replayed or refused."""

from __future__ import annotations

import copy
import json
import random

import pytest
from fastapi.testclient import TestClient

from tricktable import cli
from tricktable.catalog import get_spec, replay
from tricktable.core.protocol import NUM_SEATS
from tricktable.core.record import record_of
from tricktable.server.play.replay import apply_ops, split_views, walkthrough
from tricktable.server.trust import fairness as fairness_module
from tests.harness import finish, settle


def stranger_of(client: TestClient) -> TestClient:
    other = TestClient(client.app)
    other.post("/api/identity")
    return other


def new_game(client: TestClient, game: str = "euchre") -> dict:
    answer = client.post("/api/games", json={"game": game})
    assert answer.status_code == 201, answer.text
    return settle(client, answer.json())


def random_match(game: str, seed: int = 1):
    spec = get_spec(game)
    state = spec.new_match(f"replay-{seed}", spec.normalize_options({}))
    rng = random.Random(seed)
    while not state.is_terminal():
        state.apply_any(rng.choice(list(state.legal_actions())))
    return state


# -- the frames ---------------------------------------------------------------------------
@pytest.mark.parametrize("game", ["doppelkopf", "double-sar", "euchre"])
def test_frames_rebuild_every_seats_view_after_every_action(game):
    final = random_match(game)
    record = record_of(final).to_json()
    told = walkthrough(record)
    public, own = {}, [{} for _ in range(NUM_SEATS)]
    state = get_spec(game).new_match(record["seed"], record["options"])
    applied = 0
    for frame in told["frames"]:
        apply_ops(public, frame.get("pub", []))
        for seat, ops in frame.get("own", {}).items():
            apply_ops(own[int(seat)], ops)
        while applied < frame["at"]:
            state.apply_any(state.parse_action(record["actions"][applied]))
            applied += 1
        if frame.get("end") and not state.is_terminal():
            continue  # a finished deal's frame: its views are the next deal's previous_deal
        views = [state.view(seat) for seat in range(NUM_SEATS)]
        for view in views:
            view["match"].pop("previous_deal", None)
        expected_public, expected_own = split_views(views)
        assert public == expected_public and own == expected_own, frame
        assert all("hand" in {**public, **mine} for mine in own)
    assert applied == len(record["actions"]) and told["actions"] == applied
    assert len(told["deals"]) == len(final.view(0)["match"]["results"])
    assert [told["frames"][i]["deal"] for i in told["deals"]] == list(range(len(told["deals"])))
    ends = [frame for frame in told["frames"] if frame.get("end")]
    assert len(ends) == len(told["deals"])  # each deal ends once, with its score sheet in the match


def test_a_finished_deal_frame_shows_its_last_trick_and_every_hand_as_it_ended():
    record = record_of(random_match("doppelkopf")).to_json()
    told = walkthrough(record)
    public, own = {}, [{} for _ in range(NUM_SEATS)]
    for frame in told["frames"]:
        apply_ops(public, frame.get("pub", []))
        for seat, ops in frame.get("own", {}).items():
            apply_ops(own[int(seat)], ops)
        if frame.get("end"):
            break
    assert len(public["tricks"]) == 12 and public["terminal"] is True
    assert all(not {**public, **mine}["hand"] for mine in own)
    assert len(public["match"]["results"]) == 1  # the deal's score sheet


def test_a_single_deal_record_ends_with_its_result():
    spec = get_spec("euchre")
    options = spec.normalize_options({})
    state = spec.new_deal(spec.deal_from_seed("one deal", 0, options), options)
    rng = random.Random(2)
    while not state.is_terminal():
        state.apply_any(rng.choice(list(state.legal_actions())))
    told = walkthrough(record_of(state).to_json())
    public: dict = {}
    for frame in told["frames"]:
        apply_ops(public, frame.get("pub", []))
    assert told["deals"] == [0] and told["frames"][-1]["end"] is True and [f for f in told["frames"] if f.get("end")]
    assert public["result"] == state.view(0)["result"] and public["result"]["lines"]


# -- history ------------------------------------------------------------------------------
def test_the_history_query_pages_newest_first_on_both_databases(database_url):
    from tricktable.store import Store

    store = Store(database_url)
    record = {"format": 1, "game": "euchre", "rules_version": "euchre-1", "options": {}, "kind": "match",
              "seed": "s", "daily": False, "actions": []}
    mine = [store.create_game({**record, "game": game}, "open", owner="me").id
            for game in ("euchre", "doppelkopf", "euchre", "euchre", "doppelkopf")]
    store.create_game(record, "open", owner="someone else")
    pages, before = [], None
    while True:
        page = [row.id for row, _created in store.history("me", limit=2, before=before)]
        pages.append(page)
        if len(page) < 2:
            break
        before = page[-1]
    assert [game for page in pages for game in page] == mine[::-1] and [len(p) for p in pages] == [2, 2, 1]
    assert [row.id for row, _ in store.history("me", game="doppelkopf")] == [mine[4], mine[1]]
    assert store.history("me", before="no such game") == [] and store.history("nobody") == []
    store.close()


def test_history_keeps_identities_apart_newest_first_filtered_and_paged(client):
    mine = [new_game(client, game)["id"] for game in ("euchre", "doppelkopf", "euchre", "double-sar")]
    stranger = stranger_of(client)
    theirs = new_game(stranger)["id"]
    listed = client.get("/api/history").json()
    assert [entry["id"] for entry in listed["games"]] == mine[::-1] and listed["next"] is None
    assert theirs not in json.dumps(listed)
    assert [entry["id"] for entry in stranger.get("/api/history").json()["games"]] == [theirs]
    assert TestClient(client.app).get("/api/history").json() == {"games": [], "next": None}
    euchres = client.get("/api/history", params={"game": "euchre"}).json()["games"]
    assert [entry["id"] for entry in euchres] == [mine[2], mine[0]]
    first = client.get("/api/history", params={"limit": 3}).json()
    second = client.get("/api/history", params={"limit": 3, "before": first["next"]}).json()
    assert [e["id"] for e in first["games"] + second["games"]] == mine[::-1] and second["next"] is None
    assert client.get("/api/history", params={"before": theirs}).json()["games"] == []  # another's cursor
    entry = first["games"][0]
    assert entry["status"] == "open" and entry["level"] == "normal" and entry["result"]["totals"] == [0, 0, 0, 0]
    assert client.get("/api/history", params={"game": "poker"}).status_code == 422
    assert client.get("/api/history", params={"limit": 0}).status_code == 422


def test_a_finished_games_history_entry_says_the_result(client):
    done = finish(client, new_game(client), seed=4)
    entry = client.get("/api/history").json()["games"][0]
    totals = done["view"]["match"]["totals"]
    assert entry["status"] == "over" and entry["result"]["totals"] == totals
    assert entry["result"]["points"] == totals[0]
    assert entry["result"]["won"] == (done["view"]["match"]["winner_team"] == 0)


# -- replay -------------------------------------------------------------------------------
def test_the_replay_answers_its_owner_and_a_share_holder_only_with_nicknames(client):
    assert client.put("/api/nickname", json={"nickname": "Kartenfuchs"}).status_code == 200
    game = new_game(client)
    assert client.get(f"/api/games/{game['id']}/replay").status_code == 409  # not over
    done = finish(client, game, seed=4)
    own = client.get(f"/api/games/{done['id']}/replay")
    assert own.status_code == 200, own.text
    body = own.json()
    assert body["players"] == ["Kartenfuchs", None, None, None] and body["id"] == done["id"]
    record = client.get(f"/api/games/{done['id']}/record").json()
    assert body["actions"] == len(record["actions"]) and body["frames"][-1]["at"] == len(record["actions"])
    stranger, nobody = stranger_of(client), TestClient(client.app)
    for reader in (stranger, nobody):
        assert reader.get(f"/api/games/{done['id']}/replay").status_code == 404
    token = client.post(f"/api/games/{done['id']}/share").json()["token"]
    shared = nobody.get(f"/api/shared/{token}/replay")
    assert shared.status_code == 200
    assert shared.json() == {k: v for k, v in body.items() if k != "id"}
    owner = client.app.state.room.store.load(done["id"]).owner
    assert owner not in shared.text and done["id"] not in shared.text
    assert nobody.get("/api/shared/" + "A" * 32 + "/replay").status_code == 404


def test_the_daily_replay_waits_for_its_day_to_end(client, monkeypatch):
    done = finish(client, client.post("/api/daily/euchre").json(), seed=4)
    assert client.get(f"/api/games/{done['id']}/replay").status_code == 403
    monkeypatch.setattr(fairness_module, "utc_day", lambda now=None: "9999-12-31")
    answer = client.get(f"/api/games/{done['id']}/replay")
    assert answer.status_code == 200 and answer.json()["daily"] == done["daily"]["day"]


# -- records down and up ------------------------------------------------------------------
def test_a_downloaded_record_replays_identically_in_the_command_and_the_upload(client, tmp_path, capsys):
    done = finish(client, new_game(client, "double-sar"), seed=5)
    record = client.get(f"/api/games/{done['id']}/record").json()
    path = tmp_path / "game.json"
    path.write_text(json.dumps(record))
    assert cli.main(["replay", str(path), "--json"]) == 0
    told = json.loads(capsys.readouterr().out)
    final = replay(record)
    assert told["actions"] == len(record["actions"]) and told["terminal"] is True
    assert told["scores"] == final.returns() == done["view"]["match"]["totals"]
    uploaded = client.post("/api/records/replay", json={"record": record})
    assert uploaded.status_code == 200, uploaded.text
    stored = client.get(f"/api/games/{done['id']}/replay").json()
    assert uploaded.json()["frames"] == stored["frames"] and uploaded.json()["players"] == [None] * 4


@pytest.mark.parametrize("spoil, words", [
    (lambda r: r["actions"].__setitem__(3, "play XX"), "action 4"),
    (lambda r: r.update(game="poker"), "poker"),
    (lambda r: r.update(kind="heap"), "kind"),
    (lambda r: r.update(seed=""), "seed"),
    (lambda r: r["actions"].__setitem__(0, "9" * 5000 + ": pass"), "action 1"),
])
def test_a_bad_uploaded_record_is_refused_with_the_reason(spoil, words, client):
    record = record_of(random_match("euchre")).to_json()
    bad = copy.deepcopy(record)
    spoil(bad)
    answer = client.post("/api/records/replay", json={"record": bad})
    assert answer.status_code == 422 and words in answer.json()["detail"], answer.text
    assert client.post("/api/records/replay", json={"record": "not a record"}).status_code == 422
    assert client.post("/api/records/replay", json={"record": record}).status_code == 200


def test_replays_are_rate_limited_and_a_refused_one_is_not_counted(sqlite_url):
    from tricktable.server import create_app
    from tricktable.server.play.scheduler import forced_bot
    from tricktable.server.trust.limits import Limits, Rate

    app = create_app(sqlite_url, limits=Limits(replays_per_identity=Rate(2, 60)), bot_factory=forced_bot("random"))
    record = record_of(random_match("euchre")).to_json()
    with TestClient(app) as tight:
        tight.post("/api/identity")
        assert tight.post("/api/records/replay", json={"record": {**record, "kind": "heap"}}).status_code == 422
        assert [tight.post("/api/records/replay", json={"record": record}).status_code for _ in range(3)] == [200, 200, 429]
    app.state.room.store.close()
