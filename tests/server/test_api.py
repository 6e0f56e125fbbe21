"""The HTTP API: every endpoint, bad input, the referee's guarantees."""

from __future__ import annotations

import json
import random
import threading
import time

import pytest

from tricktable.bots import BOTS, RandomBot
from tricktable.catalog import replay
from tricktable.server.play.view import HUMAN
from tricktable.bots.levels import DEFAULT_LEVEL
from tricktable.server.play.scheduler import default_bot_factory
from tests.harness import act, backdate_identities, frame_view, settle

PERSON = "person"  # the identity that owns the games these tests make through the room


def new_game(client, game="euchre", **options):
    """A new game once the computer players' opening moves are in."""
    answer = client.post("/api/games", json={"game": game, "options": options})
    assert answer.status_code == 201, answer.text
    return settle(client, answer.json())


def first_legal(state):
    return state["view"]["legal"][0]


def test_health_and_openapi(client):
    assert client.get("/healthz").json()["ok"] is True
    paths = client.get("/openapi.json").json()["paths"]
    for path in ("/api/games", "/api/games/{game_id}", "/api/games/{game_id}/actions", "/api/daily/{game}",
                 "/api/daily/{game}/leaderboard", "/api/nickname", "/healthz"):
        assert path in paths


def test_catalog_lists_euchre_with_its_options(client):
    games = {g["name"]: g for g in client.get("/api/games").json()["games"]}
    assert {o["name"] for o in games["euchre"]["options"]} == {"stick_the_dealer", "farmers_hand", "game_target",
                                                               "defend_alone", "dealers_partner_alone"}


def test_the_page_and_its_files_are_served(client):
    page = client.get("/")
    assert page.status_code == 200 and "js/app.js" in page.text
    assert "script-src 'self'" in page.headers["content-security-policy"]
    assert client.get("/js/table.js", headers={"Accept-Encoding": "gzip"}).headers["content-encoding"] == "gzip"
    for path in ("/js/app.js", "/style.css", "/i18n/en.json", "/i18n/de.json", "/i18n/hi.json", "/i18n/th.json",
                 "/rules/en/euchre.md"):
        assert client.get(path).status_code == 200, path


@pytest.mark.parametrize("body, status", [
    ({"game": "chess"}, 404),
    ({"game": "euchre", "options": {"no_such_rule": True}}, 422),
    ({"game": "euchre", "options": {"stick_the_dealer": "maybe"}}, 422),
    ({"game": "doppelkopf", "options": {"superschweinchen": True}}, 422),  # needs schweinchen
    ({"options": {}}, 422),
])
def test_new_game_rejects_bad_input(client, body, status):
    answer = client.post("/api/games", json=body)
    assert answer.status_code == status
    assert answer.json()["detail"]


def test_malformed_json_is_a_clear_422(client):
    answer = client.post("/api/games", content=b"{not json", headers={"Content-Type": "application/json"})
    assert answer.status_code == 422 and "invalid request" in answer.json()["detail"]
    game = new_game(client)
    answer = client.post(f"/api/games/{game['id']}/actions", content=b"[1,", headers={"Content-Type": "application/json"})
    assert answer.status_code == 422


def test_options_reach_the_game(client):
    game = new_game(client, stick_the_dealer=False)
    assert game["view"]["options"]["stick_the_dealer"] is False
    assert client.get(f"/api/games/{game['id']}").json()["view"]["options"]["stick_the_dealer"] is False


