"""Alembic's migrations of the web schema: ``env.py``, the revisions in ``versions/``, and the
frozen baseline (``baseline.py``); read through ``importlib.resources`` so the wheel carries them."""
