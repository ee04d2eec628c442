"""Rendered paths followed into patches and sources that order keyed lists differently."""

from __future__ import annotations

from dralint.read.mergekeys import written_path

# What kubectl kustomize rendered for tests/fixtures/kustomize-merge-keys (the containers, trimmed).
RENDERED = {"containers": [{"name": "proxy", "env": [{"name": "LOG_LEVEL"}]}, {"name": "model", "env": [
    {"name": "PORT"}, {"name": "MODEL"}]}]}  # fmt: skip
BASE = {"containers": [{"name": "proxy"}, {"name": "model", "env": [{"name": "MODEL"}, {"name": "PORT"}]}]}


def test_written_path_finds_keyed_items_by_their_key() -> None:
    assert written_path(RENDERED, BASE, ("containers", 1, "env", 0, "name")) == (
        ("containers", 1, "env", 1, "name"),
        True,
    )
    patch = {"containers": [{"name": "model", "env": [{"name": "PORT"}]}]}
    assert written_path(RENDERED, patch, ("containers", 1, "env", 0)) == (("containers", 0, "env", 0), True)


def test_written_path_stops_at_the_nearest_parent_written() -> None:
    assert written_path(RENDERED, BASE, ("containers", 0, "env", 0)) == (("containers", 0), False)
    patch = {"containers": [{"name": "model"}]}
    assert written_path(RENDERED, patch, ("containers", 0, "name")) == (("containers",), False)


def test_written_path_keeps_positions_in_lists_without_a_key() -> None:
    rendered = {"tolerations": [{"key": "a"}, {"key": "b"}]}
    assert written_path(rendered, {"tolerations": [{"key": "x"}, {"key": "y"}]}, ("tolerations", 1, "key")) == (
        ("tolerations", 1, "key"),
        True,
    )
