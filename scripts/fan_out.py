"""A table's step fan-out, as ``load.py --tables`` measures it: when each
person's action was sent and answered, when each seat's event stream received
each version, and which server process holds each person's connections.

Kept apart from ``load.py`` (imported as a sibling, as ``samples.py`` is) so
its arithmetic is tested without a server: ``tests/scripts/test_fan_out.py``.
"""

from __future__ import annotations

import os
import socket
import sys
from dataclasses import dataclass, field
from typing import Callable

SEATS = 4


@dataclass
class Acted:
    """A step a person's action made: the acting seat, and when the POST was sent and answered (monotonic seconds)."""
    seat: int
    sent: float
    answered: float


@dataclass
class FanOutSamples:
    """Per step and other seat, seconds from the action's POST to the step on that seat's stream."""
    from_sent: list[float] = field(default_factory=list)
    from_answer: list[float] = field(default_factory=list)
    """Negative where the stream had the step before the actor had his answer."""
    same_process: list[float] = field(default_factory=list)
    """``from_sent`` where the seat's connections are on the actor's server process."""
    other_process: list[float] = field(default_factory=list)
    """``from_sent`` where they are on another process (the step crossed through the database)."""
    missing: int = 0
    """(step, seat) pairs whose step never reached that seat's stream."""


class FanOut:
    """What a table run's people sent and their streams received, by game and version."""

    def __init__(self) -> None:
        self.acted: dict[str, dict[int, Acted]] = {}
        self.arrived: dict[str, dict[int, dict[int, float]]] = {}
        self.address_of: dict[tuple[str, int], str] = {}
        """(game id, seat) → the loopback address its person connects from."""
        self.heard_up_to: dict[tuple[str, int], int] = {}
        """(game id, seat) → the last version that seat's stream received."""

    def seated(self, game_id: str, addresses: list[str]) -> None:
        """The people of ``game_id``'s seats 0, 1, 2, 3, by their addresses."""
        for seat, address in enumerate(addresses):
            self.address_of[(game_id, seat)] = address

    def action(self, game_id: str, version: int, seat: int, sent: float, answered: float) -> None:
        self.acted.setdefault(game_id, {})[version] = Acted(seat, sent, answered)

    def listening(self, game_id: str, seat: int, version: int) -> None:
        """``seat``'s stream opened after ``version``."""
        self.heard_up_to[(game_id, seat)] = version

    def received(self, game_id: str, seat: int, kind: str, version: int, at: float) -> None:
        """An event on ``seat``'s stream at ``at``: a ``step`` or ``state``
        (the SSE id its version) brings every version up to its own, the first
        time (a state may stand for several steps); other kinds carry none."""
        heard = self.heard_up_to.get((game_id, seat), 0)
        if kind not in ("step", "state") or version <= heard:
            return
        arrived = self.arrived.setdefault(game_id, {})
        for number in range(heard + 1, version + 1):
            arrived.setdefault(number, {})[seat] = at
        self.heard_up_to[(game_id, seat)] = version

    def missing(self, game_id: str) -> int:
        """(step, other seat) pairs of ``game_id`` whose step has not reached that seat's stream yet."""
        arrived = self.arrived.get(game_id, {})
        return sum(1 for version, acted in self.acted.get(game_id, {}).items()
                   for seat in range(SEATS) if seat != acted.seat and seat not in arrived.get(version, {}))

    def samples(self, process_of: Callable[[str], int | None]) -> FanOutSamples:
        """Every (step, other seat) pair's delays; ``process_of(address)``: the
        server process holding that address's connections (None: not known,
        then the pair is in neither process breakdown)."""
        out = FanOutSamples()
        for game_id, steps in self.acted.items():
            arrived = self.arrived.get(game_id, {})
            for version, acted in steps.items():
                actor = process_of(self.address_of.get((game_id, acted.seat), ""))
                for seat in range(SEATS):
                    if seat == acted.seat:
                        continue
                    at = arrived.get(version, {}).get(seat)
                    if at is None:
                        out.missing += 1
                        continue
                    out.from_sent.append(at - acted.sent)
                    out.from_answer.append(at - acted.answered)
                    receiver = process_of(self.address_of.get((game_id, seat), ""))
                    if actor is not None and receiver is not None:
                        (out.same_process if actor == receiver else out.other_process).append(at - acted.sent)
        return out


