"""The tables: games and their step frames, the server's secrets, people
(identities, transfer codes, nicknames), shared records and daily scores."""

from __future__ import annotations

from sqlalchemy import (Boolean, Column, DateTime, Float, Index, Integer, LargeBinary, MetaData, String, Table, Text,
                        UniqueConstraint, false, func)

from tricktable.nicknames import MAX_CODE_POINTS, MAX_SKELETON

metadata = MetaData()

games = Table(
    "games",
    metadata,
    Column("id", String(40), primary_key=True),
    Column("game", String(40), nullable=False),
    # The record without its actions ("actions": [] in their place), as JSON.
    Column("record", Text, nullable=False),
    Column("version", Integer, nullable=False),
    Column("status", String(8), nullable=False),  # "open" or "over"
    Column("daily_day", String(10)),
    Column("device", String(64)),
    # When the person's timed decision (Court Piece calling) runs out, as Unix
    # seconds; the server applies the referee's timeout once it has passed.
    Column("deadline", Float),
    Column("created_at", DateTime(timezone=True), server_default=func.now()),
    Column("updated_at", DateTime(timezone=True), server_default=func.now()),
    # One daily attempt per identity per game per day (the column kept its old
    # name: older rows hold the page's device id); ordinary games have NULL day
    # and device, which unique constraints treat as distinct.
    UniqueConstraint("game", "daily_day", "device", name="one_daily_attempt"),
    # The identity that created the game (the cap on open games counts these).
    Column("owner", String(40)),
    # A daily attempt counts on the leaderboard (NULL: made before practice
    # existed, when every attempt counted).
    Column("ranked", Boolean),
    # Never sent to anyone: the computer players' random choices in a daily
    # attempt, and the server's half of the deal seed until it is revealed.
    Column("bot_secret", String(64)),
    Column("server_seed", String(64)),
    Column("client_seed", String(64)),
    Column("commitment", String(64)),
    # The lease on the computer players' turn (``Store.claim_turn``): the
    # server process working it and until when (Unix seconds).
    Column("lease_owner", String(40)),
    Column("lease_until", Float),
    # The record's actions, each a JSON string, joined by commas (the inside of
    # the JSON array): a commit appends its own (``actions || :added``), so it
    # sends only what it adds, never the whole record again.  The last column,
    # so the others are read without the pages a long match spills into.
    Column("actions", Text, nullable=False, server_default=""),
    Index("games_owner_status", "owner", "status"),
    Index("games_owner_created", "owner", "created_at", "id"),  # a person's history, newest first
    Index("games_lease_until", "lease_until"),
    Index("games_commitment", "commitment", unique=True),
)

# Each step's event as the game's streams of seat 0 send it (the person's view
# in a game of one person; a table's other seats' streams read their own
# views), stored by the process that commits it for streams of the game on
# other processes (``Store.frames``); kept for ``FRAMES_KEPT_SECONDS``.
frames = Table(
    "frames",
    metadata,
    Column("game_id", String(40), primary_key=True),
    Column("version", Integer, primary_key=True),
    Column("frame", LargeBinary, nullable=False),
    Column("written_at", Float, nullable=False),
    Index("frames_written_at", "written_at"),
)

meta = Table(
    "meta",
    metadata,
    Column("key", String(40), primary_key=True),
    Column("value", Text, nullable=False),
)

nicknames = Table(
    "nicknames",
    metadata,
    Column("device", String(64), primary_key=True),
    Column("nickname", String(MAX_CODE_POINTS), nullable=False),
    # ``tricktable.nicknames.skeleton``: equal for look-alike names, so unique.
    Column("skeleton", String(MAX_SKELETON)),
    Index("nicknames_skeleton", "skeleton", unique=True),
    # ``tricktable.nicknames.case_skeleton``: equal for names that differ in case only.
    Column("case_skeleton", String(MAX_SKELETON)),
    Index("nicknames_case_skeleton", "case_skeleton", unique=True),
)

identities = Table(
    "identities",
    metadata,
    Column("id", String(40), primary_key=True),
    Column("issued_at", Float, nullable=False),
    Column("address", String(64)),  # the /24 or /64 it was issued to
)

