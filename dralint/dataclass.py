"""``dataclasses.dataclass`` that compiles nothing when a class is created, to cut dralint's start-up.

The standard library compiles Python source for every method of every dataclass when the class
is created: six small functions for a frozen class, about 0.5 ms. dralint defines over two
hundred dataclasses and a one-file check creates some 180 of them, which was a third of its CPU
time, while it calls the ``__init__`` of half of them and the other generated methods of two.
The bookkeeping is the standard library's (fields, slots, ``__match_args__``; ``fields()``,
``replace()``, ``asdict()`` work as usual), done here for the shapes dralint defines without the
standard library's per-field type tests, and by the standard library for any other shape
(:func:`_bookkeeping`). The methods:

- ``__init__`` binds its arguments in Python, as the compiled one would. A frozen class keeps
  it (the compiled one is no faster: it too sets each field with ``object.__setattr__``); a
  mutable class compiles the standard library's source after :data:`INTERPRETED_CALLS` calls.
- ``__eq__``, the order methods and ``__hash__`` are closures over a C getter of the compared
  fields, which builds the tuples the standard library's methods build.
- ``__repr__`` starts as a stub that compiles the standard library's source on its first call.

Differences a program could observe, none of which dralint relies on: ``inspect.signature`` of
a class shows ``(*args, **kwargs)``, the class's
``__dataclass_params__`` reads like ``init=False, repr=False, eq=False, frozen=False`` (the
standard library's own view of what it generated), and a class without a docstring gets
``Name(field, ...)`` instead of its full signature. ``kw_only``, ``unsafe_hash``,
``weakref_slot``, ``InitVar``, ``KW_ONLY`` and ``ClassVar`` fields are refused: dralint uses
none of them. For mypy this is ``dataclasses.dataclass`` itself.
"""

from __future__ import annotations

import abc
import dataclasses
import functools
import operator
import re
import reprlib
import sys
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

__all__ = ["dataclass"]

_Source = tuple[str, dict[str, Any]]  # a method's source text and the names it reads


if TYPE_CHECKING:
    from dataclasses import dataclass
else:

    def dataclass(
        cls: type | None = None,
        /,
        *,
        init: bool = True,
        repr: bool = True,
        eq: bool = True,
        order: bool = False,
        frozen: bool = False,
        match_args: bool = True,
        slots: bool = False,
    ) -> Any:
        """Like :func:`dataclasses.dataclass` with these options; see the module's documentation."""

        def wrap(cls: type) -> type:
            return _process(
                cls, init=init, repr=repr, eq=eq, order=order, frozen=frozen, match_args=match_args, slots=slots
            )

        return wrap if cls is None else wrap(cls)


def _process(
    cls: type, *, init: bool, repr: bool, eq: bool, order: bool, frozen: bool, match_args: bool, slots: bool
) -> type:
    if order and not eq:
        raise ValueError("eq must be true if order is true")
    own = dict(cls.__dict__)  # what the class defines itself wins over generated methods, as in the standard library
    class_hash = own.get("__hash__", dataclasses.MISSING)
    has_explicit_hash = not (class_hash is dataclasses.MISSING or (class_hash is None and "__eq__" in own))
    if not cls.__doc__:
        # The standard library computes the signature with inspect, which needs the real __init__.
        cls.__doc__ = f"{cls.__name__}({', '.join(own.get('__annotations__', {}))})"
    # The standard library's bookkeeping, without generating (compiling) any method.
    built: type | None = _bookkeeping(cls, match_args=match_args, slots=slots)
    if built is None:
        built = dataclasses.dataclass(
            cls, init=False, repr=False, eq=False, order=False, frozen=False, match_args=match_args, slots=slots
        )
        _refuse_unsupported(built)
    fields: tuple[dataclasses.Field[Any], ...] = tuple(built.__dataclass_fields__.values())  # type: ignore[attr-defined]
    if init and "__init__" not in own:
        _lazy_init(built, fields, frozen=frozen, slots=slots, post_init=hasattr(built, "__post_init__"))
    if repr and "__repr__" not in own:
        _lazy(built, "__repr__", lambda: _repr_source([f for f in fields if f.repr]), wrap=reprlib.recursive_repr())
    compared = _values([f for f in fields if f.compare]) if eq or order else _no_values
    if eq and "__eq__" not in own:
        _put(built, _comparison("__eq__", operator.eq, compared))
    if order:
        for name, test in (
            ("__lt__", operator.lt),
            ("__le__", operator.le),
            ("__gt__", operator.gt),
            ("__ge__", operator.ge),
        ):
            if name in own:
                advice = "Consider using functools.total_ordering"
                raise TypeError(f"Cannot overwrite attribute {name} in class {cls.__name__}. {advice}")
            _put(built, _comparison(name, test, compared))
    if frozen:
        _freeze(built, fields, own, slots=slots)
    if eq and not has_explicit_hash:
        if frozen:
            _put(built, _hash(_values([f for f in fields if _hashed(f)])))
        else:
            built.__hash__ = None  # type: ignore[assignment]  # mutable and comparable: unhashable, as usual
    return built


