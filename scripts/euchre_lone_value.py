"""What each rule for Euchre's lone-hand choice is worth, measured on real deals.

Issue 14 caps lone hands at 8 % of contracts (made at least 90 % of the time); letting search
go alone as it judges was worth +0.036 points per deal at 17 % (docs/strength.md, session 14).
This asks which lone hands carry that value.  For every contract of a folder of records
(``tricktable selfplay euchre --records DIR``) the maker's choice between going alone and
playing with the partner is

- searched as the normal level would (``worlds_for(50)`` worlds, inference): the paired
  advantage of going alone in the worlds, its standard error and the share of the worlds
  in which the lone hand marches;
- played out both ways from the real deal, by the normal level in every seat: what each
  choice really scored for the makers.

Every row is written to ``--json``; ``--rules`` then reads such files and prints, for each
selection rule, how often it goes alone, how often those lone hands are made and what it
gains per deal over always playing with the partner and, paired deal by deal, over main's
rule (docs/strength.md, session 18)::

    python scripts/euchre_lone_value.py RECORDS_DIR --json rows.json
    python scripts/euchre_lone_value.py --rules rows-a.json rows-b.json
"""

from __future__ import annotations

import argparse
import json
import math
from pathlib import Path
from typing import Any, Callable, Sequence

from tricktable.arena import NO_HARD_STOP_MS
from tricktable.bots import euchre, search
from tricktable.bots.players import SearchBot
from tricktable.cli import play_bots
from tricktable.core.record import parse_record
from tricktable.games.euchre.state import ALONE, ALONE_CHOICE, WITH_PARTNER, EuchreState, action_text

from euchre_bid_calibration import world_rows  # this folder: run as ``python scripts/…``

NORMAL_MS = 50.0
ALONE_TEXT, PARTNER_TEXT = action_text(ALONE), action_text(WITH_PARTNER)


def searched(obs: Any, seed: str) -> dict[str, float]:
    """Going alone against playing with the partner in the normal level's worlds."""
    actions, samples = world_rows(obs, euchre.worlds_for(NORMAL_MS), seed)
    alone_at, partner_at = actions.index(ALONE_TEXT), actions.index(PARTNER_TEXT)
    paired = search._paired(samples, alone_at, partner_at)  # two candidates: every world tried both
    assert paired is not None
    advantage, stderr = paired
    total = sum(w for w, _ in samples)

    def share(holds: Callable[[float], bool]) -> float:
        return sum(w for w, v in samples if holds(float(v[alone_at] or 0.0))) / total

    return {"advantage": advantage, "stderr": stderr,
            "march": share(lambda value: value >= euchre.LONE_MARCH), "euchre": share(lambda value: value < 0)}


def played_out(state: EuchreState, seat: int, choice: str, seed: str) -> dict[str, Any]:
    """The makers' points when ``seat`` makes ``choice`` and the normal level plays on."""
    trial = state.clone()
    trial.act(seat, choice)
    bots = [SearchBot(seed=seed, budget_ms=NORMAL_MS, hard_ms=NO_HARD_STOP_MS) for _ in range(4)]
    play_bots(trial, bots)
    points = trial.returns()
    return {"points": points[seat] - points[(seat + 1) % 4], "outcome": trial.outcome}


def contract(path: Path) -> dict[str, Any] | None:
    """The lone-hand choice of one record: searched, and played out both ways."""
    record = parse_record(json.loads(path.read_text(encoding="utf-8")))
    state = record.start()
    assert isinstance(state, EuchreState)
    for text in record.actions:
        if state.phase == ALONE_CHOICE:
            seat = state.to_move
            obs = state.observe(seat)
            if len(obs.legal) < 2:
                return None  # an option forced the choice
            alone, partner = (played_out(state, seat, choice, path.name) for choice in (ALONE_TEXT, PARTNER_TEXT))
            return {"path": str(path), "rules": euchre.heuristic_text(obs), "played": text,
                    **searched(obs, path.name), "real_alone": alone["points"], "alone_outcome": alone["outcome"],
                    "real_partner": partner["points"]}
        state.act(state.to_move, text)
    return None