def test_a_whole_match_through_the_api(client):
    state, rng = new_game(client), random.Random(1)
    while not state["view"]["terminal"]:
        version = state["version"]
        answer = client.post(f"/api/games/{state['id']}/actions",
                             json={"action": rng.choice(state["view"]["legal"]), "version": version})
        assert answer.status_code == 200, answer.text
        mine = answer.json()
        assert mine["version"] == version + 1  # the person's action is one commit
        assert [step["seat"] for step in mine["steps"]] == [HUMAN]  # the bots answer on the live channel
        state = settle(client, mine)
        assert state["version"] == version + len(state["steps"])  # and commit one action each
    assert max(state["view"]["match"]["team_points"]) >= 10
    answer = client.post(f"/api/games/{state['id']}/actions", json={"action": "pass", "version": state["version"]})
    assert answer.status_code == 409 and "over" in answer.json()["detail"]
    answer = client.get(f"/api/games/{state['id']}/hint", params={"version": state["version"]})
    assert answer.status_code == 409 and "your own turn" in answer.json()["detail"]


def play_until_cards(client, state):
    """Pass/accept until the person has cards to play."""
    while not any(a.startswith("play ") for a in state["view"]["legal"]):
        state = act(client, state, first_legal(state))
    return state


def test_an_illegal_card_changes_nothing(client):
    state = play_until_cards(client, new_game(client))
    view = state["view"]
    not_mine = next(c for c in ("9C", "10C", "JC", "QC", "KC", "AC", "9D", "10D", "JD", "QD", "KD", "AD")
                    if c not in view["hand"])
    for action, words in ((f"play {not_mine}", "not in your hand"), ("call X", "not"), ("dance", "not a Euchre action")):
        answer = client.post(f"/api/games/{state['id']}/actions", json={"action": action, "version": state["version"]})
        assert answer.status_code == 422, action
        assert words in answer.json()["detail"]
    again = client.get(f"/api/games/{state['id']}").json()
    assert (again["version"], frame_view(again["view"])) == (state["version"], frame_view(view))


def test_a_stale_version_is_refused(client):
    state = new_game(client)
    action = first_legal(state)
    assert client.post(f"/api/games/{state['id']}/actions", json={"action": action, "version": state["version"]}).status_code == 200
    answer = client.post(f"/api/games/{state['id']}/actions", json={"action": action, "version": state["version"]})
    assert answer.status_code == 409 and "version" in answer.json()["detail"]


def test_unknown_games_and_ids(client):
    assert client.get("/api/games/nope").status_code == 404
    assert client.post("/api/games/nope/actions", json={"action": "pass", "version": 1}).status_code == 404
    assert client.post("/api/daily/chess").status_code == 404
    assert client.get("/api/daily/chess/leaderboard").status_code == 404
    assert client.post("/api/games/x/actions", json={"action": "", "version": 1}).status_code == 422
    assert client.post("/api/games/x/actions", json={"action": "pass"}).status_code == 422


@pytest.mark.parametrize("nickname, ok", [
    ("Anna", True), ("राहुल", True), ("สมชาย", True), ("x" * 20, True), ("  spaced   out ", True),
    ("x" * 21, False), ("x" * 500, False), ("", False), ("<script>", False), ("a&b", False), ("o'neil", False),
])
def test_nicknames_are_checked(client, nickname, ok):
    answer = client.put("/api/nickname", json={"nickname": nickname})
    assert (answer.status_code == 200) == ok, answer.text
    if ok:
        assert client.get("/api/nickname").json()["nickname"] == " ".join(nickname.split())
    else:
        assert answer.status_code == 422


def test_daily_is_one_attempt_per_identity_and_the_same_deal_for_all(client):
    mine = client.post("/api/daily/euchre").json()  # as dealt: the computer players have not moved yet
    again = client.post("/api/daily/euchre").json()
    client.cookies.clear()  # another person
    other = client.post("/api/daily/euchre").json()
    assert mine["id"] == again["id"] != other["id"]
    assert mine["fairness"]["commitment"] == other["fairness"]["commitment"]  # the same deals for everybody
    assert (mine["version"], other["version"]) == (1, 1)  # as dealt, so the person's hands are the same too
    assert mine["view"]["hand"] == other["view"]["hand"]
    assert mine["daily"]["score"] is None and mine["view"]["match"]["deals_total"] == 8


