"""Hostile files end in a finding with a position, or exit code 2 with one line: never a crash, a hang or a leak.

Reproducers are the files of tests/fixtures/hostile/ (or generated here when they are huge or
cannot be files in git: FIFOs). Each case names the defect it guards against.
"""

from __future__ import annotations

import json
import os
import shutil
import time
from pathlib import Path

import pytest

from dralint.config import globs
from dralint.config.resolve import Layer
from dralint.errors import ConfigError
from dralint.suppress.baseline import VERSION
from testing.run import ROOT, check, cli

HOSTILE = ROOT / "tests" / "fixtures" / "hostile"


def _lines(*paths: Path, rules: tuple[str, ...] = ("DRA005", "DRA100", "DRA101", "DRA104"), **kw: object) -> list[str]:
    outcome = check(list(paths), **kw)  # type: ignore[arg-type]
    return [
        f"{Path(f.location.file).name}:{f.location.line}:{f.location.column} {f.rule} {f.message}"
        for f in outcome.report.findings
        if f.rule in rules
    ]


def _one_line_error(result: object) -> str:
    assert result.returncode == 2, result.stderr  # type: ignore[attr-defined]
    lines = result.stderr.splitlines()  # type: ignore[attr-defined]
    assert len(lines) == 1 and lines[0].startswith("dralint: error: "), result.stderr  # type: ignore[attr-defined]
    return str(lines[0])


# --- integers beyond Python's int/str conversion limit (4,300 digits) ---------------------------


@pytest.mark.parametrize("name", ["long-int.yaml", "long-int.json"])
def test_a_5000_digit_integer_is_a_number_out_of_range(name: str) -> None:
    if name.endswith(".yaml"):  # go-yaml keeps a literal no float64 holds as its text
        assert _lines(HOSTILE / name) == [
            f"{name}:12:9 DRA101 spec.devices.requests[0].exactly.count must be an integer, got number "
            "9999999999999999999999999999999999999... that is out of range"
        ]
    else:  # kubectl cannot decode a JSON object holding one ("cannot unmarshal number ... into float64")
        assert _lines(HOSTILE / name, rules=("DRA001",)) == [
            f"{name}:2:85 DRA001 invalid JSON: number 9999999999999999999999999999999999999999 is out of range "
            "for a float64; kubectl cannot decode this object"
        ]


def test_a_16000_bit_hex_integer_is_a_number_out_of_range() -> None:
    # Wider than Python prints in decimal: kept as its text, as go-yaml keeps a literal no 64 bits hold.
    assert _lines(HOSTILE / "long-hex.yaml") == [
        "long-hex.yaml:12:9 DRA101 spec.devices.requests[0].exactly.count must be an integer, got number "
        "0xfffffffffffffffffffffffffffffffffff... that is out of range"
    ]


def test_a_2000_bit_hex_integer_is_a_number_out_of_range_too() -> None:
    # kubectl reads any literal beyond 64 bits that no float parse takes as its text.
    assert _lines(HOSTILE / "wide-hex.yaml") == [
        "wide-hex.yaml:12:9 DRA101 spec.devices.requests[0].exactly.count must be an integer, got number "
        "0xfffffffffffffffffffffffffffffffffff... that is out of range"
    ]


WIDE_INTEGERS = ["wide-integers-2000-bits.yaml", "wide-integers-18000-bits.yaml"]


# Where each file gets which finding: go-yaml keeps literals beyond 64 bits as text, so both
# files read alike (numbers out of range, invalid names), except that a key over 1,024 characters
# is no YAML; a list as a key (line 67) is refused as kubectl refuses it.
WIDE_FINDINGS = {
    "wide-integers-18000-bits.yaml": [
        (5, "DRA120"), (6, "DRA120"), (7, "DRA120"), (13, "DRA306"), (14, "DRA101"), (17, "DRA400"), (20, "DRA103"),
        (24, "DRA127"), (24, "DRA912"), (30, "DRA200"), (43, "DRA001"), (52, "DRA101"), (57, "DRA103"),
        (60, "DRA122"), (61, "DRA122"), (61, "DRA301"), (65, "DRA006"), (67, "DRA001"),
    ],
    "wide-integers-2000-bits.yaml": [
        (5, "DRA120"), (6, "DRA120"), (7, "DRA120"), (13, "DRA306"), (14, "DRA101"), (17, "DRA400"), (20, "DRA103"),
        (24, "DRA912"), (30, "DRA200"), (38, "DRA122"), (39, "DRA122"), (39, "DRA122"), (39, "DRA101"),
        (39, "DRA101"), (41, "DRA122"), (43, "DRA122"), (43, "DRA122"), (43, "DRA101"), (44, "DRA903"),
        (44, "DRA127"), (46, "DRA103"), (52, "DRA101"), (57, "DRA103"), (60, "DRA122"), (61, "DRA122"),
        (61, "DRA301"), (65, "DRA006"), (67, "DRA001"),
    ],
}  # fmt: skip


