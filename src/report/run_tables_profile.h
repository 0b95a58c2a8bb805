// Part of the run schema (run_tables.h): the profile's phase and per-op
// steady-state tables, appended by MakeTables (run_tables_profile.cc).
#pragma once

#include <vector>

#include "report/run_tables.h"

namespace htpscope {

// Appends "profile_phases" and "op_steady_state" to `tables`.
void AddProfileTables(std::vector<RunTable>& tables);

}  // namespace htpscope
