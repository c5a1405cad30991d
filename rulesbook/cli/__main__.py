"""``python -m rulesbook.cli ...`` runs the command line (:func:`rulesbook.cli.commands.main`)."""

from rulesbook.cli.commands import main

if __name__ == "__main__":
    main()
