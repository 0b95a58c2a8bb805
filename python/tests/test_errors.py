"""Errors: InputError (a ValueError) with the CLI's message for bad input,
ValueError for impossible arguments."""

import pathlib

import pytest

import htpscope
from support import EXAMPLE_RUN, cli_binary, run_cli


def truncated_trace(tmp_path: pathlib.Path) -> pathlib.Path:
    data = (EXAMPLE_RUN / "chrometrace.json").read_bytes()
    path = tmp_path / "chrometrace.json"
    path.write_bytes(data[: len(data) // 2])
    return path


def test_a_truncated_artifact_raises_input_error_naming_the_file(tmp_path):
    path = truncated_trace(tmp_path)
    with pytest.raises(htpscope.InputError) as caught:
        htpscope.load_run(path)
    error = caught.value
    assert isinstance(error, ValueError)
    assert str(path) in str(error)
    assert error.file == str(path)
    assert error.problem in str(error)
    assert error.byte_offset is not None or error.line is not None


def test_a_truncated_artifact_gives_the_clis_exact_message(tmp_path):
    path = truncated_trace(tmp_path)
    cli_binary()  # skips without one
    done = run_cli("summary", path)
    assert done.returncode == 2
    with pytest.raises(htpscope.InputError) as caught:
        htpscope.load_run([path])
    assert done.stderr == f"htpscope: error: {caught.value}\n"


def test_a_missing_path_is_an_input_error(tmp_path):
    missing = tmp_path / "nowhere"
    with pytest.raises(htpscope.InputError, match="no such file or directory") as caught:
        htpscope.load_run(missing)
    assert caught.value.file == str(missing)
    assert caught.value.byte_offset is None and caught.value.line is None


def test_two_files_of_one_kind_are_an_input_error(tmp_path):
    trace = EXAMPLE_RUN / "chrometrace.json"
    copy = tmp_path / "copy.json"
    copy.write_bytes(trace.read_bytes())
    with pytest.raises(htpscope.InputError, match="a second"):
        htpscope.load_run([trace, copy])


def test_usage_errors_are_value_errors():
    with pytest.raises(ValueError, match="give a run directory"):
        htpscope.load_run([])
    with pytest.raises(TypeError):
        htpscope.load_run(42)
    run = htpscope.load_run(EXAMPLE_RUN)
    with pytest.raises(ValueError, match="clock_ghz must be positive"):
        run.summary(clock_ghz=-1)
