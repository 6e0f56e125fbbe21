"""What a simulated person measures at the table, shared by ``load.py`` and
``latency.py`` (both run as ``python scripts/<name>.py``, so they import it as a
sibling): per person action, the seconds from the click to the action's answer
(``own``) and to the first computer player's card (``first_bot``), and the counts
around them.  Each script fills the fields it measures; the others stay empty."""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass
class Samples:
    own: list[float] = field(default_factory=list)
    """Click → the action's answer (the person's own card), seconds."""
    first_bot: list[float] = field(default_factory=list)
    """Click → the first computer player's card, seconds."""
    idle: list[float] = field(default_factory=list)
    """``latency.py``: per click, the longest time nothing arrived and nothing said who was thinking."""
    actions: int = 0
    matches: int = 0
    """Matches played to their end."""
    unfinished: int = 0
    retries: int = 0
    errors: int = 0
    conflicts: int = 0
    """Answers 409, counted apart from the errors."""
    error_kinds: dict[str, int] = field(default_factory=dict)
    answer_bytes: int = 0
    """``load.py``: the action answers' bodies as received (gzip where the server sent it so)."""
    stream_bytes: int = 0
    """``load.py``: the event streams' bytes as received (the chunks' data)."""

    def error(self, kind: str) -> None:
        self.errors += 1
        self.error_kinds[kind] = self.error_kinds.get(kind, 0) + 1

    def add(self, other: Samples) -> None:
        """Count ``other``'s samples in too."""
        self.own += other.own
        self.first_bot += other.first_bot
        self.idle += other.idle
        self.actions += other.actions
        self.matches += other.matches
        self.unfinished += other.unfinished
        self.retries += other.retries
        self.errors += other.errors
        self.conflicts += other.conflicts
        for kind, count in other.error_kinds.items():
            self.error_kinds[kind] = self.error_kinds.get(kind, 0) + count
        self.answer_bytes += other.answer_bytes
        self.stream_bytes += other.stream_bytes
