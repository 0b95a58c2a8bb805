"""htpscope for Python: a profiled QNN HTP run as pandas DataFrames.

The same C++ readers, joined model, analyses and errors as the ``htpscope``
command line; the tables are those of docs/tables.md (one schema for SQL, CSV
and Python), their column names carry units (``_cycles``, ``_cycle``, ``_us``,
``_ticks``, ``_bytes``, ``_pct``, ``_ghz``).  See docs/python.md.

    >>> import htpscope
    >>> run = htpscope.load_run("run_dir")
    >>> run.ops.head()                  # per QNN op, by dominant-path cycles
    >>> run.slices.dur_cycles.sum()     # thread-aggregate work, cycles
    >>> run.summary()["work_cycles"]    # `htpscope summary --json`, as a dict
"""

from __future__ import annotations

import json
import os
from typing import Any, Iterable, Optional, Sequence, Union

import numpy as np
import pandas as pd

from . import _htpscope as _core
from ._htpscope import InputError

__version__ = _core.__version__
__all__ = [
    "InputError",
    "Run",
    "DiffResult",
    "TABLES",
    "load_run",
    "diff",
    "numerics",
    "schema",
]

PathLike = Union[str, bytes, "os.PathLike[str]"]

_SCHEMA = _core.schema()
#: Every table of a run, in the schema's order (docs/tables.md).
TABLES = tuple(name for name, _, _ in _SCHEMA)
_DESCRIPTIONS = {name: description for name, description, _ in _SCHEMA}


def schema(table: Optional[str] = None) -> pd.DataFrame:
    """The tables' columns: one row per column with its table, type and meaning.

    ``table`` limits it to one table.  The same schema as docs/tables.md,
    ``htpscope sql`` and CSV export.
    """
    rows = [
        (name, column, kind, meaning)
        for name, _, columns in _SCHEMA
        for column, kind, meaning in columns
        if table is None or name == table
    ]
    if table is not None and not rows:
        raise ValueError(f"no table named {table!r}; the tables are {', '.join(TABLES)}")
    return pd.DataFrame(rows, columns=["table", "column", "type", "meaning"])


def _path(value: Any, what: str) -> str:
    if isinstance(value, (str, bytes, os.PathLike)):
        return os.fsdecode(value)
    raise TypeError(f"{what}: expected a path (str or os.PathLike), not {type(value).__name__}")


def _paths(inputs: Union[PathLike, Iterable[PathLike]], what: str) -> list:
    if isinstance(inputs, (str, bytes, os.PathLike)):
        return [os.fsdecode(inputs)]
    try:
        items = list(inputs)
    except TypeError:
        raise TypeError(
            f"{what}: expected a path or a list of paths, not {type(inputs).__name__}"
        ) from None
    return [_path(item, what) for item in items]


def _frame(columns) -> pd.DataFrame:
    """A DataFrame over the NumPy arrays the C++ side filled (no copy)."""
    data = {}
    for name, kind, values, mask in columns:
        if mask is not None:  # an INTEGER or BOOLEAN column with nulls
            if kind == "INTEGER":
                values = pd.arrays.IntegerArray(values, mask)
            else:
                values = pd.arrays.BooleanArray(values, mask)
        data[name] = values
    return pd.DataFrame(data, copy=False)


