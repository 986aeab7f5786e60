"""Play online: a multiplayer web server (FastAPI + WebSockets) for every registered game.

Modules: ``app`` (routes and pages), ``ws`` (the table socket protocol), ``hub``
(connections and send queues), ``manager`` (tables, bots, turn timers), ``live``
(one table's match and durable submissions), ``messages`` (what each reader is
sent), ``lobby`` (the game catalogue and table requests), ``db`` (SQLAlchemy
persistence). The browser client lives in ``static/``.
"""
