// The registry of warning codes: every code a run, a summary, a timeline or
// a graph view can carry in its warnings, declared once below with its
// severity, where it is noticed and what it means.  An emitter names an
// entry (WarningCode::partial_qhas), never a string, so an unregistered code
// does not compile; the output prints WarningName(code), the entry's name
// as written.  docs/errors.md lists the registry (a test keeps the two equal).
//
// To add a code: one F(...) line below, in its source's group; then
// regenerate docs/errors.md (HTPSCOPE_UPDATE_DOCS=1 htpscope_tests
// --gtest_filter=WarningCodes.*).  A code is a stable identifier scripts
// match on: never rename or reuse one.
#pragma once

#include <cstddef>
#include <cstdint>
#include <iterator>
#include <optional>
#include <string_view>

namespace htpscope {

// How much a warning takes from what the output says (SeverityMeaning).
enum class WarningSeverity : uint8_t { kInfo, kWarning, kDataLoss };

// Where a warning is noticed: the layer of its emitter (SourceMeaning).
enum class WarningSource : uint8_t { kInput, kReader, kImport, kJoin, kAnalysis };

// F(code, severity, source, description): one line per code, grouped by
// source in the order of a run's loading.  The code is the identifier of
// the enum value and, as written, the `code` of the output.
#define HTPSCOPE_WARNING_CODES(F)                                                                  \
  F(input, kDataLoss, kInput,                                                                      \
    "an input file was partly left out (a directory entry that is not a regular file, bytes "      \
    "after the last gzip member), prefixed with the file")                                         \
  F(reader, kDataLoss, kReader,                                                                    \
    "a reader's own warning, prefixed with the file: what it left out (a line, row, section or "   \
    "event it cannot use) or which of two copies that disagree it kept")                           \
  F(unexpected_unit, kDataLoss, kImport,                                                           \
    "a profile line expected in µs carries another unit; the figure is withheld")                  \
  F(mismatched_artifacts, kWarning, kJoin,                                                         \
    "an artifact shows evidence of another run (few shared op IDs, the optrace outside every "     \
    "Graph Execute window); joined anyway on request")                                             \
  F(qhas_mismatch, kWarning, kJoin,                                                                \
    "QHAS names op IDs the optrace does not have (a QHAS from another run?)")                      \
  F(optrace_outside_window, kWarning, kJoin,                                                       \
    "the optrace's cycles overlap a runtrace Graph Execute window without lying inside one")       \
  F(partial_qhas, kDataLoss, kJoin,                                                                \
    "QHAS's op lists cover fewer nodes than `htp_overall_summary` states: whole-graph figures "    \
    "come "                                                                                        \
    "from its whole-graph fields, per-op tables list only what it holds")                          \
  F(empty_trace, kDataLoss, kJoin, "the optrace holds no executed op events: no fine view")        \
  F(multi_slice_dpc, kInfo, kJoin,                                                                 \
    "some ops ran as several slices on different threads: their DPC is each slice's share of "     \
    "the dominant path, summed (from QHAS, or the path reconstructed from the optrace)")           \
  F(qhas_unit_type_unknown, kWarning, kJoin,                                                       \
    "a QHAS `htp_resources` row has a `type` other than HMX/HVX (e.g. `UNK`, seen when two HMX "   \
    "tiles "                                                                                       \
    "share a tid); the unit is taken from the optrace's thread name, else the tid")                \
  F(multi_core_qhas, kInfo, kJoin,                                                                 \
    "QHAS describes several HTP cores: `qhas_cores[]` lists each; the fine view's whole-graph "    \
    "figures are core 0's (or the optrace's)")                                                     \
  F(qhas_zero_traffic, kWarning, kJoin,                                                            \
    "every QHAS `htp_op_instances` row reports 0 bytes while the HTP graph's `mem_*` params or "   \
    "the "                                                                                         \
    "optrace's DRAM/VTCM counters are not 0; per-op traffic comes from the HTP graph, or is "      \
    "withheld")                                                                                    \
  F(cross_check_mismatch, kWarning, kJoin, "at least one cross-check between artifacts disagrees") \
  F(cold_only, kInfo, kAnalysis, "the profile holds one execution: no steady state")               \
  F(aggregate_cycles, kInfo, kAnalysis,                                                            \
    "an execution's cycles ÷ µs exceeds the plausible clock: the cycle figure is summed over "   \
    "threads (work volume), not wall time")                                                        \
  F(single_execution_trace, kInfo, kAnalysis,                                                      \
    "always with an optrace or QHAS: it covers one (the first, cold) execution")                   \
  F(serialized_groups, kInfo, kAnalysis,                                                           \
    "two compute groups with no data dependency either way ran back to back with zero overlap")    \
  F(dependency_graph, kDataLoss, kAnalysis,                                                        \
    "building the dependency graph left something out (flow arrows with no executed slice at "     \
    "an end)")                                                                                     \
  F(shared_constant, kInfo, kAnalysis,                                                             \
    "a `static` or `constant_copy` tensor is read by several op groups: de-duplicated constants "  \
    "can "                                                                                         \
    "tie independent branches to one buffer")                                                      \
  F(dependency_cycle, kWarning, kAnalysis,                                                         \
    "the dependencies hold a cycle; edges against the order of op start cycles are ignored for "   \
    "the critical path")                                                                           \
  F(dominant_path_mismatch, kWarning, kAnalysis,                                                   \
    "the dominant path recomputed from the optrace differs from QHAS `dominant_path_htp_0`")

#define HTPSCOPE_WARNING_ENUM_VALUE(code, severity, source, description) code,
// One value per registered code, in the registry's order.
enum class WarningCode : uint8_t { HTPSCOPE_WARNING_CODES(HTPSCOPE_WARNING_ENUM_VALUE) };
#undef HTPSCOPE_WARNING_ENUM_VALUE

// One registry entry.
struct WarningCodeInfo {
  WarningCode code;
  std::string_view name;  // the `code` the output prints: snake_case, unique
  WarningSeverity severity;
  WarningSource source;
  std::string_view description;  // one line of Markdown, for docs/errors.md
};

#define HTPSCOPE_WARNING_INFO(code, severity, source, description) \
  {WarningCode::code, #code, WarningSeverity::severity, WarningSource::source, description},
// The registry, indexed by WarningCode.
inline constexpr WarningCodeInfo kWarningCodes[] = {HTPSCOPE_WARNING_CODES(HTPSCOPE_WARNING_INFO)};
#undef HTPSCOPE_WARNING_INFO

inline constexpr size_t kWarningCodeCount = std::size(kWarningCodes);

// The registry entry of `code`.
constexpr const WarningCodeInfo& WarningInfo(WarningCode code) {
  return kWarningCodes[static_cast<size_t>(code)];
}

// The code as the output prints it ("partial_qhas").
constexpr std::string_view WarningName(WarningCode code) { return WarningInfo(code).name; }

// The registered code printed as `name`; nullopt when none is.
constexpr std::optional<WarningCode> WarningCodeNamed(std::string_view name) {
  for (const WarningCodeInfo& info : kWarningCodes)
    if (info.name == name) return info.code;
  return std::nullopt;
}

// "info", "warning", "data-loss".
constexpr std::string_view SeverityName(WarningSeverity severity) {
  switch (severity) {
    case WarningSeverity::kInfo:
      return "info";
    case WarningSeverity::kWarning:
      return "warning";
    case WarningSeverity::kDataLoss:
      return "data-loss";
  }
  return "?";
}

// What a severity says, for docs/errors.md.
constexpr std::string_view SeverityMeaning(WarningSeverity severity) {
  switch (severity) {
    case WarningSeverity::kInfo:
      return "how to read the figures; nothing is wrong or left out";
    case WarningSeverity::kWarning:
      return "the inputs disagree or hold a known defect; the figures are still given";
    case WarningSeverity::kDataLoss:
      return "part of an input was left out, or a figure or view is withheld";
  }
  return "?";
}

// "input", "reader", "import", "join", "analysis".
constexpr std::string_view SourceName(WarningSource source) {
  switch (source) {
    case WarningSource::kInput:
      return "input";
    case WarningSource::kReader:
      return "reader";
    case WarningSource::kImport:
      return "import";
    case WarningSource::kJoin:
      return "join";
    case WarningSource::kAnalysis:
      return "analysis";
  }
  return "?";
}

// Where a source's warnings are noticed, for docs/errors.md.
constexpr std::string_view SourceMeaning(WarningSource source) {
  switch (source) {
    case WarningSource::kInput:
      return "listing and decompressing the input files";
    case WarningSource::kReader:
      return "an artifact's reader (src/formats), passed on by its import";
    case WarningSource::kImport:
      return "importing an artifact into the run's tables (src/model/import*)";
    case WarningSource::kJoin:
      return "joining the artifacts into one run (src/model/join*)";
    case WarningSource::kAnalysis:
      return "a figure's analysis (src/analysis)";
  }
  return "?";
}

}  // namespace htpscope
