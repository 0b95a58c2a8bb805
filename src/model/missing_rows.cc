#include "model/missing_rows.h"

#include <string_view>

#include "model/artifact_registry.h"

namespace htpscope {

std::vector<MissingRow> MissingRowsOf(const Run& run, std::initializer_list<RunData> data) {
  std::vector<MissingRow> out;
  for (const MissingRow& row : run.missing)
    for (RunData d : data) {
      const char* name = model_import::FindRunDataSpec(d).missing_name;
      if (name && row.artifact == std::string_view(name)) {
        out.push_back(row);
        break;
      }
    }
  return out;
}

}  // namespace htpscope
