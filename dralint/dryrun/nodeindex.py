"""The nodes a node selector matches, found without testing every node.

A selector the dry-run meets often pins one node (an allocation of node-local devices selects
``metadata.name In [node]``) or names label values; testing it against each of 10,000 nodes for
each of thousands of shared claims made placement quadratic. The index narrows every term to
the nodes that can meet its most selective requirement, then tests only those with the
allocator's own matching, so the answer is the one testing every node gives.
"""

from __future__ import annotations

from collections.abc import Sequence

from dralint.allocator.nodes import NodeSelectorError, selector_terms, term_matches
from dralint.api import model


class NodeIndex:
    """The nodes of the inventory (in order) by name and by label, built on first use."""

    def __init__(self, nodes: Sequence[model.Node]) -> None:
        self.nodes = nodes
        self._by_name: dict[str, list[int]] | None = None
        self._by_label: dict[str, dict[str, list[int]]] = {}  # label key -> value -> nodes

    def matching(self, selector: model.NodeSelector) -> list[int]:
        """Indexes of the nodes ``selector`` matches, ascending (none when it does not parse)."""
        try:
            terms = selector_terms(selector)
        except NodeSelectorError:
            return []
        found: set[int] = set()
        for term in terms:
            for i in self._narrowed(term):
                if i not in found and term_matches(term, self.nodes[i]):
                    found.add(i)
        return sorted(found)

    def _narrowed(self, term: model.NodeSelectorTerm) -> Sequence[int]:
        """The nodes that meet the term's most selective ``In`` requirement (all nodes without one)."""
        best: Sequence[int] = range(len(self.nodes))
        for requirement in term.match_fields:
            if requirement.key == "metadata.name" and requirement.operator == "In":
                named = self._names().get(requirement.values[0], [])
                best = named if len(named) < len(best) else best
        for requirement in term.match_expressions:
            if requirement.operator == "In":
                values = self._labels(requirement.key)
                nodes = sorted({i for value in set(requirement.values) for i in values.get(value, ())})
                best = nodes if len(nodes) < len(best) else best
        return best

    def _names(self) -> dict[str, list[int]]:
        if self._by_name is None:
            self._by_name = {}
            for i, node in enumerate(self.nodes):
                self._by_name.setdefault(node.name, []).append(i)
        return self._by_name

    def _labels(self, key: str) -> dict[str, list[int]]:
        values = self._by_label.get(key)
        if values is None:
            values = self._by_label[key] = {}
            for i, node in enumerate(self.nodes):
                value = node.labels.get(key)
                if value is not None:
                    values.setdefault(value, []).append(i)
        return values
