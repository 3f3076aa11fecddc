"""Command line of fsbook.

``python -m fsbook datasets build --source ../shared/data``
    rebuild the compact, checksummed copies under ``data/``;
``python -m fsbook experiments <protocol> [--full]``
    run a chapter's experiment protocol (see ``fsbook.experiments``).
"""

import importlib
import sys

COMMANDS = {
    "datasets": "fsbook.datasets.__main__",
    "experiments": "fsbook.experiments.__main__",
}


def main(argv=None):
    argv = list(sys.argv[1:] if argv is None else argv)
    if not argv or argv[0] not in COMMANDS:
        print(__doc__.strip())
        return 0 if not argv or argv[0] in {"-h", "--help"} else 2
    module = importlib.import_module(COMMANDS[argv[0]])
    return module.main(argv[1:])


if __name__ == "__main__":
    sys.exit(main())
