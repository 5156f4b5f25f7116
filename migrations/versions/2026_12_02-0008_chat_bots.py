"""chat bots: server-wide bots, games using them, linked chat accounts, link codes, updates seen, private messages

Revision ID: 0008
Revises: 0010
Create Date: 2026-12-02 05:55:38.567936

"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0008"
down_revision: str | None = "0010"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "chat_bots",
        sa.Column("id", sa.String(length=32), nullable=False),
        sa.Column("kind", sa.String(length=16), nullable=False),
        sa.Column("name", sa.String(length=100), nullable=False),
        sa.Column("config", sa.JSON(), nullable=False),
        sa.Column("identity", sa.JSON(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("removed_at", sa.DateTime(timezone=True), nullable=True),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_chat_bots")),
    )
    op.create_table(
        "chat_accounts",
        sa.Column("bot_id", sa.String(length=32), nullable=False),
        sa.Column("account", sa.String(length=64), nullable=False),
        sa.Column("lang", sa.String(length=8), nullable=False),
        sa.Column("game_id", sa.String(length=32), nullable=True),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["bot_id"],
            ["chat_bots.id"],
            name=op.f("fk_chat_accounts_bot_id_chat_bots"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("bot_id", "account", name=op.f("pk_chat_accounts")),
    )
    op.create_table(
        "chat_games",
        sa.Column("game_id", sa.String(length=32), nullable=False),
        sa.Column("bot_ids", sa.JSON(), nullable=False),
        sa.Column("dm_orders", sa.Boolean(), nullable=False),
        sa.Column("dm_notifications", sa.Boolean(), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["game_id"], ["games.id"], name=op.f("fk_chat_games_game_id_games"), ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("game_id", name=op.f("pk_chat_games")),
    )
    op.create_table(
        "chat_messages",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("key", sa.String(length=200), nullable=False),
        sa.Column("bot_id", sa.String(length=32), nullable=False),
        sa.Column("chat", sa.String(length=64), nullable=False),
        sa.Column("game_id", sa.String(length=32), nullable=False),
        sa.Column("player_id", sa.String(length=32), nullable=False),
        sa.Column("kind", sa.String(length=32), nullable=False),
        sa.Column("text", sa.Text(), nullable=False),
        sa.Column("status", sa.String(length=16), nullable=False),
        sa.Column("attempts", sa.Integer(), nullable=False),
        sa.Column("next_attempt_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("error", sa.Text(), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("sent_at", sa.DateTime(timezone=True), nullable=True),
        sa.ForeignKeyConstraint(
            ["bot_id"],
            ["chat_bots.id"],
            name=op.f("fk_chat_messages_bot_id_chat_bots"),
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["game_id"],
            ["games.id"],
            name=op.f("fk_chat_messages_game_id_games"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_chat_messages")),
        sa.UniqueConstraint("key", name=op.f("uq_chat_messages_key")),
    )
    with op.batch_alter_table("chat_messages", schema=None) as batch_op:
        batch_op.create_index("ix_chat_messages_bot_chat", ["bot_id", "chat"], unique=False)
        batch_op.create_index(batch_op.f("ix_chat_messages_game_id"), ["game_id"], unique=False)
        batch_op.create_index(
            "ix_chat_messages_status_due", ["status", "next_attempt_at"], unique=False
        )

    op.create_table(
        "chat_seen",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("bot_id", sa.String(length=32), nullable=False),
        sa.Column("key", sa.String(length=100), nullable=False),
        sa.Column("answer", sa.JSON(), nullable=True),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["bot_id"],
            ["chat_bots.id"],
            name=op.f("fk_chat_seen_bot_id_chat_bots"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_chat_seen")),
        sa.UniqueConstraint("bot_id", "key", name=op.f("uq_chat_seen_bot_id_key")),
    )
    op.create_table(
        "chat_codes",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("game_id", sa.String(length=32), nullable=False),
        sa.Column("player_id", sa.String(length=32), nullable=False),
        sa.Column("code_hash", sa.String(length=64), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("expires_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("used_at", sa.DateTime(timezone=True), nullable=True),
        sa.ForeignKeyConstraint(
            ["game_id"], ["games.id"], name=op.f("fk_chat_codes_game_id_games"), ondelete="CASCADE"
        ),
        sa.ForeignKeyConstraint(
            ["player_id"],
            ["players.id"],
            name=op.f("fk_chat_codes_player_id_players"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_chat_codes")),
        sa.UniqueConstraint("code_hash", name=op.f("uq_chat_codes_code_hash")),
    )
    with op.batch_alter_table("chat_codes", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_chat_codes_game_id"), ["game_id"], unique=False)

    op.create_table(
        "chat_links",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("bot_id", sa.String(length=32), nullable=False),
        sa.Column("account", sa.String(length=64), nullable=False),
        sa.Column("chat", sa.String(length=64), nullable=False),
        sa.Column("game_id", sa.String(length=32), nullable=False),
        sa.Column("player_id", sa.String(length=32), nullable=False),
        sa.Column("notify", sa.Boolean(), nullable=False),
        sa.Column("events_seen", sa.Integer(), nullable=False),
        sa.Column("linked_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["bot_id"],
            ["chat_bots.id"],
            name=op.f("fk_chat_links_bot_id_chat_bots"),
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["game_id"], ["games.id"], name=op.f("fk_chat_links_game_id_games"), ondelete="CASCADE"
        ),
        sa.ForeignKeyConstraint(
            ["player_id"],
            ["players.id"],
            name=op.f("fk_chat_links_player_id_players"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_chat_links")),
        sa.UniqueConstraint(
            "bot_id", "account", "game_id", name=op.f("uq_chat_links_bot_id_account_game_id")
        ),
    )
    with op.batch_alter_table("chat_links", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_chat_links_game_id"), ["game_id"], unique=False)
        batch_op.create_index(batch_op.f("ix_chat_links_player_id"), ["player_id"], unique=False)


def downgrade() -> None:
    with op.batch_alter_table("chat_links", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_chat_links_player_id"))
        batch_op.drop_index(batch_op.f("ix_chat_links_game_id"))

    op.drop_table("chat_links")
    with op.batch_alter_table("chat_codes", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_chat_codes_game_id"))

    op.drop_table("chat_codes")
    op.drop_table("chat_seen")
    with op.batch_alter_table("chat_messages", schema=None) as batch_op:
        batch_op.drop_index("ix_chat_messages_status_due")
        batch_op.drop_index(batch_op.f("ix_chat_messages_game_id"))
        batch_op.drop_index("ix_chat_messages_bot_chat")

    op.drop_table("chat_messages")
    op.drop_table("chat_games")
    op.drop_table("chat_accounts")
    op.drop_table("chat_bots")
