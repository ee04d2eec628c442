"""The values admission's modules share: what it reads of a run (:class:`Inputs`) and why an object is rejected."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Protocol

from dralint.api.normalise import Normalised
from dralint.api.objects import KubeObject
from dralint.apimachinery.fieldpath import Path
from dralint.dataclass import dataclass

if TYPE_CHECKING:
    from dralint.admission.validation import Validated, Validator
    from dralint.api.versions import Target
    from dralint.api.workloads import PodTemplate
    from dralint.findings import Location
    from dralint.validate.apiserver.errors import FieldError
    from dralint.validate.schema import SchemaError

__all__ = ["Inputs", "Rejection", "source_line"]


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


class Inputs(Protocol):
    """What admission reads of a run: the pipeline's :class:`~dralint.pipeline.context.CheckContext` provides it.

    A protocol, so that admission (which the context runs) does not import the context.
    """

    @property
    def target(self) -> Target: ...

    @property
    def objects(self) -> list[KubeObject]: ...

    @property
    def checked_files(self) -> frozenset[str]: ...

    @property
    def normalised(self) -> Mapping[KubeObject, Normalised]: ...

    @property
    def pod_templates(self) -> Sequence[PodTemplate]: ...

    @property
    def validator(self) -> Validator: ...

    @property
    def validated(self) -> Mapping[KubeObject, Validated]: ...

    @property
    def schema_errors(self) -> Mapping[KubeObject, Sequence[SchemaError]]: ...

    @property
    def pod_spec_errors(self) -> Mapping[KubeObject, Sequence[FieldError]]: ...

    def written_at(self, obj: KubeObject, path: Path) -> Location: ...


def source_line(obj: KubeObject, path: Path) -> int:
    """The line of ``path`` (in the user's shape) in ``obj``'s file."""
    return obj.position(path)[0]
