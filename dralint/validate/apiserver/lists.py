"""List and map checks with the API server's semantics: size limits, per-item checks, uniqueness.

``check_list`` and ``check_set`` mirror validation.go's ``validateSlice``/``validateSet`` (a
list over its maximum reports ``Too many`` and, from 1.34, nothing else); ``check_map`` mirrors
``validateMap`` (key errors at the map's path, long keys shortened in the middle).
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Mapping, Sequence
from typing import Any, TypeVar

from dralint.apimachinery.fieldpath import Key, Path
from dralint.validate.apiserver.behaviour import Behaviour
from dralint.validate.apiserver.errors import FieldError, duplicate, too_many

T = TypeVar("T")
ItemCheck = Callable[[Any, Path], list[FieldError]]


def check_list(
    items: Sequence[Any],
    maximum: int,
    check_item: ItemCheck | None,
    path: Path,
    b: Behaviour,
    *,
    too_many_hint: str | None = None,
) -> list[FieldError]:
    """``validateSlice``: the size limit (negative: none), then every item."""
    over = 0 <= maximum < len(items)
    size_error = [too_many(path, len(items), maximum, hint=too_many_hint)] if over else []
    if over and b.short_circuit_lists:
        return size_error
    out: list[FieldError] = []
    if check_item is not None:
        for index, item in enumerate(items):
            out.extend(check_item(item, (*path, index)))
    return out + size_error


def check_set(
    items: Sequence[Any],
    maximum: int,
    check_item: ItemCheck | None,
    key: Callable[[Any], Hashable | None],
    path: Path,
    b: Behaviour,
    *,
    name_field: str | None = "name",
    too_many_hint: str | None = None,
    duplicate_hint: str | None = None,
) -> list[FieldError]:
    """``validateSet``: ``check_list`` plus ``Duplicate value`` for every repeated key.

    Releases up to 1.33 report a duplicate name at the item's ``name`` field rather than at
    the item (``name_field`` says which field holds the key; ``None`` for plain strings).
    """
    over = 0 <= maximum < len(items)
    out = check_list(items, maximum, check_item, path, b, too_many_hint=too_many_hint)
    if over and b.short_circuit_lists:
        return out
    seen: set[Hashable] = set()
    for index, item in enumerate(items):
        value = key(item)
        if value is None:
            continue
        if value in seen:
            at: Path = (*path, index)
            if b.duplicates_at_name and name_field is not None:
                at = (*at, name_field)
            out.append(duplicate(at, value, hint=duplicate_hint))
        else:
            seen.add(value)
    return out


def truncate_key(key: str, max_length: int) -> str:
    """``truncateIfTooLong``: long map keys are shortened in the middle in error paths."""
    max_length = max(max_length, 16)
    if len(key) <= max_length:
        return key
    remaining = max_length - 3
    return key[: (remaining + 1) // 2] + "..." + key[len(key) - remaining // 2 :]


KeyCheck = Callable[[str, Path, Path], list[FieldError]]  # (key, path the server prints, path of the key)


def check_map(
    entries: Mapping[Any, Any],
    maximum: int,
    truncate: int,
    check_key: KeyCheck | None,
    check_item: ItemCheck | None,
    path: Path,
    b: Behaviour,
    *,
    too_many_hint: str | None = None,
) -> list[FieldError]:
    """``validateMap``: the size limit (short-circuits), then every key and value."""
    if 0 <= maximum < len(entries):
        return [too_many(path, len(entries), maximum, hint=too_many_hint)]
    out: list[FieldError] = []
    limit = max(truncate, 16)
    for raw_key, item in entries.items():
        key = str(raw_key)
        key_path: Path = (*path, Key(key))
        if check_key is not None:
            if b.key_errors_at_map:
                printed = path
            elif len(key) <= limit:
                printed = key_path
            else:
                printed = (*path, Key(truncate_key(key, truncate)))
            out.extend(check_key(key, printed, key_path))
        if check_item is not None:
            out.extend(check_item(item, key_path))
    return out
