"""The real device runs of the corpus (skipped, saying so, without it)."""

import numpy as np

import htpscope
from support import cli_json, corpus_run


def test_corpus_v8c8_256_ops_slices_units_and_wall():
    run = htpscope.load_run(corpus_run("v8c8_256"))
    top = run.ops.iloc[0]
    assert top["name"] == "bbb_indep0"
    assert top.dpc_cycles == 87_938
    assert run.slices.dur_cycles.dtype == np.int64
    assert run.slices.dur_cycles.sum() == 317_483
    units = run.units.set_index("tid")
    assert units.loc[256, "cycles_used"] == 169_635
    executions = run.executions.set_index("execution")
    assert executions.loc[1, "qnn_accelerator_us"] == 1409
    assert bool(executions.loc[1, "cold"])


def test_corpus_summary_equals_the_cli_json():
    for name in ("v8c8_256", "native_256", "chain8_archive", "gdn_hvx_int16"):
        path = str(corpus_run(name))
        assert htpscope.load_run(path).summary() == cli_json("summary", "--json", path), name


def test_corpus_summary_with_a_clock_equals_the_cli_json():
    path = str(corpus_run("v8c8_256"))
    got = htpscope.load_run(path).summary(clock_ghz=0.5)
    assert got == cli_json("summary", "--json", "--clock-ghz", "0.5", path)
    assert got != htpscope.load_run(path).summary()


def test_corpus_artifact_files_load_as_their_directory():
    directory = corpus_run("v8c8_256")
    files = sorted(str(p) for p in directory.iterdir() if p.name.startswith("chrometrace"))
    by_files = htpscope.load_run(files)
    assert by_files.slices.dur_cycles.sum() == 317_483
    assert list(by_files.ops.name) == list(htpscope.load_run(directory).ops.name)
