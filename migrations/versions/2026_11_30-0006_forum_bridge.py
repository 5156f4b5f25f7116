"""forum bridge: the thread read per game, forum posts read, link codes; tallies

Revision ID: 0006
Revises: 0005
Create Date: 2026-11-30 16:00:00

"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0006"
down_revision: str | None = "0005"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "forum_posts",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("game_id", sa.String(length=32), nullable=False),
        sa.Column("thread_id", sa.String(length=64), nullable=True),
        sa.Column("post_id", sa.String(length=64), nullable=False),
        sa.Column("revision", sa.String(length=32), nullable=False),
        sa.Column("author", sa.String(length=200), nullable=True),
        sa.Column("player_id", sa.String(length=32), nullable=True),
        sa.Column("outcome", sa.String(length=16), nullable=False),
        sa.Column("order_ids", sa.JSON(), nullable=False),
        sa.Column("code", sa.String(length=64), nullable=True),
        sa.Column("reply_post_id", sa.String(length=32), nullable=True),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["game_id"], ["games.id"], name=op.f("fk_forum_posts_game_id_games"), ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_forum_posts")),
        sa.UniqueConstraint(
            "game_id", "post_id", "revision", name=op.f("uq_forum_posts_game_id_post_id_revision")
        ),
    )
    with op.batch_alter_table("forum_posts", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_forum_posts_game_id"), ["game_id"], unique=False)

    op.create_table(
        "forum_bridges",
        sa.Column("game_id", sa.String(length=32), nullable=False),
        sa.Column("channel_id", sa.String(length=32), nullable=False),
        sa.Column("thread_id", sa.String(length=64), nullable=True),
        sa.Column("read_orders", sa.Boolean(), nullable=False),
        sa.Column("poll_seconds", sa.Integer(), nullable=False),
        sa.Column("webhook_secret", sa.Text(), nullable=True),
        sa.Column("baseline_done", sa.Boolean(), nullable=False),
        sa.Column("last_read_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("last_error", sa.Text(), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["channel_id"],
            ["channels.id"],
            name=op.f("fk_forum_bridges_channel_id_channels"),
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["game_id"],
            ["games.id"],
            name=op.f("fk_forum_bridges_game_id_games"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("game_id", name=op.f("pk_forum_bridges")),
    )
    op.create_table(
        "forum_links",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("game_id", sa.String(length=32), nullable=False),
        sa.Column("player_id", sa.String(length=32), nullable=False),
        sa.Column("code_hash", sa.String(length=64), nullable=False),
        sa.Column("code_sealed", sa.Text(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("used_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("used_by", sa.String(length=200), nullable=True),
        sa.ForeignKeyConstraint(
            ["game_id"], ["games.id"], name=op.f("fk_forum_links_game_id_games"), ondelete="CASCADE"
        ),
        sa.ForeignKeyConstraint(
            ["player_id"],
            ["players.id"],
            name=op.f("fk_forum_links_player_id_players"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_forum_links")),
        sa.UniqueConstraint("code_hash", name=op.f("uq_forum_links_code_hash")),
    )
    with op.batch_alter_table("forum_links", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_forum_links_game_id"), ["game_id"], unique=False)
        batch_op.create_index(batch_op.f("ix_forum_links_player_id"), ["player_id"], unique=False)

    with op.batch_alter_table("publishing", schema=None) as batch_op:
        batch_op.add_column(sa.Column("tally_seconds", sa.JSON(), nullable=True))
        batch_op.add_column(sa.Column("tally_channel_id", sa.String(length=32), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("publishing", schema=None) as batch_op:
        batch_op.drop_column("tally_channel_id")
        batch_op.drop_column("tally_seconds")

    with op.batch_alter_table("forum_links", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_forum_links_player_id"))
        batch_op.drop_index(batch_op.f("ix_forum_links_game_id"))

    op.drop_table("forum_links")
    op.drop_table("forum_bridges")
    with op.batch_alter_table("forum_posts", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_forum_posts_game_id"))

    op.drop_table("forum_posts")
