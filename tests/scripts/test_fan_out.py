"""``scripts/load.py --tables``: the fan-out arithmetic, the seats' addresses
and the reading of which process holds a connection (no server started: the
tables' runs themselves are measurements, ``docs/performance.md``)."""

from __future__ import annotations

import importlib
import os
import socket
import sys
from pathlib import Path

import pytest

from tricktable.server.process.steering import socket_for

SCRIPTS = Path(__file__).resolve().parents[2] / "scripts"


@pytest.fixture(scope="module")
def scripts():
    """The scripts' modules, imported as they import each other (siblings)."""
    sys.path.insert(0, str(SCRIPTS))
    try:
        yield {name: importlib.import_module(name) for name in ("fan_out", "load")}
    finally:
        sys.path.remove(str(SCRIPTS))


def test_each_step_is_timed_to_every_other_seat_and_split_by_the_seats_processes(scripts):
    fan_out = scripts["fan_out"].FanOut()
    fan_out.seated("g", ["a0", "a1", "a2", "a3"])
    for seat in range(4):
        fan_out.listening("g", seat, 3)
    fan_out.action("g", 4, seat=1, sent=10.0, answered=10.010)
    fan_out.received("g", 1, "step", 4, 10.005)  # the actor's own stream: not a sample
    fan_out.received("g", 0, "step", 4, 10.020)
    fan_out.received("g", 2, "thinking", 4, 10.001)  # carries no version: no arrival
    fan_out.received("g", 2, "state", 5, 10.040)  # a state at 5 brings 4 too
    fan_out.received("g", 2, "step", 4, 10.002)  # older than what it has: the first arrival counts
    assert fan_out.missing("g") == 1  # seat 3 has not had it
    fan_out.received("g", 3, "step", 4, 10.003)
    assert fan_out.missing("g") == 0

    process = {"a0": 100, "a1": 200, "a2": 200, "a3": None}.get
    samples = fan_out.samples(process)
    assert samples.from_sent == pytest.approx([0.020, 0.040, 0.003])
    assert samples.from_answer == pytest.approx([0.010, 0.030, -0.007])  # before the answer: negative
    assert samples.same_process == pytest.approx([0.040])  # seat 2, on the actor's process
    assert samples.other_process == pytest.approx([0.020])  # seat 0; seat 3's process unknown: in neither
    assert samples.missing == 0


def test_a_step_no_stream_received_is_counted_missing(scripts):
    fan_out = scripts["fan_out"].FanOut()
    fan_out.seated("g", ["a0", "a1", "a2", "a3"])
    fan_out.action("g", 1, seat=0, sent=1.0, answered=1.01)
    fan_out.received("g", 2, "step", 1, 1.02)
    samples = fan_out.samples(lambda address: None)
    assert (len(samples.from_sent), samples.missing) == (1, 2)


@pytest.mark.parametrize("workers", [1, 2, 3])
def test_seat_s_of_every_table_is_steered_to_process_s_mod_workers(scripts, workers):
    fan_out, load = scripts["fan_out"], scripts["load"]
    tables = fan_out.table_addresses(5, workers, load.person_address, socket_for)
    every = [address for table in tables for address in table]
    assert len(tables) == 5 and len(set(every)) == 20  # a person each, none shared
    for table in tables:
        steered = [socket_for(fan_out.address_word(address), workers) if workers > 1 else 0 for address in table]
        assert steered == [seat % workers for seat in range(4)]


def test_the_server_end_of_a_connection_is_found_in_the_process_holding_it(scripts):
    """A connection from 127.0.0.7 to a listener of this process: /proc tells
    its address and that this process holds the accepted end."""
    with socket.socket() as listener:
        listener.bind(("127.0.0.1", 0))
        listener.listen()
        port = listener.getsockname()[1]
        with socket.create_connection(("127.0.0.1", port), source_address=("127.0.0.7", 0)):
            accepted, _ = listener.accept()
            with accepted:
                held = scripts["fan_out"].processes_by_address(port, [os.getpid()])
    assert held == {"127.0.0.7": {os.getpid()}}


def test_the_sweep_names_the_most_tables_within_the_bound_and_no_run_with_errors(scripts):
    load = scripts["load"]

    def table_run(tables: int, p95: float | None, errors: int = 0) -> dict:
        fan = {"n": 0 if p95 is None else 90, "p50": p95, "p95": p95, "p99": p95}
        return {"tables": tables, "people": 4 * tables, "fan_out_ms": fan, "fan_out_other_process_ms": fan,
                "errors": errors, "placement": {"tables_on_two_or_more_processes": tables}}

    default = {"people": 40, "click_to_first_bot_ms": {"p95": 80.0}, "errors": 0}
    runs = [table_run(5, 40.0), table_run(10, 120.0), table_run(20, 150.0, errors=1), table_run(40, 900.0)]
    summary = load.tables_summary(default, runs)
    assert summary["default"] == {"people": 40, "first_bot_p95_ms": 80.0, "errors": 0}
    assert summary["tables"]["most_tables_within_bound"] == 10
    assert [r["tables"] for r in summary["tables"]["runs"]] == [5, 10, 20, 40]
    assert load.tables_summary(default, [table_run(5, 250.0), table_run(10, None)])["tables"][
        "most_tables_within_bound"] is None
