"""htpscope.numerics: per-handle comparison of reference and device tensors,
checked against NumPy's own arithmetic on tensors written here."""

import math

import numpy as np
import pandas as pd
import pytest

import htpscope
from support import cli_binary, cli_json


@pytest.fixture
def tensors(tmp_path):
    rng = np.random.default_rng(7)
    ref, dev = tmp_path / "ref", tmp_path / "dev"
    ref.mkdir()
    dev.mkdir()
    conv = rng.standard_normal((1, 8, 4, 4))
    relu = np.maximum(rng.standard_normal((1, 16)), 0) + 0.5
    np.save(ref / "conv__debugID_3.npy", conv)
    np.save(dev / "conv__debugID_3.npy", conv + 0.01 * rng.standard_normal(conv.shape))
    np.save(ref / "relu__debugID_7.npy", relu)
    np.save(dev / "relu__debugID_7.npy", -relu)  # diverges: cosine -1
    np.save(ref / "only_ref__debugID_9.npy", relu)
    return ref, dev


def cosine(r, d):
    r, d = r.ravel(), d.ravel()
    return float(r @ d / math.sqrt((r @ r) * (d @ d)))


def test_rows_per_handle_with_the_metrics_numpy_computes(tensors):
    ref, dev = tensors
    frame = htpscope.numerics(ref, dev)
    assert list(frame.handle) == [3, 7, 9]
    assert list(frame.status) == ["compared", "compared", "reference_only"]
    conv_ref, conv_dev = np.load(ref / "conv__debugID_3.npy"), np.load(dev / "conv__debugID_3.npy")
    row = frame.iloc[0]
    assert row.cosine == pytest.approx(cosine(conv_ref, conv_dev), rel=1e-12)
    assert row.mse == pytest.approx(float(np.mean((conv_dev - conv_ref) ** 2)), rel=1e-12)
    assert row.max_abs == pytest.approx(float(np.max(np.abs(conv_dev - conv_ref))), rel=1e-12)
    assert row["shape"] == (1, 8, 4, 4)
    assert row.elements == conv_ref.size
    assert not row.divergent
    assert frame.iloc[1].cosine == pytest.approx(-1.0)
    assert frame.iloc[1].divergent
    assert frame.attrs["first_divergent_handle"] == 7
    assert frame.attrs["metric"] == "cosine"
    assert frame.attrs["threshold"] == 0.99
    assert frame.attrs["summary"]["divergent"] == 1
    assert frame.elements.dtype == pd.Int64Dtype() and pd.isna(frame.elements.iloc[2])
    assert math.isnan(frame.cosine.iloc[2])


def test_identical_tensors_keep_an_infinite_snr(tensors):
    ref, _ = tensors
    frame = htpscope.numerics(ref, ref, metric="snr")
    compared = frame[frame.status == "compared"]
    assert (compared.snr_db == math.inf).all()
    assert not compared.divergent.any()


def test_numerics_equals_the_cli_json(tensors):
    ref, dev = tensors
    cli_binary()  # skips without one
    frame = htpscope.numerics(ref, dev, metric="mse", threshold=0.5)
    doc = cli_json("numerics", ref, dev, "--metric", "mse", "--threshold", "0.5", "--json")
    handles = doc.pop("handles")
    assert frame.attrs == doc
    assert list(frame.handle) == [h["handle"] for h in handles]
    for (_, row), h in zip(frame.iterrows(), handles):
        for key in ("mse", "cosine", "max_abs"):
            assert (h[key] is None and math.isnan(row[key])) or row[key] == h[key], key
        assert bool(row.divergent) == h["divergent"]


def test_bad_arguments_are_value_errors_and_bad_inputs_input_errors(tensors, tmp_path):
    ref, dev = tensors
    with pytest.raises(ValueError, match="no default threshold"):
        htpscope.numerics(ref, dev, metric="mse")
    with pytest.raises(ValueError, match="metric must be"):
        htpscope.numerics(ref, dev, metric="nope")
    with pytest.raises(ValueError, match="ref_layout must be"):
        htpscope.numerics(ref, dev, ref_layout="CHWN")
    bad = tmp_path / "bad"
    bad.mkdir()
    (bad / "conv__debugID_3.npy").write_bytes(b"\x93NUMPY not really")
    with pytest.raises(htpscope.InputError, match="conv__debugID_3.npy"):
        htpscope.numerics(ref, bad)