def _hashed(f: dataclasses.Field[Any]) -> bool:
    return bool(f.compare if f.hash is None else f.hash)


# What the standard library's bookkeeping gives (its decorator with no generated method) for the
# shapes dralint defines, without its per-field type tests: each annotation is parsed as a type
# four times (ClassVar twice, InitVar, KW_ONLY), most of what the standard library spends on a
# class. A class of another shape (such an annotation, a dataclass base or one with __slots__, a
# mutable default, __slots__ of its own) goes to the standard library.
_PSEUDO_FIELD = re.compile(r"ClassVar|InitVar|KW_ONLY")


@functools.cache
def _prototype(match_args: bool, slots: bool) -> tuple[Any, Any]:
    """The standard library's ``__dataclass_params__`` for these options (what a class carries after
    its bookkeeping) and the marker of an ordinary field, taken from a class it processed."""
    namespace = {"__annotations__": {"field": "int"}, "__doc__": "A prototype.", "__module__": __name__}
    built: type = dataclasses.dataclass(
        type("Prototype", (), namespace),
        init=False,
        repr=False,
        eq=False,
        order=False,
        frozen=False,
        match_args=match_args,
        slots=slots,
    )
    return built.__dataclass_params__, dataclasses.fields(built)[0]._field_type  # type: ignore[attr-defined]


def _bookkeeping(cls: type, *, match_args: bool, slots: bool) -> type | None:
    """``dataclasses.dataclass(cls, init=False, repr=False, eq=False, match_args=..., slots=...)``
    for the shapes dralint defines; ``None`` for any other shape (the standard library does it)."""
    own = cls.__dict__
    annotations = own.get("__annotations__", {})
    if "__slots__" in own or (len(cls.__mro__) > 2 and _inherits_fields_or_slots(cls)):
        return None
    for name, value in own.items():
        if isinstance(value, dataclasses.Field) and name not in annotations:
            return None  # the standard library's error
    params, ordinary = _prototype(match_args, slots)
    fields: dict[str, dataclasses.Field[Any]] = {}
    missing = dataclasses.MISSING
    for name, annotation in annotations.items():
        if type(annotation) is not str or _PSEUDO_FIELD.search(annotation):
            return None
        default: Any = getattr(cls, name, missing)
        f: dataclasses.Field[Any] = (
            default if isinstance(default, dataclasses.Field) else dataclasses.field(default=default)
        )
        if f.default.__class__.__hash__ is None:  # a mutable default: the standard library's error
            return None
        fields[name] = f
    for name, f in fields.items():
        if f.kw_only is True:
            raise TypeError(f"{cls.__qualname__}: keyword-only fields are not supported")
        if f.kw_only is missing:
            f.kw_only = False
        f.name = name
        f.type = annotations[name]
        f._field_type = ordinary  # type: ignore[attr-defined]
        if isinstance(getattr(cls, name, None), dataclasses.Field):  # the default replaces it, as a class attribute
            if f.default is missing:
                delattr(cls, name)
            else:
                setattr(cls, name, f.default)
    if not slots:
        cls.__dataclass_params__ = params  # type: ignore[attr-defined]
        cls.__dataclass_fields__ = fields  # type: ignore[attr-defined]
        if match_args and "__match_args__" not in own:
            cls.__match_args__ = tuple(f.name for f in fields.values() if f.init)  # type: ignore[attr-defined,misc]
        abc.update_abstractmethods(cls)
        return cls
    namespace = dict(own)
    namespace["__dataclass_params__"] = params
    namespace["__dataclass_fields__"] = fields
    if match_args and "__match_args__" not in own:
        namespace["__match_args__"] = tuple(f.name for f in fields.values() if f.init)
    namespace["__slots__"] = tuple(fields)
    for name in fields:
        namespace.pop(name, None)
    namespace.pop("__dict__", None)
    namespace.pop("__weakref__", None)
    built = type(cls)(cls.__name__, cls.__bases__, namespace)
    built.__qualname__ = cls.__qualname__
    abc.update_abstractmethods(built)
    return built


