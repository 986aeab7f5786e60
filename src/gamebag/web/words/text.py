"""The web server's translation functions: the ``server`` domain (every word the server's Python
says: errors, refusals, notices, words sent on a socket) and the declaration of the ``web`` domain
(the pages' templates and scripts), both in ``gamebag/web/locale``. See ``core/i18n.py``."""

from __future__ import annotations

from gamebag.core.i18n import N_, catalogue, register_domain

_, ngettext = catalogue("server", "gamebag.web")
register_domain("web", "gamebag.web")

__all__ = ["N_", "_", "ngettext"]
