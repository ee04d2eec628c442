"""String functions: CEL's built-ins, cel-go's strings extension (version 2) and Kubernetes' regex library.

Regular expressions use RE2 (the ``google-re2`` package), the engine family of Go's ``regexp``;
error texts are rewritten to Go's wording. Indexes count code points, as cel-go's runes do.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache
from typing import Any

from dralint.cel.checker.decls import Environment, Overload, VersionedOption
from dralint.cel.checker.types import BOOL, DYN, INT, STRING, list_of
from dralint.cel.errors import CelRuntimeError
from dralint.cel.lib.format import format_string
from dralint.cel.pricing import Pricing
from dralint.cel.runtime import semantics as runtime
from dralint.cel.runtime.values import MAX_STRING_SIZE, refuse_larger

__all__ = ["REGEX_FUNCTIONS", "RELEASES", "compile_pattern", "install_base", "install_ext", "install_regex", "quote"]

# Function name -> index of its pattern argument (receiver first), for compile-time regexes.
REGEX_FUNCTIONS = {"matches": 1, "find": 1, "findAll": 1}

# Go's unicode.IsSpace, what strings.TrimSpace trims.
_GO_SPACE = frozenset("\t\n\v\f\r \x85\xa0\u1680\u2028\u2029\u202f\u205f\u3000") | frozenset(
    chr(c) for c in range(0x2000, 0x200B)
)


@lru_cache(maxsize=512)
def compile_pattern(pattern: str) -> Any:
    """An RE2 program for ``pattern`` (cached), or a runtime error in Go's words."""
    import re2

    options = re2.Options()
    options.log_errors = False
    try:
        return re2.compile(pattern, options)
    except re2.error as error:
        raise CelRuntimeError(f"error parsing regexp: {_go_message(error)}") from None


def _go_message(error: Exception) -> str:
    text = str(error.args[0] if error.args else error)
    if isinstance(error.args[0] if error.args else None, bytes):
        text = error.args[0].decode("utf-8", "replace")
    reason, _, arg = text.partition(": ")
    reason = {
        "missing )": "missing closing )",
        "missing ]": "missing closing ]",
        "invalid repetition size": "invalid repeat count",
        "invalid perl operator": "invalid or unsupported Perl syntax",
        "invalid escape sequence": "invalid escape sequence",
        "invalid character class range": "invalid character class range",
        "missing argument to repetition operator": "missing argument to repetition operator",
        "no argument for repetition operator": "missing argument to repetition operator",
        "bad repetition operator": "invalid nested repetition operator",
        "invalid named capture group": "invalid named capture",
        "trailing \\": "trailing backslash at end of expression",
    }.get(reason, reason)
    return f"{reason}: `{arg}`" if arg else reason


def _regex(pattern: Any) -> Any:
    return compile_pattern(pattern) if isinstance(pattern, str) else pattern


def _matches(text: Any, pattern: Any) -> bool:
    # cel-go binds matches to its receiver's Matcher trait rather than to typed overloads.
    if type(text) is not str:
        runtime.operand_mismatch("matches", text, runtime.MATCHERS)
    if type(pattern) is str:
        pattern = compile_pattern(pattern)
    elif not hasattr(pattern, "search"):  # neither a string nor a pattern compiled in advance
        runtime.no_such_overload()
    return pattern.search(text) is not None


def _unguarded(test: Callable[[str, str], bool]) -> Callable[[Any, Any], bool]:
    """A string test as cel-go binds it without type guards: it rejects non-strings itself."""

    def run(text: Any, other: Any) -> bool:
        if type(text) is not str or type(other) is not str:
            runtime.no_such_overload()
        return test(text, other)

    return run


