"""``python -m gamebag.cli`` runs the command line."""

from gamebag.cli import main

main()
