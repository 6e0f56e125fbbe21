"""``selfplay --stats`` of deals already played, from ``selfplay --records`` folders.

Replays every record of the folders and prints the game's behaviour statistics
(``bots.stats``) as ``selfplay --stats --json`` prints them, so that figures added to
the statistics later can be had without playing the deals again (docs/strength.md,
session 13)::

    tricktable selfplay doppelkopf --bot search-noinfer --budget-ms 50 --seed behave-s12 \\
        --deals 1000 --stats --json --records build/behave/records-behave-s12
    python scripts/stats_from_records.py doppelkopf build/behave/records-behave-s12
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from tricktable.bots.stats import stats_for
from tricktable.core.record import replay


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("game")
    parser.add_argument("folders", nargs="+", type=Path)
    arguments = parser.parse_args()
    stats = stats_for(arguments.game)
    for folder in arguments.folders:
        for path in sorted(folder.glob("*.json")):
            stats.add(replay(path.read_text()))
    print(json.dumps(stats.summary()))


if __name__ == "__main__":
    main()