def test_a_finished_daily_reaches_the_leaderboard_with_the_servers_score(client):
    client.put("/api/nickname", json={"nickname": "Anna"})
    backdate_identities(client.app.state.room.store, days=1)  # issued before today began: ranked
    state = settle(client, client.post("/api/daily/euchre").json())
    assert state["daily"]["ranked"] is True
    rng = random.Random(2)
    while not state["view"]["terminal"]:
        state = act(client, state, rng.choice(state["view"]["legal"]))
    match = state["view"]["match"]
    assert match["deals_total"] == 8 and len([r for r in match["results"] if r["counts"]]) == 8
    score = match["team_points"][0] - match["team_points"][1]
    assert state["daily"]["score"] == score
    board = client.get("/api/daily/euchre/leaderboard").json()
    assert board["entries"] == [{"rank": 1, "nickname": "Anna", "score": score, "you": True}]
    assert board["own"] == {"rank": 1, "score": score}
    # Reloading gives the finished game back; there is no second attempt.
    assert client.post("/api/daily/euchre").json()["id"] == state["id"]


def hidden_cards(deal) -> set[str]:
    """Cards the person may not know now: other hands, the kitty, another
    dealer's discard (all of one deal)."""
    hidden = set()
    for seat in range(4):
        if seat != HUMAN:
            hidden |= {t.split()[-1] for t in [deal.action_text(c) for c in _cards(deal.hands[seat])]}
    hidden |= {deal.action_text(c).split()[-1] for c in deal.deal.rest[1:]}  # the kitty
    if deal.discard >= 0 and deal.dealer != HUMAN:
        hidden.add(deal.action_text(deal.discard).split()[-1])
    # The up-card was shown to everyone, even once the dealer picked it up.
    return hidden - {deal.action_text(deal.up_card).split()[-1]}


def _cards(mask):
    return [c for c in range(52) if mask >> c & 1]


def strings_in(data) -> set[str]:
    if isinstance(data, str):
        return set(data.replace(",", " ").split())
    if isinstance(data, dict):
        return set().union(*(strings_in(v) for v in data.values())) if data else set()
    if isinstance(data, list):
        return set().union(*(strings_in(v) for v in data)) if data else set()
    return set()


def test_no_response_shows_a_card_the_person_cannot_see(client):
    room = client.app.state.room
    for game_number in range(6):
        state, rng = new_game(client), random.Random(game_number)
        while True:
            row = room.store.load(state["id"])
            truth = replay(row.record)
            assert row.record["seed"] not in json.dumps(state)
            # The current deal: the view without the match's history, and the
            # steps after the last deal ended.
            view = {k: v for k, v in state["view"].items() if k != "match"}
            ends = [i for i, step in enumerate(state["steps"]) if step["deal_over"]]
            current = strings_in(view) | strings_in(state["steps"][ends[-1] + 1:] if ends else state["steps"])
            leaked = hidden_cards(truth.current) & current
            assert not leaked, f"leaked {leaked} at version {state['version']}"
            if truth.previous_deal is not None:  # the finished deal: its kitty stays hidden
                # (steps of that deal only: a response may span two deal ends)
                first = ends[-2] + 1 if len(ends) > 1 else 0
                earlier = strings_in(state["view"]["match"]) | strings_in(state["steps"][first: ends[-1] + 1] if ends else [])
                leaked = hidden_cards(truth.previous_deal) & earlier
                assert not leaked, f"leaked {leaked} of the previous deal at version {state['version']}"
            if state["view"]["terminal"]:
                break
            state = act(client, state, rng.choice(state["view"]["legal"]))


