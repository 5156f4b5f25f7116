"""games.state_delta, state_hash, state_base, settings_hash: a large state stored as a base and what
changed since, and both hashed so that a process holding them decoded need not read them

A step read, decoded and wrote the game's whole state (400 KiB of JSON with 1,000
players). Now a large state is written whole now and then (the base, in ``state``) and
each step writes what changed since (``state_delta``, app/services/state_delta.py); each
process keeps the states it last read or wrote, by ``state_hash`` (the whole state's, as
the step records it) and ``state_base`` (the base's), and reads a row's state only when
that pair is not one it holds (app/services/state_cache.py). Rows written before have
neither hash and are read whole until their next step writes them whole. The settings
(20 KiB for a large scenario) get the same: ``settings_hash``.

Revision ID: 0016
Revises: 0015
Create Date: 2026-12-02 19:00:00

"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0016"
down_revision: str | None = "0015"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("games") as batch:
        batch.add_column(sa.Column("state_delta", sa.JSON(), nullable=True))
        batch.add_column(sa.Column("state_hash", sa.String(length=64), nullable=True))
        batch.add_column(sa.Column("state_base", sa.String(length=64), nullable=True))
        batch.add_column(sa.Column("settings_hash", sa.String(length=64), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("games") as batch:
        batch.drop_column("settings_hash")
        batch.drop_column("state_base")
        batch.drop_column("state_hash")
        batch.drop_column("state_delta")
