"""Sending mail through the operator's SMTP server (``gamebag serve --smtp URL``), off the event loop.

``SmtpTarget.parse`` reads ``smtp://[user[:password]@]host[:port][?from=address]`` (STARTTLS when
the server offers it) or ``smtps://...`` (TLS from the first byte, port 465 by default); a
password not in the URL is read from ``$GAMEBAG_SMTP_PASSWORD``. ``Mailer`` is one thread with a
bounded queue: ``offer`` never waits (a full queue refuses the mail, and the caller keeps its
notice for a later round), each mail is tried again after growing pauses when the server fails,
so a slow or dead mail server never slows a table. Logs name addresses only masked.
"""

from __future__ import annotations

import contextlib
import logging
import os
import queue
import smtplib
import ssl
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from email.message import EmailMessage
from email.utils import format_datetime, make_msgid
from urllib.parse import parse_qs, unquote, urlsplit

from gamebag.web.notices.rows import masked
from gamebag.web.words.text import N_, _

log = logging.getLogger("gamebag.web")

PASSWORD_ENV = "GAMEBAG_SMTP_PASSWORD"
QUEUE_LIMIT = 200  # mails waiting for the server at most; more are refused (their notices wait)
RETRY_PAUSES = (2.0, 10.0, 60.0)  # seconds before each new try of a mail the server refused or dropped
SMTP_SECONDS = 20.0  # one conversation with the server at most

TEXT = {
    "scheme": N_("--smtp must start with smtp:// or smtps://, for example smtp://mail.example.org:587"),
    "host": N_("--smtp must name the mail server's host, for example smtp://mail.example.org:587"),
    "port": N_("--smtp's port must be a number from 1 to 65535"),
    "from": N_("--smtp's from= must be an e-mail address, for example ?from=games@example.org"),
}


class SmtpUrlError(ValueError):
    """An ``--smtp`` URL that cannot be used (the message says what is allowed)."""


@dataclass(frozen=True)
class SmtpTarget:
    """Where and how mail is sent."""

    host: str
    port: int
    implicit_tls: bool
    user: str | None
    password: str | None
    sender: str

    @classmethod
    def parse(cls, url: str) -> SmtpTarget:
        parts = urlsplit(url)
        if parts.scheme not in ("smtp", "smtps"):
            raise SmtpUrlError(_(TEXT["scheme"]))
        if not parts.hostname:
            raise SmtpUrlError(_(TEXT["host"]))
        try:
            port = parts.port or (465 if parts.scheme == "smtps" else 25)
        except ValueError:
            raise SmtpUrlError(_(TEXT["port"])) from None
        sender = parse_qs(parts.query).get("from", [f"gamebag@{parts.hostname}"])[0]
        if "@" not in sender or any(c in sender for c in "\r\n<>"):
            raise SmtpUrlError(_(TEXT["from"]))
        user = unquote(parts.username) if parts.username else None
        password = unquote(parts.password) if parts.password else os.environ.get(PASSWORD_ENV)
        return cls(parts.hostname, port, parts.scheme == "smtps", user, password, sender)

    def safe(self) -> str:
        """The target as logs show it (never the password)."""
        return f"{'smtps' if self.implicit_tls else 'smtp'}://{self.host}:{self.port}"


@dataclass(frozen=True)
class Mail:
    """One message: whom to, the subject, the plain text and extra headers (unsubscribe)."""

    to: str
    subject: str
    body: str
    headers: tuple[tuple[str, str], ...] = ()

    def message(self, sender: str) -> EmailMessage:
        message = EmailMessage()
        message["From"] = sender
        message["To"] = self.to
        message["Subject"] = self.subject
        message["Date"] = format_datetime(datetime.now(UTC))
        message["Message-ID"] = make_msgid(domain=sender.partition("@")[2] or None)
        message["Auto-Submitted"] = "auto-generated"  # no vacation replies to the server
        for name, value in self.headers:
            message[name] = value
        message.set_content(self.body)
        return message


def send_now(target: SmtpTarget, mail: Mail) -> None:
    """One conversation with the server: TLS (implicit, or STARTTLS when offered), login if given, send."""
    context = ssl.create_default_context()
    client: smtplib.SMTP
    if target.implicit_tls:
        client = smtplib.SMTP_SSL(target.host, target.port, timeout=SMTP_SECONDS, context=context)
    else:
        client = smtplib.SMTP(target.host, target.port, timeout=SMTP_SECONDS)
    with client:
        client.ehlo()
        if not target.implicit_tls and client.has_extn("starttls"):
            client.starttls(context=context)
            client.ehlo()
        if target.user is not None:
            client.login(target.user, target.password or "")
        client.send_message(mail.message(target.sender))


class Mailer:
    """One thread sending the queued mails in order, each tried again after ``pauses`` on failure."""

    def __init__(
        self,
        target: SmtpTarget,
        pauses: Sequence[float] = RETRY_PAUSES,
        send: Callable[[SmtpTarget, Mail], None] = send_now,
        limit: int = QUEUE_LIMIT,
    ) -> None:
        self.target = target
        self.pauses = tuple(pauses)
        self._send = send
        self._queue: queue.Queue[Mail | None] = queue.Queue(maxsize=limit)
        self._stopping = threading.Event()
        self._thread = threading.Thread(target=self._run, name="gamebag-mailer", daemon=True)
        self.sent = 0
        self.failed = 0

    def start(self) -> None:
        self._thread.start()

    def offer(self, mail: Mail) -> bool:
        """Queue ``mail``; False (nothing queued) when the queue is full."""
        try:
            self._queue.put_nowait(mail)
        except queue.Full:
            return False
        return True

    def stop(self, wait: float = 2.0) -> None:
        """Stop after the mail being sent (waiting ``wait`` seconds at most); queued mails are dropped."""
        self._stopping.set()
        with contextlib.suppress(queue.Full):
            self._queue.put_nowait(None)
        if self._thread.is_alive():
            self._thread.join(wait)

    def idle(self) -> bool:
        """Nothing queued (tests wait for the mails to go)."""
        return self._queue.unfinished_tasks == 0

    def _run(self) -> None:
        while not self._stopping.is_set():
            mail = self._queue.get()
            try:
                if mail is not None:
                    self._deliver(mail)
            finally:
                self._queue.task_done()

    def _deliver(self, mail: Mail) -> None:
        for attempt in range(len(self.pauses) + 1):
            try:
                self._send(self.target, mail)
                self.sent += 1
                return
            except (smtplib.SMTPException, OSError) as error:
                if attempt == len(self.pauses) or self._stopping.is_set():
                    self.failed += 1
                    log.warning("mail to %s via %s failed for good: %s", masked(mail.to), self.target.safe(), error)
                    return
                log.info("mail to %s failed (%s); trying again", masked(mail.to), error)
                if self._stopping.wait(self.pauses[attempt]):
                    return