def test_computer_players_do_not_block_other_requests(make_client):
    thinking = threading.Event()

    class SlowBot(RandomBot):
        def choose(self, view):
            thinking.set()
            time.sleep(0.4)
            return super().choose(view)

    client = make_client(lambda game, level, seed: SlowBot(seed=seed))
    state = new_game(client)
    client.post(f"/api/games/{state['id']}/actions", json={"action": first_legal(state), "version": state["version"]})
    assert thinking.wait(5)
    started = time.monotonic()
    assert client.get("/healthz").status_code == 200
    assert client.get(f"/api/games/{state['id']}").status_code == 200
    quick = time.monotonic() - started
    assert quick < 0.3, f"requests waited {quick:.2f}s behind the bots"


def test_the_strongest_available_bot_plays(make_client):
    client = make_client(default_bot_factory)
    bots = client.get("/healthz").json()["bots"]
    assert bots["euchre"] == "search"  # the default level, normal: Euchre's weighs its worlds (bots.levels)
    assert bots["mendikot"] == "search-noinfer"  # the others' normal: search without inference
    state = new_game(client)
    started = time.monotonic()
    state = act(client, state, first_legal(state))
    assert time.monotonic() - started < 10
    assert state["steps"][0]["seat"] == HUMAN and len(state["steps"]) > 1


def test_the_server_enforces_the_calling_clock(client):
    """Court Piece: the caller's 20 seconds are the server's, not the page's."""
    room = client.app.state.room
    for _ in range(40):  # find a deal where the person is the one calling
        state = new_game(client, "double-sar")
        if state["view"]["phase"] in ("calling", "partner calling") and state["view"]["to_move"] == HUMAN:
            break
    else:
        pytest.fail("the person never called first in 40 deals")
    assert 0 < state["deadline_in"] <= 20
    assert client.get(f"/api/games/{state['id']}").json()["version"] == state["version"]  # not due yet
    row = room.store.load(state["id"])
    from sqlalchemy import update

    from tricktable.store.schema import games
    with room.store.engine.begin() as db:  # the clock runs out
        db.execute(update(games).where(games.c.id == row.id).values(deadline=row.deadline - 30))
    cached = room.referee.cache.row(row.id)  # (where the process holds the version, its row says when it runs out)
    if cached is not None and cached.version == row.version:
        cached.deadline = row.deadline - 30
    answer = client.post(f"/api/games/{state['id']}/actions", json={"action": "call S", "version": state["version"]})
    # Refused either way: this request settles the timeout, or the scheduler
    # (woken by the load above, reading the game after the clock was moved) did first.
    assert answer.status_code == 409, answer.text
    assert "time ran out" in answer.json()["detail"] or f"not {state['version']}" in answer.json()["detail"]
    row = room.store.load(state["id"])
    assert row.version > state["version"]  # the timeout, then the computer players' answers
    base = row.record["version_base"]
    assert row.record["actions"][base["actions"] + state["version"] - base["version"]] == "timeout"


def test_a_load_that_settles_the_calling_clock_answers_with_the_timeout_step(sqlite_url):
    """court-piece.md, "Calling trump": the caller has 20 seconds. Where the page's own
    request settles the clock (``Room.load``, the fallback of the server's clock), its
    answer carries the timeout step, so that page tells the person, as its stream
    would: the step's version is the answer's, which the stream's copy cannot add to."""
    from sqlalchemy import update

    from tricktable.server.play.room import Room
    from tricktable.store import Store
    from tricktable.store.schema import games

    store = Store(sqlite_url)
    try:
        room = Room(store)  # no scheduler runs: only the load below can settle the clock
        for index in range(40):
            state = room.new_game("double-sar", {}, seed=f"clock-{index}", owner=PERSON)
            if state["view"]["to_move"] == HUMAN and state["view"]["phase"] in ("calling", "partner calling"):
                break
        else:
            pytest.fail("the person never called first in 40 deals")
        assert room.load(state["id"], PERSON)["steps"] == []  # not due yet
        with store.engine.begin() as db:
            db.execute(update(games).where(games.c.id == state["id"]).values(deadline=0))
        answer = room.load(state["id"], PERSON)
        assert answer["version"] == state["version"] + 1
        assert [(step["seat"], step["text"]) for step in answer["steps"]] == [(HUMAN, "timeout")]
        assert room.load(state["id"], PERSON)["steps"] == []  # settled once
    finally:
        store.close()


