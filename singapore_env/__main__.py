"""``python -m singapore_env`` runs the command line (:mod:`singapore_env.cli`)."""

from .cli import main

main(prog_name="singapore-1819")
