"""The run's tables as DataFrames, on the bundled example run (whose figures
htpscope-synth computed from its schedule: ground_truth.json)."""

import json

import numpy as np
import pandas as pd
import pytest

import htpscope
from support import EXAMPLE_RUN, ROOT, ground_truth


@pytest.fixture(scope="module")
def run():
    return htpscope.load_run(EXAMPLE_RUN)


def test_every_table_of_the_schema_is_an_attribute_with_its_columns_in_order(run):
    schema = htpscope.schema()
    assert list(htpscope.TABLES) == list(dict.fromkeys(schema.table))
    for name in htpscope.TABLES:
        frame = getattr(run, name)
        assert isinstance(frame, pd.DataFrame), name
        assert list(frame.columns) == list(schema[schema.table == name].column), name
        assert frame is run.table(name)  # built once


def test_column_types_follow_the_schema(run):
    schema = htpscope.schema()
    for name in htpscope.TABLES:
        frame = run.table(name)
        for _, column in schema[schema.table == name].iterrows():
            dtype = frame[column.column].dtype
            if column.type == "INTEGER":
                assert dtype in (np.dtype("int64"), pd.Int64Dtype()), (name, column.column, dtype)
            elif column.type == "REAL":
                assert dtype == np.dtype("float64"), (name, column.column, dtype)
            elif column.type == "BOOLEAN":
                assert dtype in (np.dtype("bool"), pd.BooleanDtype()), (name, column.column)
            else:
                assert dtype == np.dtype("object"), (name, column.column, dtype)


def test_slices_units_and_figures_match_the_generator(run):
    truth = ground_truth()
    slices = run.slices
    assert slices.dur_cycles.dtype == np.int64
    assert len(slices) == truth["counts"]["slices"]
    assert slices.dur_cycles.sum() == truth["work_cycles"]
    assert slices.end_cycle.max() - slices.start_cycle.min() == truth["graph_wall_cycles"]
    assert (slices.end_cycle - slices.start_cycle == slices.dur_cycles).all()
    units = run.units.set_index("tid")
    for unit in truth["units"]:
        assert units.loc[unit["tid"], "cycles_used"] == unit["cycles_used"]
        assert units.loc[unit["tid"], "busy_cycles"] == unit["busy_cycles"]
        assert units.loc[unit["tid"], "slices"] == unit["slices"]
        assert units.loc[unit["tid"], "kind"] == unit["kind"]
    figures = run.runs.iloc[0]
    assert figures.graph_wall_cycles == truth["graph_wall_cycles"]
    assert figures.domain_cycles == truth["domain_cycles"]
    assert figures.domain_tid == truth["domain_tid"]
    assert figures.dpc_sum_cycles == truth["dpc_sum_cycles"]


def test_ops_are_ranked_by_dpc_as_the_generator_ranks_them(run):
    truth = ground_truth()["ops"]
    ops = run.ops
    assert list(ops.name[: len(truth)]) == [op["name"] for op in truth][: len(ops)]
    top = ops.iloc[0]
    assert (top["name"], top.type, top.dpc_cycles, top.work_cycles, top.instances) == (
        truth[0]["name"], truth[0]["type"], truth[0]["dpc_cycles"], truth[0]["work_cycles"],
        truth[0]["instances"],
    )
    per_op = run.slices.groupby("qnn_op_name").dur_cycles.sum()
    assert per_op[top["name"]] == truth[0]["work_cycles"]


def test_executions_carry_the_printed_microseconds_and_the_cold_flag(run):
    truth = ground_truth()["executions"]
    executions = run.executions
    assert len(executions) == len(truth)
    for (_, row), expected in zip(executions.iterrows(), truth):
        assert row.execution == expected["index"]
        assert bool(row.cold) == expected["cold"]
        assert row.qnn_accelerator_us == expected["qnn_accelerator_us"]
        assert row.accelerator_us == expected["accelerator_us"]
        assert row.accelerator_cycles == expected["accelerator_cycles"]


def test_text_columns_hold_one_str_object_per_distinct_value(run):
    names = run.slices.qnn_op_name
    assert all(isinstance(v, str) for v in names)
    by_text = {}
    for value in names:
        assert by_text.setdefault(value, value) is value


def test_integer_columns_with_nulls_are_nullable_int64(run):
    # dominant_path.op_id is null on idle segments; REAL nulls are NaN.
    path = run.dominant_path
    if path.op_id.isna().any():
        assert path.op_id.dtype == pd.Int64Dtype()
    executions = run.executions
    assert executions.netrun_us.dtype == np.float64