@pytest.mark.parametrize("name", WIDE_INTEGERS)
def test_wide_integers_in_every_field_are_bounded_findings(name: str) -> None:
    outcome = check([HOSTILE / name])
    assert [(f.location.line, f.rule) for f in outcome.report.findings] == WIDE_FINDINGS[name]
    assert max(len(f.message) for f in outcome.report.findings) <= 1000
    assert max(len(f.hint or "") for f in outcome.report.findings) <= 1000


@pytest.mark.parametrize("name", WIDE_INTEGERS)
@pytest.mark.parametrize("output", ["text", "json", "sarif", "junit", "github"])
def test_wide_integers_are_reported_in_every_format(name: str, output: str) -> None:
    result = cli("check", "--no-config", "-f", output, str(HOSTILE / name))
    assert (result.returncode, result.stderr) == (1, "")


@pytest.mark.parametrize("name", WIDE_INTEGERS)
@pytest.mark.parametrize("output", ["text", "json", "html"])
def test_wide_integers_are_simulated_in_every_format(name: str, output: str) -> None:
    inventory = ROOT / "examples" / "cluster"
    result = cli("simulate", "--no-config", "-i", str(inventory), "-f", output, str(HOSTILE / name))
    # Exit 1: the pod whose claims are named by such literals is rejected (with 2,000-bit ones no
    # claim entry can be read: it is listed all the same, as rejected).
    assert (result.returncode, result.stderr) == (1, "")
    if output == "json":
        (rejected,) = [p for p in json.loads(result.stdout)["placements"] if p["outcome"] != "placed"]
        # The first finding on the pod: its priority, a number out of any range (DRA101).
        rule = "DRA101"
        assert (rejected["pod"], rejected["outcome"], rejected["reason"]) == (
            "default/p",
            "rejected",
            f"Pod default/p is rejected by the API server (see {rule} at {HOSTILE / name}:52)",
        )


def test_a_float_overflow_in_json_is_not_called_a_quoted_string() -> None:
    # kubectl cannot decode the object ("cannot unmarshal number 1e999999 into Go value of type float64").
    outcome = check([HOSTILE / "float-overflow.json"])
    (finding,) = [f for f in outcome.report.findings if f.rule == "DRA001"]
    assert finding.message == (
        "invalid JSON: number 1e999999 is out of range for a float64; kubectl cannot decode this object"
    )
    assert finding.hint == "write a number a float64 holds"  # not "write the value without quotes"


def test_a_5000_digit_limit_in_the_configuration_is_exit_2() -> None:
    result = cli(
        "check", "--config", str(HOSTILE / "long-int-limit.dralint.yaml"), str(HOSTILE / "float-overflow.json")
    )
    assert _one_line_error(result).endswith(
        "long-int-limit.dralint.yaml:2:3: limits.maxDepth: expected an integer, got a string"
    )


@pytest.mark.parametrize(
    ("name", "reason"),
    [
        (
            "long-int-version.baseline.json",
            f'not a dralint baseline (expected {{"version": {VERSION}, "findings": [...]}})',
        ),
        ("nested.baseline.json", "1:1: not a dralint baseline: JSON document nests too deeply"),
    ],
)
def test_a_hostile_baseline_is_exit_2(name: str, reason: str) -> None:
    result = cli("check", "--no-config", "--baseline", str(HOSTILE / name), str(HOSTILE / "float-overflow.json"))
    assert _one_line_error(result) == f"dralint: error: {HOSTILE / name}{':' if reason[0].isdigit() else ': '}{reason}"


