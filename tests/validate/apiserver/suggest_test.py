"""Did-you-mean and typo detection for names that match nothing."""

from __future__ import annotations

from dralint.validate.apiserver.suggest import did_you_mean, edit_distance, likely_typo


def test_edit_distance_counts_adjacent_swaps_as_one() -> None:
    assert edit_distance("gpu.exmaple.com", "gpu.example.com") == 1
    assert edit_distance("kitten", "sitting") == 3
    assert edit_distance("", "abc") == 3


def test_likely_typo_needs_a_near_identical_name() -> None:
    classes = ["gpu.example.com", "mig.nvidia.com"]
    assert likely_typo("gpu.exmaple.com", classes) == "gpu.example.com"
    assert likely_typo("GPU.example.com", classes) == "gpu.example.com"
    assert likely_typo("gpu.nvidia.com", classes) is None
    assert likely_typo("gpu.example.com", classes) is None


def test_did_you_mean_offers_the_closest_name() -> None:
    assert did_you_mean("gpus", ["gpu", "nic"]) == "did you mean `gpu`?"
    assert did_you_mean("storage", ["gpu", "nic"]) is None
