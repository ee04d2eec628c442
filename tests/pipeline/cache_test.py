"""The results cache of ``check``: reused when nothing changed, per file when some did, never trusted blindly."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner

from dralint.cli import main
from dralint.pipeline import cache, engine
from dralint.read import sources
from testing.git import git

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures" / "cache"


@pytest.fixture
def repo(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """A git repository with claim.yaml, class.yaml and broken.yaml, as the current directory, the cache on."""
    root = tmp_path / "repo"
    root.mkdir()
    git(root, "init", "-q")
    for name in ("claim.yaml", "class.yaml", "broken.yaml"):
        shutil.copyfile(FIXTURES / name, root / name)
    monkeypatch.chdir(root)
    monkeypatch.delenv("DRALINT_NO_CACHE", raising=False)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "home-cache"))  # where the signing key is made
    yield root


def _check(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(main, ["check", "--no-config", "-f", "concise", *args, "."])
    return result.exit_code, result.output


def _reads(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The files the runs from now on read (and decode)."""
    seen: list[str] = []
    read = sources.read

    def reading(path: str, **kwargs: object) -> sources.SourceFile:
        seen.append(Path(path).name)
        return read(path, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(sources, "read", reading)
    return seen


def _entries(root: Path) -> list[Path]:
    return [p for p in (root / cache.DIRECTORY).rglob("*") if p.is_file() and p.name != ".gitignore"]


def test_a_second_run_over_unchanged_files_is_answered_from_the_cache(
    repo: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    first = _check()
    assert first[0] == 1 and "DRA101" in first[1] and "DRA001" in first[1]
    assert (repo / cache.DIRECTORY / ".gitignore").read_text(encoding="utf-8").splitlines()[-1] == "*"
    assert git(repo, "status", "--porcelain", "--untracked-files=all").splitlines() == [
        "?? broken.yaml",
        "?? claim.yaml",
        "?? class.yaml",
    ]  # the cache is ignored by git
    reads = _reads(monkeypatch)
    monkeypatch.setattr(engine, "collect", lambda *args: pytest.fail("the checks ran again"))
    assert _check() == first
    assert reads == []


def test_a_changed_file_is_read_again_and_the_checks_across_files_run_again(
    repo: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    before = _check()
    assert "DRA300" not in before[1]
    shutil.copyfile(FIXTURES / "class-renamed.yaml", repo / "class.yaml")
    reads = _reads(monkeypatch)
    after = _check()
    assert reads == ["class.yaml"]  # the others come from the cache
    # The claim did not change; the class it names is gone (a check across files)
    assert 'claim.yaml:12:9: error DRA300 DeviceClass "gpu.example.com" is not defined in the inputs' in after[1]
    monkeypatch.setenv("DRALINT_NO_CACHE", "1")
    assert _check() == after


def test_a_damaged_or_foreign_cache_is_ignored(repo: Path, monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    expected = _check()
    for number, entry in enumerate(_entries(repo)):
        data = entry.read_bytes()
        entry.write_bytes([b"", data[: len(data) // 2], data[:40] + b"\x80garbage", b"\0" * 64][number % 4])
    reads = _reads(monkeypatch)
    assert _check() == expected
    assert sorted(reads) == ["broken.yaml", "claim.yaml", "class.yaml"]
    # Entries another machine signed (or anyone could write) are never unpickled
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "elsewhere"))
    reads.clear()
    assert _check() == expected
    assert sorted(reads) == ["broken.yaml", "claim.yaml", "class.yaml"]


def test_settings_are_part_of_the_key(repo: Path) -> None:
    old = (
        (FIXTURES / "class.yaml").read_text(encoding="utf-8").replace("resource.k8s.io/v1", "resource.k8s.io/v1alpha3")
    )
    (repo / "old.yaml").write_text(old.replace("name: gpu", "name: old-gpu"), encoding="utf-8")
    assert "old.yaml:1:1: error DRA200" not in _check("--kubernetes-version", "1.33")[1]
    assert "old.yaml:1:1: error DRA200" in _check("--kubernetes-version", "1.37")[1]  # v1alpha3 no longer served
    assert "old.yaml:1:1: error DRA200" not in _check("--kubernetes-version", "1.33")[1]


def test_no_cache_outside_a_repository_or_when_asked(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, repo: Path
) -> None:
    _check("--no-cache")
    assert not (repo / cache.DIRECTORY).exists()
    outside = tmp_path / "plain"
    outside.mkdir()
    shutil.copyfile(FIXTURES / "claim.yaml", outside / "claim.yaml")
    monkeypatch.chdir(outside)
    _check()
    assert not (outside / cache.DIRECTORY).exists()


def test_jobs_give_the_same_output_with_some_files_from_the_cache(repo: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import dralint.pipeline.parallel as parallel

    monkeypatch.setattr(parallel, "MIN_PARALLEL_BYTES", 0)  # workers even for these small files
    for n in range(6):
        shutil.copyfile(FIXTURES / "class.yaml", repo / f"class-{n}.yaml")
    one = _check("-j", "1", "--no-cache")
    assert _check("-j", "2") == one  # every file read by the workers, then stored
    shutil.copyfile(FIXTURES / "class-renamed.yaml", repo / "class.yaml")
    (repo / "class-3.yaml").write_text("kind: [\n", encoding="utf-8")
    changed = _check("-j", "1", "--no-cache")
    assert _check("-j", "2") == changed  # two files read again, the others from the cache
    assert _check("-j", "1") == changed