def install_base(env: Environment) -> None:
    """``contains``, ``startsWith``, ``endsWith`` and ``matches``."""
    for name, overload_id, test in (
        ("contains", "contains_string", lambda s, t: t in s),
        ("startsWith", "starts_with_string", str.startswith),
        ("endsWith", "ends_with_string", str.endswith),
    ):
        env.add(name, Overload(overload_id, (STRING, STRING), BOOL, _unguarded(test), member=True), no_guards=True)
    env.add(
        "matches",
        Overload("matches", (STRING, STRING), BOOL, _matches),
        Overload("matches_string", (STRING, STRING), BOOL, _matches, member=True),
        singleton=_matches,
    )


def install_regex(env: Environment) -> None:
    """Kubernetes' regex library: ``find`` and ``findAll``."""
    env.add("find", Overload("find", (STRING, STRING), STRING, _find, member=True), pricing=Pricing.FIND)
    env.add(
        "findAll",
        Overload("find_all", (STRING, STRING), list_of(STRING), _find_all, member=True),
        Overload("find_all_with_limit", (STRING, STRING, INT), list_of(STRING), _find_all, member=True),
        pricing=Pricing.FIND,
    )


def _find(text: str, pattern: Any) -> str:
    match = _regex(pattern).search(text)
    return "" if match is None else str(match.group(0))


def _find_all(text: str, pattern: Any, limit: int = -1) -> list[str]:
    if limit == 0:
        return []
    found = [m.group(0) for m in _regex(pattern).finditer(text)]
    return found if limit < 0 else found[:limit]


def install_ext(env: Environment, version: int = 2) -> None:
    """cel-go's strings extension at ``version`` (Kubernetes uses 2 since 1.29)."""
    env.add("charAt", Overload("string_char_at_int", (STRING, INT), STRING, _char_at, member=True))
    env.add(
        "indexOf",
        Overload("string_index_of_string", (STRING, STRING), INT, _index_of, member=True),
        Overload("string_index_of_string_int", (STRING, STRING, INT), INT, _index_of, member=True),
        pricing=Pricing.TRAVERSAL,
    )
    env.add(
        "lastIndexOf",
        Overload("string_last_index_of_string", (STRING, STRING), INT, _last_index_of, member=True),
        Overload("string_last_index_of_string_int", (STRING, STRING, INT), INT, _last_index_of, member=True),
        pricing=Pricing.TRAVERSAL,
    )
    env.add(
        "lowerAscii",
        Overload("string_lower_ascii", (STRING,), STRING, _lower_ascii, member=True),
        pricing=Pricing.RECEIVER_STRING,
    )
    env.add(
        "upperAscii",
        Overload("string_upper_ascii", (STRING,), STRING, _upper_ascii, member=True),
        pricing=Pricing.RECEIVER_STRING,
    )
    env.add(
        "replace",
        Overload("string_replace_string_string", (STRING, STRING, STRING), STRING, _replace, member=True),
        Overload("string_replace_string_string_int", (STRING, STRING, STRING, INT), STRING, _replace, member=True),
        pricing=Pricing.REPLACE,
    )
    env.add(
        "split",
        Overload("string_split_string", (STRING, STRING), list_of(STRING), _split, member=True),
        Overload("string_split_string_int", (STRING, STRING, INT), list_of(STRING), _split, member=True),
        pricing=Pricing.SPLIT,
    )
    env.add(
        "substring",
        Overload("string_substring_int", (STRING, INT), STRING, _substring, member=True),
        Overload("string_substring_int_int", (STRING, INT, INT), STRING, _substring, member=True),
        pricing=Pricing.RECEIVER_STRING,
    )
    env.add("trim", Overload("string_trim", (STRING,), STRING, _trim, member=True), pricing=Pricing.RECEIVER_STRING)
    env.add(
        "join",
        Overload("list_join", (list_of(STRING),), STRING, _join, member=True),
        Overload("list_join_string", (list_of(STRING), STRING), STRING, _join, member=True),
        pricing=Pricing.JOIN,
    )
    if version >= 2:
        env.add("strings.quote", Overload("strings_quote", (STRING,), STRING, quote))
    if version >= 1:
        env.add("format", Overload("string_format", (STRING, list_of(DYN)), STRING, format_string, member=True))


