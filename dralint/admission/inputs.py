"""What admission reads: the loaded objects and the results of their validation."""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol

from dralint.api.normalise import Normalised
from dralint.api.objects import KubeObject

if TYPE_CHECKING:
    from dralint.admission.validation import Validated, Validator
    from dralint.api.workloads import PodTemplate
    from dralint.validate.apiserver.errors import FieldError
    from dralint.validate.schema import SchemaError


class Inputs(Protocol):
    """What admission reads: the loaded objects and the results of their validation (a CheckContext)."""

    @property
    def objects(self) -> list[KubeObject]: ...
    @property
    def checked_files(self) -> frozenset[str]: ...
    @property
    def normalised(self) -> dict[KubeObject, Normalised]: ...
    @property
    def validator(self) -> Validator: ...
    @property
    def validated(self) -> dict[KubeObject, Validated]: ...
    @property
    def schema_errors(self) -> dict[KubeObject, list[SchemaError]]: ...
    @property
    def pod_spec_errors(self) -> dict[KubeObject, list[FieldError]]: ...
    @property
    def pod_templates(self) -> list[PodTemplate]: ...
