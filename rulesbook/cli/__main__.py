"""``python -m rulesbook.cli ...`` runs the command line (:func:`rulesbook.cli.commands.main`)."""

from rulesbook.cli.commands import main

main()
