"""Shared paths and helpers of the Python tests.

Corpus tests read the real device runs beside the checkout
(../shared/corpus, read-only) and skip, saying so, when it is absent; their
names start with test_corpus_.  Tests that compare with the command line run
the htpscope binary named by HTPSCOPE_BINARY, else the first one built under
build/, and skip when there is none.
"""

import json
import os
import pathlib
import subprocess

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
CORPUS = ROOT.parent / "shared" / "corpus" / "qcom_htp"
EXAMPLE_RUN = ROOT / "examples" / "synthetic_run"


def corpus_run(name: str) -> pathlib.Path:
    path = CORPUS / name
    if not path.is_dir():
        pytest.skip(f"corpus run {name} not present ({CORPUS} absent)")
    return path


def cli_binary() -> pathlib.Path:
    named = os.environ.get("HTPSCOPE_BINARY")
    if named:
        return pathlib.Path(named)
    for tree in ("werror", "release", "python", ""):
        candidate = ROOT / "build" / tree / "htpscope"
        if candidate.is_file() and os.access(candidate, os.X_OK):
            return candidate
    pytest.skip("no htpscope binary built (set HTPSCOPE_BINARY or build build/werror)")


def run_cli(*args) -> subprocess.CompletedProcess:
    return subprocess.run([str(cli_binary()), *map(str, args)], capture_output=True, text=True)


def cli_json(*args):
    done = run_cli(*args)
    assert done.returncode in (0, 1), done.stderr
    return json.loads(done.stdout)


def ground_truth() -> dict:
    return json.loads((EXAMPLE_RUN / "ground_truth.json").read_text())
