"""accounts: optional passkey accounts that gather seats across games (issue 21)

Revision ID: 0012
Revises: 0009
Create Date: 2026-12-02

"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0012"
down_revision: str | None = "0009"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "accounts",
        sa.Column("id", sa.String(length=32), nullable=False),
        sa.Column("name", sa.String(length=100), nullable=False),
        sa.Column("user_handle", sa.String(length=100), nullable=False),
        sa.Column("share_record", sa.Boolean(), server_default=sa.text("false"), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_accounts")),
        sa.UniqueConstraint("user_handle", name=op.f("uq_accounts_user_handle")),
    )
    op.create_table(
        "account_challenges",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("challenge", sa.String(length=200), nullable=False),
        sa.Column("purpose", sa.String(length=16), nullable=False),
        sa.Column("account_id", sa.String(length=32), nullable=True),
        sa.Column("name", sa.String(length=100), nullable=True),
        sa.Column("user_handle", sa.String(length=100), nullable=True),
        sa.Column("client", sa.String(length=64), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("used_at", sa.DateTime(timezone=True), nullable=True),
        sa.ForeignKeyConstraint(
            ["account_id"],
            ["accounts.id"],
            name=op.f("fk_account_challenges_account_id_accounts"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_account_challenges")),
        sa.UniqueConstraint("challenge", name=op.f("uq_account_challenges_challenge")),
    )
    with op.batch_alter_table("account_challenges", schema=None) as batch_op:
        batch_op.create_index(
            batch_op.f("ix_account_challenges_account_id"), ["account_id"], unique=False
        )
        batch_op.create_index(batch_op.f("ix_account_challenges_client"), ["client"], unique=False)

    op.create_table(
        "account_passkeys",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("account_id", sa.String(length=32), nullable=False),
        sa.Column("credential_id", sa.String(length=1400), nullable=False),
        sa.Column("public_key", sa.Text(), nullable=False),
        sa.Column("sign_count", sa.Integer(), nullable=False),
        sa.Column("transports", sa.JSON(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("last_used_at", sa.DateTime(timezone=True), nullable=True),
        sa.ForeignKeyConstraint(
            ["account_id"],
            ["accounts.id"],
            name=op.f("fk_account_passkeys_account_id_accounts"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_account_passkeys")),
        sa.UniqueConstraint("credential_id", name=op.f("uq_account_passkeys_credential_id")),
    )
    with op.batch_alter_table("account_passkeys", schema=None) as batch_op:
        batch_op.create_index(
            batch_op.f("ix_account_passkeys_account_id"), ["account_id"], unique=False
        )

    op.create_table(
        "account_recovery_codes",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("account_id", sa.String(length=32), nullable=False),
        sa.Column("code_hash", sa.String(length=64), nullable=False),
        sa.Column("used_at", sa.DateTime(timezone=True), nullable=True),
        sa.ForeignKeyConstraint(
            ["account_id"],
            ["accounts.id"],
            name=op.f("fk_account_recovery_codes_account_id_accounts"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_account_recovery_codes")),
        sa.UniqueConstraint("code_hash", name=op.f("uq_account_recovery_codes_code_hash")),
    )
    with op.batch_alter_table("account_recovery_codes", schema=None) as batch_op:
        batch_op.create_index(
            batch_op.f("ix_account_recovery_codes_account_id"), ["account_id"], unique=False
        )

    op.create_table(
        "account_seats",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("account_id", sa.String(length=32), nullable=False),
        sa.Column("game_id", sa.String(length=32), nullable=False),
        sa.Column("role", sa.String(length=16), nullable=False),
        sa.Column("seat", sa.String(length=32), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["account_id"],
            ["accounts.id"],
            name=op.f("fk_account_seats_account_id_accounts"),
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["game_id"],
            ["games.id"],
            name=op.f("fk_account_seats_game_id_games"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_account_seats")),
        sa.UniqueConstraint(
            "account_id",
            "game_id",
            "role",
            "seat",
            name=op.f("uq_account_seats_account_id_game_id_role_seat"),
        ),
    )
    with op.batch_alter_table("account_seats", schema=None) as batch_op:
        batch_op.create_index(
            batch_op.f("ix_account_seats_account_id"), ["account_id"], unique=False
        )
        batch_op.create_index(batch_op.f("ix_account_seats_game_id"), ["game_id"], unique=False)

    op.create_table(
        "account_sessions",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("account_id", sa.String(length=32), nullable=False),
        sa.Column("token_hash", sa.String(length=64), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("revoked_at", sa.DateTime(timezone=True), nullable=True),
        sa.ForeignKeyConstraint(
            ["account_id"],
            ["accounts.id"],
            name=op.f("fk_account_sessions_account_id_accounts"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_account_sessions")),
        sa.UniqueConstraint("token_hash", name=op.f("uq_account_sessions_token_hash")),
    )
    with op.batch_alter_table("account_sessions", schema=None) as batch_op:
        batch_op.create_index(
            batch_op.f("ix_account_sessions_account_id"), ["account_id"], unique=False
        )

    op.create_table(
        "account_tokens",
        sa.Column("id", sa.String(length=32), nullable=False),
        sa.Column("account_id", sa.String(length=32), nullable=False),
        sa.Column("name", sa.String(length=100), nullable=False),
        sa.Column("scopes", sa.JSON(), nullable=False),
        sa.Column("token_hash", sa.String(length=64), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("revoked_at", sa.DateTime(timezone=True), nullable=True),
        sa.ForeignKeyConstraint(
            ["account_id"],
            ["accounts.id"],
            name=op.f("fk_account_tokens_account_id_accounts"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_account_tokens")),
        sa.UniqueConstraint("token_hash", name=op.f("uq_account_tokens_token_hash")),
    )
    with op.batch_alter_table("account_tokens", schema=None) as batch_op:
        batch_op.create_index(
            batch_op.f("ix_account_tokens_account_id"), ["account_id"], unique=False
        )


def downgrade() -> None:
    with op.batch_alter_table("account_tokens", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_account_tokens_account_id"))

    op.drop_table("account_tokens")
    with op.batch_alter_table("account_sessions", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_account_sessions_account_id"))

    op.drop_table("account_sessions")
    with op.batch_alter_table("account_seats", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_account_seats_game_id"))
        batch_op.drop_index(batch_op.f("ix_account_seats_account_id"))

    op.drop_table("account_seats")
    with op.batch_alter_table("account_recovery_codes", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_account_recovery_codes_account_id"))

    op.drop_table("account_recovery_codes")
    with op.batch_alter_table("account_passkeys", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_account_passkeys_account_id"))

    op.drop_table("account_passkeys")
    with op.batch_alter_table("account_challenges", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_account_challenges_client"))
        batch_op.drop_index(batch_op.f("ix_account_challenges_account_id"))

    op.drop_table("account_challenges")
    op.drop_table("accounts")
