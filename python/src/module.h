// htpscope._htpscope: the Python extension over the C++ library.  It sits
// above src/report, beside the CLI: the same readers, the same joined model
// (LoadRun), the same analyses and JSON, the same errors.  The pure-Python
// package (python/htpscope/__init__.py) turns what it returns into pandas
// DataFrames and dicts.
#pragma once

#include <pybind11/pybind11.h>

#include <memory>

#include "model/run.h"
#include "report/run_tables.h"

namespace htpscope::python {

namespace py = pybind11;

// A loaded run, shared by the Python objects that refer to it.
struct LoadedRun {
  Run run;
};
using LoadedRunPtr = std::shared_ptr<const LoadedRun>;

// Registers htpscope.InputError (a ValueError) and the translation of the
// library's exceptions: InputError -> htpscope.InputError (with attributes
// file, problem, byte_offset, line; an InputNeedsValueError's problem ends
// with the keyword arguments that give the value), UsageError -> ValueError,
// OutputError -> OSError; std::invalid_argument (ValueError too) stays
// pybind11's ValueError.
void BindErrors(py::module_& m);

// load_run, the Run class, the table schema and run summaries.
void BindRun(py::module_& m);

// diff(...) and its result.
void BindDiff(py::module_& m);

// numerics(...).
void BindNumerics(py::module_& m);

// The columns of `table` over `run`, each as a tuple (name, type, values,
// mask): `type` is the schema's "INTEGER", "REAL", "TEXT" or "BOOLEAN";
// `values` a NumPy array filled here (int64, float64 with NaN for nulls,
// bool, or object holding one str object per distinct text); `mask` None, or
// for an INTEGER or BOOLEAN column with nulls a bool array, True where null.
// Text nulls are None in `values`.  Needs the GIL.
py::list TableColumns(const Run& run, const RunTable& table);

}  // namespace htpscope::python