# --- files that must not be read: /dev/zero, FIFOs, huge configuration -------------------------


@pytest.mark.parametrize("option", ["--baseline", "--config", "--rules"])
def test_dev_zero_as_a_configuration_file_is_refused_at_once(option: str) -> None:
    if not os.path.exists("/dev/zero"):
        pytest.skip("no /dev/zero")
    started = time.monotonic()
    result = cli(
        "check",
        *(["--no-config"] if option != "--config" else []),
        option,
        "/dev/zero",
        str(HOSTILE / "float-overflow.json"),
    )
    assert _one_line_error(result) == "dralint: error: /dev/zero: a character device, not a regular file; not read"
    assert time.monotonic() - started < 10


def test_a_configuration_file_over_the_size_limit_is_refused(tmp_path: Path) -> None:
    config = tmp_path / ".dralint.yaml"
    config.write_text("# " + "x" * (16 * 1024 * 1024) + "\n", encoding="utf-8")
    with pytest.raises(ConfigError, match=r"\.dralint\.yaml: file is larger than 16777216 bytes"):
        check([HOSTILE / "float-overflow.json"], config=config)


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs on this platform")
def test_a_fifo_in_a_directory_is_skipped_and_a_named_one_reported(tmp_path: Path) -> None:
    shutil.copy(HOSTILE / "float-overflow.json", tmp_path / "claim.json")
    os.mkfifo(tmp_path / "pipe.yaml")  # no writer: opening it blocking would wait forever
    started = time.monotonic()
    assert _lines(tmp_path, rules=("DRA005",)) == []
    assert _lines(tmp_path / "pipe.yaml") == ["pipe.yaml:1:1 DRA005 a FIFO, not a regular file; not read"]
    assert time.monotonic() - started < 20


def test_a_dangling_symlink_is_a_finding_and_the_rest_is_checked(tmp_path: Path) -> None:
    shutil.copy(HOSTILE / "float-overflow.json", tmp_path / "claim.json")
    (tmp_path / "gone.yaml").symlink_to(tmp_path / "missing.yaml")
    assert _lines(tmp_path, rules=("DRA001", "DRA005"))[0] == (
        "claim.json:2:85 DRA001 invalid JSON: number 1e999999 is out of range for a float64; kubectl cannot decode "
        "this object"
    )
    assert _lines(tmp_path, rules=("DRA005",)) == [
        f"gone.yaml:1:1 DRA005 symbolic link to {tmp_path / 'missing.yaml'}, which does not exist"
    ]


# --- kind: List items count against maxDocumentsPerFile -----------------------------------------


def _config_map_list(items: int) -> str:
    body = "".join(f"- {{apiVersion: v1, kind: ConfigMap, metadata: {{name: c{n}}}}}\n" for n in range(items))
    return f"apiVersion: v1\nkind: List\nitems:\n{body}"


def test_list_items_count_as_documents(tmp_path: Path) -> None:
    config = tmp_path / ".dralint.yaml"
    config.write_text("limits:\n  maxDocumentsPerFile: 50\n", encoding="utf-8")
    manifest = tmp_path / "list.yaml"
    manifest.write_text(_config_map_list(51), encoding="utf-8")
    assert _lines(manifest, config=config) == [
        "list.yaml:1:1 DRA005 file holds more than 50 documents (List items count); not checked"
    ]
    manifest.write_text(_config_map_list(50), encoding="utf-8")
    assert _lines(manifest, config=config) == []


def test_80000_list_items_are_refused_quickly(tmp_path: Path) -> None:
    manifest = tmp_path / "list.yaml"
    manifest.write_text(_config_map_list(80_000), encoding="utf-8")
    started = time.process_time()
    assert _lines(manifest) == [
        "list.yaml:1:1 DRA005 file holds more than 10000 documents (List items count); not checked"
    ]
    assert time.process_time() - started < 20  # was 49.5 s and 1.1 GB


# --- configuration globs: no backtracking, bad patterns are configuration errors -----------------


@pytest.mark.parametrize(
    ("pattern", "path"),
    [("*a" * 20 + "*b", "a" * 40), ("**/" * 40 + "x", "/".join("d" * 40) + "/y")],
)
def test_globs_match_in_linear_time(pattern: str, path: str) -> None:
    started = time.process_time()
    assert not globs.matches(pattern, path)
    assert time.process_time() - started < 1


