"""Trained policies shipped with gamebag (``<game-id>-<players>p.npz``, read by ``gamebag.agents.learned``)."""
