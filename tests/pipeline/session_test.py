from __future__ import annotations

from pathlib import Path

import pytest

from dralint.pipeline import run as pipeline
from dralint.pipeline.session import Session
from testing.run import ROOT

WORKSPACE = ROOT / "tests" / "fixtures" / "lsp" / "workspace"
DEPLOYMENT = "apps/deploy.yaml"
TEMPLATE = "apps/template.yaml"


@pytest.fixture
def session(monkeypatch: pytest.MonkeyPatch) -> Session:
    monkeypatch.chdir(WORKSPACE)
    checking = pipeline.checking(pipeline.Request(environment={}))
    made = Session(checking)
    made.index(checking.plan.inputs(()))
    return made


def _shown(session: Session, name: str) -> list[str]:
    _, findings = session.quick({name})
    return [f"{f.location.file}:{f.location.line}:{f.location.column} {f.rule}" for f in findings]


def _global(session: Session) -> None:
    session.accept(session.run_global(session.snapshot()))


def test_session_overlay_text_replaces_the_file_for_the_checks_across_files(session: Session) -> None:
    assert session.files == ["apps/deploy.yaml", "apps/template.yaml", "cluster/inventory.yaml"]
    _global(session)
    assert _shown(session, DEPLOYMENT) == []
    renamed = Path(WORKSPACE / TEMPLATE).read_text().replace("name: one-gpu", "name: two-gpus")
    assert session.set_text(TEMPLATE, renamed) is True
    assert _shown(session, DEPLOYMENT) == []  # the checks across files have not run on the new text yet
    _global(session)
    assert _shown(session, DEPLOYMENT) == ["apps/deploy.yaml:16:9 DRA302"]
    assert session.set_text(TEMPLATE, None) is True  # the buffer closed: the file on disk again
    _global(session)
    assert _shown(session, DEPLOYMENT) == []


def test_session_findings_follow_their_object_until_the_checks_run_again(session: Session) -> None:
    text = Path(WORKSPACE / DEPLOYMENT).read_text().replace("one-gpu", "one-gpux")
    session.set_text(DEPLOYMENT, text)
    _global(session)
    assert _shown(session, DEPLOYMENT) == ["apps/deploy.yaml:16:9 DRA302"]
    # Two comment lines on top: the same objects, so the checks across files need not run again.
    assert session.set_text(DEPLOYMENT, "# one\n# two\n" + text) is False
    assert _shown(session, DEPLOYMENT) == ["apps/deploy.yaml:18:9 DRA302"]
    # A change of content: the finding is placed at its path in the new text until the checks run.
    changed = "# one\n# two\n" + text.replace("replicas: 2", "replicas: 1")
    assert session.set_text(DEPLOYMENT, changed) is True
    assert _shown(session, DEPLOYMENT) == ["apps/deploy.yaml:18:9 DRA302"]
    # The object gone: its findings go with it.
    assert session.set_text(DEPLOYMENT, "") is True
    assert _shown(session, DEPLOYMENT) == []


def test_session_reports_local_findings_of_the_edited_file_at_once(session: Session) -> None:
    text = Path(WORKSPACE / DEPLOYMENT).read_text().replace("replicas: 2", "replicas: [2")
    session.set_text(DEPLOYMENT, text)
    assert _shown(session, DEPLOYMENT) == ["apps/deploy.yaml:8:11 DRA001"]


def test_session_index_keeps_a_buffer_opened_before_it(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(WORKSPACE)
    checking = pipeline.checking(pipeline.Request(environment={}))
    made = Session(checking)
    buffer = Path(WORKSPACE / DEPLOYMENT).read_text().replace("one-gpu", "one-gpux")
    made.set_text(DEPLOYMENT, buffer)
    made.set_text("apps/new.yaml", "")  # a new buffer, never saved: after the indexed files
    assert made.index(checking.plan.inputs(())) == 2  # the two files that were not open
    assert made.files == ["apps/deploy.yaml", "apps/template.yaml", "cluster/inventory.yaml", "apps/new.yaml"]
    assert made.text(DEPLOYMENT) == buffer
    _global(made)
    assert _shown(made, DEPLOYMENT) == ["apps/deploy.yaml:16:9 DRA302"]


def test_session_index_stops_when_cancelled(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(WORKSPACE)
    checking = pipeline.checking(pipeline.Request(environment={}))
    made = Session(checking)
    answers = iter([False, True])
    assert made.index(checking.plan.inputs(()), cancelled=lambda: next(answers)) == 1
    assert [name for name in made.files if made.has(name)] == ["apps/deploy.yaml"]


def test_session_runs_the_late_checks_with_the_checks_across_files(session: Session) -> None:
    # The class's selector fails on every device: the Deployment's pods stay pending (DRA521), which only
    # the whole workspace tells; the quick pass over one file never runs the late checks itself.
    inventory = "cluster/inventory.yaml"
    broken = (
        Path(WORKSPACE / inventory)
        .read_text()
        .replace('device.driver == "gpu.example.com"', 'device.attributes["gpu.example.com"].type == "gpu"')
    )
    assert session.set_text(inventory, broken) is True
    assert _shown(session, DEPLOYMENT) == []
    _global(session)
    assert [line.split(" ")[1] for line in _shown(session, DEPLOYMENT)] == ["DRA521"]


def test_session_shows_a_kustomization_findings_in_its_base_and_renders_it_again_on_save(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import shutil

    fixtures = ROOT / "tests" / "fixtures" / "kustomize"
    shutil.copytree(fixtures / "base", tmp_path / "base")
    shutil.copytree(fixtures / "overlays" / "staging", tmp_path / "overlays" / "staging")
    monkeypatch.chdir(tmp_path)
    checking = pipeline.checking(pipeline.Request(environment={}))
    made = Session(checking)
    made.index(checking.plan.inputs(()))
    assert made.files == ["overlays/staging/kustomization.yaml"]  # the base is checked through the overlay
    # what the editor shows in each file it has open (the findings of the overlay that renders it)
    assert _shown(made, "base/claims.yaml") == [
        "base/claims.yaml:33:7 DRA122",
        "overlays/staging/allocation-mode.yaml:3:3 DRA126",
        "overlays/staging/kustomization.yaml:1:1 DRA120",
    ]
    # An edit of the base is checked when saved, through the overlay: the base is no part of its own.
    claims = tmp_path / "base" / "claims.yaml"
    fixed = claims.read_text().replace("- name: NIC_0", "- name: nic-0")
    assert made.set_text("base/claims.yaml", fixed) is False  # unsaved: kustomize reads the disk
    assert _shown(made, "base/claims.yaml")[0] == "base/claims.yaml:33:7 DRA122"
    claims.write_text(fixed)
    assert made.set_text("base/claims.yaml", fixed) is True  # saved: rendered again
    assert made.files == ["overlays/staging/kustomization.yaml"]
    assert [line for line in _shown(made, "base/claims.yaml") if line.startswith("base/")] == []
