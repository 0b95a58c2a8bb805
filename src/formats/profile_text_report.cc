// ProfileReport's queries and the helpers both profile readers share
// (profile_text.h, profile_text_shared.h).
#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <map>
#include <tuple>
#include <utility>

#include "base/text_util.h"
#include "formats/profile_text.h"
#include "formats/profile_text_shared.h"

namespace htpscope {
namespace {

bool IsDigit(char c) { return c >= '0' && c <= '9'; }

// Graph identity: index (absent sorts first) and name.
using GraphKey = std::tuple<bool, int, std::string>;

GraphKey KeyOf(const ProfileBlock& b) {
  return {b.graph_index.has_value(), b.graph_index.value_or(0), b.graph_name};
}

bool NamesAGraph(const ProfileBlock& b) { return b.graph_index || !b.graph_name.empty(); }

}  // namespace

std::optional<ProfileNumber> ParseProfileNumber(std::string_view text, std::string* problem) {
  ProfileNumber out;
  if (text.empty()) {
    *problem = "expected a number, found nothing";
    return std::nullopt;
  }
  if (text[0] == '-') {
    *problem = fmt::format("\"{}\" is negative: expected a non-negative number", text);
    return std::nullopt;
  }
  const char* begin = text.data();
  const char* end = begin + text.size();
  if (std::all_of(begin, end, IsDigit)) {
    int64_t integer = 0;
    auto [ptr, ec] = std::from_chars(begin, end, integer);
    if (ec == std::errc::result_out_of_range) {
      *problem = fmt::format("{} overflows a 64-bit integer", text);
      return std::nullopt;
    }
    out.integer = integer;
    out.value = static_cast<double>(integer);
    return out;
  }
  // Only plain decimals: from_chars would also take "inf" and "nan".
  bool decimal_chars = std::all_of(begin, end, [](char c) {
    return IsDigit(c) || c == '.' || c == 'e' || c == 'E' || c == '+' || c == '-';
  });
  double value = 0;
  auto [ptr, ec] = std::from_chars(begin, end, value);
  if (!decimal_chars || ec != std::errc() || ptr != end || !std::isfinite(value)) {
    *problem = fmt::format("\"{}\" is not a number", text);
    return std::nullopt;
  }
  if (value < 0) {
    *problem = fmt::format("\"{}\" is negative: expected a non-negative number", text);
    return std::nullopt;
  }
  out.value = value;
  // 2^63: whole doubles below it convert to int64 exactly.
  if (std::floor(value) == value && value < 9223372036854775808.0)
    out.integer = static_cast<int64_t>(value);
  return out;
}

void SetProfileNodeLabel(std::string_view label, ProfileNode* node) {
  node->label = std::string(label);
  node->qnn_op_name = std::string(label);
  node->op_id.reset();
  constexpr std::string_view kOpId = "OpId_";
  size_t at = label.rfind(kOpId);
  if (at == std::string_view::npos) return;
  if (at > 0 && label[at - 1] != ':' && label[at - 1] != ' ') return;
  std::string_view digits = label.substr(at + kOpId.size());
  uint32_t id = 0;
  auto [ptr, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), id);
  if (digits.empty() || !IsDigit(digits[0]) || ec != std::errc() ||
      ptr != digits.data() + digits.size())
    return;
  node->op_id = id;
  std::string_view name = label.substr(0, at);
  if (!name.empty() && name.back() == ':') name.remove_suffix(1);
  node->qnn_op_name = std::string(Trim(name));
}

std::optional<ProfileGraphLabel> ParseProfileGraphLabel(std::string_view text) {
  text = Trim(text);
  constexpr std::string_view kGraph = "Graph ";
  if (text.substr(0, kGraph.size()) != kGraph) return std::nullopt;
  std::string_view rest = text.substr(kGraph.size());
  size_t digits = 0;
  while (digits < rest.size() && IsDigit(rest[digits])) ++digits;
  ProfileGraphLabel out;
  auto [ptr, ec] = std::from_chars(rest.data(), rest.data() + digits, out.index);
  if (digits == 0 || ec != std::errc()) return std::nullopt;
  rest = rest.substr(digits);
  if (rest.empty()) return out;
  if (rest[0] == ':') {  // "Graph 0: model.prefill"
    out.name = std::string(Trim(rest.substr(1)));
    return out;
  }
  // "Graph 0 (model)": the name is everything inside the outer parentheses.
  rest = Trim(rest);
  if (rest.size() < 2 || rest.front() != '(' || rest.back() != ')') return std::nullopt;
  out.name = std::string(Trim(rest.substr(1, rest.size() - 2)));
  return out;
}

ProfilePhase ProfilePhaseOfTitle(std::string_view title) {
  title = Trim(title);
  auto starts = [&](std::string_view prefix) {
    return title.size() >= prefix.size() &&
           EqualsIgnoreCase(title.substr(0, prefix.size()), prefix);
  };
  if (starts("Execute Stats (Overall)")) return ProfilePhase::kExecuteIps;
  if (starts("Execute Stat")) return ProfilePhase::kExecute;
  if (starts("Init Stats") || starts("Create From Binary")) return ProfilePhase::kInit;
  if (starts("Compose Graph")) return ProfilePhase::kCompose;
  if (starts("Finalize Stats")) return ProfilePhase::kFinalize;
  if (starts("De-Init Stats") || starts("Deinit Stats")) return ProfilePhase::kDeinit;
  return ProfilePhase::kOther;
}

