#include "cli/query_format_args.h"

#include "cli/cli_support.h"

namespace htpscope::cli {

void AddQueryFormatArgs(CLI::App* cmd, QueryFormatArgs& args) {
  AddFormatOptions(cmd, args.format, args.json, "Output: table, csv or json",
                   {"table", "csv", "json"});
}

}  // namespace htpscope::cli
