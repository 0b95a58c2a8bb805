// Reader for qnn-profile-viewer text output (basic, detailed and linting
// levels) and its CSV twin.  Both are parsed into one ProfileReport.
//
// Text layouts understood (formats.md §5.1, §5.2, §5.2b):
//  * the statistics part: "Init Stats:", "Compose Graphs Stats:",
//    "Finalize Stats:", "De-Init Stats:", "Execute Stats (Average|Min|Max|Overall):"
//    sections with "NetRun: 9120 us" / "Backend (<name>): <value>  <unit>"
//    lines, optional "Total Inference Time:" / "Graph N (name):" sub-headers;
//  * the raw dump: "Create From Binary Stats:", "Execute Stats:" followed by
//    "Execute Stat N" blocks of "<name> : <value>  <unit>" lines, where
//    indented "<label> (cycles) : <n>  cycles" lines are per-node sub-events
//    of the preceding root line;
//  * linting sub-entries under node lines ("Wait (Scheduler) time",
//    "Overlap time" + overlapping op names, "Overlap (wait) time" + names,
//    "Resources: HVX, HMX, DMA"), in qnn-profile-viewer layout and in the
//    SNPE diagview flavour ("Layer Times:", "2: name:OpId_21 (cycles) : 147075 cycles : DSP").
// CSV (formats.md §5.3): 7 columns (an 8th is tolerated), identifiers
// unquoted and possibly containing commas: split on the first 6 commas only.
//
// Units are kept as printed ("us", "cycles", "count", "bytes", ...); a value
// is never converted between units here.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace htpscope {

struct ProfileMetric {
  std::string name;    // "QNN accelerator (execute) time", "NetRun", "Number of HVX threads used"
  std::string source;  // "Backend", "NetRun" or "" (raw dump lines have no source)
  double value = 0;
  bool has_value = false;  // false for e.g. "Unknown event type :   object"
  std::string
      unit;  // as printed, lower-cased: "us", "cycles", "count", "bytes", "object", "inf/sec"
};

// A per-node line ("bbb_indep0:OpId_19 (cycles) : 87938  cycles") with its
// linting sub-entries when the profile was taken at linting level.
struct ProfileNode {
  std::string label;              // "bbb_indep0:OpId_19", "Input OpId_2", "OpId_17"
  std::string qnn_op_name;        // "bbb_indep0", "Input", "" when the label has no name
  std::optional<uint32_t> op_id;  // the n of OpId_n
  int64_t cycles = 0;             // main-thread (linting) or thread-aggregate (detailed) cycles
  std::string resource_tag;       // SNPE diagview trailing ": DSP", else ""
  // Linting sub-entries (absent when the profile is not at linting level).
  bool has_lint = false;
  std::optional<int64_t> wait_cycles;          // "Wait (Scheduler) time"
  std::optional<int64_t> overlap_cycles;       // "Overlap time"
  std::optional<int64_t> overlap_wait_cycles;  // "Overlap (wait) time"
  std::vector<std::string> overlap_ops;        // names listed under "Overlap time"
  std::vector<std::string> overlap_wait_ops;   // names listed under "Overlap (wait) time"
  std::vector<std::string> resources;          // "HVX", "HMX", "DMA"
};

// A group of metrics: one "Execute Stat N" block of the raw dump, one
// statistics section ("Execute Stats (Average)", "Init Stats", ...), or one
// execution's rows of a CSV file.
struct ProfileBlock {
  std::string title;  // "Execute Stat 1", "Execute Stats (Average)", "Init Stats", "Create From
                      // Binary Stats"
  std::string graph;  // "Graph 0 (model)" when the section names one, else ""
  int execution = 0;  // N of "Execute Stat N"; 0 for statistics sections
  std::vector<ProfileMetric> metrics;
  // Per-node lines and the metric they are sub-events of
  // ("Accelerator (execute) time (cycles)" or, at linting level,
  // "Accelerator (critical path execute) time (cycles)").
  std::vector<ProfileNode> nodes;
  // A block holds the nodes of one parent: when two parents have per-node
  // lines, the critical-path one is kept (else the first) and a warning says
  // so.  SNPE "Layer Times" nodes have no parent line: nodes_parent is "".
  std::string nodes_parent;
  int first_line = 0;  // 1-based line of the block header in the file (0 for CSV)

  // The first metric named `name` (case-insensitive), or nullptr.
  const ProfileMetric* Find(std::string_view name) const;
};

enum class ProfileFormat { kText, kSnpeDiagview, kCsv };

struct ProfileReport {
  std::string path;
  ProfileFormat format = ProfileFormat::kText;
  std::string viewer_version;  // "qnn-profile-viewer: v2.45.0..." -> "v2.45.0..."
  std::vector<ProfileBlock>
      statistics;  // Init/Compose/Finalize/De-Init/Execute Stats (...) sections, SNPE sections
  std::vector<ProfileBlock>
      raw;  // Create From Binary Stats and every Execute Stat N, in file order
  // What was skipped (lines of no known shape, per-node lines left out, ...):
  // the first 20 as "line N: ...", then one "<k> more warnings not shown".
  std::vector<std::string> warnings;

  // The raw "Execute Stat N" blocks (N ascending), or for CSV the executions.
  std::vector<const ProfileBlock*> Executions() const;
};

// True when `prefix` (the first few KB of a file) looks like qnn-profile-viewer
// or snpe-diagview text output.
bool LooksLikeProfileText(std::string_view prefix);
// True when `prefix` starts with the 7-column profile CSV header
// ("Msg Timestamp,Message,Time,Unit of Measurement,Timing Source,Event Level,Event Identifier").
bool LooksLikeProfileCsv(std::string_view prefix);

// Reads profile-viewer text (plain or gzip).  Throws InputError naming the
// file and the 1-based line on malformed content.
ProfileReport ReadProfileText(const std::string& path);
ProfileReport ParseProfileText(const std::string& path, std::string_view text);

// Reads profile CSV (plain or gzip).  Executions are split where a ROOT
// EXECUTE identifier repeats.  Throws InputError naming the file and line.
// Executions become raw "Execute Stat N" blocks; INIT / FINALIZE / DE-INIT
// rows statistics blocks "Init Stats" / "Finalize Stats" / "De-Init Stats"
// (BACKEND-typed rows, whose repeats split executions too: see profile_csv.cc).
ProfileReport ReadProfileCsv(const std::string& path);
ProfileReport ParseProfileCsv(const std::string& path, std::string_view text);

// Helpers shared by the text and CSV readers.

// A number as the profile tools print it ("87938", "214.8888").
struct ProfileNumber {
  double value = 0;
  std::optional<int64_t> integer;  // set when the number is whole and fits int64
};
// Parses a non-negative decimal number.  Returns nullopt and sets *problem
// (what is wrong with `text`) when it is not one or overflows int64.
std::optional<ProfileNumber> ParseProfileNumber(std::string_view text, std::string* problem);

// Fills node->label, qnn_op_name and op_id from a per-node label:
// "bbb_indep0:OpId_19" -> "bbb_indep0", 19; "Input OpId_2" -> "Input", 2;
// "OpId_17" -> "", 17; a label without "OpId_<n>" is all name, no id.
void SetProfileNodeLabel(std::string_view label, ProfileNode* node);

}  // namespace htpscope
