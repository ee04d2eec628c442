"""dralint's dataclass decorator behaves as the standard library's, for every shape of class dralint defines."""

from __future__ import annotations

import copy
import dataclasses
import pickle
from typing import Any

import pytest

from dralint.dataclass import INTERPRETED_CALLS, dataclass


# The shapes dralint uses: frozen or not, slotted or not, ordered, without eq, defaults and
# factories, fields left out of __init__, repr or compare, and a __post_init__. Each is defined
# twice, with the standard library and with dralint's decorator; pickle finds them by name here.
def _define(decorate: Any, suffix: str) -> dict[str, type]:
    @decorate(frozen=True, slots=True)
    class Frozen:
        """A value."""

        a: int
        b: str = "b"
        c: tuple[int, ...] = dataclasses.field(default_factory=tuple)
        d: list[int] = dataclasses.field(default_factory=list, repr=False)
        e: int = dataclasses.field(default=0, compare=False)

    @decorate(frozen=True, slots=True, order=True)
    class Ordered:
        kind: str
        name: str = ""

    @decorate(frozen=True, slots=True, eq=False)
    class Identity:
        a: int

    @decorate(slots=True)
    class Mutable:
        a: int
        b: list[int] = dataclasses.field(default_factory=list)
        hidden: int = dataclasses.field(init=False, repr=False, compare=False, default=7)

    @decorate(eq=False, slots=True)
    class MutableIdentity:
        a: int

    @decorate(frozen=True, slots=True)
    class PostInit:
        a: int
        doubled: int = dataclasses.field(init=False, default=0)

        def __post_init__(self) -> None:
            object.__setattr__(self, "doubled", self.a * 2)

    @decorate(frozen=True, slots=True)
    class Empty:
        pass

    @decorate(frozen=True, slots=True)
    class Explicit:
        a: int

        def __repr__(self) -> str:
            return "explicit"

        def __hash__(self) -> int:
            return 42

    @decorate
    class Plain:
        self: int  # a field named like the first parameter
        other: str = "x"

    classes = {
        cls.__name__: cls
        for cls in (Frozen, Ordered, Identity, Mutable, MutableIdentity, PostInit, Empty, Explicit, Plain)
    }
    for name, cls in classes.items():
        cls.__qualname__ = f"{name}{suffix}"  # as if defined at module level, for pickle
        globals()[f"{name}{suffix}"] = cls
    return classes


STDLIB = _define(dataclasses.dataclass, "_stdlib")
OURS = _define(dataclass, "_ours")
ARGS: dict[str, tuple[tuple[Any, ...], dict[str, Any]]] = {
    "Frozen": ((1,), {"c": (2, 3), "e": 5}),
    "Ordered": (("a",), {"name": "n"}),
    "Identity": ((1,), {}),
    "Mutable": ((1,), {}),
    "MutableIdentity": ((1,), {}),
    "PostInit": ((4,), {}),
    "Empty": ((), {}),
    "Explicit": ((1,), {}),
    "Plain": ((3,), {"other": "y"}),
}


def _make(classes: dict[str, type], name: str) -> Any:
    args, kwargs = ARGS[name]
    return classes[name](*args, **kwargs)


def _normalised(text: str) -> str:
    return text.replace("_stdlib", "").replace("_ours", "").replace("_fresh", "")


def _outcome(check: Any, obj: Any, other: Any) -> tuple[str, str]:
    try:
        return "ok", _normalised(repr(check(obj, other)))
    except Exception as error:
        return type(error).__name__, _normalised(str(error))


@pytest.mark.parametrize("name", sorted(ARGS))
def test_dataclass_instances_behave_as_the_standard_librarys(name: str) -> None:
    theirs, ours = _make(STDLIB, name), _make(OURS, name)
    other_theirs, other_ours = _make(STDLIB, name), _make(OURS, name)
    checks = {
        "repr": lambda obj, other: repr(obj),
        "eq": lambda obj, other: obj == other,
        "ne": lambda obj, other: obj != other,
        "eq other type": lambda obj, other: obj == 1,
        "hash": lambda obj, other: "identity" if type(obj).__hash__ is object.__hash__ else hash(obj),
        "lt": lambda obj, other: obj < other,
        "sorted": lambda obj, other: sorted([other, obj]) == [obj, other],
        "asdict": lambda obj, other: dataclasses.asdict(obj),
        "astuple": lambda obj, other: dataclasses.astuple(obj),
        "fields": lambda obj, other: [f.name for f in dataclasses.fields(obj)],
        "match_args": lambda obj, other: type(obj).__match_args__,
        "replace": lambda obj, other: dataclasses.replace(obj),
        "deepcopy": lambda obj, other: copy.deepcopy(obj) == obj,
        "pickle": lambda obj, other: pickle.loads(pickle.dumps(obj)) == obj,
        "pickle repr": lambda obj, other: repr(pickle.loads(pickle.dumps(obj))),
        "missing arguments": lambda obj, other: type(obj)(),
        "extra arguments": lambda obj, other: type(obj)(1, 2, 3, 4, 5, 6, 7),
        "has __dict__": lambda obj, other: hasattr(obj, "__dict__"),
        # last: they change mutable instances
        "assign field": lambda obj, other: [setattr(obj, f.name, 9) for f in dataclasses.fields(obj)],
        "delete field": lambda obj, other: [delattr(obj, f.name) for f in dataclasses.fields(obj)],
    }
    for label, check in checks.items():
        assert _outcome(check, ours, other_ours) == _outcome(check, theirs, other_theirs), label


