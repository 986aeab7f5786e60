"""The people tables that hold what signs a person in: passwords, sessions, passkeys, recovery codes.

Every secret is stored as a hash only (argon2id for passwords, SHA-256 for the long random
session ids and recovery codes, whose entropy makes a slow hash needless), so a copy of the
database signs nobody in. All are new tables declared on the web schema's base; deleting an
account deletes its rows here (``accounts.delete_account``).
"""

from __future__ import annotations

from sqlalchemy import Float, ForeignKey, Integer, LargeBinary, String
from sqlalchemy.orm import Mapped, mapped_column

from gamebag.web.store.base import Base


class PasswordRow(Base):
    """An account's password, as its argon2id hash (PHC string: algorithm, parameters, salt, hash)."""

    __tablename__ = "people_passwords"

    account_id: Mapped[str] = mapped_column(ForeignKey("people_accounts.id"), primary_key=True)
    hash: Mapped[str] = mapped_column(String(200))
    changed_at: Mapped[float] = mapped_column(Float)


class SessionRow(Base):
    """A signed-in browser: the SHA-256 of its session id (the cookie holds the id itself) and the
    CSRF token its pages send back in a header."""

    __tablename__ = "people_sessions"

    id_hash: Mapped[str] = mapped_column(String(64), primary_key=True)
    account_id: Mapped[str] = mapped_column(ForeignKey("people_accounts.id"), index=True)
    csrf: Mapped[str] = mapped_column(String(64))
    created_at: Mapped[float] = mapped_column(Float)
    expires_at: Mapped[float] = mapped_column(Float)


class PasskeyRow(Base):
    """A passkey (WebAuthn credential) that signs an account in: its id, public key and counter."""

    __tablename__ = "people_passkeys"

    credential_id: Mapped[str] = mapped_column(String(400), primary_key=True)  # base64url
    account_id: Mapped[str] = mapped_column(ForeignKey("people_accounts.id"), index=True)
    public_key: Mapped[bytes] = mapped_column(LargeBinary)  # COSE key
    sign_count: Mapped[int] = mapped_column(Integer, default=0)
    created_at: Mapped[float] = mapped_column(Float)


class RecoveryCodeRow(Base):
    """One of an account's one-time recovery codes, as its SHA-256 (shown once, at sign-up)."""

    __tablename__ = "people_recovery_codes"

    code_hash: Mapped[str] = mapped_column(String(64), primary_key=True)
    account_id: Mapped[str] = mapped_column(ForeignKey("people_accounts.id"), index=True)


class ChallengeRow(Base):
    """A passkey ceremony under way: its random challenge, kept in the database so that any
    process of a cluster can finish what another began; used once, valid for minutes."""

    __tablename__ = "people_challenges"

    id_hash: Mapped[str] = mapped_column(String(64), primary_key=True)
    challenge: Mapped[bytes] = mapped_column(LargeBinary)
    purpose: Mapped[str] = mapped_column(String(16))  # "register" or "sign-in"
    account_id: Mapped[str | None] = mapped_column(String(32), nullable=True)  # who registers
    expires_at: Mapped[float] = mapped_column(Float)
