"""cel-go's optional types library: ``optional.of``/``none``/``ofNonZeroValue``, ``value``,
``hasValue``, ``or``, ``orValue``, optional indexing and, from version 2, ``first``/``last`` on lists
and ``optional.unwrap``/``unwrapOpt``."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from dralint.cel.checker.decls import Environment, Overload, VersionedOption
from dralint.cel.checker.types import BOOL, INT, list_of, map_of, optional_of, param, type_of
from dralint.cel.errors import CelRuntimeError
from dralint.cel.runtime.semantics import format_key
from dralint.cel.runtime.values import NONE, Duration, Optional, Timestamp, UInt

__all__ = ["RELEASES", "install"]

A = param("A")
K = param("K")
V = param("V")


def _value(opt: Optional) -> Any:
    if not opt.present:
        raise CelRuntimeError("optional.none() dereference")
    return opt.value


def _is_zero(value: Any) -> bool:
    t = type(value)
    if value is None:
        return True
    if t is bool:
        return value is False
    if t in (int, UInt, float):
        return bool(value == 0)
    if t in (str, bytes, list, tuple) or isinstance(value, Mapping):
        return len(value) == 0
    if t in (Duration, Timestamp):
        return bool(value.nanos == 0)
    return False


def _unwrap(items: Any) -> list[Any]:
    """``optUnwrap``: the values of the present optionals of a list."""
    values = []
    for item in items:
        if type(item) is not Optional:
            raise CelRuntimeError(f"value {format_key(item)} is not optional")
        if item.present:
            values.append(item.value)
    return values


def install(env: Environment, *, version: int = 2) -> None:
    """The library at ``version``: Kubernetes asks for the newest, so the version is cel-go's own."""
    opt_a = optional_of(A)
    env.type_idents["optional_type"] = type_of(optional_of(A))
    env.add("optional.of", Overload("optional_of", (A,), opt_a, lambda v: Optional(True, v), type_params=("A",)))
    env.add(
        "optional.ofNonZeroValue",
        Overload(
            "optional_ofNonZeroValue",
            (A,),
            opt_a,
            lambda v: NONE if _is_zero(v) else Optional(True, v),
            type_params=("A",),
        ),
    )
    env.add("optional.none", Overload("optional_none", (), opt_a, lambda: NONE, type_params=("A",)))
    env.add("value", Overload("optional_value", (opt_a,), A, _value, True, ("A",)))
    env.add("hasValue", Overload("optional_hasValue", (opt_a,), BOOL, lambda o: o.present, True, ("A",)))
    env.add(
        "or", Overload("optional_or_optional", (opt_a, opt_a), opt_a, lambda o, p: o if o.present else p, True, ("A",))
    )
    env.add(
        "orValue",
        Overload("optional_orValue_value", (opt_a, A), A, lambda o, v: o.value if o.present else v, True, ("A",)),
    )
    # Declarations only: the compiler evaluates ``_[?_]`` itself and ``_[_]`` through the core index
    # operator, both with runtime.optional_index for optional results.
    env.add(
        "_[?_]",
        Overload("list_optindex_optional_int", (list_of(A), INT), opt_a, type_params=("A",)),
        Overload("optional_list_optindex_optional_int", (optional_of(list_of(A)), INT), opt_a, type_params=("A",)),
        Overload("map_optindex_optional_value", (map_of(K, V), K), optional_of(V), type_params=("K", "V")),
        Overload(
            "optional_map_optindex_optional_value",
            (optional_of(map_of(K, V)), K),
            optional_of(V),
            type_params=("K", "V"),
        ),
    )
    env.add(
        "_[_]",
        Overload("optional_list_index_int", (optional_of(list_of(A)), INT), opt_a, type_params=("A",)),
        Overload("optional_map_index_value", (optional_of(map_of(K, V)), K), optional_of(V), type_params=("K", "V")),
    )
    if version < 2:
        return
    env.add(
        "optional.unwrap",
        Overload("optional_unwrap", (list_of(opt_a),), list_of(A), _unwrap, type_params=("A",)),
    )
    env.add(
        "unwrapOpt",
        Overload("optional_unwrapOpt", (list_of(opt_a),), list_of(A), _unwrap, True, ("A",)),
    )
    env.add(
        "first",
        Overload(
            "list_first", (list_of(A),), opt_a, lambda items: Optional(True, items[0]) if items else NONE, True, ("A",)
        ),
    )
    env.add(
        "last",
        Overload(
            "list_last", (list_of(A),), opt_a, lambda items: Optional(True, items[-1]) if items else NONE, True, ("A",)
        ),
    )


# base.go adds cel.OptionalTypes() in 1.28 without a version: the newest that cel-go has, version 1
# in v0.20 and v0.22 (Kubernetes 1.31 and 1.32), version 2 from v0.23 (1.33) on.
RELEASES = (
    VersionedOption("1.28", lambda env: install(env, version=1), shipped=("1.31", "1.32")),
    VersionedOption("1.28", lambda env: install(env, version=2), shipped=("1.33", None)),
)
