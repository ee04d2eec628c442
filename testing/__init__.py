"""Helpers shared by the tests (builders, runners); not part of the installed package."""
