"""htpscope.diff: the CLI's diff, gates and JSON."""

import numpy as np
import pandas as pd
import pytest

import htpscope
from support import EXAMPLE_RUN, cli_json, corpus_run


def test_a_run_against_itself_changes_nothing_and_passes_its_gates():
    run = htpscope.load_run(EXAMPLE_RUN)
    result = htpscope.diff(run, EXAMPLE_RUN, fail_on=["wall_us>+5%", "op:*:dpc_cycles>+0"])
    assert result.exit_status == 0
    assert isinstance(result.verdict, str) and result.verdict
    ops = result.ops
    assert len(ops) == len(run.ops)
    assert set(ops.status) == {"matched"}
    top = ops.set_index("name").loc["softmax_0"]
    assert top.a_dpc_cycles == top.b_dpc_cycles == 76_873
    assert top.dpc_change_cycles == 0
    # Per-op cycles are medians over a side's runs (may be x.5): float64, as the JSON.
    assert ops.a_dpc_cycles.dtype == np.float64
    assert [gate["passed"] for gate in result.gates] == [True, True]
    assert result.metrics.loc["wall_us", "change"] == 0
    assert result.metrics.loc["wall_us", "unit"] == "us"
    assert "graph wall" in result.render()


def test_a_gate_that_cannot_be_evaluated_exits_2_and_a_malformed_one_is_a_value_error():
    result = htpscope.diff(EXAMPLE_RUN, EXAMPLE_RUN, fail_on="op:nothing_here:dpc_cycles>+1%")
    assert result.exit_status == 2
    with pytest.raises(ValueError, match="fail_on"):
        htpscope.diff(EXAMPLE_RUN, EXAMPLE_RUN, fail_on=["wall_us>>5"])


def test_corpus_diff_json_equals_the_cli_json():
    a, b = str(corpus_run("native_256")), str(corpus_run("v8c8_256"))
    gates = ["wall_us>+5%", "op:*:dpc_cycles>+10%"]
    result = htpscope.diff(a, b, fail_on=gates)
    args = ["diff", a, b, "--format", "json"]
    for gate in gates:
        args += ["--fail-on", gate]
    assert result.json == cli_json(*args)
    assert result.exit_status == result.json["exit_status"]
    assert result.verdict == result.json["verdict"]
    assert list(result.ops.name) == [op["name"] for op in result.json["ops"]]
    # An op on one side only has no cycle count (NaN) on the other.
    added = result.ops.set_index("name").loc["bbb_indep0"]
    assert added.status == "added" and pd.isna(added.a_dpc_cycles)
    assert added.b_dpc_cycles == 87_938 and added.dpc_change_cycles == 87_938


def test_corpus_repeated_runs_form_one_side():
    run = str(corpus_run("v8c8_256"))
    result = htpscope.diff([run, run, run], [run, [run]])
    assert result.json["a"]["runs"] == [run, run, run]
    assert len(result.json["b"]["runs"]) == 2
    assert result.exit_status == 0
