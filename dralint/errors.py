"""The one error family of dralint (and :class:`InternalError`, for bugs); ``cli.py`` maps them to exit codes.

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


class InternalError(Exception):
    """A bug in dralint that it detects itself (a check reporting a rule it does not own, ...).

    Not a :class:`DralintError`: the command line reports it as an internal error (exit 3).
    """
