"""The event stream's own decisions (``live/sse.py``), on a channel of its
own: what a notice makes a quiet stream do."""

from __future__ import annotations

import asyncio

from tricktable.server.live.channel import Event, LocalChannel
from tricktable.server.live.feed import reaction, seats_changed
from tricktable.server.live.sse import event_stream
from tricktable.server.play.room import removed_event

GAME = "g"
QUIET = 60.0  # no quiet look at the database within a test: only a notice can make the stream look


async def first_messages(notice: Event, answers: list[list[Event]], count: int) -> tuple[list[bytes], int]:
    """The first ``count`` messages of seat 1's stream (after its hello) once
    ``notice`` is published, and how often it looked at the database (each
    look answers the next of ``answers``)."""
    channel = LocalChannel()
    looks = 0

    async def refresh(_version: int) -> list[Event]:
        nonlocal looks
        looks += 1
        return answers.pop(0) if answers else []

    stream = event_stream(channel.subscribe(GAME, seat=1), [], 5, refresh, poll=QUIET)
    try:
        await anext(stream)  # ": connected"
        channel.publish(notice)
        sent = [await asyncio.wait_for(anext(stream), 5) for _ in range(count)]
    finally:
        await stream.aclose()
    return sent, looks


def test_a_seats_notice_makes_the_stream_look_and_a_removal_found_there_ends_it():
    """On another process than the host's, a removed person's stream learns
    of it only by looking: the notice that his seat changed hands makes it look."""
    sent, looks = asyncio.run(first_messages(seats_changed(GAME, 1), [[removed_event(GAME, 5, 1)]], 1))
    assert looks == 1
    assert sent[0].startswith(b"event: removed\n")  # and not the notice: nothing follows the removal


def test_a_seats_notice_is_sent_on_where_the_seat_is_still_the_streams():
    sent, looks = asyncio.run(first_messages(seats_changed(GAME, 2), [], 1))
    assert looks == 1
    assert sent[0] == b'event: seats\ndata: {"seat":2}\n\n'


def test_a_reaction_is_sent_without_a_look():
    sent, looks = asyncio.run(first_messages(reaction(GAME, 0, "thanks"), [], 1))
    assert looks == 0
    assert sent[0].startswith(b"event: reaction\n")
