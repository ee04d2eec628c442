"""The one error family of dralint; every member maps to an exit code in ``cli.py``.

Manifest defects are findings, never exceptions. These errors are for the cases where dralint
cannot do its job at all: a bad command line, a broken configuration, unreadable input.
"""

from __future__ import annotations


class DralintError(Exception):
    """Base of every error dralint reports to the user with exit code 2."""

    exit_code = 2


class UsageError(DralintError):
    """The command line asks for something dralint cannot do."""


class ConfigError(DralintError):
    """The configuration file (or a user rule) is invalid."""


class InputError(DralintError):
    """An input path is missing, unreadable, or holds no manifests."""
