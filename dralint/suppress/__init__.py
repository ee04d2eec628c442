"""Suppressions: every way a user says "not this finding", and the findings about suppressions themselves.

Four layers, checked in this order for each finding: YAML comments (``comments``, which are
told by ``values`` where the scalar values lie, so that text in them is not read), object and
pod-template annotations (``annotated``), configuration exceptions (``exceptions``) and the
baseline (``baseline``). Every directive that matches is marked used; afterwards the
:class:`Suppressor` reports expired exceptions (DRA800), directives that matched nothing
(DRA801), and broken ones (DRA802-DRA804).
"""

from __future__ import annotations

import datetime
import functools
from collections.abc import Iterable, Iterator, Mapping, Sequence
from typing import TYPE_CHECKING

from dralint.api.objects import KubeObject
from dralint.api.workloads import pod_templates
from dralint.checks.rule_ids import RuleId
from dralint.findings import Finding, Suppression, Violation
from dralint.pipeline.context import CheckContext
from dralint.rules import Rule
from dralint.suppress import annotated, comments
from dralint.suppress.directive import Directive
from dralint.suppress.exceptions import ConfigException, Exceptions
from dralint.suppress.values import ScalarValues

if TYPE_CHECKING:  # the baseline module is imported only by a run that has one (pipeline/run.py)
    from dralint.suppress.baseline import Baseline

UNUSED = RuleId.UNUSED_SUPPRESSION


class Suppressor:
    """Matches findings against the suppressions of one run (see :class:`dralint.pipeline.engine.Suppressor`)."""

    def __init__(
        self,
        ctx: CheckContext,
        rules: Mapping[str, Rule],
        *,
        exceptions: Sequence[ConfigException] = (),
        baseline: Baseline | None = None,
        root: str = ".",
        today: datetime.date | None = None,
    ) -> None:
        self._ctx = ctx
        self._rules = rules
        self._baseline = baseline
        self._problems: list[Violation] = []
        checked = ctx.workspace.checked_files
        self._comments: dict[str, comments.FileDirectives] = {}
        # A "# dralint:" inside a block scalar or a string is data: the node trees tell (see values).
        self._values = ScalarValues(ctx.workspace.documents)
        for source in ctx.workspace.files:
            if checked and source.name not in checked:
                continue
            directives, problems = self._parse(source.name, source.text)
            self._comments[source.name] = directives
            self._problems.extend(problems)
        self._scopes: dict[KubeObject, list[annotated.Scope]] = {}
        # Only files that mention the annotation domain can hold annotation suppressions.
        self._annotated_files = {f.name for f in ctx.workspace.files if annotated.DOMAIN in f.text}
        for obj in ctx.objects:
            if checked and obj.file not in checked:
                continue
            found = self._annotations(obj)
            if found is not None:
                self._scopes[obj] = found[0]
                self._problems.extend(found[1])
        # The suppressions of context files, read for the findings reported there because a checked file
        # takes part in them; not reported on (neither broken nor unused: those files are not checked).
        self._context_comments: dict[str, comments.FileDirectives | None] = {}
        self._context_scopes: dict[KubeObject, list[annotated.Scope]] = {}
        self._exceptions = Exceptions.of(exceptions, today or datetime.date.today(), root)

    def _parse(self, name: str, text: str) -> tuple[comments.FileDirectives, list[Violation]]:
        return comments.parse(name, text, self._rules, functools.partial(self._values.contains, name))

    def _annotations(self, obj: KubeObject) -> tuple[list[annotated.Scope], list[Violation]] | None:
        if obj.file not in self._annotated_files:
            return None
        templates = pod_templates(obj, self._ctx.options.producers)
        return annotated.scopes(obj, templates, self._rules) if annotated.has_any(obj, templates) else None

    def _file_directives(self, name: str) -> comments.FileDirectives | None:
        found = self._comments.get(name)
        checked = self._ctx.workspace.checked_files
        if found is not None or not checked or name in checked:
            return found
        if name not in self._context_comments:
            source = next((f for f in self._ctx.workspace.files if f.name == name), None)
            self._context_comments[name] = self._parse(name, source.text)[0] if source is not None else None
        return self._context_comments[name]

    def _object_scopes(self, obj: KubeObject) -> list[annotated.Scope] | None:
        found = self._scopes.get(obj)
        checked = self._ctx.workspace.checked_files
        if found is not None or not checked or obj.file in checked:
            return found
        if obj not in self._context_scopes:
            annotations = self._annotations(obj)
            self._context_scopes[obj] = annotations[0] if annotations is not None else []
        return self._context_scopes[obj]

    def suppression(self, finding: Finding, obj: KubeObject | None) -> Suppression | None:
        """The suppression that applies to ``finding`` (the first layer wins), marking every match used."""
        matched: list[Directive] = []
        file_directives = self._file_directives(finding.location.file)
        if file_directives is not None:
            matched += file_directives.covering(finding.location.line, finding.rule)
        scopes = self._object_scopes(obj) if obj is not None else None
        if scopes:
            matched += annotated.covering(scopes, finding.path, finding.rule)
        matched += self._exceptions.covering(finding)
        for directive in matched:
            directive.used = True
        if matched:
            return matched[0].suppression()
        if self._baseline is not None and self._baseline.take(finding):
            return Suppression("baseline", f"recorded in the baseline {self._baseline.path}")
        return None

    def violations(self, ran: frozenset[str]) -> Iterator[Violation]:
        """Problems with the suppressions; call after every finding went through :meth:`suppression`."""
        yield from self._problems
        yield from self._exceptions.expired_violations()
        candidates: list[Directive] = []
        for file_directives in self._comments.values():
            candidates += file_directives.all()
        for scopes in self._scopes.values():
            candidates += [d for scope in scopes for d in scope.directives]
        candidates += self._exceptions.in_scope(self._ctx.workspace.checked_files, self._ctx.objects)
        yield from _unused(candidates, ran)


def _unused(directives: Iterable[Directive], ran: frozenset[str]) -> Iterator[Violation]:
    """One DRA801 per directive (merged across scopes) that matched nothing although its rule ran."""
    groups: dict[tuple[object, ...], list[Directive]] = {}
    for directive in directives:
        groups.setdefault(directive.identity(), []).append(directive)
    for group in groups.values():
        first = group[0]
        if any(d.used for d in group) or (first.rule is not None and first.rule not in ran) or not ran:
            continue
        what = "every rule" if first.rule is None else first.rule
        yield Violation(
            UNUSED,
            f"{_KIND_LABEL[first.kind]} for {what} matches no finding",
            first.obj,
            hint="remove it (the finding it was written for is gone)",
            location=first.location,
        )


_KIND_LABEL = {
    "comment": "suppression comment",
    "annotation": "suppression annotation",
    "config": "configuration exception",
    "baseline": "baseline entry",
}
