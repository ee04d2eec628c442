"""Every command block of README.md and examples/README.md runs as written and prints what it shows.

Each section (``## ...``) runs in a fresh copy of the repository's files (those git tracks, and
new ones it does not ignore), made a git repository on branch ``main`` as a clone is; ``dralint``
on the PATH runs this checkout, and ``https://github.com/dralint/dralint`` is that copy (git's
``url.insteadOf``), so that ``pre-commit autoupdate`` finds the hooks without a network. The info
string after a block's language says what the block is (GitHub shows only the language):

- ``sh``: commands, one per line (comments and blank lines aside), run with bash in ``cwd=DIR``
  (relative to the README's directory; default that directory). The last must exit with ``exit=N`` (default 0),
  the others with 0 or N.
- ``sh skip="reason"``: what a test cannot run here (a cluster, helm, installing dralint into the
  environment); never run, reported as a skipped test with its reason, and listed in ``SKIPPED``.
- ``console``: ``$ command`` lines, each followed by exactly what it prints, run in one shell as
  typed at a prompt (``cwd=`` as above).
- ``text output``: exactly what the ``sh`` block before it printed, standard output and error as
  they come; a line ``...`` stands for any number of lines.
- ``LANG file=PATH`` (``cwd=`` as above): the content of PATH, written when the section reaches it.
  Where the repository ships PATH, the block is that file byte for byte; a file the reader is asked
  to save in ``examples/`` is one that ``examples/.gitignore`` keeps out of git and of folder walks.
  A workflow under ``.github/workflows/`` also has its ``run:`` steps run (not ``pip install``) and
  the SARIF it uploads checked; a ``.pre-commit-config.yaml`` may only name hooks that
  ``.pre-commit-hooks.yaml`` defines.
- Any other block (no language, ``json``, ``yaml``, ``lua`` without ``file=``) shows a shape, not a
  command (the Neovim set-up is run in ``tests/lsp/editors_test.py``).
"""

from __future__ import annotations

import json
import os
import re
import shlex
import shutil
import stat
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from ruamel.yaml import YAML

from testing.run import ROOT

READMES = ("README.md", "examples/README.md")
REPOSITORY = "https://github.com/dralint/dralint"
_FENCE = re.compile(r"^```(?P<info>[^\n]*)\n(?P<body>.*?)^```$", re.MULTILINE | re.DOTALL)
_HEADING = re.compile(r"^## (.+)$", re.MULTILINE)
_COMMANDS = ("sh", "console")

# The blocks that cannot run here, by their first command: what a reader may run and a test may not.
SKIPPED = {
    "pip install -e '.[dev]'": "installs dralint into the Python environment (.ci/run runs it on a clean clone)",
    "pytest": "runs this test suite, the README's test among them (.ci/run runs it)",
    "kubectl get resourceslices,deviceclasses,nodes,devicetaintrules -o yaml > inventory.yaml": "needs a cluster",
    "dralint inventory expand try/inventory.yaml | kubectl apply --dry-run=server -f -": "needs a cluster",
    "$ kubectl get resourceslices -o yaml > slices.yaml": "needs a cluster",
    "pip install './dralint[lsp]'": "installs dralint into the Python environment",
    "helm template gpu-inference charts/gpu-inference | dralint check - --select DRA200": "needs helm",
}


@dataclass
class Block:
    readme: str
    line: int
    language: str
    options: dict[str, str]
    body: str

    @property
    def where(self) -> str:
        return f"{self.readme}:{self.line}"

    @property
    def first(self) -> str:
        """The first command (or ``$`` line) of the block, without its comment."""
        line = next(line for line in self.body.splitlines() if line.strip() and not line.startswith("#"))
        return line.split("  #", 1)[0].rstrip()


@dataclass
class Section:
    readme: str
    title: str
    blocks: list[Block] = field(default_factory=list)

    @property
    def runs(self) -> bool:
        return any(b.language in _COMMANDS and "skip" not in b.options for b in self.blocks)


