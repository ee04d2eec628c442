"""``dralint convert``: goldens beside the fixtures, refusals, and round trips over the shared corpus.

A round trip (to another version and back) must give the original objects again, compared in
their canonical v1 shape (``api/convert.to_v1``, which is how the API server sees them); the
converted file must fit the schema of a release that serves the target version as well as the
original fits the schema of a release serving its own.
"""

from __future__ import annotations

import os
from functools import cache
from pathlib import Path
from typing import Any

import pytest

from dralint.api.convert import to_v1
from dralint.api.objects import KubeObject
from dralint.api.rewrite import VERSIONS, ConvertError
from dralint.api.versions import SERVED
from dralint.commands.convert import convert_text
from dralint.errors import InputError
from dralint.read.load import load
from dralint.validate.schema import validate
from testing.run import cli
from tests.conftest import CORPUS, FIXTURES, require_shared

REWRITE = FIXTURES / "rewrite"


@pytest.mark.parametrize(
    ("source", "version"),
    [("claim-v1beta1.yaml", "v1"), ("slice-v1alpha3.yaml", "v1"), ("slice-request-policy-v1.yaml", "v1beta1")],
)
def test_convert_matches_golden_and_converts_back_to_the_same_text(source: str, version: str) -> None:
    original = (REWRITE / source).read_text(encoding="utf-8")
    golden = REWRITE / f"{source.removesuffix('.yaml')}.to-{version}.yaml"
    converted = convert_text(original, source, version)
    assert converted.text == golden.read_text(encoding="utf-8")
    back = source.split("-")[-1].removesuffix(".yaml")
    if back in VERSIONS:
        assert convert_text(converted.text, source, back).text == original


def test_convert_rewrites_list_items_in_json() -> None:
    source = (REWRITE / "list-v1beta2.json").read_text(encoding="utf-8")
    converted = convert_text(source, "list-v1beta2.json", "v1beta1")
    assert converted.objects == 1
    assert converted.text == (REWRITE / "list-v1beta2.to-v1beta1.json").read_text(encoding="utf-8")


def test_convert_refuses_what_the_target_cannot_hold() -> None:
    policy = (REWRITE / "slice-request-policy-v1.yaml").read_text(encoding="utf-8")
    with pytest.raises(ConvertError) as refused:
        convert_text(policy, "s.yaml", "v1alpha3")
    assert str(refused.value) == (
        "s.yaml:1: cannot convert ResourceSlice node-a-gpus to resource.k8s.io/v1alpha3: "
        "spec.devices[0].capacity.memory.requestPolicy cannot be represented in v1alpha3 (its capacities are bare "
        "quantities)"
    )
    first = (REWRITE / "claim-first-available-v1.yaml").read_text(encoding="utf-8")
    with pytest.raises(ConvertError, match=r"firstAvailable cannot be represented there \(no such field in"):
        convert_text(first, "c.yaml", "v1beta1", "1.32")
    assert convert_text(first, "c.yaml", "v1beta1").objects == 1  # 1.37 serves firstAvailable in v1beta1


def test_convert_command_prints_or_rewrites_in_place(tmp_path: Path) -> None:
    claim = tmp_path / "claim.yaml"
    claim.write_text((REWRITE / "claim-v1beta1.yaml").read_text(encoding="utf-8"), encoding="utf-8")
    expected = (REWRITE / "claim-v1beta1.to-v1.yaml").read_text(encoding="utf-8")
    printed = cli("convert", "--to", "v1", str(claim))
    assert (printed.returncode, printed.stdout) == (0, expected)
    assert printed.stderr == "dralint: converted 1 object in 1 file to resource.k8s.io/v1\n"
    assert cli("convert", "--to", "resource.k8s.io/v1", "-", stdin=claim.read_text()).stdout == expected
    assert cli("convert", "--to", "v1", "--in-place", str(claim)).stdout == ""
    assert claim.read_text(encoding="utf-8") == expected
    refused = cli("convert", "--to", "v2", str(claim))
    assert (refused.returncode, refused.stderr) == (
        2,
        "dralint: error: --to: unknown version 'v2'; one of: v1alpha3, v1beta1, v1beta2, v1\n",
    )


# --- the corpus ------------------------------------------------------------------------------


@cache
def _corpus_files() -> list[Path]:
    if not CORPUS.exists() and os.environ.get("DRALINT_REQUIRE_CORPUS") != "1":
        return []
    root = require_shared(CORPUS)
    return sorted(p for p in root.rglob("*") if p.suffix in (".yaml", ".yml") and "resource.k8s.io/" in _text(p))


