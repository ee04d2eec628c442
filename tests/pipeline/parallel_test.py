"""--jobs: the inputs are cut into consecutive slices, and checking them in workers changes nothing."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from dralint import report
from dralint.api.versions import make_target
from dralint.commands.check import CheckSettings, analyse
from dralint.errors import InputError
from dralint.pipeline import parallel
from dralint.pipeline.context import Options
from dralint.pipeline.engine import Selection
from dralint.read.load import Input
from dralint.read.yamldoc import Limits
from dralint.rules import builtin_rules
from tests.conftest import FIXTURES, ROOT


def _inputs(tmp_path: Path, sizes: list[int]) -> list[Input]:
    files = []
    for number, size in enumerate(sizes):
        path = tmp_path / f"{number:02}.yaml"
        path.write_text("#" * size, encoding="utf-8")
        files.append((str(path), True))
    return files


def test_split_cuts_consecutive_slices_of_about_equal_size(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(parallel, "MIN_PARALLEL_BYTES", 0)
    monkeypatch.setattr(parallel, "PARTS_PER_JOB", 4)
    files = _inputs(tmp_path, [100] * 8 + [800])
    slices = parallel.split(files, 2)  # eight parts of about 200 bytes; the big file is one on its own
    assert [len(part) for part in slices] == [2, 2, 2, 2, 1]
    assert [item for part in slices for item in part] == files


def test_split_keeps_small_inputs_and_standard_input_in_one_part(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    files = _inputs(tmp_path, [1000, 1000])
    assert parallel.split(files, 4) == [tuple(files)]  # below MIN_PARALLEL_BYTES
    monkeypatch.setattr(parallel, "MIN_PARALLEL_BYTES", 0)
    assert len(parallel.split(files, 4)) == 2
    assert parallel.split(files, 1) == [tuple(files)]
    assert parallel.split([*files, ("-", True)], 4) == [(*files, ("-", True))]


def _rendered(jobs: int) -> str:
    settings = CheckSettings(
        paths=(str(FIXTURES / "cli" / "repo"), str(ROOT / "examples")),
        outputs=(("text", None),),
        jobs=jobs,
        no_config=True,
    )
    outcome = analyse(settings)
    out = io.StringIO()
    for name in ("text", "json", "sarif", "junit"):
        report.renderer(name)(outcome.report, out)
    return out.getvalue() + f"exit {outcome.exit_code}"


def test_checking_in_workers_gives_the_same_report(monkeypatch: pytest.MonkeyPatch) -> None:
    alone = _rendered(1)
    monkeypatch.setattr(parallel, "MIN_PARALLEL_BYTES", 0)
    assert _rendered(3) == alone
    assert "DRA300" in alone  # a finding of a global check, positioned by the worker that has the file


def test_errors_in_a_worker_are_raised_in_the_parent(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(parallel, "MIN_PARALLEL_BYTES", 0)
    files: list[Input] = [(str(path), True) for path in sorted((ROOT / "examples").rglob("*.yaml"))]
    files.insert(3, ("no-such-file.yaml", True))
    rules = builtin_rules()
    with (
        pytest.raises(InputError, match=r"^no-such-file.yaml: cannot read: No such file or directory$"),
        parallel.check(
            files,
            jobs=2,
            target=make_target(),
            options=Options(),
            rules=rules,
            selection=Selection(frozenset(rules)),
            limits=Limits(max_file_bytes=1 << 20),
        ),
    ):
        pass


def test_this_process_and_the_workers_share_the_parts(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(parallel, "MIN_PARALLEL_BYTES", 0)
    files: list[Input] = [(str(path), True) for path in sorted((ROOT / "examples").rglob("*.yaml"))]
    here: list[tuple[str, ...]] = []
    check_here = parallel._check_here

    def counted(part: parallel.Part) -> parallel.Checked:
        here.append(tuple(name for name, _ in part.files))
        return check_here(part)

    monkeypatch.setattr(parallel, "_check_here", counted)
    rules = builtin_rules()
    with parallel.check(
        files,
        jobs=2,
        target=make_target(),
        options=Options(),
        rules=rules,
        selection=Selection(frozenset(rules)),
        limits=Limits(max_file_bytes=1 << 20),
    ) as (ctx, _):
        loaded = [source.name for source in ctx.workspace.files]
    slices = parallel.split(files, 2)
    assert loaded == [name for name, _ in files]  # in input order, each file once
    assert here[0] == tuple(name for name, _ in slices[0])  # the first part, before the worker is forked
    assert 1 <= len(here) < len(slices)  # the worker checked the others
