"""Simulation, tournaments and statistics."""
