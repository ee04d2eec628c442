"""Every file of the shared corpus loads, and every current DRA object in it normalises."""

from __future__ import annotations

import csv

from dralint.api.versions import make_target
from dralint.context import CheckContext
from dralint.load import load
from tests.conftest import CORPUS, require_shared


def test_corpus_loads_and_normalises_every_dra_object() -> None:
    corpus = require_shared(CORPUS)
    with open(corpus / "INDEX.tsv", encoding="utf-8") as handle:
        rows = list(csv.DictReader(handle, delimiter="\t"))
    workspace = load([str(corpus / row["file"]) for row in rows])
    assert len(workspace.files) == len(rows)
    ctx = CheckContext(workspace, make_target())
    current = [o for o in workspace.objects if o.is_dra and o.version in ("v1alpha3", "v1beta1", "v1beta2", "v1")]
    assert current, "the corpus has current DRA objects"
    assert set(ctx.normalised) == set(current)
    # Only the one deliberately broken kubernetes.io snippet fails to parse.
    syntax = sorted({file for file, issue in workspace.issues if issue.kind == "syntax"})
    broken = "content__en__docs__concepts__scheduling-eviction__dynamic-resource-allocation.md__snippet01.yaml"
    assert syntax == [str(corpus / "kubernetes__website" / broken)]