def test_the_label_missing_and_repr_describe_the_run(run):
    assert run.label == str(EXAMPLE_RUN)
    assert list(run.missing.columns) == ["artifact", "withholds"]
    assert "slices" in repr(run)
    assert "slices" in dir(run)


def test_schema_of_one_table_and_an_unknown_table():
    slices = htpscope.schema("slices")
    assert list(slices.column) == [
        "op_id", "qnn_op_name", "htp_op_type", "tid", "start_cycle", "dur_cycles", "end_cycle",
    ]
    with pytest.raises(ValueError, match="no table named 'nope'"):
        htpscope.schema("nope")


def test_an_unknown_table_is_a_value_error(run):
    with pytest.raises(ValueError, match="no table named 'nope'"):
        run.table("nope")
    with pytest.raises(AttributeError):
        run.nope


TWO_GRAPHS = ROOT / "src" / "formats" / "testdata" / "detailed_two_graphs.txt"


def test_executions_of_a_two_graph_profile_are_numbered_graph_by_graph():
    executions = htpscope.load_run(TWO_GRAPHS).executions
    assert list(zip(executions.graph, executions.execution, executions.accelerator_cycles)) == [
        ("model.prefill", 1, 60_000_000), ("model.prefill", 2, 52_000_000),
        ("model.decode", 1, 11_000_000), ("model.decode", 2, 9_800_000),
        ("model.decode", 3, 9_700_000),
    ]
    assert list(executions.cold) == [True, False, True, False, False]


def test_graph_keeps_one_graph_of_a_multi_graph_profile():
    # The decode graph's three executions (QNN accelerator 3,150 / 2,750 / 2,700 µs).
    run = htpscope.load_run(TWO_GRAPHS, graph="model.decode")
    assert list(run.graphs.name) == ["model.decode"]
    assert list(run.executions.qnn_accelerator_us) == [3150, 2750, 2700]
    assert list(run.executions.cold) == [True, False, False]
    with pytest.raises(ValueError, match="no graph named \"nope\" .*model.prefill, model.decode"):
        htpscope.load_run(TWO_GRAPHS, graph="nope")
    with pytest.raises(ValueError, match="no graph named"):
        htpscope.load_run(EXAMPLE_RUN, graph="nope")


def test_qhas_cores_and_format_changes_come_from_the_qhas_file(run):
    # Read straight from the example's QHAS summary, the way a script would.
    qhas = json.loads((EXAMPLE_RUN / "chrometrace_qnn_htp_analysis_summary.json").read_text())
    overall = qhas["data"]["htp_overall_summary"]["data"][0]
    cores = run.qhas_cores
    assert list(cores.core) == [overall["htp"]]
    assert cores.timeline_cycles[0] == overall["timeline_cycles"]
    assert cores.dram_read_bytes[0] == overall["total_dram_read"]
    assert cores.vtcm_read_bytes[0] == overall["total_vtcm_read"]
    assert cores.peak_vtcm_bytes[0] == overall["peak_vtcm_alloc"]
    rows = qhas["data"]["htp_op_instances"]["data"]
    changed = {int(r["op_id"], 16) for r in rows if r["fmt_change"]}
    assert changed, "the example has format changes"
    instances = run.op_instances
    assert set(instances.op_id_hex[instances.format_change].map(lambda h: int(h, 16))) == changed
    assert not instances.reference_op.any()
    # The example has an optrace, which does not name cores.
    assert instances.htp_core.isna().all()


def test_modules_table_rolls_op_time_up_the_model_s_own_modules():
    # ONNX Runtime QNN EP profile of a ResNet-style model (docs/modules.md):
    # stage 2's time is its 17 ops' medians over executions 2..5, summed.
    resnet = htpscope.load_run(ROOT / "src/formats/testdata/ort_qnn_ep_resnet_modules.csv")
    modules = resnet.modules.set_index("path")
    assert modules.loc["resnet/encoder/stages.2", "time_cycles"] == 9232688.5
    assert modules.loc["resnet/encoder/stages.2", "ops"] == 17
    assert set(modules.basis) == {"steady_median_cycles"}
    assert set(modules.time_unit) == {"cycles"}
    assert modules.time_us.isna().all()
    assert modules.loc["resnet/encoder/stages.2/layers.1", "block_finding"] == "slow"
    assert modules.loc["(no module)", "ops"] == 2
    assert modules.loc["", "time_cycles"] == resnet.summary()["modules"]["total"]
