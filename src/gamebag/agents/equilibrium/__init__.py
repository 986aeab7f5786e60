"""The ``equilibrium`` agent for two-player Eel Harvest and Wriggle Roulette (model, solver, tables, agent)."""