Rule = Callable[[dict[str, Any]], bool]


def main_rule(z: float = euchre.LONE_SWITCH_Z, march: float = euchre.LONE_MARCH_SHARE) -> Rule:
    """Main's choice: the rules', left for a lone hand at ``z`` standard errors and a march
    share of ``march``, for the partner at ``search.SWITCH_Z``."""
    def goes_alone(row: dict[str, Any]) -> bool:
        if row["rules"] == ALONE_TEXT:
            return not -row["advantage"] > search.SWITCH_Z * row["stderr"]
        return row["advantage"] > z * row["stderr"] and row["march"] >= march
    return goes_alone


def gain_rule(least: float, z: float = euchre.LONE_SWITCH_Z) -> Rule:
    """Alone wherever its estimated gain is at least ``least`` points (and ``z`` SE)."""
    return lambda row: row["advantage"] >= least and row["advantage"] > z * row["stderr"]


MAIN = "main (3 SE, march 0.6)"
RULES: dict[str, Rule] = {
    "with the partner always": lambda row: False,
    "the rules (ALONE_THRESHOLD)": lambda row: row["rules"] == ALONE_TEXT,
    MAIN: main_rule(),
    "search at 1 SE (no cap)": lambda row: row["advantage"] > search.SWITCH_Z * row["stderr"],
    "search at 3 SE, no march share": lambda row: row["advantage"] > 3 * row["stderr"],
    **{f"3 SE, march {m}": main_rule(march=m) for m in (0.4, 0.5, 0.7)},
    **{f"gain >= {g}": gain_rule(g) for g in (0.2, 0.4, 0.6, 0.8, 1.0, 1.2)},
}


def mean_and_stderr(values: Sequence[float]) -> tuple[float, float]:
    n = len(values)
    mean = sum(values) / n
    return mean, math.sqrt(sum((v - mean) ** 2 for v in values) / (n - 1) / n)


def report(rows: Sequence[dict[str, Any]], deals: int) -> None:
    """Each rule's lone rate, lone hands made, and real gain per deal over playing with the
    partner always and, paired deal by deal, over main's rule."""
    print(f"{len(rows)} contracts with a choice over {deals} deals")
    no_contract = [0.0] * (deals - len(rows))

    def gains(goes_alone: Rule) -> list[float]:
        return [r["real_alone"] - r["real_partner"] if goes_alone(r) else 0.0 for r in rows] + no_contract

    mains = gains(RULES[MAIN])
    for name, goes_alone in RULES.items():
        lone = [r for r in rows if goes_alone(r)]
        made = sum(r["real_alone"] > 0 for r in lone)
        rule_gains = gains(goes_alone)
        gain, spread = mean_and_stderr(rule_gains)
        over, over_spread = mean_and_stderr([g - m for g, m in zip(rule_gains, mains)])
        print(f"{name:34s} alone {len(lone) / len(rows):6.1%} ({len(lone):4d}) made {made / max(len(lone), 1):6.1%}  "
              f"gain per deal over the partner {gain:+.4f} ± {spread:.4f}, over main {over:+.4f} ± {over_spread:.4f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("records", nargs="*", type=Path)
    parser.add_argument("--json", type=Path, help="write every contract's row here")
    parser.add_argument("--rules", nargs="*", type=Path, default=[], help="row files to report on")
    args = parser.parse_args()
    if args.records:
        paths = [path for folder in args.records for path in sorted(folder.glob("*.json"))]
        rows = [row for path in paths if (row := contract(path))]
        if args.json:
            args.json.write_text(json.dumps({"deals": len(paths), "rows": rows}), encoding="utf-8")
        report(rows, len(paths))
    if args.rules:
        files = [json.loads(path.read_text(encoding="utf-8")) for path in args.rules]
        report([row for f in files for row in f["rows"]], sum(f["deals"] for f in files))


if __name__ == "__main__":
    main()
