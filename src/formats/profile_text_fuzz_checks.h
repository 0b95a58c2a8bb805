// Invariants of a ProfileReport's graph structure, checked by the profile
// fuzz targets on every input the readers accept.
#pragma once

#include <cstdio>
#include <cstdlib>

#include "formats/profile_text.h"

namespace htpscope::fuzz {

[[noreturn]] inline void ProfileViolation(const char* what) {
  std::fprintf(stderr, "fuzz contract violated: %s\n", what);
  std::abort();
}

// Every execution block belongs to exactly one of Graphs(), whose
// executions are numbered 1..n in file order; statistics blocks have no
// execution number.
inline void CheckProfileGraphs(const ProfileReport& report) {
  size_t executions = 0;
  for (const auto& b : report.raw) {
    if (b.execution > 0) ++executions;
    if ((b.execution > 0) != (b.graph_execution > 0))
      ProfileViolation("graph_execution set for a non-execution block or missing");
  }
  for (const auto& b : report.statistics)
    if (b.graph_execution != 0) ProfileViolation("graph_execution set for a statistics block");
  size_t listed = 0;
  for (const ProfileGraph& g : report.Graphs()) {
    for (size_t i = 0; i < g.executions.size(); ++i) {
      const ProfileBlock& b = *g.executions[i];
      if (b.graph_execution != static_cast<int>(i) + 1)
        ProfileViolation("a graph's executions are not numbered 1..n in order");
      if (b.graph_index != g.index || b.graph_name != g.name)
        ProfileViolation("an execution is listed under another graph");
    }
    listed += g.executions.size();
  }
  if (listed != executions) ProfileViolation("Graphs() does not list every execution once");
  if (report.Executions().size() != executions)
    ProfileViolation("Executions() does not list every execution once");
}

}  // namespace htpscope::fuzz
