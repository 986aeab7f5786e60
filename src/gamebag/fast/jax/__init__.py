"""JAX engines: pure ``init``/``step`` functions on arrays, ``jit``- and ``vmap``-able (pgx style).

They need the ``jax`` extra and run on any JAX backend (CPU in the tests, a GPU or TPU
when one is there); nothing here is imported by ``gamebag`` itself.

* ``gamebag.fast.jax.eel``: the Eel family (Eel Harvest and Wriggle Roulette), every
  option, on the same position row as the numba kernel (``gamebag.fast.eel.layout``).
* ``gamebag.fast.jax.pig``: Pig (``goal``, ``die_sides``), on the numba kernel's board row.
* ``gamebag.fast.jax.dragon``: Catch A Dragon By The Tail, every option and one to eight
  players, on the numba kernel's board row.

Each engine is proven equal to the rules engine by ``tests/fast/test_jax_*.py``:
rules-engine games are replayed with the same choices and draws and every field, legal
action and observation compared; whole games agree in distribution with rules-engine games.
"""