def _inherits_fields_or_slots(cls: type) -> bool:
    return any(hasattr(base, "__dataclass_fields__") or base.__dict__.get("__slots__") for base in cls.__mro__[1:-1])


def _refuse_unsupported(cls: type) -> None:
    fields = dataclasses.fields(cls)
    names = {f.name for f in fields}
    pseudo = [name for name in cls.__dataclass_fields__ if name not in names]  # type: ignore[attr-defined]
    if pseudo:
        raise TypeError(f"{cls.__qualname__}: ClassVar, InitVar and KW_ONLY fields are not supported ({pseudo})")
    if any(f.kw_only is True for f in fields):
        raise TypeError(f"{cls.__qualname__}: keyword-only fields are not supported")


def _module_globals(cls: type) -> dict[str, Any]:
    module = sys.modules.get(cls.__module__)
    return module.__dict__ if module is not None else {}


def _lazy(cls: type, name: str, source: Callable[[], _Source], wrap: Callable[[Any], Any] | None = None) -> None:
    """Put on ``cls`` a stub for method ``name`` that compiles it from ``source()`` on first call."""
    qualname = f"{cls.__qualname__}.{name}"

    def stub(self: Any, *args: Any, **kwargs: Any) -> Any:
        method = _compile(cls, name, qualname, *source())
        if wrap is not None:
            method = wrap(method)
        setattr(cls, name, method)
        return method(self, *args, **kwargs)

    stub.__name__ = name
    stub.__qualname__ = qualname
    setattr(cls, name, stub)


# An __init__ binds its arguments in Python at first instead of being compiled (0.2 ms a class).
# A class instantiated more often gets the compiled __init__, up to four times faster per call,
# once this many calls have cost about as much as compiling it. Calls of a frozen class with
# every argument by position do not count: binding those is as fast as the compiled __init__,
# which also sets each field with object.__setattr__.
INTERPRETED_CALLS = 20


def _lazy_init(
    cls: type, fields: tuple[dataclasses.Field[Any], ...], *, frozen: bool, slots: bool, post_init: bool
) -> None:
    """Put on ``cls`` an ``__init__`` that binds its arguments itself (a mutable class's compiles after a while).

    The arguments are bound as the compiled ``__init__`` would bind them; anything it would refuse
    (a missing, extra, unknown or repeated argument) is handed to it, so that the error is its own.
    """
    qualname = f"{cls.__qualname__}.__init__"
    assign = object.__setattr__ if frozen else setattr
    missing = dataclasses.MISSING
    calls = 0  # the calls that count towards compiling
    binding: _Binding | None = None  # made on the first call: half of the classes of a run are never instantiated

    def compiled(self: Any, args: tuple[Any, ...], kwargs: dict[str, Any]) -> None:
        source = _init_source(fields, frozen=frozen, slots=slots, post_init=post_init)
        method = _compile(cls, "__init__", qualname, *source)
        if calls > INTERPRETED_CALLS:  # else it was asked for its error: the interpreted one stays
            cls.__init__ = method  # type: ignore[misc]
        method(self, *args, **kwargs)

    def __init__(self: Any, /, *args: Any, **kwargs: Any) -> None:
        nonlocal calls, binding
        if binding is None:
            binding = _binding(fields, slots=slots)
        parameters, position, plan, rest = binding
        given = len(args)
        if frozen and not kwargs and given == len(parameters):  # every argument, by position
            for name, value in zip(parameters, args):  # noqa: B905 - the lengths are equal
                assign(self, name, value)
            for name, default, factory in rest:
                assign(self, name, default if factory is missing else factory())
        elif (calls := calls + 1) > INTERPRETED_CALLS:
            compiled(self, args, kwargs)
            return
        else:
            if given > len(parameters) or any(position.get(key, -1) < given for key in kwargs):
                compiled(self, args, kwargs)  # too many, unknown or repeated: its error
                return
            for name, init, default, factory in plan:
                if init and position[name] < given:
                    value = args[position[name]]
                elif init and name in kwargs:
                    value = kwargs[name]
                elif factory is not missing:
                    value = factory()
                elif default is not missing and (init or slots):
                    value = default
                elif init:
                    compiled(self, args, kwargs)  # a required argument missing: its error
                    return
                else:
                    continue  # not an argument, no default: left unset, as the standard library leaves it
                assign(self, name, value)
        if post_init:
            self.__post_init__()

    __init__.__qualname__ = qualname
    cls.__init__ = __init__  # type: ignore[misc]


