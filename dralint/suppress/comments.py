"""Suppression comments in YAML files: ``# dralint: ignore[DRA123] reason`` and friends.

- ``ignore[RULES] reason`` at the end of a line suppresses findings on that line; on a line
  of its own, findings on the next line that is not blank or a comment;
- ``ignore-file[RULES] reason`` anywhere suppresses them in the whole file;
- ``disable[RULES] reason`` ... ``enable[RULES]`` (or a bare ``enable``) suppresses them on
  the lines in between (to the end of the file when never enabled again).

RULES are ids or names separated by commas. Only comments that start with ``dralint:`` are
read; anything malformed after it is reported (DRA802), as are a directive verb after
``dralint`` without the colon, unknown rules (DRA803) and missing reasons (DRA804).

Lines are read with regular expressions, which see a ``#`` but not whether it starts a comment:
in a block scalar (a ConfigMap's ``run.sh: |`` script) or a quoted string, ``# dralint: ...``
is data. The caller says which positions hold values (``in_value``, answered from the node
trees, see :mod:`dralint.suppress.values`); a match there is skipped entirely: it suppresses
nothing and is not reported. Lines are numbered as YAML and the findings number them: only
line feeds, carriage returns and CR LF pairs break lines (form feeds and Unicode line
separators, which ``str.splitlines`` also breaks at, do not).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import field

from dralint.checks.rule_ids import RuleId
from dralint.dataclass import dataclass
from dralint.findings import Location, Violation
from dralint.regex import compiled_on_first_use
from dralint.rules import Rule, by_name_or_id
from dralint.suppress.directive import Directive, rule_list
from dralint.validate import userschema as schemacheck

INVALID = RuleId.INVALID_SUPPRESSION
NO_REASON = RuleId.SUPPRESSION_WITHOUT_REASON
VERBS = ("ignore", "ignore-file", "disable", "enable")
SYNTAX = "# dralint: ignore[RULE,...] reason"
# "dralint" in any case: ``# DRALINT: IGNORE[...]`` is a directive written wrongly (reported), not a
# comment that would suppress nothing without a word.
_comment_re = compiled_on_first_use(r"(?:^|(?<=\s))#\s*(?P<keyword>dralint)\s*:(?P<body>.*)$", re.IGNORECASE)
_mention_re = compiled_on_first_use(r"dralint", re.IGNORECASE)
_body_re = compiled_on_first_use(r"^\s*(?P<verb>[A-Za-z_-]+)\s*(?:\[(?P<rules>[^\]]*)\])?\s*(?P<reason>.*?)\s*$")
# A directive without its colon (``# dralint ignore DRA600``, ``# dralint-disable``) would
# otherwise be an ordinary comment and suppress nothing without a word: it is reported.
_no_colon_re = compiled_on_first_use(
    r"(?:^|(?<=\s))#\s*dralint(?!\s*:)[\s_-]*(?P<verb>ignore-file|ignore|disable|enable)\b(?P<rest>.*)$",
    re.IGNORECASE,
)
_token_re = compiled_on_first_use(r"[A-Za-z0-9_-]+")

InValue = Callable[[int, int], bool]  # whether (1-based line, 0-based column) is inside a scalar value


@dataclass(slots=True)
class FileDirectives:
    """The comment directives of one file, by the lines they cover."""

    by_line: dict[int, list[Directive]] = field(default_factory=dict)
    whole_file: list[Directive] = field(default_factory=list)
    ranges: list[tuple[int, int, Directive]] = field(default_factory=list)  # first and last line covered

    def covering(self, line: int, rule: str) -> list[Directive]:
        found = [d for d in self.by_line.get(line, ()) if d.covers(rule)]
        found += [d for d in self.whole_file if d.covers(rule)]
        found += [d for first, last, d in self.ranges if first <= line <= last and d.covers(rule)]
        return found

    def all(self) -> list[Directive]:
        return [d for ds in self.by_line.values() for d in ds] + self.whole_file + [d for _, _, d in self.ranges]


def _mentions_dralint(text: str) -> bool:
    """Whether ``text`` holds "dralint" in any case (as :data:`_mention_re` finds it)."""
    if "dralint" in text:
        return True
    if text.isascii():  # ASCII has no other case folding: lowering is exact, and ten times faster than the search
        return "dralint" in text.lower()
    return _mention_re().search(text) is not None


def _is_code(line: str) -> bool:
    stripped = line.strip()
    return bool(stripped) and not stripped.startswith("#")


def parse(
    file: str, text: str, rules: Mapping[str, Rule], in_value: InValue | None = None
) -> tuple[FileDirectives, list[Violation]]:
    """The directives of ``file`` and the problems with them.

    ``in_value`` tells whether a position is inside a scalar value (then a ``#`` there is
    data, not a comment); without it every ``#`` after a blank or at a line start counts.
    """
    out = FileDirectives()
    problems: list[Violation] = []
    if not _mentions_dralint(text):
        return out, problems
    lines = _lines(text)
    open_ranges: list[tuple[int, Directive]] = []
    comment_re, no_colon_re = _comment_re(), _no_colon_re()
    for number, line in enumerate(lines, start=1):
        match = comment_re.search(line)
        if match is not None and in_value is not None:
            match = _outside_values(comment_re, match, line, number, in_value)
        if match is None:
            near = no_colon_re.search(line)
            if near is not None and in_value is not None:
                near = _outside_values(no_colon_re, near, line, number, in_value)
            if near is not None:
                problems.append(_without_colon(near, line, Location(file, number, near.start() + 1), rules))
            continue
        location = Location(file, number, match.start() + 1)
        body = _body_re().match(match.group("body"))
        verb = body.group("verb") if body else ""
        written_wrongly = _written_wrongly(match.group("keyword"), verb, body)
        if written_wrongly is not None and body is not None:
            problems.append(
                Violation(
                    INVALID,
                    f"malformed suppression comment {line[match.start() :].strip()!r}: {written_wrongly}, "
                    "so it suppresses nothing",
                    hint=f"write # dralint: {verb.lower()}[{body.group('rules')}] "
                    f"{body.group('reason').lstrip('[] ') or 'reason'}",
                    location=location,
                )
            )
            continue
        if body is None or verb not in VERBS or (body.group("rules") is None and verb != "enable"):
            hint = schemacheck.did_you_mean(verb, VERBS).removeprefix("; ") if verb and verb not in VERBS else ""
            if verb in VERBS and body is not None:
                hint = "write " + _corrected(verb, body.group("reason"), rules)
            problems.append(
                Violation(
                    INVALID,
                    f"malformed suppression comment {line[match.start() :].strip()!r}",
                    hint=hint or f"write {SYNTAX}",
                    location=location,
                )
            )
            continue
        ids, unknown = rule_list(body.group("rules") or "", rules, location, "suppression comment")
        problems.extend(unknown)
        reason = body.group("reason")
        if verb == "enable":
            still_open = []
            for start, directive in open_ranges:
                if body.group("rules") is None or directive.rule in ids:
                    out.ranges.append((start, number, directive))
                else:
                    still_open.append((start, directive))
            open_ranges = still_open
            continue
        if not reason and ids:
            problems.append(
                Violation(
                    NO_REASON,
                    f"suppression of {', '.join(ids)} gives no reason",
                    hint=f"say why after the rules: {SYNTAX}",
                    location=location,
                )
            )
        directives = [Directive("comment", rule_id, reason, location) for rule_id in ids]
        if verb == "ignore-file":
            out.whole_file.extend(directives)
        elif verb == "disable":
            open_ranges.extend((number, d) for d in directives)
        else:
            target = number if _is_code(line[: match.start()]) else _next_code_line(lines, number)
            out.by_line.setdefault(target, []).extend(directives)
    out.ranges.extend((start, len(lines), directive) for start, directive in open_ranges)
    return out, problems


def _lines(text: str) -> list[str]:
    """The lines of ``text`` as YAML counts them (``str.splitlines`` also breaks at form feeds and more)."""
    if "\r" in text:
        text = text.replace("\r\n", "\n").replace("\r", "\n")
    lines = text.split("\n")
    if lines[-1] == "":
        lines.pop()
    return lines


def _outside_values(
    pattern: re.Pattern[str], match: re.Match[str], line: str, number: int, in_value: InValue
) -> re.Match[str] | None:
    """``match`` of ``pattern`` in ``line``, or the next match, whose ``#`` starts a comment (not in a value)."""
    found: re.Match[str] | None = match
    while found is not None and in_value(number, found.start()):
        found = pattern.search(line, found.start() + 1)
    return found


