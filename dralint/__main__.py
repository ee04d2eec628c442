"""Entry point for ``python -m dralint``."""

from dralint.cli import entry

if __name__ == "__main__":
    entry()