def test_a_bad_glob_in_the_configuration_is_exit_2_with_its_position(tmp_path: Path) -> None:
    config = tmp_path / ".dralint.yaml"
    config.write_text('exclude:\n- "vendor/**"\n- "[z-a]"\n', encoding="utf-8")
    result = cli("check", "--config", str(config), str(HOSTILE / "float-overflow.json"))
    assert _one_line_error(result) == f"dralint: error: {config}:3:3: invalid glob '[z-a]': bad character range z-a"


def test_a_bad_glob_from_the_environment_is_exit_2() -> None:
    result = cli("check", "--no-config", str(HOSTILE / "float-overflow.json"), env={"DRALINT_EXCLUDE": "[z-a]"})
    assert _one_line_error(result) == "dralint: error: invalid glob '[z-a]': bad character range z-a"


# --- control characters and lone surrogates from the input, in every output ----------------------


def _walk_with_evil_name(tmp_path: Path) -> Path:
    folder = tmp_path / "walk"
    folder.mkdir()
    (folder / "evil\x1b[2J\nrepo.yaml:1:1: error DRA999 x.yaml").write_text("kind: [\n", encoding="utf-8")
    return folder


@pytest.mark.parametrize("fmt", ["text", "github"])
def test_text_outputs_escape_control_characters_from_the_input(fmt: str, tmp_path: Path) -> None:
    result = cli(
        "check", "--no-config", "-f", fmt, str(HOSTILE / "injection.json"), str(_walk_with_evil_name(tmp_path))
    )
    assert result.returncode == 1, result.stderr
    out = result.stdout
    assert not [c for c in out if (ord(c) < 0x20 and c != "\n") or 0x7F <= ord(c) <= 0x9F or 0xD800 <= ord(c) <= 0xDFFF]
    lines = out.splitlines()
    assert all(line.startswith((str(HOSTILE), str(tmp_path), "::", "2 files")) for line in lines), out
    assert "ResourceClaim/default/a\\nrepo.yaml:1:1: error DRA999 forged\\x1b]0;pwned\\x07\\x1b[2J" in out
    assert "evil\\x1b[2J\\nrepo.yaml:1:1: error DRA999 x.yaml" in out
    assert 'got string "\ufffd"' in out  # an escaped lone surrogate decodes to U+FFFD, as in Go
    out.encode("utf-8")  # strict: no lone surrogate reached the output


@pytest.mark.parametrize("fmt", ["json", "sarif"])
def test_json_outputs_survive_an_escaped_lone_surrogate(fmt: str) -> None:
    import json

    result = cli("check", "--no-config", "-f", fmt, str(HOSTILE / "injection.json"))
    assert result.returncode == 1, result.stderr
    assert json.loads(result.stdout)
    assert "\ufffd" in result.stdout  # an escaped lone surrogate decodes to U+FFFD, as in Go


def test_junit_is_well_formed_xml_with_esc_nul_and_bel_in_values() -> None:
    import xml.etree.ElementTree as ET

    result = cli("check", "--no-config", "-f", "junit", str(HOSTILE / "injection.json"))
    assert result.returncode == 1, result.stderr
    root = ET.fromstring(result.stdout.encode("utf-8"))
    texts = [root.itertext(), *(e.attrib.values() for e in root.iter())]
    joined = "".join("".join(t) for t in texts)
    assert "\\x1b]0;pwned\\x07" in joined and "r\\x00\\x1b" in joined


def test_simulate_text_escapes_control_characters() -> None:
    # The selector's text reaches the reason of the unplaced pod (an admitted object: the API
    # server stores a selector that does not compile).
    result = cli(
        "simulate", "--no-config", "-i", str(ROOT / "examples" / "cluster"), str(HOSTILE / "simulate-injection.json")
    )
    assert result.returncode == 1, result.stderr  # the pod is not placed
    assert "\x1b" not in result.stdout and "\x07" not in result.stdout
    unplaced = result.stdout.split("Unplaced pods (1)\n", 1)[1].splitlines()
    assert len(unplaced) == 1 and unplaced[0].startswith("default/p (Pod default/p): error: claim default/p-g:")
    assert '== "\\x1b]0;pwned\\x07\\x1b[2J\\n' in unplaced[0]