class Run:
    """One profiled run, joined from its artifacts (``load_run`` makes it).

    Every table of the schema is an attribute holding a DataFrame, built on
    first access and kept: ``runs``, ``artifacts``, ``graphs``,
    ``executions``, ``ops``, ``htp_op_types``, ``op_instances``, ``slices``,
    ``units``, ``counters``, ``phases``, ``traffic``, ``qhas_cores``, ``dominant_path``,
    ``profile_nodes``, ``cross_checks``, ``warnings``, ``profile_phases``,
    ``op_steady_state``, ``modules``, for AI Hub and Genie profiles ``aihub_stages``,
    ``aihub_samples``, ``aihub_layers``, ``genie_events``, ``genie_metrics``, and for an
    ExecuTorch LLM runner's log ``llm_generations`` (``TABLES``).

    Column types: INTEGER -> int64 (pandas' nullable ``Int64`` when the
    column has a null in this run), REAL -> float64 (NaN for null),
    BOOLEAN -> bool, TEXT -> object (str, None for null).
    """

    def __init__(self, core: "_core.LoadedRun"):
        self._core = core
        self._tables: dict = {}

    @property
    def label(self) -> str:
        """The run directory, or the first file, as given."""
        return self._core.label

    @property
    def missing(self) -> pd.DataFrame:
        """Artifacts not given, and the figures their absence withholds."""
        return pd.DataFrame(self._core.missing, columns=["artifact", "withholds"])

    @property
    def skipped(self) -> list:
        """Files of the directory that are not artifacts of a run: "path: why"."""
        return list(self._core.skipped)

    def table(self, name: str) -> pd.DataFrame:
        """The table ``name`` of the schema (docs/tables.md) as a DataFrame."""
        frame = self._tables.get(name)
        if frame is None:
            frame = _frame(self._core.columns(name))
            self._tables[name] = frame
        return frame

    def summary(self, clock_ghz: Optional[float] = None) -> dict:
        """The same dict as ``htpscope summary --json`` (docs/summary-json.md).

        ``clock_ghz`` is the CLI's ``--clock-ghz``: the plausible HTP clock of
        the cycles / µs sanity check.
        """
        return json.loads(self._core.summary_json(clock_ghz))

    def __dir__(self):
        return sorted(set(super().__dir__()) | set(TABLES))

    def __repr__(self) -> str:
        sizes = ", ".join(
            f"{self._core.rows(name)} {name}" for name in ("executions", "ops", "slices")
        )
        return f"<htpscope.Run {self.label!r}: {sizes}>"


def _table_property(name: str) -> property:
    def get(self: Run) -> pd.DataFrame:
        return self.table(name)

    get.__name__ = name
    get.__doc__ = f"DataFrame: {_DESCRIPTIONS[name]} (docs/tables.md, `{name}`)."
    return property(get)


for _name in TABLES:
    if not hasattr(Run, _name):
        setattr(Run, _name, _table_property(_name))
del _name


def load_run(
    inputs: Union[PathLike, Sequence[PathLike]],
    graph: Optional[str] = None,
    allow_mismatch: bool = False,
) -> Run:
    """Loads one profiled run: a run directory, or a list of its artifact files.

    Artifacts are recognised by content (plain or .gz), as by the CLI.
    ``graph`` names the graph to keep; the model does not yet split a
    multi-graph profile, so it must name the run's only graph (ValueError
    otherwise: select rows by the ``graph`` column instead).
    ``allow_mismatch`` joins artifacts that do not look like one run (the
    CLI's ``--allow-mismatch``; the run then carries the warning
    ``mismatched_artifacts``).

    Raises InputError (a ValueError) with the CLI's message, naming the file
    and the byte offset or line, when an input is missing or malformed.
    """
    paths = _paths(inputs, "load_run")
    if not paths:
        raise ValueError("load_run: give a run directory or artifact files")
    return Run(_core.load_run(paths, graph or "", bool(allow_mismatch)))


def _side(side: Any, name: str) -> list:
    """A side of a diff as the C++ side takes it: a list of runs, each a
    LoadedRun or the files (or directory) of one run."""

    def one(run: Any) -> Any:
        if isinstance(run, Run):
            return run._core
        if isinstance(run, (str, bytes, os.PathLike)):
            return [os.fsdecode(run)]
        return _paths(run, f"diff side {name}")

    if isinstance(side, (Run, str, bytes, os.PathLike)):
        return [one(side)]
    try:
        runs = list(side)
    except TypeError:
        raise TypeError(
            f"diff side {name}: expected a Run, a path or a list of them, "
            f"not {type(side).__name__}"
        ) from None
    return [one(run) for run in runs]