def courtpiece_hidden(deal) -> set[str]:
    """Court Piece: other hands, the stock, and while trump is being called even
    the person's own last eight cards."""
    from tricktable.cards import card_text
    from tricktable.games.courtpiece.state import cards_in

    hidden = set()
    for seat in range(4):
        mask = deal.hands[seat] if seat != HUMAN else deal.hands[seat] & ~deal._visible_hand(seat)
        hidden |= {card_text(c) for c in cards_in(mask)}
    dealt = set().union(*({card_text(c) for c in cards_in(m)} for m in deal.hands))
    played = {c for trick in deal.view(HUMAN)["tricks"] for _, c in trick["cards"]} | {
        c for _, c in deal.view(HUMAN)["trick"]}
    return (hidden - played) | ({card_text(c) for c in range(52)} - dealt - played if not deal.all_dealt else set())


@pytest.mark.parametrize("game", ["double-sar", "single-sar"])
def test_court_piece_responses_show_no_hidden_card(client, game):
    room = client.app.state.room
    for number in range(3):
        state, rng = new_game(client, game), random.Random(number)
        for _ in range(60):
            truth = replay(room.store.load(state["id"]).record)
            view = {k: v for k, v in state["view"].items() if k != "match"}
            ends = [i for i, step in enumerate(state["steps"]) if step["deal_over"]]
            current = strings_in(view) | strings_in(state["steps"][ends[-1] + 1:] if ends else state["steps"])
            leaked = courtpiece_hidden(truth.current) & current
            assert not leaked, f"leaked {leaked} in phase {state['view']['phase']}"
            if state["view"]["terminal"]:
                break
            state = act(client, state, rng.choice(state["view"]["legal"]))


def test_the_first_game_calls_in_ten_seconds_and_the_seat_is_the_rooms(client):
    games = {g["name"]: g for g in client.get("/api/games").json()["games"]}
    assert games["double-sar"]["first_game_option"] is True
    assert "first_game" not in {o["name"] for o in games["double-sar"]["options"]}
    answer = client.post("/api/games", json={"game": "double-sar", "options": {"person_seat": 2}})
    assert answer.status_code == 422
    for _ in range(40):
        state = new_game(client, "double-sar", first_game=True)
        if state["deadline_in"] is not None:
            assert state["deadline_in"] <= 10 and state["view"]["deadline_seconds"] == 10
            return
    pytest.fail("the person never called first in 40 deals")


def test_the_catalog_offers_every_registered_game_with_its_page_renderer(client):
    from tricktable.catalog import GAMES, entry

    catalog = client.get("/api/games").json()["games"]
    assert [game["name"] for game in catalog] == list(GAMES)
    assert all(game["renderer"] == entry(game["name"]).renderer for game in catalog)


def doppelkopf_hidden(deal) -> set[str]:
    """Card faces the person has seen no copy of, that another player holds: they
    may not appear in a response (a face the person holds or saw played may)."""
    from tricktable.cards import card_text

    seen = {card_text(c) for c in deal.deal.hands[HUMAN]}
    seen |= {card_text(c) for _, faces, _, _ in deal.tricks for c in faces}
    seen |= {card_text(c) for c in deal.trick}
    if HUMAN in (deal.declarer, deal.partner):  # the poverty exchange the person took part in
        seen |= {card_text(c) for c in (*deal.given, *deal.returned)}
    held = {card_text(c) for seat in range(4) if seat != HUMAN for c in range(128) if deal.hands[seat] >> c & 1}
    return held - seen


