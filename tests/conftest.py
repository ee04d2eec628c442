"""Shared test configuration: where the shared reference data lives."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from dralint.process import raise_recursion_limit
from testing.shared import CORPUS, SHARED

__all__ = ["CORPUS", "FIXTURES", "ROOT", "SHARED", "require_shared"]

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = Path(__file__).resolve().parent / "fixtures"


def require_shared(path: Path) -> Path:
    """``path`` under ../shared, or a skip with the reason (a failure when CI requires the corpus)."""
    if path.exists():
        return path
    message = f"{path} is not available (the shared reference data sits beside the repository in ../shared)"
    if os.environ.get("DRALINT_REQUIRE_CORPUS") == "1":
        pytest.fail(message)
    pytest.skip(message)


def pytest_configure(config: pytest.Config) -> None:
    # The test run is an entry point, as the command line is: deep CEL and large allocations
    # need the recursion limit, which library code no longer raises (before hypothesis starts).
    raise_recursion_limit()
    # Command lines run in this process (click's runner) would use the results cache of this
    # repository: a test that replaces a function to compare two runs must see both computed.
    # tests/pipeline/cache_test.py turns it on where it is the subject.
    os.environ.setdefault("DRALINT_NO_CACHE", "1")
