"""``python -m gamebag.cli`` runs the command line."""

from gamebag.cli.app import main

main()
