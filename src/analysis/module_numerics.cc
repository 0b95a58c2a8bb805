#include "analysis/module_numerics.h"

#include <map>

#include "analysis/module_path.h"

namespace htpscope {
namespace {

std::string NameOf(const HandleRow& row) {
  if (!row.reference_ops.empty() && !row.reference_ops.front().empty())
    return row.reference_ops.front();
  const std::string& tensor =
      row.reference_tensor.empty() ? row.device_tensor : row.reference_tensor;
  return std::string(SplitDebugHandle(tensor).base);
}

}  // namespace

std::vector<ModuleNumericsRow> NumericsByModule(const NumericsResult& result) {
  std::map<std::string, ModuleNumericsRow> by_path;
  const bool above = DivergesAbove(result.metric);
  bool any_module = false;
  for (size_t i = 0; i < result.rows.size(); ++i) {
    const HandleRow& row = result.rows[i];
    if (row.status != HandleStatus::kCompared) continue;
    ModulePath path = ParseModulePath(NameOf(row));
    std::vector<std::string> prefixes{""};
    if (path.segments.empty()) {
      prefixes.emplace_back(kNoModule);
    } else {
      any_module = true;
      std::string p;
      for (const auto& s : path.segments) {
        p += (p.empty() ? "" : "/") + s;
        prefixes.push_back(p);
      }
    }
    for (size_t d = 0; d < prefixes.size(); ++d) {
      ModuleNumericsRow& m = by_path[prefixes[d]];
      m.path = prefixes[d];
      m.depth = static_cast<int>(d);
      ++m.compared;
      if (row.divergent) {
        ++m.divergent;
        if (!m.first_divergent_row) m.first_divergent_row = i;
      }
      if (!row.gap) continue;
      bool worse = !m.worst_gap || (above ? *row.gap > *m.worst_gap : *row.gap < *m.worst_gap);
      if (worse) {
        m.worst_gap = row.gap;
        m.worst_row = i;
      }
    }
  }
  std::vector<ModuleNumericsRow> out;
  if (!any_module) return out;
  for (auto& [path, row] : by_path) out.push_back(std::move(row));  // "" sorts first
  return out;
}

}  // namespace htpscope
