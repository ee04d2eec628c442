"""A user's driver profiles reach the checks from the configuration, --profile and DRALINT_PROFILES alike."""

from __future__ import annotations

import pytest

from testing.run import in_root

CLAIM = "tests/fixtures/profile_config/claim.yaml"
FINDING = (
    f"{CLAIM}:14:63: warning DRA900 attribute fpga.example.net/lutz is not published by driver fpga.example.net "
    "(its profile lists no such attribute) (ResourceClaim/hw/fpga); did you mean luts?"
)


@pytest.mark.parametrize(
    ("arguments", "environment"),
    [
        (["--profile", "tests/fixtures/profile_config/profiles/fpga.example.net.yaml", "--no-config"], {}),
        (["--profile", "tests/fixtures/profile_config/profiles", "--no-config"], {}),
        (["--config", "tests/fixtures/profile_config/dralint.yaml"], {}),
        (["--no-config"], {"DRALINT_PROFILES": "tests/fixtures/profile_config/profiles"}),
    ],
    ids=["file", "folder", "configuration", "environment"],
)
def test_a_user_profile_is_read_from_every_source(
    arguments: list[str], environment: dict[str, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    for name, value in environment.items():
        monkeypatch.setenv(name, value)
    code, output = in_root("check", CLAIM, "-f", "concise", "--select", "DRA9", *arguments)
    assert (code, output.splitlines()[0]) == (0, FINDING)


def test_without_the_profile_the_driver_is_not_judged() -> None:
    code, output = in_root("check", CLAIM, "-f", "concise", "--select", "DRA9", "--no-config")
    assert (code, output) == (0, "1 file, 1 object: 0 errors, 0 warnings, 0 info\n")


def test_a_profile_that_is_not_there_is_exit_2() -> None:
    code, output = in_root("check", CLAIM, "--no-config", "--profile", "nowhere.yaml")
    assert (code, output) == (2, "dralint: error: --profile: nowhere.yaml: no such file or directory\n")