const ProfileMetric* ProfileBlock::Find(std::string_view name) const {
  for (const auto& m : metrics)
    if (EqualsIgnoreCase(m.name, name)) return &m;
  return nullptr;
}

std::vector<const ProfileBlock*> ProfileReport::Executions() const {
  std::vector<const ProfileBlock*> out;
  for (const auto& b : raw)
    if (b.execution > 0) out.push_back(&b);
  std::stable_sort(out.begin(), out.end(), [](const ProfileBlock* a, const ProfileBlock* b) {
    return a->execution < b->execution;
  });
  return out;
}

std::vector<ProfileGraph> ProfileReport::Graphs() const {
  // Every block that belongs to a graph, in file order.
  std::vector<const ProfileBlock*> blocks;
  for (const auto& b : statistics)
    if (NamesAGraph(b)) blocks.push_back(&b);
  for (const auto& b : raw)
    if (b.execution > 0) blocks.push_back(&b);
  std::stable_sort(blocks.begin(), blocks.end(), [](const ProfileBlock* a, const ProfileBlock* b) {
    return a->first_line < b->first_line;
  });
  std::vector<ProfileGraph> out;
  std::map<GraphKey, size_t> where;
  for (const ProfileBlock* b : blocks) {
    auto [it, fresh] = where.emplace(KeyOf(*b), out.size());
    if (fresh) {
      ProfileGraph g;
      g.index = b->graph_index;
      g.name = b->graph_name;
      out.push_back(std::move(g));
    }
    ProfileGraph& g = out[it->second];
    (b->execution > 0 ? g.executions : g.statistics).push_back(b);
  }
  return out;
}

namespace profile_internal {

std::string_view SkipBom(std::string_view text) {
  if (text.substr(0, kUtf8Bom.size()) == kUtf8Bom) text.remove_prefix(kUtf8Bom.size());
  return text;
}

void ProfileWarnings::Add(uint64_t line, const std::string& message) {
  if (first_line_ == 0) first_line_ = line;
  sink_.Add(fmt::format("line {}: {}", line, message));
}

std::optional<LintEntry> LintEntryOf(std::string_view name) {
  name = Trim(name);
  if (EqualsIgnoreCase(name, "Wait (Scheduler) time")) return LintEntry::kWait;
  if (EqualsIgnoreCase(name, "Overlap time")) return LintEntry::kOverlap;
  if (EqualsIgnoreCase(name, "Overlap (wait) time")) return LintEntry::kOverlapWait;
  if (EqualsIgnoreCase(name, "Resources")) return LintEntry::kResources;
  return std::nullopt;
}

std::optional<int64_t>* LintCyclesSlot(LintEntry entry, ProfileNodeLint* lint) {
  switch (entry) {
    case LintEntry::kWait:
      return &lint->wait_cycles;
    case LintEntry::kOverlap:
      return &lint->overlap_cycles;
    case LintEntry::kOverlapWait:
      return &lint->overlap_wait_cycles;
    case LintEntry::kResources:
      break;
  }
  return nullptr;
}

std::vector<std::string>* LintNameList(LintEntry entry, ProfileNodeLint* lint) {
  if (entry == LintEntry::kOverlap) return &lint->overlap_ops;
  if (entry == LintEntry::kOverlapWait) return &lint->overlap_wait_ops;
  return nullptr;
}

std::vector<std::string> SplitResources(std::string_view text) {
  std::vector<std::string> out;
  const std::vector<std::string_view> items = SplitAt(text, ',');
  for (size_t k = 0; k < items.size(); ++k) {
    std::string_view item = Trim(items[k]);
    if (k + 1 == items.size()) {
      // "DMA  cycles": a unit printed after the last resource.
      size_t space = item.find_last_of(" \t");
      if (space != std::string_view::npos &&
          (EqualsIgnoreCase(Trim(item.substr(space)), "cycles") ||
           EqualsIgnoreCase(Trim(item.substr(space)), "count")))
        item = Trim(item.substr(0, space));
    }
    if (!item.empty()) out.emplace_back(item);
  }
  // "Resources :   cycles": no resources, only the unit.
  if (out.size() == 1 && (EqualsIgnoreCase(out[0], "cycles") || EqualsIgnoreCase(out[0], "count")))
    out.clear();
  return out;
}

bool HasOpId(std::string_view label) {
  label = Trim(label);
  if (label.size() >= 8 && EqualsIgnoreCase(label.substr(label.size() - 8), "(cycles)"))
    label = Trim(label.substr(0, label.size() - 8));
  ProfileNode probe;
  SetProfileNodeLabel(label, &probe);
  return probe.op_id.has_value();
}

void NumberGraphExecutions(ProfileReport* report) {
  std::map<GraphKey, int> seen;
  for (auto& b : report->raw)
    if (b.execution > 0) b.graph_execution = ++seen[KeyOf(b)];
}

}  // namespace profile_internal
}  // namespace htpscope
