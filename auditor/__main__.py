"""Entry point for `python -m auditor`."""

from auditor.cli import main

main()
