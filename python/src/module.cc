#include "module.h"

PYBIND11_MODULE(_htpscope, m) {
  m.doc() =
      "htpscope's C++ core for Python: the readers, the joined model of a run, its tables, "
      "summary, diff and numerics. Use the htpscope package, which builds DataFrames on it.";
  m.attr("__version__") = HTPSCOPE_VERSION;
  htpscope::python::BindErrors(m);
  htpscope::python::BindRun(m);
  htpscope::python::BindDiff(m);
  htpscope::python::BindNumerics(m);
}