# How an interpreted __init__ binds: the arguments in order and each one's position; every field
# with whether it is an argument, its default and its factory; and what the fields that are not
# arguments get once the arguments are set (those with a factory, or a default a slot must hold).
_Binding = tuple[list[str], dict[str, int], list[tuple[str, bool, Any, Any]], list[tuple[str, Any, Any]]]


def _binding(fields: tuple[dataclasses.Field[Any], ...], *, slots: bool) -> _Binding:
    missing = dataclasses.MISSING
    parameters = [f.name for f in fields if f.init]
    plan = [(f.name, f.init, f.default, f.default_factory) for f in fields]
    rest = [
        (f.name, f.default, f.default_factory)
        for f in fields
        if not f.init and (f.default_factory is not missing or (slots and f.default is not missing))
    ]
    return parameters, {name: index for index, name in enumerate(parameters)}, plan, rest


def _compile(cls: type, name: str, qualname: str, text: str, names: dict[str, Any]) -> Any:
    # As the standard library does: the names the method reads are the arguments of a function
    # that defines it, so that the method reads them as fast closure variables.
    wrapper = f"def __create_fn__({', '.join(names)}):\n{text}\n return {name}"
    namespace: dict[str, Any] = {}
    exec(wrapper, _module_globals(cls), namespace)
    method = namespace["__create_fn__"](**names)
    method.__qualname__ = qualname
    return method


def _init_source(fields: tuple[dataclasses.Field[Any], ...], *, frozen: bool, slots: bool, post_init: bool) -> _Source:
    """Python 3.11's ``_init_fn`` for classes without InitVars or keyword-only fields."""
    seen_default = False
    for f in fields:
        if f.init:
            if not (f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING):
                seen_default = True
            elif seen_default:
                raise TypeError(f"non-default argument {f.name!r} follows default argument")
    self_name = "__dataclass_self__" if any(f.name == "self" for f in fields) else "self"
    names: dict[str, Any] = {f"_type_{f.name}": f.type for f in fields}
    names.update(
        {
            "MISSING": dataclasses.MISSING,
            "_HAS_DEFAULT_FACTORY": _HAS_DEFAULT_FACTORY,
            "__dataclass_builtins_object__": object,
            "_return_type": None,
        }
    )
    body = []
    for f in fields:
        value = _field_value(f, names, slots=slots)
        if value is None:
            continue
        if frozen:
            body.append(f"__dataclass_builtins_object__.__setattr__({self_name},{f.name!r},{value})")
        else:
            body.append(f"{self_name}.{f.name}={value}")
    if post_init:
        body.append(f"{self_name}.__post_init__()")
    parameters = [self_name, *(_init_parameter(f) for f in fields if f.init)]
    return _function("__init__", parameters, body or ["pass"], returns="->_return_type"), names


# The standard library marks a parameter whose default comes from a factory with a private
# sentinel; the generated __init__ only compares against it, so any unique object will do.
_HAS_DEFAULT_FACTORY = type("_HAS_DEFAULT_FACTORY_CLASS", (), {"__repr__": lambda self: "<factory>"})()


