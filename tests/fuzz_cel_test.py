"""CEL fuzzing with a fixed seed, for a few seconds (testing/fuzz_cel.py; scripts/fuzz.py --family cel runs more)."""

from __future__ import annotations

import random
from collections import Counter
from pathlib import Path

from testing.fuzz_cel import STYLES, check_selector, check_styled, inventory_devices


def test_grammar_selectors_on_the_inventory_end_in_a_cel_outcome_within_bounds() -> None:
    rng = random.Random(18)
    devices = inventory_devices()
    assert len(devices) >= 16
    outcomes = Counter(check_selector(rng, devices).outcome for _ in range(120))
    # The grammar reaches every stage: compile errors, runtime errors and both results.
    assert set(outcomes) == {"compile-error", "runtime-error", "true", "false"}, outcomes


def test_cel_errors_in_every_yaml_scalar_style_point_at_the_name(tmp_path: Path) -> None:
    rng = random.Random(13)
    styles = Counter(check_styled(rng, tmp_path) for _ in range(20))
    assert set(styles) == set(STYLES), styles