def _text(path: Path) -> str:
    return path.read_text(encoding="utf-8", errors="replace")


def _objects(objects: list[KubeObject]) -> list[tuple[str, str, Any]]:
    """(kind, version, canonical v1-shaped data) of DRA objects; others as they are."""
    out: list[tuple[str, str, Any]] = []
    for obj in objects:
        if obj.group == "resource.k8s.io" and obj.version in VERSIONS:
            out.append((obj.kind, "", to_v1(obj.kind, obj.version, obj.raw).data | {"apiVersion": ""}))
        else:
            out.append((obj.kind, obj.version, obj.raw))
    return out


def _schema_errors(objects: list[KubeObject], release: str) -> set[tuple[str, str]]:
    """(kind, problem) of the schema errors of the DRA objects at ``release``."""
    return {
        (obj.kind, error.problem)
        for obj in objects
        if obj.group == "resource.k8s.io"
        for error in validate(release, obj.api_version, obj.kind, obj.raw)
    }


def _newest(kinds: set[str], version: str) -> str:
    return max(
        ({r for k in kinds for r in SERVED.get((k, version), ())} or {"1.37"}),
        key=lambda r: tuple(map(int, r.split("."))),
    )


@pytest.mark.slow
def test_corpus_converts_round_trips_and_validates(tmp_path: Path) -> None:
    files = _corpus_files()
    if not files:
        pytest.skip(f"{CORPUS} is not available")
    converted = refused = 0
    seen: set[str] = set()
    for path in files:
        text = _text(path)
        loaded = load([str(path)])
        dra = [o for o in loaded.objects if o.group == "resource.k8s.io" and o.version in VERSIONS]
        if not dra or loaded.issues or text in seen:
            continue  # nothing to convert, a file dralint itself reports as broken, or a copy
        seen.add(text)
        versions = {o.version for o in dra}
        kinds = {o.kind for o in dra}
        original = _objects(loaded.objects)
        # the converted objects must fit the schema of a release that serves the target version
        # as well as the originals fit theirs; a round trip is exact for objects that fit it
        before = set().union(*(_schema_errors(loaded.objects, _newest(kinds, v)) for v in sorted(versions)))
        for version in VERSIONS:
            try:
                result = convert_text(text, str(path), version)
            except InputError as error:
                assert "cannot" in str(error) or "no Kubernetes release serves" in str(error), str(error)
                refused += 1
                continue
            converted += 1
            copy = tmp_path / path.name
            copy.write_text(result.text, encoding="utf-8")
            new_errors = _schema_errors(load([str(copy)]).objects, _newest(kinds, version)) - before
            assert not new_errors, f"{path.name} to {version}: {sorted(new_errors)}"
            if len(versions) == 1 and not before and result.objects:
                (source,) = versions
                back = tmp_path / f"back-{path.name}"
                back.write_text(convert_text(result.text, str(copy), source).text, encoding="utf-8")
                assert _objects(load([str(back)]).objects) == original, f"{path.name} to {version} and back"
    assert converted > 3 * len(seen) // 2 and refused < converted, (converted, refused)


def test_convert_refuses_a_file_it_cannot_read_whole_and_writes_nothing(tmp_path: Path) -> None:
    claim = tmp_path / "claim.yaml"
    original = (REWRITE / "claim-v1beta1.yaml").read_bytes()
    claim.write_bytes(original)
    # Latin-1 in a comment: rewriting the file would replace the byte with U+FFFD.
    latin1 = tmp_path / "latin1.yaml"
    latin1.write_bytes(original.replace(b"flat requests", b"flat requests \xe9t\xe9"))
    refused = cli("convert", "--to", "v1", "-w", str(claim), str(latin1), cwd=tmp_path)
    assert (refused.returncode, refused.stdout) == (2, "")
    assert refused.stderr == (
        f"dralint: error: {latin1}:1:54: byte 0xe9 is not valid UTF-8; "
        "Kubernetes manifests must be UTF-8; re-encode the file; nothing converted\n"
    )
    assert claim.read_bytes() == original  # the first file was not written either
    dangling = tmp_path / "gone.yaml"
    dangling.symlink_to(tmp_path / "nowhere.yaml")
    refused = cli("convert", "--to", "v1", str(tmp_path))
    assert (refused.returncode, refused.stdout) == (2, "")
    assert refused.stderr == (
        f"dralint: error: {dangling}:1:1: symbolic link to {tmp_path / 'nowhere.yaml'}, which does not exist; "
        "fix or remove the link; nothing converted\n"
    )
