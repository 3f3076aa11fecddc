"""Command line: ``python -m fsbook.experiments <protocol> [options]``."""

import importlib
import sys

from fsbook.experiments import PROTOCOLS


def main(argv=None):
    argv = list(sys.argv[1:] if argv is None else argv)
    if not argv or argv[0] in {"-h", "--help"}:
        names = ", ".join(sorted(PROTOCOLS))
        print(f"usage: python -m fsbook.experiments <protocol> [--full] [options]\n"
              f"protocols: {names}\n"
              f"`python -m fsbook.experiments <protocol> --help` lists its options.")
        return 0
    name, rest = argv[0], argv[1:]
    if name not in PROTOCOLS:
        print(f"unknown protocol {name!r}; choose one of {sorted(PROTOCOLS)}", file=sys.stderr)
        return 2
    module = importlib.import_module(PROTOCOLS[name])
    return module.main(rest)


if __name__ == "__main__":
    sys.exit(main())