def test_doppelkopf_responses_show_no_card_the_person_has_not_seen(client):
    room = client.app.state.room
    checked = 0
    for number in range(4):
        state, rng = new_game(client, "doppelkopf"), random.Random(number)
        for _ in range(40):
            truth = replay(room.store.load(state["id"]).record)
            # "trumps" is the contract's rank table (rules, not cards anyone holds).
            view = {k: v for k, v in state["view"].items() if k not in ("match", "trumps")}
            ends = [i for i, step in enumerate(state["steps"]) if step["deal_over"]]
            current = strings_in(view) | strings_in(state["steps"][ends[-1] + 1:] if ends else state["steps"])
            hidden = doppelkopf_hidden(truth.current)
            checked += len(hidden)
            assert not hidden & current, f"leaked {hidden & current} in phase {state['view']['phase']}"
            if state["view"]["terminal"]:
                break
            state = act(client, state, rng.choice(state["view"]["legal"]))
    assert checked > 100  # the check had cards to look for


# -- levels and hints --------------------------------------------------------
def test_an_easy_game_seats_the_expert_rules_with_slips_and_stores_its_level(make_client):
    client = make_client(default_bot_factory)
    answer = client.post("/api/games", json={"game": "euchre", "level": "easy"})
    assert answer.status_code == 201, answer.text
    state, rng = settle(client, answer.json()), random.Random(3)
    assert state["level"] == "easy" and state["hints"] is True
    for _ in range(12):
        state = act(client, state, rng.choice(state["view"]["legal"]))
    record = client.app.state.room.store.load(state["id"]).record
    assert record["level"] == "easy"
    # Replaying the record, every computer player's action is the heuristic's
    # choice on that seat's view, except the easy level's few slips: another card.
    heuristic, game = BOTS["heuristic"](), replay(dict(record, actions=[]))
    bot_moves = slips = 0
    for text in record["actions"]:
        if game.to_move not in (HUMAN, -1) and game.legal_actions():
            rules = heuristic.choose(game.observe(game.to_move))
            assert text == rules or (text.startswith("play ") and rules.startswith("play ")), text
            slips += text != rules
            bot_moves += 1
        game.apply_any(game.parse_action(text))
    assert bot_moves >= 20 and slips <= bot_moves // 4


@pytest.mark.parametrize("level", ["expert", "", "hard" * 5])
def test_an_unknown_level_is_refused(client, level):
    answer = client.post("/api/games", json={"game": "euchre", "level": level})
    assert answer.status_code == 422 and "level" in answer.json()["detail"]


def test_a_hint_ranks_every_legal_action_and_changes_nothing(client):
    state = new_game(client)
    answer = client.get(f"/api/games/{state['id']}/hint", params={"version": state["version"]})
    assert answer.status_code == 200, answer.text
    hints = answer.json()["hints"]
    assert sorted(h["action"] for h in hints) == sorted(state["view"]["legal"])
    values = [h["value"] for h in hints[1:]]  # the suggestion first, the others by value
    assert values == sorted(values, reverse=True) and all(h["worlds"] > 0 for h in hints)
    after = client.get(f"/api/games/{state['id']}").json()
    assert after["version"] == state["version"] and frame_view(after["view"]) == frame_view(state["view"])


def test_a_hint_for_a_stale_version_is_refused(client):
    state = new_game(client)
    answer = client.get(f"/api/games/{state['id']}/hint", params={"version": state["version"] + 1})
    assert answer.status_code == 409
    assert client.get("/api/games/nope/hint", params={"version": 1}).status_code == 404


def test_no_hints_in_the_daily_game(client):
    daily = client.post("/api/daily/euchre").json()
    assert daily["hints"] is False and daily["level"] == DEFAULT_LEVEL == "normal"
    answer = client.get(f"/api/games/{daily['id']}/hint", params={"version": daily["version"]})
    assert answer.status_code == 403 and "daily" in answer.json()["detail"]