def test_an_error_line_escapes_a_file_name() -> None:
    result = cli("check", "--no-config", "no\x1b[2Jsuch\nfile.yaml")
    assert _one_line_error(result) == "dralint: error: no\\x1b[2Jsuch\\nfile.yaml: no such file or directory"


def test_a_lone_surrogate_in_a_file_name_is_escaped_in_every_format(tmp_path: Path) -> None:
    # A file name that is not UTF-8 reaches Python as lone surrogates (surrogateescape).
    folder = tmp_path / "walk"
    folder.mkdir()
    (folder / os.fsdecode(b"bad\xff.yaml")).write_text("kind: [\n", encoding="utf-8")
    for fmt in ("text", "github", "json", "sarif", "junit"):
        result = cli("check", "--no-config", "-f", fmt, str(folder))
        assert result.returncode == 1, result.stderr
        shown = result.stdout.replace("\\\\", "\\").replace("%5C", "\\")  # JSON escapes it; SARIF URIs quote it
        assert "bad\\udcff.yaml" in shown, (fmt, result.stdout)


# --- NEL, LINE SEPARATOR, PARAGRAPH SEPARATOR: line numbers as editors count them -----------------


@pytest.mark.parametrize("name", ["nel", "ls", "ps"])
def test_yaml_1_1_line_breaks_in_a_scalar_keep_later_positions_right(name: str) -> None:
    outcome = check([HOSTILE / f"line-separator-{name}.yaml"])
    found = [(f.location.line, f.location.column, f.rule) for f in outcome.report.findings]
    # Lines count "\n" only: the CEL error after the annotation sits at the end of line 11, the
    # second expression (whose value YAML 1.1 folds) at its start, the unknown field on line 14.
    assert found[0] == (11, 35, "DRA400")
    assert (13, 19, "DRA400") in found
    assert found[-1] == (14, 3, "DRA100")


# --- the Inventory expansion limit applies to all documents together ----------------------------


def test_the_expansion_budget_counts_all_inventory_documents() -> None:
    from dralint.cluster import compact_schema
    from dralint.read.load import load

    documents = [obj.raw for obj in load([str(HOSTILE / "inventory-split.yaml")]).objects]
    assert len(documents) == 8 and all(not compact_schema.validate(d) for d in documents)  # each alone is fine
    budget = compact_schema.ExpansionBudget()
    refused = [budget.take(d) for d in documents]
    assert refused[0] is None
    assert [e.message for e in refused[1:] if e is not None] == [
        "the Inventory makes 480000 devices with the Inventory documents before it; dralint expands at most 250000"
    ] * 7
    assert budget.devices == 240_000