def _options(words: str) -> dict[str, str]:
    """``exit=1 cwd=examples skip="needs a cluster"``: shell-quoted key=value words."""
    return {key: value for key, _, value in (w.partition("=") for w in shlex.split(words))}


def _sections() -> list[Section]:
    out: list[Section] = []
    for readme in READMES:
        text = (ROOT / readme).read_text(encoding="utf-8")
        starts = [(m.start(), m.group(1)) for m in _HEADING.finditer(text)] or [(0, readme)]
        bounds = [*(start for start, _ in starts[1:]), len(text)]
        for (start, title), end in zip(starts, bounds, strict=True):
            section = Section(readme, title)
            for match in _FENCE.finditer(text, start, end):
                language, _, words = match.group("info").partition(" ")
                line = text.count("\n", 0, match.start()) + 1
                section.blocks.append(Block(readme, line, language, _options(words), match.group("body")))
            out.append(section)
    return out


SECTIONS = _sections()
BLOCKS = [block for section in SECTIONS for block in section.blocks]


# --- the copy of the repository a section runs in ---------------------------------------------


def _git(repo: Path, *args: str) -> None:
    identity = ("-c", "user.name=reader", "-c", "user.email=reader@example.com")
    subprocess.run(["git", *identity, *args], cwd=repo, check=True, capture_output=True)


