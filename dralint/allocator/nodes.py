"""Node selection: does a slice or device apply to a node (``NodeMatches``, spec §2.7).

Node-affinity semantics as ``component-helpers/scheduling/corev1/nodeaffinity`` implements them:
terms are ORed, requirements inside a term ANDed, empty terms match nothing, and a selector with
an invalid requirement anywhere is a parse error (a hard error for the allocator).
"""

from __future__ import annotations

import re
from collections.abc import Mapping

from dralint.api import model
from dralint.apimachinery.validation import label_value_errors, qualified_name_errors

_INT64 = re.compile(r"[+-]?[0-9]+")


class NodeSelectorError(Exception):
    """``nodeaffinity.NewNodeSelector`` refused the selector."""


def node_matches(
    node: model.Node, node_name: str | None, all_nodes: bool | None, selector: model.NodeSelector | None
) -> bool:
    """``NodeMatches``: nodeName, else allNodes, else the node selector, else no match."""
    if node_name:
        return node.name == node_name
    if all_nodes:
        return True
    if selector is not None:
        terms = selector_terms(selector)
        return any(term_matches(term, node) for term in terms)
    return False


# Parsed selectors by identity (each kept alive with its outcome, so that its id stays its own):
# the dry-run matches one selector against thousands of nodes, and parsing is pure.
_PARSED: dict[int, tuple[model.NodeSelector, tuple[model.NodeSelectorTerm, ...] | NodeSelectorError]] = {}
_PARSED_MAX = 65_536


def selector_terms(selector: model.NodeSelector) -> tuple[model.NodeSelectorTerm, ...]:
    """``nodeaffinity.NewNodeSelector``: the terms that can match (empty ones dropped); raises
    :class:`NodeSelectorError` when a requirement is invalid. Memoised per selector object."""
    known = _PARSED.get(id(selector))
    if known is None or known[0] is not selector:
        try:
            outcome: tuple[model.NodeSelectorTerm, ...] | NodeSelectorError = tuple(_parse(selector))
        except NodeSelectorError as error:
            outcome = error
        if len(_PARSED) >= _PARSED_MAX:
            _PARSED.clear()
        known = _PARSED[id(selector)] = (selector, outcome)
    outcome = known[1]
    if isinstance(outcome, NodeSelectorError):
        raise NodeSelectorError(*outcome.args)
    return outcome


def _parse(selector: model.NodeSelector) -> list[model.NodeSelectorTerm]:
    errors: list[str] = []
    terms = []
    for i, term in enumerate(selector.terms):
        if not term.match_expressions and not term.match_fields:
            continue  # an empty term selects nothing
        for j, requirement in enumerate(term.match_expressions):
            errors.extend(_label_errors(requirement, f"nodeSelectorTerms[{i}].matchExpressions[{j}]"))
        for j, requirement in enumerate(term.match_fields):
            errors.extend(_field_errors(requirement, f"nodeSelectorTerms[{i}].matchFields[{j}]"))
        terms.append(term)
    if errors:
        detail = errors[0] if len(errors) == 1 else "[" + ", ".join(errors) + "]"
        raise NodeSelectorError(f"failed to parse node selector {go_string(selector)}: {detail}")
    return terms


def _label_errors(requirement: model.NodeSelectorRequirement, path: str) -> list[str]:
    errors = []
    key, operator, values = requirement.key, requirement.operator, requirement.values
    if qualified_name_errors(key):
        errors.append(f"{path}.key: Invalid value: {key!r}: name part must consist of alphanumeric characters")
    if operator in ("In", "NotIn"):
        if not values:
            errors.append(f"{path}.values: Required value: for 'in', 'notin' operators, values set can't be empty")
    elif operator in ("Exists", "DoesNotExist"):
        if values:
            errors.append(f"{path}.values: Forbidden: values set must be empty for exists and does not exist")
    elif operator in ("Gt", "Lt"):
        if len(values) != 1:
            errors.append(f"{path}.values: Required value: for 'Gt', 'Lt' operators, exactly one value is required")
        elif not _INT64.fullmatch(values[0]):
            errors.append(f"{path}.values[0]: Invalid value: for 'Gt', 'Lt' operators, the value must be an integer")
    else:
        errors.append(f"{path}.operator: Invalid value: {operator!r}: not a valid selector operator")
    for value in values:
        if operator not in ("Gt", "Lt") and label_value_errors(value):
            errors.append(f"{path}.values: Invalid value: {value!r}: a valid label must be an empty string or ...")
    return errors


def _field_errors(requirement: model.NodeSelectorRequirement, path: str) -> list[str]:
    if requirement.operator not in ("In", "NotIn"):
        return [f'{path}.operator: Unsupported value: "{requirement.operator}": supported values: "In", "NotIn"']
    if len(requirement.values) != 1:
        return [f"{path}.values: Invalid value: {list(requirement.values)}: must have one element"]
    return []


def term_matches(term: model.NodeSelectorTerm, node: model.Node) -> bool:
    """Whether ``node`` meets every requirement of one (parsed) term."""
    labels = node.labels
    for requirement in term.match_expressions:
        if not _label_matches(requirement, labels):
            return False
    fields = {"metadata.name": node.name}
    for requirement in term.match_fields:
        value = fields.get(requirement.key, "")
        if (value == requirement.values[0]) != (requirement.operator == "In"):
            return False
    return True


def _label_matches(requirement: model.NodeSelectorRequirement, labels: Mapping[str, str]) -> bool:
    value = labels.get(requirement.key)
    present = value is not None
    operator = requirement.operator
    if operator == "In":
        return present and value in requirement.values
    if operator == "NotIn":
        return not present or value not in requirement.values
    if operator == "Exists":
        return present
    if operator == "DoesNotExist":
        return not present
    if not present or value is None or not _INT64.fullmatch(value):
        return False
    label, limit = int(value), int(requirement.values[0])
    return label > limit if operator == "Gt" else label < limit


def go_string(selector: model.NodeSelector) -> str:
    """An approximation of the Go ``NodeSelector.String()`` text used in upstream's messages."""

    def requirements(items: tuple[model.NodeSelectorRequirement, ...]) -> str:
        inner = "".join(
            f"NodeSelectorRequirement{{Key:{r.key},Operator:{r.operator},Values:[{' '.join(r.values)}],}},"
            for r in items
        )
        return f"[]NodeSelectorRequirement{{{inner}}}"

    terms = "".join(
        f"NodeSelectorTerm{{MatchExpressions:{requirements(t.match_expressions)},"
        f"MatchFields:{requirements(t.match_fields)},}},"
        for t in selector.terms
    )
    return f"&NodeSelector{{NodeSelectorTerms:[]NodeSelectorTerm{{{terms}}},}}"
