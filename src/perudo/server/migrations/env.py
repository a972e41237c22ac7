"""Alembic's entry: migrate the connection :func:`perudo.server.migrations.upgrade` passes
(the store's, inside its transaction). Offline mode (SQL scripts) is not offered: the store
upgrades its database itself at start."""

from __future__ import annotations

from alembic import context

from perudo.server.store import metadata

connection = context.config.attributes.get("connection")
if connection is None:
    raise RuntimeError(
        "perudo's revisions run on the store's connection (perudo.server.migrations.upgrade); "
        "`perudo serve` upgrades its database at start"
    )
context.configure(
    connection=connection,
    target_metadata=metadata,
    # SQLite alters a table by copying it: a revision's batch_alter_table does so there.
    render_as_batch=connection.dialect.name == "sqlite",
)
with context.begin_transaction():
    context.run_migrations()
