"""Doppelkopf announcements by contract and team, from ``selfplay --records`` folders.

``selfplay --stats`` counts a team's announcement as won when the team wins the deal,
in all and by its highest level; this splits the same count by the contract (normal,
marriage, poverty, solo) and the announcing team, which shows where the misses are
(docs/strength.md, session 13)::

    tricktable selfplay doppelkopf --bot search-noinfer --budget-ms 50 --seed behave-s12 \\
        --deals 1000 --records build/behave/records-behave-s12
    python scripts/doppelkopf_announcements.py build/behave/records-behave-s12
"""

from __future__ import annotations

import argparse
import math
from collections import Counter
from pathlib import Path

from tricktable.core.record import replay
from tricktable.games.doppelkopf.observation import Team, doppelkopf_observation


def count_announcements(folders: list[Path]) -> Counter[tuple[str, str, bool]]:
    """(contract, team, won) of every team's announcement in the records of ``folders``."""
    counts: Counter[tuple[str, str, bool]] = Counter()
    for folder in folders:
        for path in sorted(folder.glob("*.json")):
            observation = doppelkopf_observation(replay(path.read_text()).observe(0))  # all public at the end
            contract = observation.contract
            kind = "solo" if contract and contract.is_solo else contract.value if contract else "none"
            winner = observation.result.winner if observation.result else None
            for team, level in zip(Team, observation.levels):
                if level >= 0:
                    counts[kind, team.name.lower(), winner == team] += 1
    return counts


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("folders", nargs="+", type=Path)
    counts = count_announcements(parser.parse_args().folders)
    for kind, team in sorted({(kind, team) for kind, team, _ in counts}):
        won, lost = counts[kind, team, True], counts[kind, team, False]
        share = won / (won + lost)
        stderr = math.sqrt(share * (1 - share) / (won + lost))
        print(f"{kind:12} {team:7} {won + lost:5} announced, {won:5} won: {100 * share:5.1f} % ± {100 * stderr:.1f}")


if __name__ == "__main__":
    main()
