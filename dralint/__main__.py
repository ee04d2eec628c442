"""Entry point for ``python -m dralint``."""

from dralint.cli import main

if __name__ == "__main__":
    main()
