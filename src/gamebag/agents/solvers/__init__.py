"""Exact solvers for games with turn-level models, and the agents that play their policies.

* ``model``: the Protocols a game's turn model implements (no game is imported here);
* ``turn_models``: the registry of turn models by game class; ``models``: gamebag's own games' models;
* ``turn_graph``: a turn compiled to arrays, exact and vectorised expectimax;
* ``score``: the policy maximising one turn's expected points (exact fractions);
* ``rounds``: the two-player win policy of round games (Catch A Dragon By The Tail);
* ``race``: the two-player win policy of race games (Pig);
* ``solutions``: per-configuration cache; ``policy_file``: tables on disk;
* ``agents``: ``optimal-score`` and ``optimal-win``.
"""
