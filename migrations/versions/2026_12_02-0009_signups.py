"""sign-ups: a game's sign-up settings, its sign-ups (seats, waitlist), co-directors

Revision ID: 0009
Revises: 0008
Create Date: 2026-12-02 06:00:00

"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0009"
down_revision: str | None = "0008"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def _game_fk(table: str) -> sa.ForeignKeyConstraint:
    return sa.ForeignKeyConstraint(
        ["game_id"], ["games.id"], name=op.f(f"fk_{table}_game_id_games"), ondelete="CASCADE"
    )


def upgrade() -> None:
    op.create_table(
        "signup_settings",
        sa.Column("game_id", sa.String(length=32), nullable=False),
        sa.Column("open", sa.Boolean(), nullable=False),
        sa.Column("max_players", sa.Integer(), nullable=True),
        sa.Column("min_players", sa.Integer(), nullable=True),
        sa.Column("waitlist", sa.Boolean(), nullable=False),
        sa.Column("max_waitlist", sa.Integer(), nullable=False),
        sa.Column("approval", sa.String(length=16), nullable=False),
        sa.Column("closes_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("listed", sa.Boolean(), nullable=True),
        sa.Column("side_assignment", sa.String(length=16), nullable=False),
        sa.Column("offer_seconds", sa.Integer(), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        _game_fk("signup_settings"),
        sa.PrimaryKeyConstraint("game_id", name=op.f("pk_signup_settings")),
    )
    op.create_table(
        "signups",
        sa.Column("id", sa.String(length=32), nullable=False),
        sa.Column("game_id", sa.String(length=32), nullable=False),
        sa.Column("seq", sa.Integer(), nullable=False),
        sa.Column("name", sa.String(length=100), nullable=False),
        sa.Column("name_key", sa.String(length=100), nullable=False),
        sa.Column("forum_name", sa.String(length=100), nullable=True),
        sa.Column("forum_key", sa.String(length=100), nullable=True),
        sa.Column("side", sa.String(length=16), nullable=True),
        sa.Column("side_fixed", sa.Boolean(), nullable=False),
        sa.Column("status", sa.String(length=16), nullable=False),
        sa.Column("token_hash", sa.String(length=64), nullable=False),
        sa.Column("player_id", sa.String(length=32), nullable=True),
        sa.Column("address_hash", sa.String(length=64), nullable=True),
        sa.Column("source", sa.String(length=16), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        _game_fk("signups"),
        sa.ForeignKeyConstraint(
            ["player_id"],
            ["players.id"],
            name=op.f("fk_signups_player_id_players"),
            ondelete="SET NULL",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_signups")),
        sa.UniqueConstraint("token_hash", name=op.f("uq_signups_token_hash")),
    )
    with op.batch_alter_table("signups", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_signups_game_id"), ["game_id"], unique=False)
        batch_op.create_index(batch_op.f("ix_signups_player_id"), ["player_id"], unique=False)
        batch_op.create_index(batch_op.f("ix_signups_address_hash"), ["address_hash"], unique=False)
    op.create_table(
        "co_directors",
        sa.Column("id", sa.String(length=32), nullable=False),
        sa.Column("game_id", sa.String(length=32), nullable=False),
        sa.Column("name", sa.String(length=100), nullable=False),
        sa.Column("scope", sa.String(length=16), nullable=False),
        sa.Column("token_hash", sa.String(length=64), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("revoked_at", sa.DateTime(timezone=True), nullable=True),
        _game_fk("co_directors"),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_co_directors")),
        sa.UniqueConstraint("token_hash", name=op.f("uq_co_directors_token_hash")),
    )
    with op.batch_alter_table("co_directors", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_co_directors_game_id"), ["game_id"], unique=False)
    op.create_table(
        "co_director_sessions",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("game_id", sa.String(length=32), nullable=False),
        sa.Column("co_director_id", sa.String(length=32), nullable=False),
        sa.Column("token_hash", sa.String(length=64), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("revoked_at", sa.DateTime(timezone=True), nullable=True),
        _game_fk("co_director_sessions"),
        sa.ForeignKeyConstraint(
            ["co_director_id"],
            ["co_directors.id"],
            name=op.f("fk_co_director_sessions_co_director_id_co_directors"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_co_director_sessions")),
        sa.UniqueConstraint("token_hash", name=op.f("uq_co_director_sessions_token_hash")),
    )
    with op.batch_alter_table("co_director_sessions", schema=None) as batch_op:
        batch_op.create_index(
            batch_op.f("ix_co_director_sessions_game_id"), ["game_id"], unique=False
        )
        batch_op.create_index(
            batch_op.f("ix_co_director_sessions_co_director_id"), ["co_director_id"], unique=False
        )


def downgrade() -> None:
    op.drop_table("co_director_sessions")
    op.drop_table("co_directors")
    op.drop_table("signups")
    op.drop_table("signup_settings")
