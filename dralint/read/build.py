"""Plain values from a YAML node tree, as kubectl gets them: go-yaml v2's decoder, then JSON.

kubectl decodes a document with go-yaml v2 into Go values (decode.go), turns them into JSON
with sigs.k8s.io/yaml, and reads that JSON back as Kubernetes does. Each step shapes the
result, and each can refuse the document:

- decoding: merge keys (``<<``) applied in order (a merge overwrites the keys before it, the
  keys after it win; in a list of merges the earlier mapping wins), duplicate keys (the last
  wins; dralint also reports them), a mapping or list as a key ("invalid map key"), an alias
  inside the anchor it names ("anchor ... contains itself"), too much of the document coming
  from aliases ("excessive aliasing", go-yaml's ratio), tagged scalars that do not fit;
- JSON conversion: keys become strings (``1.50`` is ``"1.5"``, ``on`` is ``"true"``); a null
  key, or an integer key beyond int64, is refused ("unsupported map key"), and so is a value
  that is NaN or infinite ("json: unsupported value") -- but only if it is still in the
  document at the end, after duplicate keys and merges replaced what they replace;
- reading the JSON back: a number written without a fraction or exponent is an int64 when it
  fits, else a float64; so ``1.0`` and ``1e3`` are the integers 1 and 1000, and 2**64 - 1 is
  a float.

dralint's own bounds apply on top: a budget of values (alias bombs) and of nesting.
"""

from __future__ import annotations

import json
import math
from decimal import Decimal
from typing import Any

from ruamel.yaml.nodes import MappingNode, Node, ScalarNode, SequenceNode

from dralint.limits import Limits
from dralint.read.goyaml.nodes import ALIASES
from dralint.read.issues import IssueKind
from dralint.read.scalars import TAG_PREFIX, TagError, key_text, resolve_plain, resolve_tagged

__all__ = ["PLAIN", "QUOTED", "BuildError", "Builder"]

PLAIN = "?plain"
QUOTED = "?quoted"
_MERGE_TAG = TAG_PREFIX + "merge"
_INT64 = (-(2**63), 2**63 - 1)
_JSON_INTEGRAL = 1e21  # Go's encoding/json writes floats below this without an exponent
_ALIAS_RANGE_LOW, _ALIAS_RANGE_HIGH = 400_000, 4_000_000
# Plain words that are not strings in YAML 1.1 (booleans and nulls start with a letter).
_KEYWORDS = frozenset(
    [
        "y",
        "Y",
        "yes",
        "Yes",
        "YES",
        "n",
        "N",
        "no",
        "No",
        "NO",
        "on",
        "On",
        "ON",
        "off",
        "Off",
        "OFF",
        "true",
        "True",
        "TRUE",
        "false",
        "False",
        "FALSE",
        "null",
        "Null",
        "NULL",
    ]
)


class BuildError(Exception):
    """Building a document failed; the document is skipped and the issue says why."""

    def __init__(
        self,
        kind: IssueKind,
        message: str,
        node: Node | None,
        hint: str | None = None,
        *,
        upstream: str | None = None,
    ) -> None:
        super().__init__(message)
        self.kind, self.message, self.hint = kind, message, hint
        self.node = node  # where the defect is; None: the document as a whole (alias bombs)
        self.upstream = upstream  # the error as kubectl prints it, when kubectl refuses the document too


def tag_of(node: Node) -> str:
    """The node's tag: ``?plain``/``?quoted`` when implicit, else the explicit tag (``!`` included)."""
    suffix: str = node.ctag.suffix
    return suffix if suffix in (PLAIN, QUOTED) else str(node.ctag)


def is_merge_key(node: Node) -> bool:
    """go-yaml's isMerge: a ``<<`` that is plain, tagged ``!`` (still implicit) or ``!!merge``."""
    return isinstance(node, ScalarNode) and node.value == "<<" and tag_of(node) in (PLAIN, "!", _MERGE_TAG)


def scalar_key(node: Node) -> str | None:
    """The JSON key a scalar key node becomes (``None`` for a collection, or a key that is refused)."""
    if not isinstance(node, ScalarNode):
        return None
    tag = tag_of(node)
    if tag == QUOTED:
        return str(node.value)
    try:
        value = resolve_plain(node.value) if tag == PLAIN else resolve_tagged(tag, node.value)
    except TagError:
        return None
    if value is None or (isinstance(value, int) and not isinstance(value, bool) and value > _INT64[1]):
        return None
    return key_text(value, node.value)


def _json_integer(value: float) -> int | float:
    """An integral float as Kubernetes reads it back from Go's JSON: written with its shortest
    digits ("1000", "9223372036854776000"), which are an int64 when they fit."""
    if abs(value) < 2**53:  # exact below 2**53: the shortest digits are the number itself
        return int(value)
    written = int(Decimal(repr(value)))
    return written if _INT64[0] <= written <= _INT64[1] else value


