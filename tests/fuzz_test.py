"""Mutated manifests and inventories end in well-formed reports or exit code 2, the same way every time (testing/fuzz.py).

A fixed, derandomised profile with a bounded number of examples keeps CI fast and repeatable;
``scripts/fuzz.py`` runs the same property for as long as you like. The fixed-seed text
mutations of tests/robustness_test.py cover the decoder; these cover everything after it.
"""

from __future__ import annotations

import tempfile
from collections.abc import Callable
from functools import cache
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from testing.fuzz import MUTATIONS, Family, Mutation, Raw, check_property, documents


@cache
def _documents(family: Family = "manifests") -> list[dict[str, Any]]:
    return documents(family)


def _fuzzed(max_examples: int) -> Callable[[Callable[..., None]], Callable[..., None]]:
    """A fixed, derandomised profile drawing a pool index, a few mutations and the output format."""

    def decorate(test: Callable[..., None]) -> Callable[..., None]:
        return settings(
            max_examples=max_examples,
            derandomize=True,
            database=None,
            deadline=None,
            suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
        )(
            given(
                index=st.integers(min_value=0, max_value=10**6),
                mutations=st.lists(MUTATIONS, min_size=1, max_size=4),
                as_json=st.booleans(),
            )(test)
        )

    return decorate


@_fuzzed(25)
def test_mutated_documents_end_in_a_report_or_exit_2(index: int, mutations: list[Mutation], as_json: bool) -> None:
    pool = _documents()
    with tempfile.TemporaryDirectory() as directory:
        check_property(Path(directory), pool[index % len(pool)], mutations, as_json)


@_fuzzed(15)
def test_mutated_inventories_end_in_a_report_or_exit_2(index: int, mutations: list[Mutation], as_json: bool) -> None:
    pool = _documents("inventories")
    with tempfile.TemporaryDirectory() as directory:
        check_property(Path(directory), pool[index % len(pool)], mutations, as_json, "inventories")


def test_the_inventory_pool_has_every_inventory_kind() -> None:
    assert {d["kind"] for d in _documents("inventories")} >= {"ResourceSlice", "DeviceClass", "Node", "Inventory"}


def test_raw_values_reach_the_file_unquoted() -> None:
    pool = _documents()
    claim = next(d for d in pool if d.get("kind") == "ResourceClaim")
    with tempfile.TemporaryDirectory() as directory:
        run = check_property(Path(directory), claim, [Mutation((2, 0), "replace", value=Raw("9" * 5000))], True)
        assert "9" * 5000 in (Path(directory) / "case.json").read_text(encoding="utf-8")
    assert run.exit_code == 1 and "9" * 40 in run.output


def test_fuzzing_reaches_the_later_stages() -> None:
    # The property is only worth something if mutated cases get past decoding into the checks.
    pool = _documents()
    claim = next(d for d in pool if d.get("kind") == "ResourceClaim")
    with tempfile.TemporaryDirectory() as directory:
        run = check_property(Path(directory), claim, [Mutation((2, 0), "replace", value=2**63)], as_json=False)
    assert run.exit_code == 1
    assert "DRA101" in run.output or "DRA104" in run.output or "DRA1" in run.output
