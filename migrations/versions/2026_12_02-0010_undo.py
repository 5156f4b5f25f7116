"""steps: a director's undo marks steps undone (who, when, why); games: sandboxes forked
from another game

Revision ID: 0010
Revises: 0011
Create Date: 2026-12-02 06:00:00

"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0010"
down_revision: str | None = "0011"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("steps") as batch:
        batch.add_column(
            sa.Column("undone", sa.Boolean(), nullable=False, server_default=sa.false())
        )
        batch.add_column(sa.Column("undone_by", sa.String(length=16), nullable=True))
        batch.add_column(sa.Column("undone_at", sa.DateTime(timezone=True), nullable=True))
        batch.add_column(sa.Column("undone_reason", sa.Text(), nullable=True))
        batch.add_column(sa.Column("undone_in_step", sa.Integer(), nullable=True))
    with op.batch_alter_table("games") as batch:
        batch.add_column(
            sa.Column("sandbox", sa.Boolean(), nullable=False, server_default=sa.false())
        )
        batch.add_column(sa.Column("forked_from", sa.String(length=32), nullable=True))
        batch.add_column(sa.Column("forked_at_step", sa.Integer(), nullable=True))
        batch.add_column(sa.Column("undos", sa.Integer(), nullable=False, server_default="0"))

    op.create_table(
        "post_withdrawals",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("game_id", sa.String(length=32), nullable=False),
        sa.Column("delivery_id", sa.Integer(), nullable=False),
        sa.Column("reason", sa.Text(), nullable=False),
        sa.Column("status", sa.String(length=16), nullable=False),
        sa.Column("attempts", sa.Integer(), nullable=False),
        sa.Column("error", sa.Text(), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("done_at", sa.DateTime(timezone=True), nullable=True),
        sa.ForeignKeyConstraint(
            ["delivery_id"],
            ["deliveries.id"],
            name=op.f("fk_post_withdrawals_delivery_id_deliveries"),
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["game_id"],
            ["games.id"],
            name=op.f("fk_post_withdrawals_game_id_games"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_post_withdrawals")),
    )
    op.create_index(
        op.f("ix_post_withdrawals_game_id"), "post_withdrawals", ["game_id"], unique=False
    )
    op.create_index(
        op.f("ix_post_withdrawals_delivery_id"), "post_withdrawals", ["delivery_id"], unique=False
    )


def downgrade() -> None:
    op.drop_index(op.f("ix_post_withdrawals_delivery_id"), table_name="post_withdrawals")
    op.drop_index(op.f("ix_post_withdrawals_game_id"), table_name="post_withdrawals")
    op.drop_table("post_withdrawals")
    with op.batch_alter_table("games") as batch:
        batch.drop_column("undos")
        batch.drop_column("forked_at_step")
        batch.drop_column("forked_from")
        batch.drop_column("sandbox")
    with op.batch_alter_table("steps") as batch:
        batch.drop_column("undone_in_step")
        batch.drop_column("undone_reason")
        batch.drop_column("undone_at")
        batch.drop_column("undone_by")
        batch.drop_column("undone")