def _field_value(f: dataclasses.Field[Any], names: dict[str, Any], *, slots: bool) -> str | None:
    default = f"_dflt_{f.name}"
    if f.default_factory is not dataclasses.MISSING:
        names[default] = f.default_factory
        return f"{default}() if {f.name} is _HAS_DEFAULT_FACTORY else {f.name}" if f.init else f"{default}()"
    if f.init:
        if f.default is not dataclasses.MISSING:
            names[default] = f.default
        return f.name
    if slots and f.default is not dataclasses.MISSING:  # other classes read the class attribute
        names[default] = f.default
        return default
    return None


def _init_parameter(f: dataclasses.Field[Any]) -> str:
    if f.default is not dataclasses.MISSING:
        return f"{f.name}:_type_{f.name}=_dflt_{f.name}"
    if f.default_factory is not dataclasses.MISSING:
        return f"{f.name}:_type_{f.name}=_HAS_DEFAULT_FACTORY"
    return f"{f.name}:_type_{f.name}"


def _repr_source(fields: list[dataclasses.Field[Any]]) -> _Source:
    shown = ", ".join(f"{f.name}={{self.{f.name}!r}}" for f in fields)
    return _function("__repr__", ["self"], [f'return self.__class__.__qualname__ + f"({shown})"']), {}


# Comparison and hashing are closures over a C getter of the fields' values, as fast as the
# standard library's compiled methods (which build the same tuples) and with nothing to compile.
def _values(fields: list[dataclasses.Field[Any]]) -> Callable[[Any], tuple[Any, ...]]:
    """The tuple of ``fields``' values of an instance, as the standard library's methods build it."""
    if len(fields) >= 2:
        return operator.attrgetter(*(f.name for f in fields))
    if fields:
        one = operator.attrgetter(fields[0].name)
        return lambda obj: (one(obj),)
    return _no_values


def _no_values(obj: Any) -> tuple[Any, ...]:
    return ()


def _comparison(name: str, test: Callable[[Any, Any], Any], values: Callable[[Any], tuple[Any, ...]]) -> Any:
    def compare(self: Any, other: Any) -> Any:
        if other.__class__ is self.__class__:
            return test(values(self), values(other))
        return NotImplemented

    compare.__name__ = name
    return compare


def _hash(values: Callable[[Any], tuple[Any, ...]]) -> Any:
    def __hash__(self: Any) -> int:
        return hash(values(self))

    return __hash__


def _put(cls: type, method: Any) -> None:
    method.__qualname__ = f"{cls.__qualname__}.{method.__name__}"
    setattr(cls, method.__name__, method)


def _function(name: str, parameters: list[str], body: list[str], returns: str = "") -> str:
    lines = "\n".join(f"  {line}" for line in body)
    return f" def {name}({','.join(parameters)}){returns}:\n{lines}"


def _freeze(cls: type[Any], fields: tuple[dataclasses.Field[Any], ...], own: dict[str, Any], *, slots: bool) -> None:
    """The standard library's frozen ``__setattr__``/``__delattr__`` (closures: nothing to compile), and pickling."""
    names = frozenset(f.name for f in fields)

    def __setattr__(self: Any, name: str, value: Any) -> None:
        if type(self) is cls or name in names:
            raise dataclasses.FrozenInstanceError(f"cannot assign to field {name!r}")
        super(cls, self).__setattr__(name, value)

    def __delattr__(self: Any, name: str) -> None:
        if type(self) is cls or name in names:
            raise dataclasses.FrozenInstanceError(f"cannot delete field {name!r}")
        super(cls, self).__delattr__(name)

    for method in (__setattr__, __delattr__):
        if method.__name__ in own:
            raise TypeError(f"Cannot overwrite attribute {method.__name__} in class {cls.__name__}")
        method.__qualname__ = f"{cls.__qualname__}.{method.__name__}"
        setattr(cls, method.__name__, method)
    if slots:
        # A frozen slotted instance has no __dict__ and refuses setattr: pickle needs these.
        if "__getstate__" not in own:
            cls.__getstate__ = _getstate
        if "__setstate__" not in own:
            cls.__setstate__ = _setstate


def _getstate(self: Any) -> list[Any]:
    return [getattr(self, f.name) for f in dataclasses.fields(self)]


def _setstate(self: Any, state: list[Any]) -> None:
    for f, value in zip(dataclasses.fields(self), state):  # noqa: B905 - as the standard library
        object.__setattr__(self, f.name, value)
