"""Unrendered Helm/Go templates (dralint/read/templating.py, applied by dralint/read/yamldoc.py)."""

from __future__ import annotations

from dralint.read.templating import Directive, directives, string_directive_count
from dralint.read.yamldoc import DecodeIssue, decode
from tests.conftest import FIXTURES

TEMPLATING = FIXTURES / "templating"
HINT = "check the chart with dralint check --helm-chart CHART (or helm template CHART | dralint check -)"


def decode_fixture(name: str) -> tuple[list[str], list[DecodeIssue]]:
    documents, issues = decode(name, (TEMPLATING / name).read_text(encoding="utf-8"))
    return [d.data["kind"] for d in documents], issues


def test_helm_chart_documents_are_reported_once_and_skipped() -> None:
    kinds, issues = decode_fixture("helm-chart.yaml")
    assert kinds == ["Namespace"]  # the last document is rendered; its directive is in a comment
    assert issues == [
        DecodeIssue(
            "template",
            "unrendered template directive {{ .Values.deviceClassName }}; this document is not checked",
            5,
            9,
            HINT,
        ),
        DecodeIssue(
            "template", "unrendered template directive {{ .Release.Name }}; this document is not checked", 14, 10, HINT
        ),
        DecodeIssue(
            "template",
            "unrendered template directive {{- if .Values.nic.enabled }}; this document is not checked",
            23,
            1,
            HINT,
        ),
    ]


def test_go_templates_inside_string_values_are_data() -> None:
    kinds, issues = decode_fixture("prometheus-rule.yaml")
    assert kinds == ["PrometheusRule", "Workflow"]
    assert issues == []


def test_unquoted_directive_is_a_template_even_when_not_helm_specific() -> None:
    kinds, issues = decode_fixture("unquoted-non-helm.yaml")
    assert kinds == []
    assert issues == [
        DecodeIssue(
            "template", "unrendered template directive {{ placeholder }}; this document is not checked", 6, 10, HINT
        )
    ]


def test_directives_classifies_helm_syntax() -> None:
    text = (
        'a: "{{ $labels.pod }}"\n'
        'b: {{ include "x" . }}\n'
        "c: '{{ .Chart.Name }}'\n"
        "# {{ .Values.commented }}\n"
        "d: x  # {{ .Values.trailing }}\n"
        'e: "# {{ .Values.in_string }}"\n'
        "f: {{ $x -}}\n"
        "g: {{ a-very-long-directive-that-goes-on-and-on-and-on }}\n"
    )
    assert directives(text) == [
        Directive(1, 5, "{{ $labels.pod }}", False),
        Directive(2, 4, '{{ include "x" . }}', True),
        Directive(3, 5, "{{ .Chart.Name }}", True),
        Directive(6, 7, "{{ .Values.in_string }}", True),
        Directive(7, 4, "{{ $x -}}", True),
        Directive(8, 4, "{{ a-very-long-directive-that-goes-on...", False),
    ]


def test_string_directive_count_counts_keys_and_nested_values() -> None:
    assert string_directive_count({"{{a}}": ["{{b}} {{c}}", 1, None, {"k": "{{d}}"}]}) == 4
    assert string_directive_count("no directive") == 0
