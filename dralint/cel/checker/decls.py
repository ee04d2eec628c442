"""Declarations a CEL environment is made of: variables, functions with typed overloads, options.

An :class:`Environment` is a plain value: the checker resolves names against it and the
compiler binds overload implementations from it. Libraries add functions with :func:`add`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import field
from typing import Any

from dralint.cel.checker.types import Type
from dralint.cel.parser.macros import MACROS_BASE
from dralint.cel.pricing import Pricing
from dralint.dataclass import dataclass

__all__ = ["Environment", "Function", "Impl", "Installer", "Overload", "VersionedOption"]

Impl = Callable[..., Any]


@dataclass(frozen=True, slots=True)
class Overload:
    """One signature of a function; ``args`` includes the receiver of a member overload first."""

    id: str
    args: tuple[Type, ...]
    result: Type
    impl: Impl | None = None
    member: bool = False
    type_params: tuple[str, ...] = ()


@dataclass(slots=True)
class Function:
    name: str
    overloads: list[Overload] = field(default_factory=list)
    # A function-level implementation used for every overload (cel-go's singleton bindings,
    # e.g. the operators): it receives the argument values and dispatches itself.
    singleton: Impl | None = None
    # Implementations whose runtime type guards are off (cel-go's DisableTypeGuards).
    no_guards: bool = False
    pricing: Pricing | None = None  # how a call costs (None: as cel-go's core prices it)


@dataclass(slots=True)
class Environment:
    """Declared variables, functions, macros and language options; hashable by identity."""

    name: str
    variables: dict[str, Type] = field(default_factory=dict)
    functions: dict[str, Function] = field(default_factory=dict)
    type_idents: dict[str, Type] = field(default_factory=dict)  # identifiers naming types: int, map, ...
    struct_fields: dict[str, dict[str, Type]] = field(default_factory=dict)  # object type -> fields
    macros: frozenset[tuple[str, int, bool]] = MACROS_BASE
    cross_type_numeric: bool = True
    homogeneous_literals: bool = True
    literal_validators: bool = True  # regex/duration/timestamp literals checked at compile time
    cost_limit: int | None = 1_000_000
    # Size limits of declared inputs for the static cost estimate: a variable path like
    # ("device", "attributes", "@values", "@values") -> maximum size.
    sizes: Callable[[tuple[str, ...]], int | None] | None = None
    extra: dict[str, Any] = field(default_factory=dict)

    def __hash__(self) -> int:
        return id(self)

    def __eq__(self, other: object) -> bool:
        return self is other

    def add(
        self,
        name: str,
        *overloads: Overload,
        singleton: Impl | None = None,
        no_guards: bool = False,
        pricing: Pricing | None = None,
    ) -> None:
        """Declare (or extend) function ``name``, priced as ``pricing`` (Kubernetes prices a function by its name)."""
        function = self.functions.get(name)
        if function is None:
            function = self.functions[name] = Function(name)
        function.overloads.extend(overloads)
        if pricing is not None:
            function.pricing = pricing
        if singleton is not None:
            function.singleton = singleton
        if no_guards:
            function.no_guards = True

    def remove(self, name: str, overload_ids: Iterable[str] | None = None) -> None:
        if overload_ids is None:
            self.functions.pop(name, None)
            return
        function = self.functions.get(name)
        if function is not None:
            drop = set(overload_ids)
            function.overloads = [o for o in function.overloads if o.id not in drop]


Installer = Callable[[Environment], None]


@dataclass(frozen=True, slots=True)
class VersionedOption:
    """Declarations that a release introduced (and maybe removed): each library lists its own as ``RELEASES``."""

    introduced: str
    install: Installer
    removed: str | None = None
    # Feature-gated options: included in new-expression environments exactly when enabled.
    enabled: bool | None = None
    # The Kubernetes releases whose code lists this option (base.go, compile.go), first and last:
    # a library's content or its options changed between releases. None: from ``introduced`` on.
    shipped: tuple[str, str | None] | None = None
