"""DRA420 evaluates each distinct (selector, device projection) once (issue 18, item 8).

The full size (2,000 claims × 10,000 devices) is in ``benchmarks/hostile_bench.py``; this is the
same shape scaled down, counting evaluations instead of timing them.
"""

from __future__ import annotations

import sys
import time
from collections import Counter
from pathlib import Path

import pytest

from dralint.cel.dra import DeviceValue, Selector
from testing.hostile_cel import many_selectors
from testing.run import check


def test_many_claims_evaluate_once_per_projection(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    claims, nodes = 60, 50  # 400 devices, 8 projections (model, index) among them
    path = tmp_path / "selectors.yaml"
    path.write_text(many_selectors(claims, nodes), encoding="utf-8")
    calls: Counter[str] = Counter()
    matches = Selector.matches

    def counting(self: Selector, device: DeviceValue) -> bool:
        caller = "DRA420" if sys._getframe(1).f_code.co_name == "_evaluate" else "other"
        calls[caller] += 1
        return matches(self, device)

    monkeypatch.setattr(Selector, "matches", counting)
    start = time.process_time()
    outcome = check([path])
    elapsed = time.process_time() - start
    assert [f.rule for f in outcome.report.findings] == []
    # DRA420: one device of each projection per selector (the class's once, each claim's 8
    # times), not claims x devices (24,000). The dry-run's allocator, which places the claims,
    # shares the selectors' per-projection memo and stays far below that too.
    assert calls["DRA420"] == 1 + claims * 8
    assert calls["other"] < claims * nodes * 8 // 10
    assert elapsed < 20
