"""Log lines a client cannot forge: control and formatting characters are shown escaped.

Clients put text in the server's log (a page's error report, names, paths). A raw
carriage return, line feed or terminal escape sequence in it could forge whole log lines
or rewrite a terminal; a bidi override could make a line read differently. ``LogSafe``, a
filter on the ``gamebag.web`` logger, rewrites every record's message (and the text of
its traceback, which keeps its own line breaks) with such characters escaped as ``\\x1b``.
"""

from __future__ import annotations

import logging
import unicodedata

# Control, formatting (bidi, zero-width), line and paragraph separators, surrogates, private use.
_UNSAFE = frozenset({"Cc", "Cf", "Zl", "Zp", "Cs", "Co"})
_FORMATTER = logging.Formatter()


def printable(text: str, keep_newlines: bool = False) -> str:
    """``text`` with every unsafe character written as its escape (``\\r``, ``\\x1b``, ``\\u202e``)."""
    if text.isprintable():
        return text
    return "".join(
        c
        if (keep_newlines and c == "\n") or unicodedata.category(c) not in _UNSAFE
        else c.encode("unicode_escape").decode("ascii")
        for c in text
    )


class LogSafe(logging.Filter):
    """Escapes unsafe characters in each record's message and traceback before any handler sees it."""

    def filter(self, record: logging.LogRecord) -> bool:
        message = record.getMessage()
        safe = printable(message)
        if safe != message or record.args:
            record.msg, record.args = safe, None
        if record.exc_info and not record.exc_text:
            record.exc_text = _FORMATTER.formatException(record.exc_info)
        if record.exc_text:
            record.exc_text = printable(record.exc_text, keep_newlines=True)
        if record.stack_info:
            record.stack_info = printable(record.stack_info, keep_newlines=True)
        return True


def guard_log(logger: logging.Logger) -> None:
    """Put ``LogSafe`` on ``logger`` (once)."""
    if not any(isinstance(f, LogSafe) for f in logger.filters):
        logger.addFilter(LogSafe())
