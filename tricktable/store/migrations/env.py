"""Alembic's entry point: the store hands over its open connection
(``config.attributes["connection"]``), so migrations run on the same engine."""

from __future__ import annotations

from alembic import context

from tricktable.store.schema import metadata

connection = context.config.attributes["connection"]
context.configure(connection=connection, target_metadata=metadata, render_as_batch=True)
with context.begin_transaction():
    context.run_migrations()