def _bookkeeping(cls: type) -> tuple[Any, ...]:
    fields = [
        (f.name, f.type, f.default, f.default_factory, f.init, f.repr, f.hash, f.compare, f.metadata, f.kw_only)
        for f in dataclasses.fields(cls)
    ]
    attributes = {f.name: cls.__dict__.get(f.name, "absent") for f in dataclasses.fields(cls)}
    return fields, attributes, cls.__match_args__, getattr(cls, "__slots__", "no slots"), cls.__qualname__


@pytest.mark.parametrize("name", sorted(ARGS))
def test_dataclass_bookkeeping_is_the_standard_librarys(name: str) -> None:
    # dralint's decorator does the standard library's bookkeeping itself for these shapes.
    assert _normalised(repr(_bookkeeping(OURS[name]))) == _normalised(repr(_bookkeeping(STDLIB[name])))
    assert dataclasses.is_dataclass(OURS[name])


def test_dataclass_mutable_default_is_the_standard_librarys_error() -> None:
    errors = []
    for decorate in (dataclasses.dataclass, dataclass):
        with pytest.raises(ValueError) as error:

            @decorate(frozen=True, slots=True)
            class MutableDefault:
                a: list[int] = []  # noqa: RUF012

        errors.append(str(error.value))
    assert errors[0] == errors[1]


@pytest.mark.parametrize("name", ["Frozen", "Empty"])
def test_dataclass_frozen_instances_refuse_other_attributes(name: str) -> None:
    # Python 3.11's own frozen slotted classes raise TypeError here (their __setattr__ refers to the
    # class from before slots were added); these say FrozenInstanceError, as later Pythons do.
    obj = _make(OURS, name)
    with pytest.raises(dataclasses.FrozenInstanceError):
        obj.unknown = 1
    with pytest.raises(dataclasses.FrozenInstanceError):
        del obj.unknown


def test_dataclass_mutable_instances_are_unhashable_and_assignable() -> None:
    obj = OURS["Mutable"](1)
    obj.a = 2
    assert obj == OURS["Mutable"](2)
    assert type(obj).__hash__ is None
    with pytest.raises(TypeError):
        hash(obj)


@pytest.mark.parametrize(
    ("name", "args", "kwargs"),
    [
        ("Frozen", (1, "x", (2,), [3], 4), {}),
        ("Frozen", (), {"a": 1, "e": 2, "c": (1,)}),
        ("Frozen", (1,), {"b": "y", "d": [1]}),
        ("Frozen", (1,), {"a": 2}),  # given twice
        ("Frozen", (1,), {"f": 2}),  # unknown
        ("Frozen", (), {"b": "x"}),  # a required one missing
        ("Frozen", (1, "x", (), [], 0, 9), {}),  # one too many
        ("Mutable", (1,), {"hidden": 2}),  # not an argument
        ("Mutable", (1, [2]), {}),
        ("PostInit", (), {"a": 5}),
        ("Plain", (), {"self": 1, "other": "z"}),
        ("Plain", (1,), {"self": 2}),
    ],
)
def test_dataclass_init_binds_arguments_as_the_standard_librarys(
    name: str, args: tuple[Any, ...], kwargs: dict[str, Any]
) -> None:
    # A fresh class each time: its first calls bind the arguments in Python, later ones are compiled.
    def construct(cls: type, _: None) -> Any:
        return cls(*args, **kwargs)

    for calls in (1, INTERPRETED_CALLS + 1):
        ours = _define(dataclass, "_fresh")[name]
        for _ in range(calls - 1):
            _make({name: ours}, name)
        assert _outcome(construct, ours, None) == _outcome(construct, STDLIB[name], None)


def test_dataclass_mutable_init_is_the_compiled_one_after_first_uses() -> None:
    cls = _define(dataclass, "_fresh")["Mutable"]
    interpreted = cls.__init__
    for _ in range(INTERPRETED_CALLS):
        cls(1)
    assert cls.__init__ is interpreted
    cls(1)
    assert cls.__init__ is not interpreted
    assert cls.__init__.__qualname__ == "_define.<locals>.Mutable.__init__"  # as at decoration


def test_dataclass_frozen_init_stays_interpreted_for_positional_calls() -> None:
    # It sets each field with object.__setattr__ as the compiled one does: compiling would not pay.
    cls = _define(dataclass, "_fresh")["Frozen"]
    interpreted = cls.__init__
    every = (1, "x", (2,), [3], 4)
    for _ in range(INTERPRETED_CALLS * 3):
        assert _normalised(repr(cls(*every))) == _normalised(repr(STDLIB["Frozen"](*every)))
    assert cls.__init__ is interpreted
    for _ in range(INTERPRETED_CALLS):  # calls that leave out or name arguments count
        cls(1, b="y")
    assert cls.__init__ is interpreted
    cls(1)
    assert cls.__init__ is not interpreted
    assert _normalised(repr(cls(*every))) == _normalised(repr(STDLIB["Frozen"](*every)))


def test_dataclass_refuses_what_it_does_not_implement() -> None:
    with pytest.raises(TypeError, match="keyword-only"):

        @dataclass(frozen=True)
        class KeywordOnly:
            a: int = dataclasses.field(kw_only=True)

    with pytest.raises(TypeError, match="ClassVar"):

        @dataclass
        class WithClassVar:
            a: int
            b: dataclasses.InitVar[int]

    with pytest.raises(ValueError, match="eq must be true"):

        @dataclass(eq=False, order=True)
        class OrderWithoutEq:
            a: int
