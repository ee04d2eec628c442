"""``dralint convert``: goldens beside the fixtures, refusals, the files it writes.

The round trips over the shared corpus and the fixtures, for every version and release, are in
``convert_roundtrip_test.py``.
"""

from __future__ import annotations

import codecs
from pathlib import Path

import pytest

from dralint.api.rewrite import VERSIONS, ConvertError
from dralint.api.rewrite_text import convert_text
from testing.run import cli
from tests.conftest import FIXTURES

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


@pytest.mark.parametrize(
    ("fixture", "bom", "encoding", "newline"),
    [
        ("claim-v1beta1.utf8-crlf.yaml", b"", "utf-8", "\r\n"),
        ("claim-v1beta1.utf8-bom-crlf.yaml", codecs.BOM_UTF8, "utf-8", "\r\n"),
        ("claim-v1beta1.utf16le-bom-crlf.yaml", codecs.BOM_UTF16_LE, "utf-16-le", "\r\n"),
        ("claim-v1beta1.utf16be-bom.yaml", codecs.BOM_UTF16_BE, "utf-16-be", "\n"),
    ],
)
def test_convert_in_place_keeps_the_files_encoding_byte_order_mark_and_line_breaks(
    fixture: str, bom: bytes, encoding: str, newline: str, tmp_path: Path
) -> None:
    # The fixture is claim-v1beta1.yaml saved that way; the result is its golden saved the same way:
    # the ConfigMap after the claim, which has nothing to convert, keeps its bytes.
    path = tmp_path / fixture
    path.write_bytes((REWRITE / "encodings" / fixture).read_bytes())
    golden = (REWRITE / "claim-v1beta1.to-v1.yaml").read_text(encoding="utf-8")
    result = cli("convert", "--to", "v1", "-w", str(path))
    assert (result.returncode, result.stdout) == (0, "")
    assert path.read_bytes() == bom + golden.replace("\n", newline).encode(encoding)
    back = cli("convert", "--to", "v1beta1", "-w", str(path))
    assert (back.returncode, path.read_bytes()) == (0, (REWRITE / "encodings" / fixture).read_bytes())
