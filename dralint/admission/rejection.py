"""Why the API server would not store an object, in a form other findings can refer to."""

from __future__ import annotations

from dataclasses import dataclass

from dralint.api.objects import KubeObject
from dralint.apimachinery.fieldpath import Path


@dataclass(frozen=True, slots=True)
class Rejection:
    """Why the API server would not store an object: the finding that says so and where it is."""

    rule: str
    file: str
    line: int
    what: str  # "ResourceSlice node-a-gpu"

    def reference(self, here: str | None = None) -> str:
        """``see DRA125 at slices.yaml:15`` (``at line 15`` when read in file ``here``): where the user reads why."""
        where = f"line {self.line}" if self.file == here else f"{self.file}:{self.line}"
        return f"see {self.rule} at {where}"

    def sentence(self) -> str:
        """``ResourceSlice node-a-gpu is rejected by the API server (see DRA125 at slices.yaml:15)``."""
        return f"{self.what} is rejected by the API server ({self.reference()})"


def source_line(obj: KubeObject, path: Path) -> int:
    """The line of ``path`` (in the user's shape) in ``obj``'s file."""
    return obj.position(path)[0]
