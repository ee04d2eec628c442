"""The node index finds the nodes a selector matches: the same nodes as testing each one."""

from __future__ import annotations

import pytest

from dralint.api import model
from dralint.dryrun.eligibility import selector_matches
from dralint.dryrun.nodeindex import NodeIndex

_NODES = [
    model.Node(model.ObjectMeta(name=f"node-{i}", labels={"zone": f"z{i % 3}", **({"gpu": "h100"} if i % 2 else {})}))
    for i in range(12)
]


def _req(key: str, operator: str, *values: str) -> model.NodeSelectorRequirement:
    return model.NodeSelectorRequirement(key, operator, values)


def _selector(*terms: model.NodeSelectorTerm) -> model.NodeSelector:
    return model.NodeSelector(terms)


SELECTORS = {
    "pinned": _selector(model.NodeSelectorTerm(match_fields=(_req("metadata.name", "In", "node-4"),))),
    "pinned to none": _selector(model.NodeSelectorTerm(match_fields=(_req("metadata.name", "In", "node-99"),))),
    "name not in": _selector(model.NodeSelectorTerm(match_fields=(_req("metadata.name", "NotIn", "node-4"),))),
    "label in": _selector(model.NodeSelectorTerm((_req("zone", "In", "z1", "z2"),))),
    "label and name": _selector(
        model.NodeSelectorTerm((_req("zone", "In", "z1"),), (_req("metadata.name", "In", "node-4"),))
    ),
    "two terms": _selector(
        model.NodeSelectorTerm((_req("gpu", "Exists"),)), model.NodeSelectorTerm((_req("zone", "In", "z0"),))
    ),
    "not in": _selector(model.NodeSelectorTerm((_req("zone", "NotIn", "z0"),))),
    "empty term": _selector(model.NodeSelectorTerm()),
    "invalid": _selector(model.NodeSelectorTerm((_req("zone", "In"),))),
}


@pytest.mark.parametrize("name", SELECTORS)
def test_node_index_matches_what_each_node_matches(name: str) -> None:
    selector = SELECTORS[name]
    expected = [i for i, node in enumerate(_NODES) if selector_matches(node, selector)]
    assert NodeIndex(_NODES).matching(selector) == expected
