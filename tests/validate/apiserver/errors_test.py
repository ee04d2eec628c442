"""Field errors print like apimachinery's ``field.Error.ErrorBody``."""

from __future__ import annotations

from dralint.validate.apiserver import errors


def test_error_body_prints_each_error_type_like_the_api_server() -> None:
    path = ("spec", "x")
    assert errors.required(path).body() == "Required value"
    assert errors.required(path, "name required").body() == "Required value: name required"
    assert (
        errors.invalid(path, -1, "must be greater than zero").body() == "Invalid value: -1: must be greater than zero"
    )
    assert errors.invalid(path, None, "multiple").body() == "Invalid value: null: multiple"
    assert errors.invalid(path, False, "unset").body() == "Invalid value: false: unset"
    assert errors.duplicate(path, "gpu").body() == 'Duplicate value: "gpu"'
    assert errors.too_many(path, 33, 32).body() == "Too many: 33: must have at most 32 items"
    assert errors.too_long(path, 63).body() == "Too long: may not be more than 63 bytes"
    assert errors.too_long(path, 63, legacy=True).body() == "Too long: must have at most 63 bytes"
    assert errors.forbidden(path, "not allowed on this type").body() == "Forbidden: not allowed on this type"
    assert errors.not_found(path, "nic", "must be one of a, b").body() == 'Not found: "nic": must be one of a, b'
    assert (
        errors.not_supported(path, "Some", ["All", "ExactCount"]).body()
        == 'Unsupported value: "Some": supported values: "All", "ExactCount"'
    )


def test_go_quote_escapes_like_strconv_quote() -> None:
    assert errors.go_quote('a"b\\c') == '"a\\"b\\\\c"'
    assert errors.go_quote("tab\tnew\nline") == '"tab\\tnew\\nline"'
    assert errors.go_quote("\x01") == '"\\x01"'
    assert errors.go_quote("café") == '"café"'


def test_go_slice_prints_nil_empty_and_filled_slices() -> None:
    assert errors.go_slice("string", None).text == "[]string(nil)"
    assert errors.go_slice("bool", []).text == "[]bool{}"
    assert errors.go_slice("string", ["a", "b"]).text == '[]string{"a", "b"}'


def test_go_value_prints_mappings_as_sorted_json() -> None:
    assert errors.go_value({"string": "a", "int": 3}) == '{"int": 3, "string": "a"}'


def test_retag_moves_errors_to_another_kind() -> None:
    moved = errors.retag([errors.required(("status",))], errors.STATUS)
    assert [e.kind for e in moved] == [errors.STATUS]