def _records_frame(records: list, columns: Sequence[str]) -> pd.DataFrame:
    """Rows of JSON objects as a DataFrame.  A column whose values are all
    integers stays int64 (pandas' nullable Int64 where a value is null), so
    cycle columns never turn into floats; other columns as pandas infers."""
    data = {}
    for column in columns:
        values = [record.get(column) for record in records]
        present = [v for v in values if v is not None]
        if present and all(isinstance(v, int) and not isinstance(v, bool) for v in present):
            if len(present) < len(values):
                data[column] = pd.array(values, dtype="Int64")
            else:
                data[column] = np.array(values, dtype=np.int64)
        else:
            data[column] = pd.Series(values, dtype=object if not present else None)
    return pd.DataFrame(data, columns=list(columns))


# The keys of htpscope.diff/1's per-item objects (docs/diff.md).
_DIFF_OP_COLUMNS = (
    "name", "a_name", "type", "dims", "status", "matched_by", "a_dpc_cycles", "b_dpc_cycles",
    "dpc_change_cycles", "change_pct", "dpc_within_noise", "dpc_lower_bound", "a_work_cycles",
    "b_work_cycles", "work_change_pct", "a_instances", "b_instances",
)
_DIFF_HTP_COLUMNS = tuple(c for c in _DIFF_OP_COLUMNS if c not in ("type", "dims"))
_DIFF_UNIT_COLUMNS = (
    "tid", "kind", "a_cycles_used", "b_cycles_used", "change_pct", "a_utilization_pct",
    "b_utilization_pct",
)
_DIFF_ATTRIBUTION_COLUMNS = ("name", "status", "dpc_change_cycles", "share_of_wall_change_pct")
_COMPARISON_COLUMNS = (
    "a", "b", "change", "change_pct", "unit", "basis", "noise_bound", "within_noise",
)


def _json_array_frame(key: str, columns: Sequence[str], what: str) -> property:
    """A DiffResult property: the JSON array ``key`` as a DataFrame."""

    def get(self: "DiffResult") -> pd.DataFrame:
        return _records_frame(self.json[key], columns)

    get.__name__ = key
    get.__doc__ = f"DataFrame: {what} (docs/diff.md, ``{key}[]``)."
    return property(get)


class DiffResult:
    """``htpscope diff`` of two sides of runs (``diff`` makes it).

    ``verdict`` (the verdict in words), ``exit_status`` (0 every gate passed,
    1 a regression, 2 a gate the inputs cannot evaluate), and as DataFrames
    ``ops`` (per QNN op), ``htp_op_types``, ``units``, ``attribution`` and
    ``metrics`` (run-level figures, one row per gate name).  ``json`` is the
    whole htpscope.diff/1 document (docs/diff.md); ``render()`` the report.
    """

    def __init__(self, core: "_core.DiffOutcome"):
        self._core = core
        self._json: Optional[dict] = None

    @property
    def exit_status(self) -> int:
        return self._core.exit_status

    @property
    def verdict(self) -> str:
        return self._core.verdict

    @property
    def json(self) -> dict:
        """The htpscope.diff/1 document, as ``htpscope diff --format json`` writes it."""
        if self._json is None:
            self._json = json.loads(self._core.json())
        return self._json

    ops = _json_array_frame("ops", _DIFF_OP_COLUMNS, "One row per QNN op on either side, by |ΔDPC|")
    htp_op_types = _json_array_frame("htp_op_types", _DIFF_HTP_COLUMNS,
                                     "One row per HTP op type on either side")
    units = _json_array_frame("units", _DIFF_UNIT_COLUMNS, "One row per hardware thread")
    attribution = _json_array_frame("attribution", _DIFF_ATTRIBUTION_COLUMNS,
                                    "The ops that explain the wall change, with their share")

    @property
    def metrics(self) -> pd.DataFrame:
        """Run-level figures (wall_us, work_cycles, ...), indexed by their gate name."""
        doc = self.json
        rows = []
        for name in self._core.metric_names:
            comparison = doc.get(name) or {}
            row = {column: comparison.get(column) for column in _COMPARISON_COLUMNS}
            for side in ("a", "b"):
                stats = comparison.get(f"{side}_stats") or {}
                row[f"{side}_n"] = stats.get("n")
            rows.append(row)
        frame = _records_frame(rows, _COMPARISON_COLUMNS + ("a_n", "b_n"))
        frame.index = pd.Index(list(self._core.metric_names), name="metric")
        return frame

    @property
    def gates(self) -> list:
        """One dict per ``fail_on`` gate: expr, passed, within_noise, evaluated, ..."""
        return self.json["gates"]

    @property
    def notes(self) -> list:
        return self.json["notes"]

    def render(self, format: str = "text", top: int = 10) -> str:
        """The report as ``htpscope diff --format FORMAT`` prints it (text, markdown, junit)."""
        return self._core.render(format, top)

    def __str__(self) -> str:
        return self.render()

    def __repr__(self) -> str:
        return f"<htpscope.DiffResult exit_status={self.exit_status}: {self.verdict!r}>"


