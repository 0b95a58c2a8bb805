#include "analysis/heap.h"

#include <fmt/format.h>

#include "base/errors.h"
#include "model/side_input_registry.h"

namespace htpscope {
namespace {

// File order of two checkpoints of one file (lines, else byte offsets).
bool Precedes(const HeapCheckpoint& a, const HeapCheckpoint& b) {
  if (a.line && b.line) return *a.line < *b.line;
  if (a.byte_offset && b.byte_offset) return *a.byte_offset < *b.byte_offset;
  return false;
}

std::string WhereList(const std::vector<const HeapCheckpoint*>& found) {
  std::string out;
  for (const HeapCheckpoint* c : found) {
    if (!out.empty()) out += ", ";
    out += c->Where();
  }
  return out;
}

}  // namespace

HeapUsage AnalyzeHeap(const HeapFile& file) {
  std::vector<const HeapCheckpoint*> found[2];  // by kind, in file order
  for (const auto& c : file.checkpoints) found[static_cast<int>(c.kind)].push_back(&c);
  HeapUsage out;
  out.path = file.path;
  out.format = file.format;
  out.warnings = file.warnings;
  std::optional<HeapCheckpoint>* slots[2] = {&out.before, &out.after};
  for (int k = 0; k < 2; ++k) {
    const char* name = HeapCheckpointName(static_cast<HeapCheckpointKind>(k));
    if (found[k].empty()) {
      out.problems.push_back(fmt::format(
          "missing {}: the heap {} is unknown and so is the delta", name,
          k == 0 ? "before the first context was created" : "after the last context was freed"));
    } else if (found[k].size() > 1) {
      out.problems.push_back(
          fmt::format("{} appears {} times ({}): which context's value is meant is ambiguous, so "
                      "none is used",
                      name, found[k].size(), WhereList(found[k])));
    } else {
      *slots[k] = *found[k].front();
    }
  }
  if (out.before && out.after) {
    if (Precedes(*out.after, *out.before)) {
      out.problems.push_back(fmt::format(
          "{} ({}) comes before {} ({}): the checkpoints are out of order (two runs mixed in one "
          "file?), so no delta is given",
          out.after->identifier, out.after->Where(), out.before->identifier, out.before->Where()));
    } else {
      out.delta_bytes = out.after->value_bytes - out.before->value_bytes;
    }
  }
  return out;
}

HeapUsage ReadAndAnalyzeHeap(const std::string& path) {
  try {
    return AnalyzeHeap(LoadSideInput<SideInput::kHeapCheckpoints>(path));
  } catch (const InputError& e) {
    HeapUsage out;
    out.path = path;
    // what() already names the file; the problem is reported per file.
    out.problems.push_back(e.line() ? fmt::format("line {}: {}", *e.line(), e.problem())
                           : e.byte_offset()
                               ? fmt::format("at byte {}: {}", *e.byte_offset(), e.problem())
                               : e.problem());
    return out;
  }
}

}  // namespace htpscope