def address_word(address: str) -> int:
    """An IPv4 address as the 32-bit number the server's steering hashes."""
    return int.from_bytes(socket.inet_aton(address), "big")


def table_addresses(tables: int, workers: int, candidates: Callable[[int], str],
                    steered_to: Callable[[int, int], int | None]) -> list[list[str]]:
    """Each table's four addresses, by seat: seat s's is one the server steers
    to process ``s mod workers`` (``steered_to(address word, workers)``, the
    server's own function), drawn from ``candidates(0)``, ``candidates(1)``, …
    With two processes every table then has two seats on each: from each
    action, one other seat's stream is on the actor's process and two are on
    the other."""
    wanted = [tables * len(range(process, SEATS, workers)) for process in range(workers)]
    pools: list[list[str]] = [[] for _ in range(workers)]
    number = 0
    while any(len(pool) < want for pool, want in zip(pools, wanted)):
        address = candidates(number)
        number += 1
        process = steered_to(address_word(address), workers) if workers > 1 else 0
        if process is not None:  # (None: an address the kernel spreads, as a local proxy's)
            pools[process].append(address)
    drawn = [iter(pool) for pool in pools]
    return [[next(drawn[seat % workers]) for seat in range(SEATS)] for _ in range(tables)]


def tcp_endpoint(text: str) -> tuple[str, int]:
    """An IPv4 endpoint of ``/proc/net/tcp`` (``0100007F:1F90``: the address
    as the kernel's native-order word, the port in hex) as (address, port)."""
    address, port = text.split(":")
    return socket.inet_ntoa(int(address, 16).to_bytes(4, sys.byteorder)), int(port, 16)


def server_ends(lines: list[str], server_port: int) -> dict[int, str]:
    """From ``/proc/net/tcp``'s lines (heading first): socket inode → the
    client's address, for every established connection whose local end is
    ``server_port`` (the server's end of a client's connection)."""
    ends = {}
    for line in lines[1:]:
        fields = line.split()
        if len(fields) < 10 or fields[3] != "01":  # 01: ESTABLISHED
            continue
        local, remote, inode = tcp_endpoint(fields[1]), tcp_endpoint(fields[2]), int(fields[9])
        if local[1] == server_port and inode:
            ends[inode] = remote[0]
    return ends


def socket_owners(pids: list[int]) -> dict[int, int]:
    """Socket inode → the pid among ``pids`` that has it open (from ``/proc/PID/fd``)."""
    owners = {}
    for pid in pids:
        try:
            names = os.listdir(f"/proc/{pid}/fd")
        except OSError:
            continue
        for name in names:
            try:
                target = os.readlink(f"/proc/{pid}/fd/{name}")
            except OSError:
                continue
            if target.startswith("socket:["):
                owners[int(target[8:-1])] = pid
    return owners


def processes_by_address(server_port: int, pids: list[int]) -> dict[str, set[int]]:
    """Which of the server's processes (``pids``) hold each client address's
    connections to ``server_port`` now, as the kernel tells it: what the
    steering did, not what it was meant to do."""
    with open("/proc/net/tcp") as table:
        ends = server_ends(table.readlines(), server_port)
    owners = socket_owners(pids)
    held: dict[str, set[int]] = {}
    for inode, address in ends.items():
        if inode in owners:
            held.setdefault(address, set()).add(owners[inode])
    return held


__all__ = ["Acted", "FanOut", "FanOutSamples", "SEATS", "address_word", "processes_by_address", "server_ends",
           "socket_owners", "table_addresses", "tcp_endpoint"]
