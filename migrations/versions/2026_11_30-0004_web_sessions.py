"""web pages: invites, browser sessions, and the credentials epoch of a game

Revision ID: 0004
Revises: 0001
Create Date: 2026-11-30 10:00:00

"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0004"
down_revision: str | None = "0001"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("games") as batch:
        batch.add_column(
            sa.Column("auth_epoch", sa.Integer(), server_default=sa.text("0"), nullable=False)
        )
    op.create_table(
        "invites",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("game_id", sa.String(length=32), nullable=False),
        sa.Column("player_id", sa.String(length=32), nullable=False),
        sa.Column("code_hash", sa.String(length=64), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("used_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("revoked_at", sa.DateTime(timezone=True), nullable=True),
        sa.ForeignKeyConstraint(
            ["game_id"], ["games.id"], name=op.f("fk_invites_game_id_games"), ondelete="CASCADE"
        ),
        sa.ForeignKeyConstraint(
            ["player_id"],
            ["players.id"],
            name=op.f("fk_invites_player_id_players"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_invites")),
        sa.UniqueConstraint("code_hash", name=op.f("uq_invites_code_hash")),
    )
    op.create_index(op.f("ix_invites_game_id"), "invites", ["game_id"], unique=False)
    op.create_index(op.f("ix_invites_player_id"), "invites", ["player_id"], unique=False)
    op.create_table(
        "web_sessions",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("game_id", sa.String(length=32), nullable=False),
        sa.Column("role", sa.String(length=16), nullable=False),
        sa.Column("player_id", sa.String(length=32), nullable=True),
        sa.Column("token_hash", sa.String(length=64), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("revoked_at", sa.DateTime(timezone=True), nullable=True),
        sa.ForeignKeyConstraint(
            ["game_id"],
            ["games.id"],
            name=op.f("fk_web_sessions_game_id_games"),
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["player_id"],
            ["players.id"],
            name=op.f("fk_web_sessions_player_id_players"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_web_sessions")),
        sa.UniqueConstraint("token_hash", name=op.f("uq_web_sessions_token_hash")),
    )
    op.create_index(op.f("ix_web_sessions_game_id"), "web_sessions", ["game_id"], unique=False)
    op.create_index(op.f("ix_web_sessions_player_id"), "web_sessions", ["player_id"], unique=False)


def downgrade() -> None:
    op.drop_index(op.f("ix_web_sessions_player_id"), table_name="web_sessions")
    op.drop_index(op.f("ix_web_sessions_game_id"), table_name="web_sessions")
    op.drop_table("web_sessions")
    op.drop_index(op.f("ix_invites_player_id"), table_name="invites")
    op.drop_index(op.f("ix_invites_game_id"), table_name="invites")
    op.drop_table("invites")
    with op.batch_alter_table("games") as batch:
        batch.drop_column("auth_epoch")