@pytest.fixture(scope="module")
def clone(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The repository's files as a clone has them, committed on ``main`` (copied once per module)."""
    if shutil.which("git") is None:
        pytest.skip("git is needed")
    repo = tmp_path_factory.mktemp("clone") / "dralint"
    listed = subprocess.run(
        ["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
        cwd=ROOT,
        check=True,
        capture_output=True,
        text=True,
    ).stdout.split("\0")
    for name in filter(None, listed):
        if (ROOT / name).is_file():
            (repo / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(ROOT / name, repo / name)
    _git(repo, "init", "-q", "-b", "main")
    _git(repo, "add", "-A")
    _git(repo, "commit", "-qm", "clone")
    return repo


def _bin(directory: Path) -> Path:
    """``dralint`` running this checkout."""
    directory.mkdir(exist_ok=True)
    script = directory / "dralint"
    script.write_text(f'#!/bin/sh\nPYTHONPATH="{ROOT}" exec "{sys.executable}" -m dralint "$@"\n')
    script.chmod(script.stat().st_mode | stat.S_IXUSR)
    return directory


def _environment(repo: Path, bin_dir: Path | None = None) -> dict[str, str]:
    """A reader's shell: no DRALINT_* settings, no CI, a git identity, this repository as dralint's URL."""
    unset = ("DRALINT_", "GITHUB_", "PRE_COMMIT", "GIT_", "PIP_", "VIRTUAL_ENV_PROMPT")
    environment = {k: v for k, v in os.environ.items() if not k.startswith(unset) and k not in ("CI", "NO_COLOR")}
    if bin_dir is not None:
        environment["PATH"] = f"{bin_dir}{os.pathsep}{environment['PATH']}"
    environment.update(
        PYTHONUNBUFFERED="1",  # standard output and error in the order a terminal shows them
        GIT_AUTHOR_NAME="reader",
        GIT_AUTHOR_EMAIL="reader@example.com",
        GIT_COMMITTER_NAME="reader",
        GIT_COMMITTER_EMAIL="reader@example.com",
        GIT_CONFIG_COUNT="1",
        GIT_CONFIG_KEY_0=f"url.{repo}.insteadOf",
        GIT_CONFIG_VALUE_0=REPOSITORY,
        PRE_COMMIT_HOME=str(repo.parent / "pre-commit-home"),
    )
    return environment


# --- running blocks ---------------------------------------------------------------------------------


@dataclass
class Ran:
    output: str
    codes: list[int]


def _run(commands: list[str], cwd: Path, environment: dict[str, str]) -> Ran:
    """Each command in turn with bash (a shell of its own each, in ``cwd``): the output of all, each exit code."""
    output, codes = [], []
    for command in commands:
        done = subprocess.run(
            ["bash", "-c", command],
            cwd=cwd,
            env=environment,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
            timeout=600,
            check=False,
        )
        output.append(done.stdout)
        codes.append(done.returncode)
    return Ran("".join(output), codes)


_SEPARATOR = "\x1e"  # printed after each command of a console session, to split its output


def _session(commands: list[str], cwd: Path, environment: dict[str, str]) -> list[str]:
    """The commands in one shell, as typed at a prompt (``echo $?`` sees the command before): what each printed."""
    script = "".join(f"{command}\n__status=$?; printf '{_SEPARATOR}'; (exit $__status)\n" for command in commands)
    ran = _run([script], cwd, environment)
    *outputs, rest = ran.output.split(_SEPARATOR)
    assert len(outputs) == len(commands) and rest == "", ran.output
    return outputs


def _commands(block: Block) -> list[str]:
    lines = [line for line in block.body.splitlines() if line.strip() and not line.startswith("#")]
    assert not any(line.rstrip().endswith("\\") for line in lines), f"{block.where}: one command per line"
    return lines


def _console(block: Block) -> Iterator[tuple[str, str]]:
    """(command, what it prints) for each ``$`` line of a console block."""
    command: str | None = None
    printed: list[str] = []
    for line in block.body.splitlines():
        if line.startswith("$ "):
            if command is not None:
                yield command, "".join(printed)
            command, printed = line[2:], []
        else:
            printed.append(line + "\n")
    assert command is not None, f"{block.where}: a console block without a $ line"
    yield command, "".join(printed)


def matches(expected: str, actual: str) -> bool:
    """``actual`` is ``expected``, where a line ``...`` of ``expected`` stands for any number of lines."""
    parts = expected.split("...\n")
    if len(parts) == 1:
        return expected == actual
    if not actual.startswith(parts[0]) or not actual.endswith(parts[-1]):
        return False
    position, end = len(parts[0]), len(actual) - len(parts[-1])
    for part in parts[1:-1]:
        found = actual.find(part, position, end)
        if found < 0 or (part and found > 0 and actual[found - 1] != "\n"):
            return False
        position = found + len(part)
    return position <= end


def _workflow(body: str, cwd: Path, environment: dict[str, str], where: str) -> None:
    steps = YAML(typ="safe", pure=True).load(body)["jobs"]["dralint"]["steps"]
    commands = [s["run"] for s in steps if "run" in s and not str(s["run"]).startswith("pip install")]
    ran = _run(commands, cwd, environment)
    assert all(code in (0, 1) for code in ran.codes), f"{where}: {ran.output}"
    (upload,) = [s for s in steps if str(s.get("uses", "")).startswith("github/codeql-action/upload-sarif")]
    sarif = json.loads((cwd / upload["with"]["sarif_file"]).read_text(encoding="utf-8"))
    assert sarif["version"] == "2.1.0" and sarif["runs"][0]["tool"]["driver"]["name"] == "dralint"


def _pre_commit_config(body: str, where: str) -> None:
    config = YAML(typ="safe", pure=True).load(body)
    hooks = YAML(typ="safe", pure=True).load((ROOT / ".pre-commit-hooks.yaml").read_text(encoding="utf-8"))
    named = {hook["id"] for repo in config["repos"] for hook in repo["hooks"]}
    assert named <= {hook["id"] for hook in hooks}, f"{where}: {named}"


def _check_exits(block: Block, ran: Ran) -> None:
    wanted = int(block.options.get("exit", "0"))
    assert ran.codes[-1] == wanted, f"{block.where}: exit {ran.codes[-1]}, not {wanted}:\n{ran.output}"
    assert all(code in (0, wanted) for code in ran.codes), f"{block.where}: exit codes {ran.codes}:\n{ran.output}"


RUNNING = [section for section in SECTIONS if section.runs]


def _run_section(section: Section, repo: Path, environment: dict[str, str]) -> None:
    """The section's blocks in order in ``repo``: files written, commands run, what they print compared."""
    last: Ran | None = None
    for block in section.blocks:
        cwd = repo / Path(block.readme).parent / block.options.get("cwd", "")
        if "skip" in block.options:
            last = None
        elif "file" in block.options:
            target = cwd / block.options["file"]
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(block.body, encoding="utf-8")
            if block.options["file"].startswith(".github/workflows/"):
                _workflow(block.body, cwd, environment, block.where)
            elif Path(block.options["file"]).name == ".pre-commit-config.yaml":
                _pre_commit_config(block.body, block.where)
        elif block.language == "sh":
            last = _run(_commands(block), cwd, environment)
            _check_exits(block, last)
        elif block.language == "console":
            session = list(_console(block))
            outputs = _session([command for command, _ in session], cwd, environment)
            for (command, printed), output in zip(session, outputs, strict=True):
                assert output == printed, f"{block.where}: `{command}` printed:\n{output}"
        elif block.language == "text" and "output" in block.options:
            assert last is not None, f"{block.where}: an output block after no command"
            assert matches(block.body, last.output), f"{block.where}: the command printed:\n{last.output}"


@pytest.mark.parametrize("section", RUNNING, ids=[f"{s.readme}: {s.title}" for s in RUNNING])
def test_readme_section_runs_as_written(section: Section, clone: Path, tmp_path: Path) -> None:
    repo = tmp_path / "dralint"
    shutil.copytree(clone, repo, symlinks=True)
    _run_section(section, repo, _environment(repo, _bin(tmp_path / "bin")))


def test_readme_sections_run_one_after_the_other_in_one_clone(clone: Path, tmp_path: Path) -> None:
    """A reader follows the README in one clone: what earlier sections saved stays, and only what the README says
    to do between sections (``git checkout -- examples migrate-example``, for the files commands rewrote) is done."""
    repo = tmp_path / "dralint"
    shutil.copytree(clone, repo, symlinks=True)
    environment = _environment(repo, _bin(tmp_path / "bin"))
    advice = "`git checkout -- examples migrate-example` sets the shipped files back"
    assert advice in (ROOT / "README.md").read_text(encoding="utf-8")
    for section in RUNNING:
        _run(["git checkout -q -- examples migrate-example"], repo, environment)
        _run_section(section, repo, environment)


def test_check_in_a_clone_reads_the_examples_not_the_test_fixtures(clone: Path, tmp_path: Path) -> None:
    """The repository's ``.dralint.yaml`` keeps ``dralint check .`` (and the language server an editor starts in a
    clone) to the examples (``examples/`` and ``migrate-example/``): read whole, a clone was 656 files, 146 s, and
    DRA420 counting the fixtures' devices."""
    repo = tmp_path / "dralint"
    shutil.copytree(clone, repo, symlinks=True)
    ran = _run(["dralint check . -f json"], repo, _environment(repo, _bin(tmp_path / "bin")))
    summary = json.loads(ran.output)["summary"]
    examples = [
        p
        for d in ("examples", "migrate-example")
        for p in (repo / d).rglob("*")
        if p.suffix in (".yaml", ".yml", ".json")
    ]
    assert (summary["files"], summary["skippedFiles"]) == (
        len(examples),
        [{"file": "action.yml", "reason": "not-kubernetes"}],
    ), ran.output


SKIPS = [block for block in BLOCKS if "skip" in block.options]


@pytest.mark.parametrize("block", SKIPS, ids=[b.where for b in SKIPS])
def test_readme_block_that_cannot_run_here_says_why(block: Block) -> None:
    assert block.language in _COMMANDS
    assert SKIPPED.get(block.first) == block.options["skip"] != "", f"{block.where}: list it in SKIPPED"
    pytest.skip(f"{block.where} ({block.first}): {block.options['skip']}")


def test_readme_skipped_blocks_are_the_listed_ones() -> None:
    assert sorted(block.first for block in SKIPS) == sorted(SKIPPED)


def test_readme_every_command_block_runs_or_says_why_not() -> None:
    """A command block in a section is run by the section's test unless it is skipped with a reason."""
    commands = [block for block in BLOCKS if block.language in _COMMANDS]
    assert len(commands) > 30
    assert all("skip" in block.options or block.body.strip() for block in commands)
    outputs = [block for block in BLOCKS if block.language == "text" and "output" in block.options]
    for section in SECTIONS:
        previous = None
        for block in section.blocks:
            if block in outputs:
                assert previous is not None and previous.language == "sh", f"{block.where}: output of what?"
            previous = block


def test_readme_install_command_is_what_ci_runs() -> None:
    assert "python -m pip install --quiet --disable-pip-version-check -e '.[dev]'" in (ROOT / ".ci" / "run").read_text()
    assert "pip install -e '.[dev]'" in SKIPPED


FILES = [block for block in BLOCKS if "file" in block.options]


def _target(block: Block) -> Path:
    """Where a ``file=`` block goes, relative to the repository."""
    return Path(block.readme).parent / block.options.get("cwd", "") / block.options["file"]


def _tracked() -> set[str]:
    listed = subprocess.run(["git", "ls-files", "-z"], cwd=ROOT, check=True, capture_output=True, text=True).stdout
    return set(filter(None, listed.split("\0")))


@pytest.mark.parametrize("block", FILES, ids=[b.where for b in FILES])
def test_readme_file_block_is_the_shipped_file_or_one_to_save(block: Block) -> None:
    """A file the README's commands use as shipped is that file byte for byte; one it asks the reader to save in
    ``examples/`` is one git (and so ``dralint check``'s folder walk) ignores, so no other section's output depends
    on it."""
    target = _target(block)
    if target.as_posix() in _tracked():
        assert (ROOT / target).read_bytes() == block.body.encode("utf-8"), f"{block.where}: {target} differs"
    elif target.parts[0] == "examples":
        ignored = subprocess.run(["git", "check-ignore", "-q", "--no-index", target.as_posix()], cwd=ROOT, check=False)
        assert ignored.returncode == 0, f"{block.where}: {target} is neither shipped nor ignored by examples/.gitignore"


def test_readme_ships_the_inputs_its_commands_take_as_there() -> None:
    """The allocator's scenario is run five times and typed by nobody: it ships in ``examples/``."""
    shipped = sorted(_target(b).as_posix() for b in FILES if _target(b).as_posix() in _tracked())
    assert shipped == ["examples/scenario.json"]


def _anchor(heading: str) -> str:
    """GitHub's anchor of a heading: lower case, punctuation dropped, spaces as hyphens."""
    return re.sub(r"[^\w\- ]", "", heading.strip().lower()).replace(" ", "-")


@pytest.mark.parametrize("readme", READMES)
def test_readme_links_name_files_and_headings_that_exist(readme: str) -> None:
    """A link to ``DESIGN.md`` that a clone does not have, or to a section renamed since, is a dead end for a reader."""
    text = (ROOT / readme).read_text(encoding="utf-8")
    anchors = {_anchor(heading) for heading in re.findall(r"^#+ (.+)$", text, re.MULTILINE)}
    links = re.findall(r"\]\(([^)\s]+)\)", text)
    assert len(links) > 3 or readme != "README.md"
    for link in links:
        if link.startswith(("http://", "https://")):
            continue
        path, _, anchor = link.partition("#")
        if path:
            assert (ROOT / readme).parent.joinpath(path).exists(), f"{readme}: {link}"
        else:
            assert anchor in anchors, f"{readme}: {link} names no heading"


def test_readme_names_only_releases_that_exist() -> None:
    """``rev:`` and ``uses: dralint/dralint@`` name ``main`` or a tag of the repository (none is tagged yet)."""
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    refs = re.findall(r"^\s*rev: (\S+)", text, re.MULTILINE) + re.findall(r"uses: dralint/dralint@(\S+)", text)
    tags = subprocess.run(
        ["git", "tag", "--list"], cwd=ROOT, capture_output=True, text=True, check=False
    ).stdout.split()
    assert refs and all(ref == "main" or ref in tags for ref in refs), (refs, tags)
