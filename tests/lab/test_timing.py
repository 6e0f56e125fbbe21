"""``tricktable-lab timing``: decision times under today's rules or an older
rules version (the hard level must answer within 250 ms wall at p95; docs/strength.md)."""

from __future__ import annotations

from typing import Any

import pytest

from lab import arena
from lab import timing
from tricktable.catalog import entry


def _options_played(monkeypatch: pytest.MonkeyPatch, **measure_args: Any) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    seen: list[dict[str, Any]] = []

    def recording_deal_state(spec: Any, seed: str, index: int, options: dict[str, Any]) -> Any:
        seen.append(options)
        return arena.deal_state(spec, seed, index, options)

    monkeypatch.setattr(timing, "deal_state", recording_deal_state)
    return timing.measure("double-sar", "heuristic", 1, **measure_args), seen


def test_timing_plays_the_older_rules_version_it_is_given(monkeypatch):
    result, seen = _options_played(monkeypatch, rules_version="double-sar-1")
    legacy = arena.table_options("double-sar", rules_version="double-sar-1")
    assert seen == [legacy] and legacy != arena.table_options("double-sar")
    assert result["rules_version"] == "double-sar-1"


def test_timing_plays_todays_rules_by_default(monkeypatch):
    result, seen = _options_played(monkeypatch)
    assert seen == [arena.table_options("double-sar")]
    assert result["rules_version"] == entry("double-sar").spec.rules_version != "double-sar-1"


def test_timing_breaks_the_cpu_time_down_by_kind_of_action():
    result = timing.measure("euchre", "heuristic", 2)
    by_kind = result["cpu_ms_by_kind"]
    assert "play" in by_kind
    assert sum(kind["n"] for kind in by_kind.values()) == result["decisions"] > 0


def test_an_unknown_rules_version_is_a_usage_error(capsys):
    with pytest.raises(SystemExit) as stop:
        timing.main(["double-sar", "--deals", "1", "--rules-version", "double-sar-9"])
    assert stop.value.code == 2
    assert "no rules version 'double-sar-9'" in capsys.readouterr().err
