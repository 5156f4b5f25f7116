"""timers: retries with backoff, and parking a timer that keeps failing

Revision ID: 0005
Revises: 0003
Create Date: 2026-11-30 16:00:00

"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0005"
down_revision: str | None = "0003"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("timers") as batch:
        batch.add_column(
            sa.Column("attempts", sa.Integer(), server_default=sa.text("0"), nullable=False)
        )
        batch.add_column(sa.Column("next_try_at", sa.DateTime(timezone=True), nullable=True))
        batch.add_column(sa.Column("failed_at", sa.DateTime(timezone=True), nullable=True))
        batch.add_column(sa.Column("last_error", sa.Text(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("timers") as batch:
        batch.drop_column("last_error")
        batch.drop_column("failed_at")
        batch.drop_column("next_try_at")
        batch.drop_column("attempts")
