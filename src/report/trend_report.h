// `htpscope trend` output: a figure over the runs of a store, each run marked
// against its baseline runs by diff's noise rule (analysis/trend.h).
#pragma once

#include <nlohmann/json.hpp>
#include <ostream>
#include <string>
#include <vector>

#include "analysis/trend.h"
#include "report/run_sql.h"
#include "report/run_store.h"

namespace htpscope {

struct TrendView {
  TrendMetric metric;
  std::string label;  // the --label filter, "" for every run
  int baseline_runs = 1;
  std::vector<TrendRow> rows;
};

// A table for people (kTable), RFC 4180 CSV (kCsv) or JSON (kJson; schema in
// docs/sql.md), written to `out`.  Throws OutputError when `out` fails.
void WriteTrend(const TrendView& view, QueryFormat format, std::ostream& out,
                const std::string& out_name = "<stdout>");

nlohmann::json TrendToJson(const TrendView& view);

}  // namespace htpscope
