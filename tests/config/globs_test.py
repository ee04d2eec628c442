from __future__ import annotations

import os

import pytest

from dralint.config.globs import matches, relative_to


@pytest.mark.parametrize(
    ("pattern", "path", "expected"),
    [
        ("vendor/**", "vendor/a/b.yaml", True),
        ("vendor/**", "apps/vendor/b.yaml", False),
        ("vendor", "apps/vendor/b.yaml", True),  # no slash: any depth, directories match their content
        ("vendor/", "vendor/x.yaml", True),
        ("*.json", "a/b/c.json", True),
        ("*.json", "a/b/c.yaml", False),
        ("apps/*.yaml", "apps/x.yaml", True),
        ("apps/*.yaml", "apps/sub/x.yaml", False),  # * stays within a segment
        ("apps/**/x.yaml", "apps/x.yaml", True),  # **/ matches zero directories
        ("apps/**/x.yaml", "apps/a/b/x.yaml", True),
        ("**/kustomization.yaml", "kustomization.yaml", True),
        ("charts/gpu-?/values.yaml", "charts/gpu-1/values.yaml", True),
        ("charts/gpu-[0-9]/*", "charts/gpu-7/a.yaml", True),
        ("charts/gpu-[!0-9]/*", "charts/gpu-7/a.yaml", False),
        ("./apps/**", "apps/a.yaml", True),
        ("apps/a.yaml", "./apps/a.yaml", True),
    ],
)
def test_matches_gitignore_semantics(pattern: str, path: str, expected: bool) -> None:
    assert matches(pattern, path) is expected


def test_relative_to_keeps_outside_paths_absolute(tmp_path: os.PathLike[str]) -> None:
    root = str(tmp_path)
    inside = os.path.join(root, "apps", "a.yaml")
    assert relative_to(inside, root) == "apps/a.yaml"
    outside = os.path.abspath(os.path.join(root, "..", "b.yaml"))
    assert relative_to(outside, root) == outside.replace(os.sep, "/")
    assert not matches("b.yaml/x", relative_to(outside, root))
