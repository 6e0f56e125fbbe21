"""The person's views as the server builds and writes them: the
match part shared by a deal's views and written from kept bytes, equal to
the game's own view and its plain JSON; step frames without the previous
deal, except where their step ended a deal."""

from __future__ import annotations

import random

import orjson
import pytest

from tricktable.catalog import replay
from tricktable.catalog import GAMES, get_spec
from tricktable.server.play.view import HUMAN, encode, person_view, step_view
from tests.harness import events_until_settled, frame_view


def positions(game: str, matches: int = 3):
    """States of random matches of ``game`` at several deals (one state per match)."""
    rng = random.Random(game)
    spec = get_spec(game)
    for number in range(matches):
        state = spec.new_match(f"views/{game}/{number}", spec.normalize_options({}), daily=False)
        for _ in range(rng.randrange(30, 400)):
            if state.is_terminal():
                break
            if state.to_move < 0:
                state.apply_referee(state.referee_actions()[0])
            else:
                state.apply(rng.choice(state.legal_actions()))
        yield state


@pytest.mark.parametrize("game", GAMES)
def test_the_persons_view_and_its_json_are_the_games_own(game):
    for state in positions(game):
        shared = person_view(state)
        assert shared == state.view(HUMAN)
        again = person_view(state)
        assert again == shared and again["match"] is shared["match"]  # read once per deal, then shared
        response = {"id": "g", "version": 3, "view": again, "steps": []}
        assert orjson.loads(encode(response)) == orjson.loads(orjson.dumps({**response, "view": state.view(HUMAN)}))
        assert response["view"] is again and isinstance(again["match"], dict)  # the caller's objects unchanged


def test_a_response_without_a_shared_match_is_plain_json():
    response = {"view": {"match": {"deal_number": 1}}, "steps": []}
    assert encode(response) == orjson.dumps(response)


def view_at(record: dict, version: int) -> dict:
    """The person's whole view of the stored game at ``version`` (one action per version)."""
    base = record["version_base"]
    return replay(dict(record, actions=record["actions"][:base["actions"] + version - base["version"]])).view(HUMAN)


def frames_of(client, game: str, deals: int) -> tuple[str, list[dict]]:
    """A match of ``game`` played by random choices for ``deals`` deals: its id
    and every step frame the person got (his actions' answers and the stream's
    ``step`` events), in version order."""
    rng = random.Random(f"frames/{game}")
    state = client.post("/api/games", json={"game": game}).json()
    frames: list[dict] = []

    def follow(answer: dict) -> dict:
        if answer["thinking"] is None:
            return answer
        for kind, data in events_until_settled(client, answer["id"], answer["version"]):
            assert kind != "state"  # (every version told as its step)
            if kind == "step":
                frames.append(data)
                answer = data
        return answer

    state = follow(state)
    while len(state["view"]["match"]["results"]) < deals and not state["view"]["terminal"]:
        answer = client.post(f"/api/games/{state['id']}/actions",
                             json={"action": rng.choice(state["view"]["legal"]), "version": state["version"]})
        assert answer.status_code == 200, answer.text
        frames.append(answer.json())
        state = follow(answer.json())
    return state["id"], frames


@pytest.mark.parametrize("game", ["euchre", "double-sar"])
def test_step_frames_carry_the_previous_deal_only_where_a_deal_ended(client, game):
    game_id, frames = frames_of(client, game, deals=2)
    record = client.app.state.room.store.load(game_id).record
    ended = 0
    for frame in frames:
        whole = view_at(record, frame["version"])
        if frame["steps"][-1]["deal_over"]:  # the deal's end: its score sheet and last trick come with it
            ended += 1
            assert frame["view"] == whole and whole["match"]["previous_deal"] is not None
        else:  # in the middle of a deal: everything but the previous deal, which the page has
            assert "previous_deal" not in frame["view"]["match"]
            assert frame["view"] == frame_view(whole)
    assert ended == len(frames[-1]["view"]["match"]["results"]) >= 2
    assert [frame["version"] for frame in frames] == list(range(frames[0]["version"], frames[-1]["version"] + 1))
    # A whole state (a load; a stream's ``state`` event is one) carries it always.
    loaded = client.get(f"/api/games/{game_id}").json()
    assert loaded["view"] == view_at(record, loaded["version"]) and "previous_deal" in loaded["view"]["match"]


def test_a_step_frames_view_leaves_out_only_the_previous_deal_and_is_written_from_kept_bytes():
    for state in positions("double-sar"):
        whole = person_view(state)
        frame = step_view(whole, deal_over=False)
        assert frame["match"] is step_view(person_view(state), deal_over=False)["match"]  # shared by the deal's frames
        assert {**frame, "match": {**frame["match"], "previous_deal": whole["match"]["previous_deal"]}} == state.view(HUMAN)
        assert step_view(whole, deal_over=True) is whole
        response = {"view": frame, "steps": []}
        assert orjson.loads(encode(response)) == orjson.loads(orjson.dumps(response))
