#include "report/heap_report.h"

#include <fmt/format.h>

#include <algorithm>

#include "report/format_util.h"

namespace htpscope {
namespace {

using nlohmann::json;

std::string BytesCell(const std::optional<HeapCheckpoint>& c) {
  if (!c) return "-";
  return fmt::format("{} ({})", GroupDigits(c->value_bytes), HumanBytes(c->value_bytes));
}

std::string DeltaCell(const HeapUsage& run) {
  if (!run.delta_bytes) return "-";
  int64_t d = *run.delta_bytes;
  std::string sign = d > 0 ? "+" : "";
  return fmt::format("{}{} ({}{}){}", sign, GroupDigits(d), sign, HumanBytes(d),
                     d < 0 ? " heap released" : "");
}

json CheckpointJson(const std::optional<HeapCheckpoint>& c) {
  if (!c) return nullptr;
  return {{"identifier", c->identifier},
          {"bytes", c->value_bytes},
          {"line", c->line ? json(*c->line) : json(nullptr)},
          {"byte_offset", c->byte_offset ? json(*c->byte_offset) : json(nullptr)},
          {"context", c->context.empty() ? json(nullptr) : json(c->context)}};
}

}  // namespace

std::string RenderHeapText(const std::vector<HeapUsage>& runs) {
  std::string out =
      "htpscope heap: DSP heap before the first context was created and after the last was freed\n";
  size_t width = 4;
  for (const auto& r : runs) width = std::max(width, std::min<size_t>(r.path.size(), 48));
  out += fmt::format("  {:<{}}  {:<20}  {:>24}  {:>24}  {}\n", "file", width, "format",
                     "before_context_created", "after_context_freed", "delta (after − before)");
  for (const auto& r : runs)
    out += fmt::format("  {:<{}}  {:<20}  {:>24}  {:>24}  {}\n", EllipsizeLeft(r.path, width),
                       width, r.format ? *r.format : std::string("unreadable"), BytesCell(r.before),
                       BytesCell(r.after), DeltaCell(r));
  out += "  bytes (binary units in parentheses); a negative delta means the heap shrank\n";
  size_t with_problems = 0;
  for (const auto& r : runs) {
    if (!r.problems.empty()) ++with_problems;
    for (const auto& w : r.warnings) out += fmt::format("  warning: {}: {}\n", r.path, w);
  }
  if (with_problems > 0)
    out += fmt::format(
        "  {} file(s) have problems (listed as errors): a \"-\" is a figure they do not "
        "support\n",
        with_problems);
  return out;
}

json HeapToJson(const std::vector<HeapUsage>& runs) {
  json list = json::array();
  for (const auto& r : runs)
    list.push_back({{"path", r.path},
                    {"format", r.format ? json(*r.format) : json(nullptr)},
                    {"before_bytes", r.before ? json(r.before->value_bytes) : json(nullptr)},
                    {"after_bytes", r.after ? json(r.after->value_bytes) : json(nullptr)},
                    {"delta_bytes", r.delta_bytes ? json(*r.delta_bytes) : json(nullptr)},
                    {"heap_released", r.delta_bytes ? json(r.heap_released()) : json(nullptr)},
                    {"before", CheckpointJson(r.before)},
                    {"after", CheckpointJson(r.after)},
                    {"problems", r.problems},
                    {"warnings", r.warnings}});
  return {{"schema", "htpscope.heap/1"}, {"runs", list}};
}

}  // namespace htpscope