def _allowed_alias_ratio(decodes: int) -> float:
    if decodes <= _ALIAS_RANGE_LOW:
        return 0.99
    if decodes >= _ALIAS_RANGE_HIGH:
        return 0.10
    return 0.99 - 0.89 * (decodes - _ALIAS_RANGE_LOW) / (_ALIAS_RANGE_HIGH - _ALIAS_RANGE_LOW)


class Builder:
    """Builds one document's value; ``duplicates`` lists the keys written twice in a mapping."""

    def __init__(self, limits: Limits) -> None:
        self.limits = limits
        self.budget = limits.max_values_per_document
        self.duplicates: list[tuple[str, Node, Node]] = []
        self.decodes = 1  # go-yaml counts the document node
        self.alias_decodes = 0
        self.alias_depth = 0
        self.bad_keys: list[tuple[dict[str, Any], Node, str]] = []  # mapping, key node, what is wrong
        self.specials: dict[int, tuple[float, Node]] = {}  # NaN and infinities: id -> (value, node)

    def document(self, root: Node) -> Any:
        """The document's value, or :class:`BuildError`."""
        data = self.build(root, 0)
        if self.bad_keys or self.specials:
            self._check_json(data)
        return data

    # --- go-yaml's decoder ------------------------------------------------------------

    def _count(self, node: Node) -> None:
        """What go-yaml's unmarshal counts on entry, and dralint's own budget (inlined in :meth:`build`)."""
        self.budget -= 1
        if self.budget < 0:
            self._too_large()
        self.decodes += 1
        if self.alias_depth:
            self._aliased()

    def _too_large(self) -> None:
        raise BuildError(
            "too-large",
            f"document expands to more than {self.limits.max_values_per_document} values (YAML aliases?)",
            None,
            "expand the aliases or raise limits.maxValuesPerDocument in the configuration",
        )

    def _aliased(self) -> None:
        """One more value built through an alias: go-yaml's guard against documents made mostly of them."""
        self.alias_decodes += 1
        if (
            self.alias_decodes > 100
            and self.decodes > 1000
            and self.alias_decodes / self.decodes > _allowed_alias_ratio(self.decodes)
        ):
            raise BuildError("too-large", "document is made mostly of YAML alias expansions (an alias bomb?)", None,
                             "expand the aliases: kubectl refuses such a document (excessive aliasing)",
                             upstream="yaml: document contains excessive aliasing")  # fmt: skip

    def build(self, node: Node, depth: int, *, raw: bool = False) -> Any:
        """The value of ``node``; ``raw`` keeps a scalar as go-yaml resolved it (for keys)."""
        self.budget -= 1
        if self.budget < 0:
            self._too_large()
        self.decodes += 1
        if self.alias_depth:
            self._aliased()
        kind = node.__class__
        if kind is ScalarNode:
            return self.scalar(node, raw=raw)  # type: ignore[arg-type]
        if kind in ALIASES:
            target = self._enter_alias(node)
            try:
                return self.build(target, depth, raw=raw)
            finally:
                self.alias_depth -= 1
        if depth >= self.limits.max_depth:
            raise BuildError("too-deep", f"document nests deeper than {self.limits.max_depth} levels", node)
        if kind is MappingNode:
            out: dict[str, Any] = {}
            self.mapping(node, out, depth)  # type: ignore[arg-type]
            return out
        return [self.build(item, depth + 1) for item in node.value]

    def _enter_alias(self, node: Any) -> Node:
        """The target of the alias ``node``, built one alias deeper.

        Anchors are defined before their aliases, so an alias can only lead back into a node
        being built when it is written inside its own anchor's node: go-yaml then finds
        itself decoding the same alias again, and stops.
        """
        target: Node = node.target
        start = node.start_mark.index
        if target.start_mark.index <= start and (target.end_mark is None or start < target.end_mark.index):
            message = f"anchor '{node.alias_name}' value contains itself"
            raise BuildError("syntax", f"invalid YAML: {message}", node, upstream=f"yaml: {message}")
        self.alias_depth += 1
        return target

    def scalar(self, node: ScalarNode, *, raw: bool = False) -> Any:
        tag = node.ctag.suffix  # the raw tag; Node.tag would re-render it on every access
        if tag == PLAIN:
            value = resolve_plain(node.value)
        elif tag == QUOTED:
            return node.value
        else:
            try:
                value = resolve_tagged(str(node.ctag), node.value)
            except TagError as error:
                raise BuildError("syntax", f"invalid YAML: {error}", node, upstream=f"yaml: {error}") from None
        if raw:
            return value
        cls = value.__class__
        if cls is float:
            if not math.isfinite(value):
                # a float object of its own, to tell at the end whether this one is still there
                special = float("nan" if math.isnan(value) else "inf" if value > 0 else "-inf")
                self.specials[id(special)] = (special, node)
                return special
            if value.is_integer() and abs(value) < _JSON_INTEGRAL:
                return _json_integer(value)
            return value
        if cls is int and not _INT64[0] <= value <= _INT64[1]:
            return float(value)  # read back from JSON, an integer beyond int64 is a float64
        return value

    def mapping(self, node: MappingNode, out: dict[str, Any], depth: int) -> None:
        """Set the entries of ``node`` into ``out`` in order (a merge sets its mappings' entries in place)."""
        for key_node, value_node in node.value:
            if key_node.__class__ is ScalarNode and key_node.value == "<<" and is_merge_key(key_node):
                self.merge(key_node, value_node, out, depth)
                continue
            key = self.key(key_node, out, depth)
            if key in out:
                self._duplicate(node, key, key_node)
            out[key] = self.build(value_node, depth + 1)

    def key(self, node: Node, out: dict[str, Any], depth: int) -> str:
        """The JSON key ``node`` becomes; a key JSON cannot hold is noted against ``out``."""
        if node.__class__ is ScalarNode and node.ctag.suffix == PLAIN and node.value.__class__ is str:
            text: str = node.value
            if text and text[0].isalpha() and text not in _KEYWORDS and self.budget > 0 and not self.alias_depth:
                self.budget -= 1
                self.decodes += 1
                return text  # a plain word (the usual key) resolves to itself
        value = self.build(node, depth + 1, raw=True)
        if isinstance(value, str):
            return value
        if isinstance(value, (dict, list)):
            shown = json.dumps(value, sort_keys=True, default=str)
            shown = shown if len(shown) <= 60 else shown[:57] + "..."
            what = "mapping" if isinstance(value, dict) else "list"
            raise BuildError("syntax", f"invalid YAML: a mapping key cannot be a {what}: {shown}", node,
                             "keys are strings in JSON; quote the key", upstream="yaml: invalid map key")  # fmt: skip
        if value is None:
            self.bad_keys.append((out, node, "null"))
        elif value.__class__ is int and value > _INT64[1]:
            self.bad_keys.append((out, node, "uint64"))
        return key_text(value, node.value)

    def _duplicate(self, mapping: MappingNode, key: str, second: Node) -> None:
        """Record ``second`` when an earlier explicit key of ``mapping`` has the same text (merges do not count)."""
        for key_node, _ in mapping.value:
            if key_node is second:
                return
            if not is_merge_key(key_node) and scalar_key(key_node) == key:
                self.duplicates.append((key, key_node, second))
                return

    def merge(self, key: Node, source: Node, out: dict[str, Any], depth: int) -> None:
        """go-yaml's merge: a mapping (or an alias to one), or a list of them applied last to first."""
        if source.__class__ is SequenceNode:
            for item in reversed(source.value):
                self._merge_mapping(key, item, out, depth)
        else:
            self._merge_mapping(key, source, out, depth)

    def _merge_mapping(self, key: Node, source: Node, out: dict[str, Any], depth: int) -> None:
        """go-yaml's unmarshal of a mapping (or an alias to one) into the map being built."""
        target = source.target if isinstance(source, ALIASES) else source
        if target.__class__ is not MappingNode:
            message = "map merge requires map or sequence of maps as the value"
            raise BuildError("syntax", f"invalid YAML: {message}", key, upstream=f"yaml: {message}")
        self._count(source)
        aliased = source is not target
        if aliased:
            self._enter_alias(source)
            self._count(target)
        try:
            self.mapping(target, out, depth)
        finally:
            if aliased:
                self.alias_depth -= 1

    # --- sigs.k8s.io/yaml's JSON conversion -------------------------------------------

    def _check_json(self, data: Any) -> None:
        """Refuse what JSON cannot hold, if it is still in the document (duplicates may have replaced it)."""
        mappings: set[int] = set()
        floats: list[int] = []
        stack = [data]
        while stack:
            value = stack.pop()
            if isinstance(value, dict):
                mappings.add(id(value))
                stack.extend(value.values())
            elif isinstance(value, list):
                stack.extend(value)
            elif value.__class__ is float and id(value) in self.specials:
                floats.append(id(value))
        for mapping, node, what in self.bad_keys:
            if id(mapping) in mappings:
                if what == "null":
                    message = "a mapping key is null; JSON keys are strings"
                    upstream = "unsupported map key of type: %!s(<nil>)"
                else:
                    message = f"integer key {node.value} is beyond int64; JSON keys are strings"
                    upstream = "unsupported map key of type: uint64"
                raise BuildError("syntax", f"invalid YAML: {message}", node,
                                 "kubectl converts YAML to JSON: quote the key", upstream=upstream)  # fmt: skip
        if floats:
            value, node = min((self.specials[i] for i in floats), key=lambda found: found[1].start_mark.index)
            shown = "NaN" if math.isnan(value) else "+Inf" if value > 0 else "-Inf"
            raise BuildError("syntax", f"invalid YAML: {node.value} ({shown}) is not a JSON value", node,
                             "kubectl converts YAML to JSON, which has no NaN or infinity: quote it",
                             upstream=f"json: unsupported value: {shown}")  # fmt: skip
