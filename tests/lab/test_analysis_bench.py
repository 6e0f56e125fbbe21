"""The served analysis bench's per-deal times, from when each decision first
showed up in the polled answers."""

from __future__ import annotations

from lab.analysis_bench import deal_times


def test_a_deal_lasts_from_the_end_of_the_one_before_until_its_last_decision_shows():
    decisions = [{"index": 3, "deal": 0}, {"index": 8, "deal": 0}, {"index": 40, "deal": 1}, {"index": 70, "deal": 2},
                 {"index": 75, "deal": 2}]
    seen = {3: 1.0, 8: 2.5, 40: 6.0, 70: 6.0, 75: 9.25}  # 70 showed up in the same answer as 40
    assert deal_times(decisions, seen) == [2.5, 3.5, 3.25]
