"""``python -m tkg.cli`` runs the same command as the ``tkg`` console script."""

from .app import main

main()
