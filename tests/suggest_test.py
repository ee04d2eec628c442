"""Did-you-mean (dralint/suggest.py): one edit distance, three closeness rules."""

from __future__ import annotations

import random

from dralint.suggest import closest, did_you_mean, distance, likely_typo


def test_distance_counts_transpositions_as_one_edit() -> None:
    assert [distance("HBM3", "HMB3"), distance("model", "modle"), distance("gpu", "gpus"), distance("a", "a")] == [
        1,
        1,
        1,
        0,
    ]
    assert distance("gpu.exmaple.com", "gpu.example.com") == 1
    assert distance("kitten", "sitting") == 3
    assert distance("", "abc") == 3


def test_closest_accepts_typos_and_case_differences() -> None:
    assert closest("linkSpeedGbs", ["linkSpeedGbps", "rdma"]) == "linkSpeedGbps"
    assert closest("Model", ["model", "memory"]) == "model"
    assert closest("tpu-couner-set", ["tpu-counter-set", "other"]) == "tpu-counter-set"


def test_closest_refuses_unrelated_names_and_exact_matches() -> None:
    assert closest("cores", ["memory", "bandwidth"]) is None
    assert closest("model", ["model", "modes"]) is None
    assert closest("H100", ["A100"], per_edit=5) is None
    assert closest("NVIDIA H100 80GB HMB3", ["NVIDIA H100 80GB HBM3"], per_edit=5) == "NVIDIA H100 80GB HBM3"


def test_likely_typo_needs_a_near_identical_name() -> None:
    classes = ["gpu.example.com", "mig.nvidia.com"]
    assert likely_typo("gpu.exmaple.com", classes) == "gpu.example.com"
    assert likely_typo("GPU.example.com", classes) == "gpu.example.com"
    assert likely_typo("gpu.nvidia.com", classes) is None
    assert likely_typo("gpu.example.com", classes) is None


def test_did_you_mean_offers_the_most_similar_name() -> None:
    assert did_you_mean("gpus", ["gpu", "nic"]) == "did you mean `gpu`?"
    assert did_you_mean("storage", ["gpu", "nic"]) is None


def test_distance_stops_early_above_the_limit() -> None:
    assert distance("kitten", "sitting", 1) == 2
    assert distance("kitten", "sitting", 3) == 3
    assert distance("gpu", "gpu.example.com", 2) == 3  # lengths alone rule it out
    assert distance("gpu.exmaple.com", "gpu.example.com", 1) == 1


def test_distance_with_a_limit_agrees_with_the_full_distance_up_to_the_limit() -> None:
    # closest() passes each candidate's limit, so that far candidates cost a row or two: a
    # distance within the limit is exact, one above it is some number above it.
    rng = random.Random(12)
    words = ["".join(rng.choice("abcde") for _ in range(rng.randint(0, 9))) for _ in range(300)]
    for a, b in zip(words, reversed(words), strict=True):
        full = distance(a, b)
        for limit in range(5):
            limited = distance(a, b, limit)
            assert limited == full if full <= limit else limited > limit, (a, b, limit)
