"""Subcommands of the gamebag CLI; each module registers its own."""
