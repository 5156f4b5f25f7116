"""signups: the account of whoever signed up while signed in (the director sees its record)

Revision ID: 0013
Revises: 0012
Create Date: 2026-12-02 07:30:00

"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0013"
down_revision: str | None = "0012"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("signups") as batch:
        batch.add_column(sa.Column("account_id", sa.String(length=32), nullable=True))
        batch.create_index(batch.f("ix_signups_account_id"), ["account_id"], unique=False)
        batch.create_foreign_key(
            batch.f("fk_signups_account_id_accounts"),
            "accounts",
            ["account_id"],
            ["id"],
            ondelete="SET NULL",
        )


def downgrade() -> None:
    with op.batch_alter_table("signups") as batch:
        batch.drop_constraint(batch.f("fk_signups_account_id_accounts"), type_="foreignkey")
        batch.drop_index(batch.f("ix_signups_account_id"))
        batch.drop_column("account_id")
