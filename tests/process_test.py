"""Process-wide settings: the command line applies them; library code leaves the process as it found it."""

from __future__ import annotations

import os
import subprocess
import sys

from tests.conftest import FIXTURES, ROOT

DEEP = FIXTURES / "process" / "deep-selector.yaml"
SCENARIO = FIXTURES / "allocator" / "scenarios" / "small.scenario.json"

# Loads files, compiles the deep selector (in the check) and runs the allocator, as a program
# importing dralint would, then prints the recursion limit and the objects frozen out of the GC.
_LIBRARY_USE = """
import gc, json, sys
sys.setrecursionlimit(1000)
frozen = gc.get_freeze_count()  # some interpreters start with objects frozen (375 on a Python 3.12 build)
threshold = gc.get_threshold()  # the interpreter's own (700, 10, 10 up to Python 3.12; 2000, 10, 10 in 3.13)
from dralint.api.scenario import scenario
from dralint.api.versions import make_target
from dralint.commands.allocate import allocate_scenario
from dralint.pipeline import engine
from dralint.pipeline.context import CheckContext
from dralint.read.load import load
from dralint.rules import builtin_rules
ctx = CheckContext(load([sys.argv[1]]), make_target())
findings = engine.run(ctx, builtin_rules(), engine.Selection(enabled=frozenset({"DRA400"})))
with open(sys.argv[2], encoding="utf-8") as handle:
    outcomes = allocate_scenario(scenario(json.load(handle)))
print(sys.getrecursionlimit(), gc.get_freeze_count() - frozen, [f.rule for f in findings], [o.outcome for o in outcomes])
print(gc.get_threshold() == threshold)
"""


def _python(*args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.run([sys.executable, *args], env=env, capture_output=True, text=True, check=False, cwd=ROOT)


def test_library_code_changes_neither_the_recursion_limit_nor_the_garbage_collector() -> None:
    result = _python("-c", _LIBRARY_USE, str(DEEP), str(SCENARIO))
    assert result.stderr == ""
    # At Python's default limit the 240-level selector does not parse: dralint did not raise it.
    assert result.stdout == "1000 0 ['DRA400'] ['allocated', 'unsatisfiable']\nTrue\n"


def test_the_command_line_checks_a_deeply_nested_selector() -> None:
    result = _python("-m", "dralint", "check", "--no-config", str(DEEP.relative_to(ROOT)))
    assert (result.returncode, result.stdout, result.stderr) == (
        0,
        "1 file, 1 object: 0 errors, 0 warnings, 0 info\n",
        "",
    )


def test_the_command_line_collects_garbage_cycles_less_often() -> None:
    # The command group's entry point tunes the collector before any command runs (here --version).
    code = (
        "import contextlib, gc, io\nfrom dralint.cli import main\n"
        "with contextlib.suppress(SystemExit), contextlib.redirect_stdout(io.StringIO()):\n"
        "    main(['--version'])\n"
        "print(gc.get_threshold())"
    )
    result = _python("-c", code)
    assert result.stdout == "(200000, 30, 30)\n"
