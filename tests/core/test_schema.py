"""The generated JSON Schema describes exactly what the page receives."""

from __future__ import annotations

import random
from typing import Any

import pytest

from tricktable.cli import observation_schema
from tricktable.catalog import get_spec

TYPES = {"string": str, "integer": int, "boolean": bool, "null": type(None), "array": list, "object": dict}


def errors(value: Any, schema: dict[str, Any], root: dict[str, Any], path: str = "$") -> list[str]:
    """The subset of JSON Schema that ``core/schema.py`` writes, checked strictly."""
    if "$ref" in schema:
        ref = schema["$ref"]
        return errors(value, root if ref == "#" else root["$defs"][ref.rsplit("/", 1)[1]], root, path)
    if "anyOf" in schema:
        found = [errors(value, option, root, path) for option in schema["anyOf"]]
        return [] if any(not e for e in found) else [f"{path}: matches no choice ({found})"]
    if "enum" in schema:
        return [] if value in schema["enum"] else [f"{path}: {value!r} not in {schema['enum']}"]
    expected = TYPES.get(schema.get("type", ""))
    if expected is not None and (type(value) is not expected):
        return [f"{path}: {value!r} is not {schema['type']}"]
    out: list[str] = []
    if isinstance(value, list):
        fixed = schema.get("prefixItems")
        if fixed is not None:
            if len(value) != len(fixed):
                return [f"{path}: {len(value)} items, not {len(fixed)}"]
            for i, (item, item_schema) in enumerate(zip(value, fixed)):
                out += errors(item, item_schema, root, f"{path}[{i}]")
        elif "items" in schema:
            for i, item in enumerate(value):
                out += errors(item, schema["items"], root, f"{path}[{i}]")
    if isinstance(value, dict) and "properties" in schema:
        out += [f"{path}: {key} missing" for key in schema["required"] if key not in value]
        for key, item in value.items():
            if key in schema["properties"]:
                out += errors(item, schema["properties"][key], root, f"{path}.{key}")
            elif schema.get("additionalProperties") is False:
                out.append(f"{path}: {key} is not in the schema")
    return out


SCHEMA_GAMES = {"euchre": 4, "doppelkopf": 4, "double-sar": 1, "single-sar": 1, "hidden-trump": 1, "be-ranga": 1,
                "mendikot": 1}
"""The games whose schema is checked against their wire shape, with the number of
random matches per preset (a Court Piece match is long: hundreds of moments)."""


def random_step(match: Any, rng: random.Random) -> None:
    """One random action by any seat that may act, in turn or out of turn
    (Doppelkopf announcements), or by the referee when nobody can."""
    choices = [(seat, a) for seat in range(4) for a in match.legal_actions_for(seat)]
    if choices:
        match.apply_for(*rng.choice(choices))
    else:
        match.apply_referee(rng.choice(list(match.referee_actions())))


def match_cases() -> list[Any]:
    return [pytest.param(game, preset, seed, id=f"{game}-{preset or 'default'}-{seed}")
            for game, seeds in SCHEMA_GAMES.items() for preset in (None, *get_spec(game).presets)
            for seed in range(seeds)]


@pytest.mark.parametrize(("game", "preset", "seed"), match_cases())
def test_every_view_of_a_random_match_follows_the_schema(game, preset, seed):
    schema = observation_schema(game)
    spec = get_spec(game)
    match = spec.new_match(f"schema{seed}", spec.normalize_options({"preset": preset} if preset else {}))
    rng = random.Random(seed)
    while not match.is_terminal():
        for seat in range(4):
            assert errors(match.view(seat), schema, schema) == []
        random_step(match, rng)
    assert errors(match.view(0), schema, schema) == []


def test_doppelkopf_tournament_list_views_follow_the_schema():
    """The tournament list's part of a view (who owes a compulsory solo, deals left, who
    is forced), which only a match with the option sends."""
    schema = observation_schema("doppelkopf")
    spec = get_spec("doppelkopf")
    match = spec.new_match("schema-list", spec.normalize_options({"preset": "ddv", "tournament_list": True}))
    rng = random.Random(6)
    for _ in range(300):
        for seat in range(4):
            view = match.view(seat)
            assert "tournament" in view and errors(view, schema, schema) == []
        random_step(match, rng)