transfer_codes = Table(
    "transfer_codes",
    metadata,
    Column("code_hash", String(64), primary_key=True),
    Column("identity", String(40), nullable=False),
    Column("expires_at", Float, nullable=False),
)

# A finished game's record shared by its owner: whoever holds the link reads
# it (``Store.shared_game``).  The token is stored hashed, like transfer codes,
# so a reader of the database cannot open the links.
shared_records = Table(
    "shared_records",
    metadata,
    Column("token_hash", String(64), primary_key=True),
    Column("game_id", String(40), nullable=False),
    Column("created_at", DateTime(timezone=True), server_default=func.now()),
    Column("seat", Integer),  # the seat of the person who shared it (null: seat 0): the link shows his seat
    Index("shared_records_game", "game_id"),
)

scores = Table(
    "scores",
    metadata,
    Column("game", String(40), primary_key=True),
    Column("day", String(10), primary_key=True),
    Column("device", String(64), primary_key=True),
    Column("score", Integer, nullable=False),
    Column("game_id", String(40), nullable=False),
    Column("created_at", DateTime(timezone=True), server_default=func.now()),
    Column("finished_at", Float),  # Unix seconds: ties go to who finished first
)

# A finished game's analysis of one seat's decisions (``Store.analysis``): one
# row per game and seat (a table's match has one per person), its progress,
# and the lease of the server process working it.
analyses = Table(
    "analyses",
    metadata,
    Column("game_id", String(40), primary_key=True),
    Column("seat", Integer, primary_key=True),
    Column("status", String(8), nullable=False),  # "queued", "running", "done" or "failed"
    Column("done", Integer, nullable=False),
    Column("total", Integer, nullable=False),
    Column("error", Text),  # the last failed attempt's message, kept when it is retried
    Column("attempts", Integer, nullable=False, server_default="1"),  # attempts started
    Column("retry", Boolean, nullable=False, server_default=false()),  # failed, and a POST starts it again
    # The server process working it and until when (Unix seconds); a lapsed
    # lease is taken over at the next request.
    Column("worker", String(40)),
    Column("lease_until", Float),
    Column("created_at", DateTime(timezone=True), server_default=func.now()),
    Column("updated_at", DateTime(timezone=True), server_default=func.now()),
)

# A finished game summarised once for each of its people's statistics (its
# ``owner``, here the person whose seat it sums up; ``core.summary.GameSummary``
# as JSON, of ``format``): statistics add these up and never replay a game again.
game_summaries = Table(
    "game_summaries",
    metadata,
    Column("game_id", String(40), primary_key=True),
    Column("owner", String(40), primary_key=True),
    Column("game", String(40), nullable=False),
    Column("finished_at", Float, nullable=False),  # Unix seconds
    Column("format", Integer, nullable=False),
    Column("summary", Text, nullable=False),
    Index("game_summaries_owner_game", "owner", "game", "finished_at"),
)

# Passkeys (WebAuthn credentials) registered to an identity: signing in with
# one sets that identity's cookie again on any device.
passkeys = Table(
    "passkeys",
    metadata,
    Column("credential_id", String(1400), primary_key=True),  # base64url of up to 1,023 bytes (WebAuthn's limit)
    Column("identity", String(40), nullable=False),
    Column("public_key", LargeBinary, nullable=False),  # COSE
    Column("sign_count", Integer, nullable=False),
    Column("created_at", Float, nullable=False),
    Column("last_used_at", Float),
    Index("passkeys_identity", "identity"),
)

# A WebAuthn challenge the server handed out: used once (taken by the verify
# that answers it) and only until ``expires_at``; a registration's is bound
# to its identity.
passkey_challenges = Table(
    "passkey_challenges",
    metadata,
    Column("challenge", String(100), primary_key=True),  # base64url
    Column("purpose", String(16), nullable=False),  # "register" or "sign_in"
    Column("identity", String(40)),
    Column("expires_at", Float, nullable=False),
    Index("passkey_challenges_expires_at", "expires_at"),
)

