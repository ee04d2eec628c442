"""Did-you-mean: plausible typos only."""

from __future__ import annotations

from dralint.simulate.suggest import closest, distance


def test_distance_counts_transpositions_as_one_edit() -> None:
    assert [distance("HBM3", "HMB3"), distance("model", "modle"), distance("gpu", "gpus"), distance("a", "a")] == [
        1,
        1,
        1,
        0,
    ]


def test_closest_accepts_typos_and_case_differences() -> None:
    assert closest("linkSpeedGbs", ["linkSpeedGbps", "rdma"]) == "linkSpeedGbps"
    assert closest("Model", ["model", "memory"]) == "model"
    assert closest("tpu-couner-set", ["tpu-counter-set", "other"]) == "tpu-counter-set"


def test_closest_refuses_unrelated_names_and_exact_matches() -> None:
    assert closest("cores", ["memory", "bandwidth"]) is None
    assert closest("model", ["model", "modes"]) is None
    assert closest("H100", ["A100"], per_edit=5) is None
    assert closest("NVIDIA H100 80GB HMB3", ["NVIDIA H100 80GB HBM3"], per_edit=5) == "NVIDIA H100 80GB HBM3"
