"""Card notation and the seeded random stream (core protocol)."""

import random
import tracemalloc

import pytest

from tricktable.cards import (
    CARDS_OF_KEPT,
    COPY_OFFSET,
    HEARTS,
    JACK,
    QUEEN,
    SPADES,
    card,
    card_text,
    cards_of,
    mask_of,
    parse_card,
    parse_suit,
)
from tricktable.errors import NotationError
from tricktable.core.rng import SeedStream, derive_seed, shuffled


@pytest.mark.parametrize("text", ["JH", "J♥", "jh", " j♡ ", "JH"])
def test_jack_of_hearts_parses_in_every_form(text):
    assert parse_card(text) == card(JACK, HEARTS)


def test_every_card_prints_and_parses_back_in_both_forms():
    for c in range(52):
        assert parse_card(card_text(c)) == c
        assert parse_card(card_text(c, symbols=True)) == c


def test_ten_is_written_10_and_read_as_10_or_t():
    assert card_text(parse_card("T♠")) == "10S"
    assert card_text(parse_card("10s"), symbols=True) == "10♠"


def test_second_copy_prints_like_the_first():
    assert card_text(card(QUEEN, SPADES) + COPY_OFFSET) == "QS"


@pytest.mark.parametrize("bad", ["", "1H", "QX", "Q", "QQH", "11H"])
def test_malformed_card_is_a_notation_error(bad):
    with pytest.raises(NotationError):
        parse_card(bad)


def test_suits_parse_from_letter_symbol_and_name():
    assert parse_suit("s") == parse_suit("♠") == parse_suit("Spades") == SPADES
    with pytest.raises(NotationError):
        parse_suit("stars")


def test_masks_round_trip():
    cards = [0, 5, 51]
    assert cards_of(mask_of(cards)) == tuple(cards)


def test_cards_of_lists_every_id_of_a_set_lowest_first():
    rng = random.Random("cards_of")
    for _ in range(2000):
        ids = sorted(rng.sample(range(COPY_OFFSET + 52), rng.randrange(0, 25)))  # Doppelkopf's copies too
        assert cards_of(mask_of(ids)) == tuple(ids)


def test_cards_of_keeps_no_more_sets_than_its_bound():
    """A server process asks for new card sets all day: what ``cards_of`` keeps
    stays the same however many more it is asked for (it grew by a million)."""
    rng = random.Random("cards_of kept")
    sets = rng.sample(range(1 << 52), 4 * CARDS_OF_KEPT)
    cards_of.cache_clear()  # (sets kept by earlier tests were allocated before tracing)
    tracemalloc.start()
    try:
        for mask in sets[:CARDS_OF_KEPT]:
            cards_of(mask)
        full = _allocated_here()
        for mask in sets[CARDS_OF_KEPT:]:
            cards_of(mask)
        after = _allocated_here()
    finally:
        tracemalloc.stop()
    assert after - full < 1_000_000  # new: 0.23 MB (the cache's own churn); the old dict: 3.5 MB more (measured)
    assert cards_of.cache_info().currsize <= CARDS_OF_KEPT


def _allocated_here() -> int:
    """Bytes traced to this file and cards.py alone: threads that earlier tests
    left running allocate meanwhile (the whole process grew 0.37 MB once in the suite)."""
    import tricktable.cards

    mine = [tracemalloc.Filter(True, __file__), tracemalloc.Filter(True, tricktable.cards.__file__)]
    return sum(stat.size for stat in tracemalloc.take_snapshot().filter_traces(mine).statistics("filename"))


def test_seed_stream_is_fixed_by_the_documented_derivation():
    """The stream is SHA-256(seed || 0x00 || counter) read as big-endian words."""
    import hashlib

    block = hashlib.sha256(b"abc\x00" + (0).to_bytes(8, "big")).digest()
    stream = SeedStream("abc")
    assert [stream.word() for _ in range(8)] == [int.from_bytes(block[i:i + 4], "big") for i in range(0, 32, 4)]


def test_shuffle_is_a_permutation_and_depends_on_the_seed():
    a, b = shuffled(range(24), "one"), shuffled(range(24), "two")
    assert sorted(a) == sorted(b) == list(range(24))
    assert a != b
    assert shuffled(range(24), "one") == a


def test_shuffle_is_the_documented_fisher_yates_over_randbelow():
    """Records and daily deals depend on the exact order: the shuffle swaps
    position ``i`` (from the last down) with ``randbelow(i + 1)``."""
    for seed in ("one", "two", "fixed", "bench/7"):
        for size in (2, 24, 40, 48, 52, 200):
            items, stream = list(range(size)), SeedStream(seed)
            for i in range(size - 1, 0, -1):
                j = stream.randbelow(i + 1)
                items[i], items[j] = items[j], items[i]
            assert shuffled(range(size), seed) == items
    # Frozen before the shuffle was written out (a change here breaks every record).
    assert shuffled(range(52), "fixed")[:13] == [2, 44, 17, 23, 28, 40, 1, 15, 25, 6, 12, 16, 50]
    assert shuffled(range(24), "fixed")[:12] == [18, 5, 20, 16, 14, 23, 4, 22, 8, 6, 13, 0]


def test_randbelow_is_roughly_uniform():
    stream = SeedStream("uniform")
    counts = [0] * 6
    for _ in range(6000):
        counts[stream.randbelow(6)] += 1
    assert all(850 < c < 1150 for c in counts), counts


def test_derived_seeds_differ_per_label():
    assert derive_seed("m", "deal", 0) != derive_seed("m", "deal", 1)
    assert derive_seed("m", "deal", 0) == derive_seed("m", "deal", 0)
