"""DRA420 evaluates each distinct (selector, device projection) once (issue 18, item 8).

The full size (2,000 claims × 10,000 devices) is in ``benchmarks/hostile_bench.py``; this is the
same shape scaled down, counting evaluations instead of timing them.
"""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from dralint.cel.dra import Selector
from testing.hostile_cel import many_selectors
from testing.run import check


def test_many_claims_evaluate_once_per_projection(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    claims, nodes = 60, 50  # 400 devices, 8 projections (model, index) among them
    path = tmp_path / "selectors.yaml"
    path.write_text(many_selectors(claims, nodes), encoding="utf-8")
    calls = 0
    evaluate = Selector.matches

    def counting(self: Selector, device: object) -> bool:
        nonlocal calls
        calls += 1
        return evaluate(self, device)  # type: ignore[arg-type]

    monkeypatch.setattr(Selector, "matches", counting)
    start = time.process_time()
    outcome = check([path])
    elapsed = time.process_time() - start
    assert [f.rule for f in outcome.report.findings] == []
    # One device of each projection per selector (the class's once, each claim's 8 times), for
    # DRA420 and the dry-run together: not claims × devices (24,000).
    assert calls <= 1 + claims * 8
    assert elapsed < 20