@pytest.mark.parametrize(("game", "options"), [("double-sar", {"counting": "kots"}), ("mendikot", {})])
def test_court_piece_new_cards_and_kots_views_follow_the_schema(game, options):
    """New cards (a deal thrown in) and the kots count: outcomes and score lines
    the default options never reach."""
    schema = observation_schema(game)
    spec = get_spec(game)
    match = spec.new_match("schema-new-cards", spec.normalize_options({"new_cards": "any seat", **options}))
    rng = random.Random(5)
    match.act(match.to_move, "new cards")  # the first deal is thrown in
    outcomes = set()
    for _ in range(150):
        for seat in range(4):
            assert errors(match.view(seat), schema, schema) == []
        if match.is_terminal():
            break
        random_step(match, rng)
        outcomes |= {line["key"] for result in match.observe(0).match.results for line in result.lines}
    assert "new_cards" in outcomes


def test_euchre_option_views_follow_the_schema():
    """Euchre's options (defend alone, dealer's partner alone, a target): a lone
    defender and the lone euchre's score line, which the defaults never reach."""
    schema = observation_schema("euchre")
    spec = get_spec("euchre")
    options = {"defend_alone": True, "dealers_partner_alone": True, "game_target": 11}
    match = spec.new_match("schema-options", spec.normalize_options(options))
    rng = random.Random(3)
    lone_defenders = 0
    while not match.is_terminal():
        for seat in range(4):
            assert errors(match.view(seat), schema, schema) == []
        lone_defenders += match.view(0)["lone_defender"] is not None
        random_step(match, rng)
    assert errors(match.view(0), schema, schema) == [] and lone_defenders > 0


@pytest.mark.parametrize("game", ["double-sar", "hidden-trump", "be-ranga", "mendikot"])
def test_the_court_piece_schema_describes_each_part_and_refuses_the_rest(game):
    """The parts' keys (pile, face-down card, trump trick, tens) are in
    the schema, typed as the wire sends them."""
    schema = observation_schema(game)
    spec = get_spec(game)
    view = spec.new_match("schema", spec.normalize_options({})).view(0)
    assert {"pile", "open_pair", "captures", "trump_hidden", "hidden_card", "trump_trick", "tens"} <= set(
        schema["properties"])
    assert errors(view, schema, schema) == []
    assert errors({**view, "secret": 1}, schema, schema) == ["$: secret is not in the schema"]
    assert errors({**view, "trump": 2}, schema, schema)
    assert errors({**view, "open_pair": [1, 12]}, schema, schema)
    assert errors({**view, "hidden_card": 12}, schema, schema)


def test_the_doppelkopf_schema_is_the_wire_not_the_fields():
    """``levels`` travels as ``announcements``, the contract's trumps are sent, ``result``
    only once the deal is over."""
    schema = observation_schema("doppelkopf")
    assert "levels" not in schema["properties"] and "announcements" in schema["required"]
    assert "trumps" in schema["required"] and "result" not in schema["required"]
    spec = get_spec("doppelkopf")
    view = spec.new_match("schema", spec.normalize_options({})).view(0)
    assert errors({**view, "levels": [-1, -1]}, schema, schema) == ["$: levels is not in the schema"]
    assert errors({**view, "announcements": {"re": "no 45", "kontra": None}}, schema, schema)
    assert errors({**view, "trick": [[0, 12]]}, schema, schema)


def test_the_schema_refuses_what_the_page_does_not_receive():
    schema = observation_schema("euchre")
    spec = get_spec("euchre")
    view = spec.new_match("schema", spec.normalize_options({})).view(0)
    assert errors({**view, "secret": 1}, schema, schema) == ["$: secret is not in the schema"]
    assert errors({**view, "phase": "bidding"}, schema, schema)
    assert errors({**view, "hand": [10, 11]}, schema, schema)