# A table of friends (``Store.create_table``): reached by its short ``code`` or
# its invite link (the hash of its token, like share links); ``seats`` is JSON,
# per seat the identity that holds it or null (a computer player); ``clock``:
# seconds per decision (null: none); ``game_id``: the match it started;
# ``touched_at``: Unix seconds of its last change (it expires a day after its
# last step, and is deleted then); ``watch_hash``: the hash of its watch link's
# token; ``quick_until``: a quick-match table's latest start (null: friends').
tables = Table(
    "tables",
    metadata,
    Column("id", String(40), primary_key=True),
    Column("code", String(6), nullable=False),
    Column("invite_hash", String(64), nullable=False),
    Column("game", String(40), nullable=False),
    Column("options", Text, nullable=False),
    Column("level", String(10), nullable=False),
    Column("host", String(40), nullable=False),
    Column("seats", Text, nullable=False),
    Column("clock", Integer),
    Column("game_id", String(40)),
    Column("touched_at", Float, nullable=False),
    Column("watch_hash", String(64)),
    Column("quick_until", Float),
    # Whether the hint is offered when more than one person sits (alone: always).
    Column("hints", Boolean, nullable=False, server_default=false()),
    # The computer players' seats a newcomer may take during the match (bit n: seat n).
    Column("open_seats", Integer, nullable=False, server_default="0"),
    Index("tables_code", "code", unique=True),
    Index("tables_invite_hash", "invite_hash", unique=True),
    Index("tables_game_id", "game_id", unique=True),
    Index("tables_watch_hash", "watch_hash", unique=True),
    Index("tables_touched_at", "touched_at"),
    Index("tables_quick", "game", "quick_until"),
)

# A match its table moved on from ("play again"): the seats and clock it was
# played with (its table's now belong to the next match) and the match that
# followed it.  Read with the game (``Store.load``) where no table holds it.
past_matches = Table(
    "past_matches",
    metadata,
    Column("game_id", String(40), primary_key=True),
    Column("seats", Text, nullable=False),
    Column("clock", Integer),
    Column("next_id", String(40), nullable=False),
)

# A table's open watch streams, in every server process (``Store.admit_watcher``):
# a stream holds a row while it is open and renews ``until`` (Unix seconds)
# while it lasts, so a killed process's watchers count only until then.
watchers = Table(
    "watchers",
    metadata,
    Column("id", String(40), primary_key=True),
    Column("table_id", String(40), nullable=False),
    Column("until", Float, nullable=False),
    Index("watchers_table", "table_id"),
    Index("watchers_until", "until"),
)

# Quick reactions at tables' matches, kept a minute so that server processes
# other than the sender's tell their streams (``Store.add_reaction``); ``writer``
# is the sending process (``Store.writer``), which told its own streams itself.
reactions = Table(
    "reactions",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("game_id", String(40), nullable=False),
    Column("seat", Integer, nullable=False),
    Column("key", String(20), nullable=False),
    Column("writer", String(12), nullable=False),
    Column("at", Float, nullable=False),
    Index("reactions_at", "at"),
)

# Each analysed decision of an analysis, one row each: storing one more is an
# insert, not a rewrite of all of them.
analysis_decisions = Table(
    "analysis_decisions",
    metadata,
    Column("game_id", String(40), primary_key=True),
    Column("seat", Integer, primary_key=True),
    Column("action_index", Integer, primary_key=True),  # its position in the record's actions
    Column("decision", Text, nullable=False),  # a JSON object, as the analysis reports it
)

# The people of a game with seats, one row per seat a person holds: a table's
# match (written when it starts, kept when the table is gone) or a game of one
# person not at seat 0 (playing on from such a seat).  A game without rows is
# its owner's alone, at seat 0.  A person's history and statistics find the
# tables' matches he played here, not only the games he created.
game_seats = Table(
    "game_seats",
    metadata,
    Column("game_id", String(40), primary_key=True),
    Column("seat", Integer, primary_key=True),
    Column("identity", String(40), nullable=False),
    Index("game_seats_identity", "identity", "game_id"),
)


__all__ = ["metadata", "games", "frames", "meta", "nicknames", "identities", "transfer_codes", "shared_records",
           "scores", "analyses", "game_summaries", "passkeys", "passkey_challenges", "tables", "past_matches",
           "analysis_decisions", "watchers", "reactions", "game_seats"]
