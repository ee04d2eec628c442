"""A report with every kind of finding: suppressed in source and externally, object-less, a user policy."""

from __future__ import annotations

import io
from collections.abc import Callable

import pytest

from dralint.report import Report, renderer
from testing.run import check
from tests.conftest import FIXTURES

REPORT = FIXTURES / "report"


@pytest.fixture
def mixed(monkeypatch: pytest.MonkeyPatch) -> Report:
    monkeypatch.chdir(REPORT)
    return check(["mixed.yaml"], config="config.yaml").report


@pytest.fixture
def render() -> Callable[[str, Report], str]:
    def go(name: str, report: Report) -> str:
        stream = io.StringIO()
        renderer(name)(report, stream)
        return stream.getvalue()

    return go