def _without_colon(near: re.Match[str], line: str, location: Location, rules: Mapping[str, Rule]) -> Violation:
    """The finding for a directive written without the colon after ``dralint``, with the corrected comment."""
    return Violation(
        INVALID,
        f"malformed suppression comment {line[near.start() :].strip()!r}: no colon after dralint, so it suppresses "
        "nothing",
        hint="write " + _corrected(near.group("verb").lower(), near.group("rest"), rules),
        location=location,
    )


def _written_wrongly(keyword: str, verb: str, body: re.Match[str] | None) -> str | None:
    """What is wrong with a directive that has the right parts written wrongly, or ``None``."""
    if body is None or verb.lower() not in VERBS or body.group("rules") is None:
        return None  # not a directive of the right shape: the general message says what to write
    if keyword != "dralint" or verb != verb.lower():
        return "directives are written in lower case"
    if body.group("reason").startswith(("[", "]")):
        return "brackets after the rule list"
    return None


def _corrected(verb: str, text: str, rules: Mapping[str, Rule]) -> str:
    """The directive as it should be written, with the rules named in ``text`` (or the general syntax)."""
    named = [t for t in _token_re().findall(text) if by_name_or_id(rules, t) is not None]
    return f"# dralint: {verb}[{','.join(named)}] reason" if named else SYNTAX.replace("ignore", verb, 1)


def _next_code_line(lines: list[str], number: int) -> int:
    for candidate in range(number + 1, len(lines) + 1):
        if _is_code(lines[candidate - 1]):
            return candidate
    return number