def test_inventory_documents_over_the_total_are_a_finding(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from dralint.cluster import compact_schema

    monkeypatch.setattr(compact_schema, "MAX_DEVICES", 300)  # the same rule at a size a test can expand
    text = (HOSTILE / "inventory-split.yaml").read_text(encoding="utf-8").replace("count: 2000", "count: 2")
    (tmp_path / "inventory.yaml").write_text(text, encoding="utf-8")
    outcome = check([tmp_path / "inventory.yaml"])
    found = [(f.location.line, f.rule, f.message) for f in outcome.report.findings if f.rule == "DRA700"]
    assert found == [
        (
            line,
            "DRA700",
            "the Inventory makes 480 devices with the Inventory documents before it; dralint expands at most 300",
        )
        for line in (12, 19, 26, 33, 40, 47, 54)
    ]


# --- claims of many requests: the API's limit is a finding, and the rest stays linear -----------


def _claim_of_requests(count: int) -> str:
    requests = "".join(f"    - name: r{n}\n      deviceClassName: gpu.example.com\n" for n in range(count))
    return (
        "apiVersion: resource.k8s.io/v1beta1\nkind: ResourceClaim\nmetadata:\n  name: many\n"
        f"spec:\n  devices:\n    requests:\n{requests}"
    )


@pytest.mark.parametrize("as_inventory", [False, True])
def test_10000_requests_of_a_v1beta1_claim_are_checked_in_linear_time(tmp_path: Path, as_inventory: bool) -> None:
    claim = tmp_path / "claim.yaml"
    claim.write_text(_claim_of_requests(10_000), encoding="utf-8")
    started = time.process_time()
    if as_inventory:
        outcome = check([ROOT / "examples" / "apps"], flags=Layer(inventory=(str(claim),)))
        assert outcome.report.findings  # the examples' own findings; the claim only feeds the inventory
    else:
        outcome = check([claim])
        (too_many,) = [f for f in outcome.report.findings if f.rule == "DRA123"]
        assert (too_many.location.line, too_many.message) == (
            7,
            "spec.devices.requests: Too many: 10000: must have at most 32 items",
        )
        # every request's own finding points at its own line (the path map is still right)
        assert [f.location.line for f in outcome.report.findings if f.rule == "DRA306"][-1] == 8 + 2 * 9_999 + 1
    assert time.process_time() - started < 20  # was 84 s: PathMap.to_source scanned every rule per finding


# --- simulate writes every --format/--output pair ------------------------------------------------


def test_simulate_writes_several_outputs_like_check(tmp_path: Path) -> None:
    import json

    common = ["simulate", "--no-config", "-i", str(ROOT / "examples" / "cluster"), str(ROOT / "examples" / "apps")]
    result = cli(
        *common,
        "-f",
        "json",
        "-o",
        str(tmp_path / "a.json"),
        "-f",
        "html",
        "-o",
        str(tmp_path / "b.html"),
        "-f",
        "text",
    )
    assert result.returncode in (0, 1), result.stderr
    assert result.stdout.startswith("Placements (")
    assert json.loads((tmp_path / "a.json").read_text(encoding="utf-8"))["placements"]
    assert (tmp_path / "b.html").read_text(encoding="utf-8").startswith("<!DOCTYPE html>")
    refused = cli(*common, "-f", "json", "-f", "text")
    assert _one_line_error(refused) == (
        "dralint: error: only one --format can go to standard output; give the others an --output"
    )


# --- quantities with exponents as apimachinery reads them ---------------------------------------


def test_quantity_exponents_follow_apimachinery() -> None:
    from dralint.apimachinery.quantity import parse_quantity

    assert parse_quantity("1e1001").value == 10**1001
    assert parse_quantity("1E4294967297").value == 10  # int32(4294967297) == 1
    found = _lines(HOSTILE / "quantity-exponents.yaml", rules=("DRA101", "DRA103"))
    assert found == [
        "quantity-exponents.yaml:15:14 DRA103 spec.devices[0].capacity[huge].value is not a valid quantity: "
        'string "1e9223372036854775808"'
    ]


UNREADABLE_INVENTORY = "invalid YAML: while parsing a flow sequence: did not find expected ',' or ']'"


@pytest.mark.parametrize("command", ["check", "simulate"])
def test_an_inventory_that_cannot_be_read_is_exit_2_with_its_position(command: str, tmp_path: Path) -> None:
    broken = HOSTILE / "unreadable-inventory.yaml"
    apps = str(ROOT / "examples" / "apps")
    result = cli(command, "--no-config", "-i", str(broken), apps)
    assert (
        _one_line_error(result) == f"dralint: error: {broken}:8:1: the inventory cannot be read: {UNREADABLE_INVENTORY}"
    )
    # Also among the files of an inventory directory: the slices it holds would be missing.
    shutil.copytree(ROOT / "examples" / "cluster", tmp_path / "cluster")
    shutil.copy(broken, tmp_path / "cluster" / "broken.yaml")
    result = cli(command, "--no-config", "-i", str(tmp_path / "cluster"), apps)
    assert _one_line_error(result).endswith(f"broken.yaml:8:1: the inventory cannot be read: {UNREADABLE_INVENTORY}")
    if os.path.exists("/dev/zero"):
        result = cli(command, "--no-config", "-i", "/dev/zero", apps)
        assert _one_line_error(result) == (
            "dralint: error: /dev/zero:1:1: the inventory cannot be read: a character device, not a regular file; not read"
        )


def test_an_inventory_file_that_is_also_checked_has_its_defect_as_a_finding() -> None:
    broken = HOSTILE / "unreadable-inventory.yaml"
    result = cli("check", "--no-config", "-f", "concise", "-i", str(broken), str(broken))
    assert result.returncode == 1
    assert f"{broken}:8:1: error DRA001 {UNREADABLE_INVENTORY}" in result.stdout