def _range_error(index: int) -> CelRuntimeError:
    return CelRuntimeError(f"index out of range: {index}")


def _char_at(text: str, index: int) -> str:
    if index < 0 or index > len(text):
        raise _range_error(index)
    return text[index] if index < len(text) else ""


def _index_of(text: str, sub: str, offset: int = 0) -> int:
    if sub == "":
        return offset
    if offset < 0:
        raise _range_error(offset)
    if offset >= len(text):
        return -1
    return text.find(sub, offset)


def _last_index_of(text: str, sub: str, offset: int | None = None) -> int:
    if offset is None:
        if sub == "":
            return len(text)
        if len(text.encode("utf-8")) < len(sub.encode("utf-8")):
            return -1
        offset = len(text) - 1
    if sub == "":
        return offset
    if offset < 0:
        raise _range_error(offset)
    if offset >= len(text):
        return -1
    return text.rfind(sub, 0, min(offset, len(text) - len(sub)) + len(sub))


def _lower_ascii(text: str) -> str:
    return "".join(c.lower() if c.isascii() else c for c in text)


def _upper_ascii(text: str) -> str:
    return "".join(c.upper() if c.isascii() else c for c in text)


def _replace(text: str, old: str, new: str, count: int = -1) -> str:
    if len(new) > len(old):
        found = text.count(old) if old else len(text) + 1
        replaced = found if count < 0 else min(found, count)
        refuse_larger(len(text) + replaced * (len(new) - len(old)), MAX_STRING_SIZE)
    return text.replace(old, new, count if count >= 0 else -1)


def _split(text: str, sep: str, limit: int = -1) -> list[str]:
    if limit == 0:
        return []
    if sep == "":
        parts = list(text)
        if 0 < limit < len(parts):
            parts = [*parts[: limit - 1], "".join(parts[limit - 1 :])]
        return parts
    return text.split(sep, limit - 1 if limit > 0 else -1)


def _substring(text: str, start: int, end: int | None = None) -> str:
    if end is None:
        if start < 0 or start > len(text):
            raise _range_error(start)
        return text[start:]
    if start > end:
        raise CelRuntimeError(f"invalid substring range. start: {start}, end: {end}")
    if start < 0 or start > len(text):
        raise _range_error(start)
    if end < 0 or end > len(text):
        raise _range_error(end)
    return text[start:end]


def _trim(text: str) -> str:
    start, end = 0, len(text)
    while start < end and text[start] in _GO_SPACE:
        start += 1
    while end > start and text[end - 1] in _GO_SPACE:
        end -= 1
    return text[start:end]


def _join(items: list[Any], separator: str = "") -> str:
    for item in items:
        if type(item) is not str:
            raise CelRuntimeError(f"join: invalid input: {item}")
    refuse_larger(sum(len(item) for item in items) + len(separator) * max(len(items) - 1, 0), MAX_STRING_SIZE)
    return separator.join(items)


_QUOTE = {
    "\a": "\\a",
    "\b": "\\b",
    "\f": "\\f",
    "\n": "\\n",
    "\r": "\\r",
    "\t": "\\t",
    "\v": "\\v",
    "\\": "\\\\",
    '"': '\\"',
}


def quote(text: str) -> str:
    """``strings.quote``: a double-quoted CEL string literal (invalid code points become U+FFFD)."""
    return '"' + "".join(_QUOTE.get(c, c) for c in text) + '"'


def _ext_v2(env: Environment) -> None:
    install_ext(env, version=2)
    env.extra["format_validator"] = True  # format() strings are checked when the expression is compiled


# The releases whose base environment introduced (and removed) these declarations.
RELEASES = (
    VersionedOption("1.0", install_base),
    VersionedOption("1.0", install_regex),
    VersionedOption("1.0", lambda env: install_ext(env, version=0), removed="1.29"),
    VersionedOption("1.29", _ext_v2),
)
