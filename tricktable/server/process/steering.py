"""One person, one server process: the listening sockets of ``serve --workers N``.

Each worker process accepts from its own socket of one ``SO_REUSEPORT`` group,
and a small classic-BPF program tells the kernel which socket a new connection
goes to: a hash of the client's address.  So a person's connections (the
requests of her page and its event stream, which a browser opens separately)
all reach the same process, which commits her actions, works the computer
players' turn and sends every step on her stream itself.  With uvicorn's
shared socket each connection went to any worker: for about half the people
the stream was on another process, which learned of each step from the
database's change feed (``live/feed.py``) — later (SQLite polls every 50 ms) and
for more work (the steps' frames written to the database and read back).

What steering cannot tell apart falls back to the kernel's own spreading
(per connection) and stays correct through the change feed:
* connections from ``127.0.0.1`` or ``::1`` — a proxy on the same machine;
* people who share an address (a NAT), or whose address changes.
Behind a load balancer on another machine every connection has the
balancer's address: there ``--steer none`` (docs/deploy.md).
"""

from __future__ import annotations

import ctypes
import logging
import socket
import sys

log = logging.getLogger("tricktable.server")

SO_ATTACH_REUSEPORT_CBPF = 51  # <asm-generic/socket.h>; not in Python's socket module
SKF_NET_OFF = -0x100000  # <linux/filter.h>: offsets from the network (IP) header
ADDRESS_WORD = 12
"""Bytes from the start of the IP header to the word hashed: the IPv4 source
address, or in IPv6 the source's second word (bits 32-63: the network part,
which a device's temporary addresses keep)."""
FIBONACCI = 0x9E3779B1
"""2^32 / golden ratio: multiplying by it spreads neighbouring addresses."""
LOCAL_PROXY_WORDS = (0x7F000001, 0)
"""127.0.0.1, and the word of ::1: a proxy on this machine, not a person."""
SPREAD = 0xFFFFFFFF
"""A socket index out of range: the kernel then picks by its own hash."""

# Classic BPF opcodes (<linux/bpf_common.h>).
LD_WORD_ABS, JEQ_K, MUL_K, RSH_K, MOD_K, RET_A, RET_K = 0x20, 0x15, 0x24, 0x74, 0x94, 0x16, 0x06


class _Instruction(ctypes.Structure):
    _fields_ = [("code", ctypes.c_uint16), ("jt", ctypes.c_uint8), ("jf", ctypes.c_uint8), ("k", ctypes.c_uint32)]


class _Program(ctypes.Structure):
    _fields_ = [("len", ctypes.c_uint16), ("filter", ctypes.POINTER(_Instruction))]


def steering_program(sockets: int) -> list[tuple[int, int, int, int]]:
    """The program's instructions (code, jump if true, jump if false, constant):
    the socket index ``(address word * FIBONACCI mod 2^32 >> 16) mod sockets``,
    or ``SPREAD`` for a local proxy."""
    return [
        (LD_WORD_ABS, 0, 0, (SKF_NET_OFF + ADDRESS_WORD) & 0xFFFFFFFF),
        (JEQ_K, 5, 0, LOCAL_PROXY_WORDS[0]),  # to the last instruction
        (JEQ_K, 4, 0, LOCAL_PROXY_WORDS[1]),
        (MUL_K, 0, 0, FIBONACCI),
        (RSH_K, 0, 0, 16),
        (MOD_K, 0, 0, sockets),
        (RET_A, 0, 0, 0),
        (RET_K, 0, 0, SPREAD),
    ]


def socket_for(address_word: int, sockets: int) -> int | None:
    """What ``steering_program`` computes, in Python (for tests and docs): the
    socket index, or ``None`` where the kernel spreads."""
    if address_word in LOCAL_PROXY_WORDS:
        return None
    return (((address_word * FIBONACCI) & 0xFFFFFFFF) >> 16) % sockets


def listening_sockets(host: str, port: int, count: int, steer: str = "address") -> list[socket.socket]:
    """A listening socket on (host, port) for each of ``count`` workers.  On
    Linux, sockets of one ``SO_REUSEPORT`` group, in the order the program's
    indices name them, steered by the client's address unless ``steer`` is
    ``none`` or the program cannot be attached (then the kernel spreads the
    connections).  Elsewhere ``SO_REUSEPORT`` does not spread a group's
    connections (BSD and macOS give them all to one socket): there every
    worker shares one socket, as under uvicorn's supervisor."""
    if not sys.platform.startswith("linux"):
        log.warning("serve: no steering by address on %s; connections are spread by the system", sys.platform)
        return [_listener(host, port, reuse_port=False)] * count
    sockets: list[socket.socket] = []
    try:
        for _ in range(count):
            sockets.append(_listener(host, port, reuse_port=True))
    except OSError:
        for listener in sockets:
            listener.close()
        raise
    if steer == "address" and count > 1:
        attach_steering(sockets[0], count)
    return sockets


def _listener(host: str, port: int, reuse_port: bool) -> socket.socket:
    listener = socket.socket(socket.AF_INET6 if ":" in host else socket.AF_INET, socket.SOCK_STREAM)
    try:
        listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        if reuse_port:
            listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEPORT, 1)
        listener.bind((host, port))
        listener.listen(2048)  # (uvicorn's backlog)
    except OSError:
        listener.close()
        raise
    return listener


def attach_steering(listener: socket.socket, sockets: int) -> bool:
    """Attach the program to ``listener``'s group (Linux); False, with a
    warning, where the kernel refuses it (before 4.5)."""
    program = steering_program(sockets)
    instructions = (_Instruction * len(program))(*(_Instruction(*instruction) for instruction in program))
    fprog = _Program(len(program), instructions)
    try:
        listener.setsockopt(socket.SOL_SOCKET, SO_ATTACH_REUSEPORT_CBPF,
                            ctypes.string_at(ctypes.addressof(fprog), ctypes.sizeof(fprog)))
    except OSError as failure:
        log.warning("serve: could not steer connections by address (%s); they are spread by the system", failure)
        return False
    return True


__all__ = ["attach_steering", "listening_sockets", "socket_for", "steering_program"]