def diff(
    a: Any,
    b: Any,
    fail_on: Union[str, Iterable[str]] = (),
    allow_mismatch: bool = False,
    clock_ghz: Optional[float] = None,
) -> DiffResult:
    """Compares side A (baseline) with side B (candidate) op by op.

    Each side is one run — a ``Run``, a run directory or one artifact file —
    or a list of runs of the same configuration (repeated measurements), each
    a ``Run``, a directory, one artifact file, or a list of the artifact
    files of one run.  ``fail_on`` takes the CLI's ``--fail-on`` expressions
    (e.g. ``"wall_us>+5%"``; grammar in docs/diff.md).  A malformed
    expression raises ValueError; inputs raise InputError as in load_run.
    """
    if isinstance(fail_on, str):
        fail_on = [fail_on]
    gates = [str(expr) for expr in fail_on]
    return DiffResult(
        _core.diff(_side(a, "A"), _side(b, "B"), gates, bool(allow_mismatch), clock_ghz)
    )


_NUMERICS_DTYPES = {"int": "int64", "Int64": "Int64", "float": "float64", "bool": "bool",
                    "str": object, "object": object}


def numerics(
    reference: PathLike,
    device: PathLike,
    metric: str = "cosine",
    threshold: Optional[float] = None,
    *,
    manifest_ref: Optional[PathLike] = None,
    manifest_device: Optional[PathLike] = None,
    ref_debug_buffer: Optional[PathLike] = None,
    debug_buffer: Optional[PathLike] = None,
    htp_graph: Optional[PathLike] = None,
    ref_layout: Optional[str] = None,
    device_layout: Optional[str] = None,
    threads: int = 2,
    preview: int = 4,
) -> pd.DataFrame:
    """``htpscope numerics REF DEVICE``: one row per compared (debug handle, output).

    ``reference`` and ``device`` are what the CLI takes: a directory (.npy
    files, or manifest.json + raw files), a manifest .json, one .npy file, or
    an ExecuTorch ETDump (with ``ref_debug_buffer`` / ``debug_buffer``).
    ``metric`` is cosine (default threshold 0.99), snr (dB, 20), mse,
    mean_abs or max_abs (those need ``threshold``).  Keyword arguments are the
    CLI's options of the same names (docs/numerics.md).

    Rows are in execution order; columns are the JSON's ``handles[]`` keys,
    metrics float64 (NaN when not computed, ±inf kept where the JSON writes
    null).  ``DataFrame.attrs`` holds the JSON's other fields: reference,
    device, metric, threshold, divergent_when, order,
    first_divergent_handle, first_divergent, summary, notes.
    """

    def opt(value: Optional[PathLike], what: str) -> str:
        return "" if value is None else _path(value, what)

    facts, columns = _core.numerics(
        _path(reference, "reference"), _path(device, "device"), str(metric), threshold,
        manifest_ref=opt(manifest_ref, "manifest_ref"),
        manifest_device=opt(manifest_device, "manifest_device"),
        ref_debug_buffer=opt(ref_debug_buffer, "ref_debug_buffer"),
        debug_buffer=opt(debug_buffer, "debug_buffer"),
        htp_graph=opt(htp_graph, "htp_graph"),
        ref_layout=ref_layout or "", device_layout=device_layout or "",
        threads=int(threads), preview=int(preview),
    )
    frame = pd.DataFrame(
        {name: pd.Series(values, dtype=_NUMERICS_DTYPES[kind]) for name, kind, values in columns}
    )
    frame.attrs.update(json.loads(facts))
    return frame
