// The device profiles' tables of the run schema (report/run_tables.h;
// docs/tables.md): aihub_stages, aihub_samples, aihub_layers, genie_events,
// genie_metrics, llm_generations.  Each has no rows for a run without such a
// profile.
#pragma once

#include <string>
#include <vector>

#include "report/run_store.h"
#include "report/run_tables.h"

namespace htpscope {

// Appends the tables above to `tables` (RunTables' order ends with them).
void AppendDeviceProfileTables(std::vector<RunTable>& tables);

// The AI Hub, Genie and ExecuTorch runner figures `trend --metric` follows:
// the registry's device figures marked trend (model/figures.h), with their
// names, units and descriptions (the basis).
const std::vector<TrendMetric>& DeviceProfileTrendMetrics();
// The query of a run's samples of device-profile figure `name` in a store
// (?1 is the run_id); "" for any other name.
std::string DeviceProfileTrendSql(const std::string& name);

}  // namespace htpscope
