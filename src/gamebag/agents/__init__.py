"""Agents: random, heuristics, search and solvers (they use gamebag.core only)."""
