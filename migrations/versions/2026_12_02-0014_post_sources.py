"""posts: what a post is rendered from (its public events, the game's facts, the deadline)

A post of a step is planned in the step's transaction and rendered later, once per format,
when first needed (app/publish/bodies.py): ``source`` keeps what that takes until the post
has every format, and the partial index is the delivery worker's queue of such posts.

Revision ID: 0014
Revises: 0013
Create Date: 2026-12-02 14:20:00

"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0014"
down_revision: str | None = "0013"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("posts") as batch:
        batch.add_column(sa.Column("source", sa.JSON(), nullable=True))
        batch.create_index(
            "ix_posts_unrendered",
            ["created_at"],
            unique=False,
            postgresql_where=sa.text("source IS NOT NULL"),
            sqlite_where=sa.text("source IS NOT NULL"),
        )


def downgrade() -> None:
    with op.batch_alter_table("posts") as batch:
        batch.drop_index("ix_posts_unrendered")
        batch.drop_column("source")
