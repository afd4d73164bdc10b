"""``python -m singapore_app`` runs the command line (:mod:`singapore_app.cli`)."""

from .cli import main

main(prog_name="singapore-1819")
