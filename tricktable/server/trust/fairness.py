"""Provably fair deals: a commitment before the game, the seed after it, and
the check anyone can run (``docs/fairness.md`` describes it without our code).

* An ordinary game: the server draws ``server_seed`` and shows
  ``commitment = SHA-256(server_seed)`` (hex) before the game starts; the
  client then chooses ``client_seed``; the match seed is
  ``SHA-256(server_seed + "/client/" + client_seed)`` (``derive_seed``), so
  neither side alone picks the cards.  The server seed is revealed when the
  game is over.
* The daily game: everybody gets the same deals, so nobody's value is mixed
  in: the match seed is the day's seed itself, committed to the same way and
  revealed once the UTC day has ended.

Deal ``k`` of a match is then dealt from ``derive_seed(match_seed, "deal", k)``
(``core/match.py``, ``core/rng.py``).
"""

from __future__ import annotations

import hashlib
import hmac
import json
import re
import secrets
from pathlib import Path
from typing import Any, Mapping

from tricktable.cards import card_text
from tricktable.errors import GameError
from tricktable.core.match import MatchState
from tricktable.catalog import parse_record
from tricktable.core.rng import derive_seed
from tricktable.core.protocol import GameState
from tricktable.server.trust.days import utc_day
from tricktable.store import GameRow

CLIENT_SEED_PATTERN = r"^[A-Za-z0-9_-]{1,64}$"
NONCE_PATTERN = r"^[A-Za-z0-9_-]{16,64}$"


def commitment_of(server_seed: str) -> str:
    return hashlib.sha256(server_seed.encode("utf-8")).hexdigest()


def match_seed(server_seed: str, client_seed: str | None) -> str:
    """The match seed of an ordinary game (``client_seed``) or a daily one
    (``None``: the day's seed as it is)."""
    return server_seed if client_seed is None else derive_seed(server_seed, "client", client_seed)


class Commitments:
    """Server seeds promised before a game exists.  Stateless: the seed is an
    HMAC of a random nonce under the server secret, so the nonce can travel
    with the client and only this server can turn it into the seed."""

    def __init__(self, secret: str):
        self._key = hmac.new(secret.encode(), b"deal commitments", hashlib.sha256).digest()

    def offer(self) -> dict[str, str]:
        nonce = secrets.token_urlsafe(18)
        return {"nonce": nonce, "commitment": commitment_of(self.server_seed(nonce))}

    def server_seed(self, nonce: str) -> str:
        return hmac.new(self._key, nonce.encode(), hashlib.sha256).hexdigest()


def deals_of(record: Mapping[str, Any]) -> list[dict[str, Any]]:
    """Every deal a match record dealt, in order: its number ``index`` (the
    ``k`` of its seed), dealer, hands in dealing order and undealt rest."""
    state = parse_record(record).start()
    if not isinstance(state, MatchState):
        raise GameError("only match records have seeded deals")
    deals = [_deal_json(state)]
    for text in record["actions"]:
        index = state.deal_index
        state.apply_any(state.parse_action(text))
        if state.deal_index != index and not state.over:
            deals.append(_deal_json(state))
    return deals


def _deal_json(state: MatchState) -> dict[str, Any]:
    deal = state.current.deal  # type: ignore[attr-defined]
    return {
        "index": state.deal_index,
        "dealer": deal.dealer,
        "hands": [" ".join(card_text(c) for c in hand) for hand in deal.hands],
        "rest": " ".join(card_text(c) for c in deal.rest),
    }


def verify(data: Mapping[str, Any]) -> list[str]:
    """What is wrong with a revealed record (an empty list: it checks out):
    the commitment against the server seed, the match seed against both
    seeds, the actions against the rules, and every listed deal against the
    deals the seed gives."""
    fairness = data.get("fairness")
    if not isinstance(fairness, Mapping):
        return ["the record has no 'fairness' part (commitment and seeds)"]
    server_seed, client_seed = fairness.get("server_seed"), fairness.get("client_seed")
    committed = fairness.get("commitment")
    if not isinstance(server_seed, str) or not server_seed:
        return ["the server seed is not revealed yet"]
    problems = []
    if commitment_of(server_seed) != committed:
        problems.append(f"the commitment {committed!r} is not SHA-256 of the server seed")
    if client_seed is not None and (not isinstance(client_seed, str) or not re.match(CLIENT_SEED_PATTERN, client_seed)):
        return problems + [f"the client seed {client_seed!r} is not 1 to 64 letters, digits, '_' or '-'"]
    expected = match_seed(server_seed, client_seed)
    if data.get("seed") != expected:
        problems.append(f"the match seed is not the one the seeds give ({expected})")
        return problems
    try:
        dealt = deals_of(data)
    except GameError as error:
        return problems + [f"the record does not replay: {error}"]
    listed = data.get("deals")
    if not isinstance(listed, list):
        return problems + ["the record lists no deals"]
    if len(listed) != len(dealt):
        problems.append(f"the record lists {len(listed)} deals, the seed and actions give {len(dealt)}")
    for number, (claimed, real) in enumerate(zip(listed, dealt), start=1):
        if claimed != real:
            problems.append(f"deal {number} is not the one its seed gives")
    return problems


def verify_file(path: Path) -> tuple[bool, str]:
    """``tricktable verify``: whether the record in ``path`` checks out, and
    what to print."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as error:
        return False, f"cannot read {path}: {error}"
    if not isinstance(data, Mapping):
        return False, f"{path} is not a JSON object"
    problems = verify(data)
    if problems:
        return False, "NOT verified:\n" + "\n".join(f"- {p}" for p in problems)
    deals = len(data["deals"])
    return True, (f"verified: the commitment {data['fairness']['commitment'][:16]}… matches the server seed, "
                  f"the match seed follows from the seeds, and all {deals} deals are the ones it gives")


def seed_revealed(row: GameRow, state: GameState) -> bool:
    """An ordinary game's seed once it is over; the daily's once its UTC day
    has ended (before that it would show everybody's cards of the day)."""
    if row.daily_day:
        return daily_day_ended(row)
    return state.is_terminal()


def daily_day_ended(row: GameRow) -> bool:
    """Whether a daily attempt's UTC day has ended (everybody's attempt at its
    deals is closed); an ordinary game has no day and counts as ended."""
    return row.daily_day is None or row.daily_day < utc_day()


def fairness_of(row: GameRow, state: GameState) -> dict[str, Any] | None:
    """The commitment (always) and the seeds (once revealed) of a game; None
    for games stored before commitments existed."""
    if row.server_seed is None:
        return None
    shown = seed_revealed(row, state)
    return {"commitment": commitment_of(row.server_seed), "client_seed": row.client_seed,
            "server_seed": row.server_seed if shown else None, "revealed": shown}


__all__ = ["verify_file", "Commitments", "commitment_of", "deals_of", "match_seed", "verify", "CLIENT_SEED_PATTERN", "NONCE_PATTERN", "daily_day_ended", "fairness_of", "seed_revealed"]
