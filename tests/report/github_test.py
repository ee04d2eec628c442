"""``-f github`` within GitHub's annotation limits, and the job summary (dralint/report/github.py)."""

from __future__ import annotations

import io
from collections import Counter
from pathlib import Path

from dralint.findings import Finding, Location
from dralint.report import Report, Summary
from dralint.report.github import annotated, render, summary_markdown
from testing.run import cli
from tests.report.conftest import REPORT


def test_github_annotates_ten_per_kind_and_logs_the_rest_with_a_job_summary(tmp_path: Path) -> None:
    summary = tmp_path / "summary.md"
    summary.write_text("## an earlier step\n", encoding="utf-8")
    result = cli("check", "many.yaml", "-f", "github", cwd=REPORT, env={"GITHUB_STEP_SUMMARY": str(summary)})
    assert result.returncode == 1
    assert result.stdout == (REPORT / "many.github.txt").read_text(encoding="utf-8")
    # appended: other steps' summaries stay
    expected = "## an earlier step\n" + (REPORT / "many.summary.md").read_text(encoding="utf-8")
    assert summary.read_text(encoding="utf-8") == expected


def test_github_without_a_step_summary_writes_none() -> None:
    result = cli("check", "many.yaml", "-f", "github", cwd=REPORT, env={"GITHUB_STEP_SUMMARY": ""})
    assert (result.returncode, result.stderr) == (1, "")
    assert result.stdout == (REPORT / "many.github.txt").read_text(encoding="utf-8")


def test_github_statistics_keeps_the_annotations_and_counts_the_rest_per_rule() -> None:
    result = cli("check", "many.yaml", "-f", "github", "--statistics", cwd=REPORT, env={"GITHUB_STEP_SUMMARY": ""})
    assert result.returncode == 1
    assert result.stdout == (REPORT / "many.github-statistics.txt").read_text(encoding="utf-8")
    plain = (REPORT / "many.github.txt").read_text(encoding="utf-8").splitlines()
    lines = result.stdout.splitlines()
    # the same ten annotations; the two findings beyond GitHub's limit are counted, not listed
    assert [line for line in lines if " file=" in line] == [line for line in plain if " file=" in line]
    assert not any(line.startswith("many.yaml:") for line in lines)
    assert lines[-2:] == ["12\tDRA200\tapi-version-not-served", "1 file, 12 objects: 12 errors, 0 warnings, 0 info"]


def _findings(**counts: int) -> tuple[Finding, ...]:
    return tuple(
        Finding(f"DRA{n:03d}", "r", severity, "m", Location("a.yaml", n, 1))  # type: ignore[arg-type]
        for n, severity in enumerate(s for s, count in counts.items() for _ in range(count))
    )


def test_github_budget_is_per_kind_and_keeps_a_notice_for_the_note() -> None:
    report = Report(_findings(error=12, warning=3, info=10), Summary(1, 1, 1, 0))
    chosen = annotated(report)
    assert Counter(report.shown[i].severity for i in chosen) == {"error": 10, "warning": 3, "info": 9}
    stream = io.StringIO()
    render(report, stream)
    lines = stream.getvalue().splitlines()
    kinds = Counter(line.split(" ")[0] for line in lines if line.startswith("::") and " file=" in line)
    assert kinds == {"::error": 10, "::warning": 3, "::notice": 9}
    assert lines[-2] == (
        "::notice title=dralint::3 more findings not annotated: GitHub shows 10 error, 10 warning and 10 notice "
        "annotations per step; all findings are in this step's log and the job summary"
    )
    assert sum(1 for line in lines if line.startswith("a.yaml:")) == 3  # the rest, as log lines
    # within the limits: every finding is annotated and there is no note
    small = Report(_findings(error=10, warning=10, info=10), Summary(1, 1, 1, 0))
    assert len(annotated(small)) == 30
    stream = io.StringIO()
    render(small, stream)
    assert "not annotated" not in stream.getvalue()


def test_job_summary_escapes_markdown_and_html() -> None:
    finding = Finding("DRA300", "unknown-class", "error", "class <b>x|y</b>\nz", Location("a|b.yaml", 1, 2))
    text = summary_markdown(Report((finding,), Summary(1, 1, 1, 0)))
    assert text.splitlines()[-1] == "| `a\\|b.yaml:1:2` | error DRA300 | class &lt;b&gt;x\\|y&lt;/b&gt; z |"
