// --format table|csv|json and --json, as the commands that print query
// results (sql, trend) take them.
#pragma once

#include <CLI/CLI.hpp>
#include <string>

#include "report/run_sql.h"

namespace htpscope::cli {

struct QueryFormatArgs {
  std::string format = "table";
  bool json = false;

  // The format chosen: json under --json, else --format's.
  QueryFormat Chosen() const { return ParseQueryFormat(json ? "json" : format); }
};

// Adds --format and --json (AddFormatOptions) to `cmd`.
void AddQueryFormatArgs(CLI::App* cmd, QueryFormatArgs& args);

}  // namespace htpscope::cli
