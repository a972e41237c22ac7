"""``python -m perudo`` runs the ``perudo`` command."""

from perudo.cli.main import main

main()
