"""The DDV's plus-minus scoring (option ``ddv_scoring``, on in the "ddv" preset).

Spec: ``shared/rules/doppelkopf.md``, "DDV tournament rules", "Scoring".  Who wins
follows the DDV's list, which is the standard winner rule of rules doppelkopf-2
(``rules.deal_winner``); what differs is the table of points:

* won 1; the losers under 90, 60, 30, no trick: +1 each;
* Re announced +2, Kontra announced +2;
* each of no 90 … schwarz +1 for every side that announced it, made or not;
* +1 for each "told no 90 (60, 30, schwarz), reached 120 (90, 60, 30) anyway";
* extra points netted between the sides, in normal games and marriages with a
  partner only: against the queens of clubs (Kontra won), Doppelkopf tricks,
  foxes caught, Karlchen;  a deal nobody wins nets only these;
* a solo of any kind has none of them; the soloist wins or loses three times.

Every line keeps a stable key: the score sheet names each one.

>>> from tricktable.games.doppelkopf.rules import DealFacts
>>> facts = DealFacts((0, 1, 0, 1), False, (150, 90), (8, 4), (1, -1))
>>> [(key, points) for key, _, points, _ in settle_ddv(facts).lines]
[('won', 1), ('re_announced', 2), ('re_no_90', 1), ('against_the_old', 1)]
>>> settle_ddv(facts).seat_points
[-5, 5, -5, 5]
"""

from __future__ import annotations

from tricktable.games.doppelkopf.rules import (
    ANNOUNCE_NAMES,
    KONTRA,
    MARKS,
    RE,
    TEAM_NAMES,
    DealFacts,
    Settlement,
    deal_winner,
    settlement_of,
)

TOLD_REACHED = (120, 90, 60, 30)
"""What a side told no 90 (60, 30, schwarz) must reach anyway to earn its point."""

Line = tuple[str, str, int, int]
"""(key, text, points, team) as in ``rules.Settlement.lines``."""


def settle_ddv(facts: DealFacts) -> Settlement:
    """Winner, the DDV's lines and each seat's game points of a finished deal."""
    winner = deal_winner(facts)
    lines: list[Line] = []
    if winner is not None:
        lines += _game_points(winner, facts)
    if not facts.lone:
        lines += _extra_points(winner, facts)
    return settlement_of(winner, lines, facts.team_of)


def _game_points(winner: int, facts: DealFacts) -> list[Line]:
    """Every line of the table above extra points, all for the winning side."""
    loser = 1 - winner
    lines: list[Line] = [("won", f"{TEAM_NAMES[winner].capitalize()} won", 1, winner)]
    for index, mark in enumerate(MARKS):
        fell = facts.tricks[loser] == 0 if mark == 0 else facts.card_points[loser] < mark
        if fell:
            name = ANNOUNCE_NAMES[index + 1].replace(" ", "_")
            text = "Losers took no trick (schwarz)" if mark == 0 else f"Losers under {mark}"
            lines.append((f"under_{name}", text, 1, winner))
    for team in (RE, KONTRA):
        if facts.levels[team] >= 0:
            lines.append((f"{TEAM_NAMES[team]}_announced", f"{TEAM_NAMES[team].capitalize()} announced", 2, winner))
    for team in (RE, KONTRA):
        for level in range(1, facts.levels[team] + 1):
            name = ANNOUNCE_NAMES[level]
            lines.append((f"{TEAM_NAMES[team]}_{name.replace(' ', '_')}",
                          f"{name} announced by {TEAM_NAMES[team].capitalize()}", 1, winner))
    for told in (RE, KONTRA):
        for level in range(1, facts.levels[1 - told] + 1):
            reached = TOLD_REACHED[level - 1]
            if facts.card_points[told] >= reached:
                name = ANNOUNCE_NAMES[level]
                lines.append((f"told_{name.replace(' ', '_')}_reached_{reached}",
                              f"{TEAM_NAMES[told].capitalize()}, told {name}, reached {reached}", 1, winner))
    return lines


def _extra_points(winner: int | None, facts: DealFacts) -> list[Line]:
    """The extra points of each side (netted by the settlement): against the queens
    of clubs when Kontra wins, then the deal's foxes, Doppelkopf tricks, Karlchen."""
    lines: list[Line] = []
    if winner == KONTRA:
        lines.append(("against_the_old", "Won against the queens of clubs (Kontra won)", 1, KONTRA))
    for team in (RE, KONTRA):
        lines += [(key, text, 1, team) for key, text in facts.extras[team]]
    return lines
