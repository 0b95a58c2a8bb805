// Reader for qnn-profile-viewer text output (basic, detailed and linting
// levels) and its CSV twin.  Both are parsed into one ProfileReport.
//
// Text layouts understood (formats.md §5.1, §5.2, §5.2b):
//  * the file header: "qnn-profile-viewer: v2.45...", "qnn-net-run: ...",
//    "Backend: ...", "Time Scale: 1e-06", ... (kept in ProfileReport::header);
//  * the statistics part: "Init Stats:", "Compose Graphs Stats:",
//    "Finalize Stats:", "De-Init Stats:", "Execute Stats (Average|Min|Max|Overall):"
//    sections with "NetRun: 9120 us" / "Backend (<name>): <value>  <unit>"
//    lines, optional "Total Inference Time:" / "Graph N (name):" sub-headers
//    ("Graph N: name" is accepted too); each graph's lines are a block of their own;
//  * the raw dump: "Create From Binary Stats:", "Execute Stats:" followed by
//    "Execute Stat N" blocks of "<name> : <value>  <unit>" lines, where
//    indented "<label> (cycles) : <n>  cycles" lines are per-node sub-events
//    of the preceding root line.  A dump of several graphs names them by a
//    "Graph N (name):" / "Graph N: name" line before their blocks, or by a
//    "Graph N: name : <n>  us" root line inside a block (the NETRUN event the
//    CSV prints as a ROOT row); both are inferred from the CSV layout, no such
//    text dump having been seen.  When the raw dump names no graph and the
//    statistics name exactly one, the executions belong to that one;
//  * linting sub-entries under node lines at any indentation ("Wait
//    (Scheduler) time", "Overlap time" + overlapping op names, "Overlap
//    (wait) time" + names, "Resources: HVX, HMX, DMA"), in qnn-profile-viewer
//    layout ("name: value" and the raw dump's "name : value") and in the SNPE
//    diagview flavour ("Layer Times:", "2: name:OpId_21 (cycles) : 147075 cycles : DSP").
//
// CSV layouts understood (formats.md §5.3, profile_csv.cc):
//  * ONNX Runtime's QNN EP: the 7-column header, or 8 with "ONNX Source Ops"
//    (the ONNX nodes each QNN op came from, kept per node), per-node rows
//    with Message NODE, linting rows flat at SUB-EVENT level, unquoted
//    identifiers that may contain commas; several inference sessions
//    appended to one file are told apart (profile_csv.cc) and become graphs
//    "session 1", "session 2", ...;
//  * qnn-profile-viewer (QAIRT 2.4x): a preamble of "key, value" lines
//    (log location, viewer / application / backend versions), a header whose
//    fields are separated by ", ", Message = the phase (INIT, EXECUTE, ...),
//    Event Levels ROOT / SUB-EVENT / SUB-SUB-EVENT / ... at any depth,
//    quoted non-numeric values in the Time column ("HVX, DMA", ""), a NETRUN
//    EXECUTE ROOT row "Graph N: NAME" opening each execution of each graph
//    and a NETRUN FINALIZE row of that form naming the graph of its finalize.
// Fields are split per RFC 4180 (quoted fields, doubled quotes, quoted
// newlines); a UTF-8 BOM is skipped.  A Time written with thousands
// separators ("1,000": digits in groups of three after the first comma) is
// read as that whole number (1000) with a warning: no QNN tool writes them, a
// spreadsheet re-saving the file does; any other comma in a number is an error.
//
// Units are kept as printed ("us", "cycles", "count", "bytes", ...); a value
// is never converted between units here.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "base/boxed.h"
#include "base/profile_rows.h"

namespace htpscope {

struct ProfileMetric {
  // "QNN accelerator (execute) time", "NetRun", "Number of HVX threads used".
  // A CSV NETRUN row whose identifier is null or "Graph N: NAME" is named
  // "NetRun", as the text prints it (the graph goes to the block).
  std::string name;
  std::string source;  // "Backend", "NetRun" or "" (raw dump lines have no source)
  double value = 0;
  bool has_value = false;  // false for e.g. "Unknown event type :   object"
  std::string
      unit;  // as printed, lower-cased: "us", "cycles", "count", "bytes", "object", "inf/sec"
  // The metric of the same block this one is a sub-event of, as an index
  // into ProfileBlock::metrics (always an earlier one), or -1 for a root
  // line.  The stages of graph preparation ("Graph Optimizations", "VTCM
  // Allocation", ...) are sub-events of "QNN (finalize) time": CSV SUB-EVENT
  // rows under a root row that is not in cycles, text lines indented under a
  // root line that are not per-node lines.
  int32_t parent = -1;
};

// (ProfilePhase and ProfilePhaseName are in base/profile_rows.h.)
// The phase a block title names ("Init Stats" -> kInit, "Execute Stat 3" ->
// kExecute, "Execute Stats (Overall)" -> kExecuteIps, ...), else kOther.
ProfilePhase ProfilePhaseOfTitle(std::string_view title);

// A per-node line ("bbb_indep0:OpId_19 (cycles) : 87938  cycles", a CSV
// SUB-EVENT row) with its linting sub-entries when the profile was taken at
// linting level (text lines indented under it; CSV SUB-SUB-EVENT rows, or
// SUB-EVENT rows right after it in ONNX Runtime's flat layout).  Overlapping
// op names are trimmed (the CSV writes them with a trailing space).
struct ProfileNode {
  std::string label;              // "bbb_indep0:OpId_19", "Input OpId_2", "OpId_17"
  std::string qnn_op_name;        // "bbb_indep0", "Input", "" when the label has no name
  std::optional<uint32_t> op_id;  // the n of OpId_n
  int64_t cycles = 0;             // main-thread (linting) or thread-aggregate (detailed) cycles
  std::string resource_tag;       // SNPE diagview trailing ": DSP", else ""
  // Linting sub-entries; none when the profile is not at linting level.
  // Boxed: a node line is ~50 bytes, and the entries inline were 120 of
  // the node's 240.
  Boxed<ProfileNodeLint> lint;
  bool has_lint() const { return static_cast<bool>(lint); }
  // ONNX Runtime's "ONNX Source Ops" cell of the row, trimmed, as written:
  // the ONNX node names the QNN op was built from, ';'-separated
  // ("/layer1/conv/Conv;/layer1/relu/Relu"); "" when the column is there and
  // the cell empty (no trace entry for the op); none when the file has no
  // such column (every other layout) or the row lacks the cell.
  Boxed<std::string> source_ops;
};

// A group of metrics: one "Execute Stat N" block of the raw dump, one
// statistics section ("Execute Stats (Average)", "Init Stats", ...), or one
// execution's rows of a CSV file.
struct ProfileBlock {
  std::string title;  // "Execute Stat 1", "Execute Stats (Average)", "Init Stats", "Create From
                      // Binary Stats"
  // "Graph 0 (model)" when the section names one; "session 2" for a block
  // of an ONNX Runtime CSV holding several sessions; else "".
  std::string graph;
  int execution = 0;  // N of "Execute Stat N"; 0 for statistics sections
  std::vector<ProfileMetric> metrics;
  ProfilePhase phase = ProfilePhase::kOther;
  // Per-node lines and the metric they are sub-events of
  // ("Accelerator (execute) time (cycles)" or, at linting level,
  // "Accelerator (critical path execute) time (cycles)").
  std::vector<ProfileNode> nodes;
  // A block holds the nodes of one parent: when two parents have per-node
  // lines, the critical-path one is kept (else the first) and a warning says
  // so.  SNPE "Layer Times" nodes have no parent line: nodes_parent is "".
  std::string nodes_parent;
  int first_line = 0;  // 1-based line of the block header (text) or of its first row (CSV)

  // The graph the block belongs to (all formats).  `graph` above stays the
  // label as the file prints it ("Graph 0 (model)", "Graph 0: model.prefill").
  // An execution block whose graph the file does not name has graph_index
  // nullopt and graph_name "": all such blocks form one unnamed graph (ONNX
  // Runtime's CSV names none; a profile of one graph often names none).  An
  // ONNX Runtime CSV holding several inference sessions names every block
  // after its session: graph_name "session N" (N from 1, file order).
  std::optional<int> graph_index;  // N of "Graph N ..."
  std::string graph_name;          // "model.prefill"; "" when the file gives no name
  // Execution blocks (execution > 0): the 1-based number of this execution
  // among the executions of the same graph (graph_index and graph_name equal),
  // counted in file order.  0 for statistics blocks.
  int graph_execution = 0;
  // CSV: the Msg Timestamp of the row that opened the block, in µs of the
  // QNN profiling clock (QnnProfile_ExtendedEventDataV1_t::timestamp); for an
  // execution opened by a "Graph N: NAME" row, that row's.  nullopt when the
  // rows carry none ("UNKNOWN") and for text blocks.
  std::optional<uint64_t> timestamp_us;

  // The first metric named `name` (case-insensitive), or nullptr.
  const ProfileMetric* Find(std::string_view name) const;
};

// A "key: value" line of the text header or a "key, value" line of the CSV
// preamble, trimmed, in file order.
struct ProfileHeaderEntry {
  std::string key;    // "qnn-profile-viewer version", "Time Scale", "input log file location"
  std::string value;  // "v2.47.0.260601114230", "1e-06", "./qnn-profiling-data.log"
  int line = 0;       // 1-based
};

// One graph of a profile and its blocks (ProfileReport::Graphs()).
struct ProfileGraph {
  std::optional<int> index;                     // as ProfileBlock::graph_index
  std::string name;                             // as ProfileBlock::graph_name
  std::vector<const ProfileBlock*> executions;  // its execution blocks, file order
  std::vector<const ProfileBlock*> statistics;  // statistics blocks naming it, file order
};

// kQnnLog: qnn-net-run's binary profiling log (formats/qnn_profile_log.h);
// kEtdump: the QNN delegate's per-node events of an ExecuTorch ETDump
// (formats/etdump_profile.h).
enum class ProfileFormat { kText, kSnpeDiagview, kCsv, kQnnLog, kEtdump };

struct ProfileReport {
  std::string path;
  ProfileFormat format = ProfileFormat::kText;
  // Versions as printed, "" when the file does not say:
  //  viewer: "qnn-profile-viewer: v2.45.0..." (text) / "qnn-profile-viewer version, v2.47..."
  //  (CSV); application: "qnn-net-run: v2.45..." (text) / "<application> version, ..." (CSV);
  //  backend: "Backend: v2.45..." (text) / "Backend version, v2.47..." (CSV).
  std::string viewer_version;
  std::string application_version;
  std::string backend_version;
  std::vector<ProfileHeaderEntry> header;  // the text header / CSV preamble, file order
  std::vector<ProfileBlock>
      statistics;  // Init/Compose/Finalize/De-Init/Execute Stats (...) sections, SNPE sections
  std::vector<ProfileBlock>
      raw;  // Create From Binary Stats and every Execute Stat N, in file order
  // What was skipped (lines of no known shape, per-node lines left out, ...):
  // the first 20 as "line N: ...", then one "<k> more warnings not shown".
  std::vector<std::string> warnings;

  // The raw "Execute Stat N" blocks (N ascending, stable), or for CSV the
  // executions in file order.  With several graphs a text dump may number
  // each graph's executions from 1: use Graphs() to keep graphs apart.
  std::vector<const ProfileBlock*> Executions() const;
  // The graphs, in order of first appearance in the file, each with its
  // execution blocks (file order) and the statistics blocks that name it.
  // The unnamed graph (see ProfileBlock::graph_index) is listed when it has
  // executions.  Empty when the file has neither executions nor graph names.
  std::vector<ProfileGraph> Graphs() const;
};

// True when `prefix` (the first few KB of a file) looks like qnn-profile-viewer
// or snpe-diagview text output.
bool LooksLikeProfileText(std::string_view prefix);
// True when `prefix` holds the 7-column profile CSV header ("Msg Timestamp,
// Message,Time,Unit of Measurement,Timing Source,Event Level,Event
// Identifier", fields separated by "," or ", "), after nothing but "key,
// value" preamble lines, or starts with a data row of that layout (a file
// appended to without a header).
bool LooksLikeProfileCsv(std::string_view prefix);

// Reads profile-viewer text (plain or gzip).  Throws InputError naming the
// file and the 1-based line on malformed content.
ProfileReport ReadProfileText(const std::string& path);
ProfileReport ParseProfileText(const std::string& path, std::string_view text);

// Reads profile CSV (plain or gzip).  A NETRUN EXECUTE ROOT row "Graph N:
// NAME" opens an execution of graph N (only EXECUTE rows make executions; a
// FINALIZE row of that form opens graph N's "Finalize Stats" block);
// otherwise executions are split where a ROOT EXECUTE identifier repeats.  Executions become raw
// "Execute Stat N" blocks (N counted over the whole file); INIT / COMPOSE GRAPHS / FINALIZE /
// DE-INIT rows statistics blocks "Init Stats" / "Compose Graphs Stats" / "Finalize Stats" /
// "De-Init Stats", INF/SEC rows "Execute Stats (Overall)" (BACKEND- typed rows, whose repeats split
// executions too: see profile_csv.cc), each block with its ProfilePhase; sub-events of a root row
// not in cycles (the FINALIZE stages) become metrics whose `parent` is that row.  An ONNX Runtime
// CSV of several inference sessions (a load binary / compose / finalize row after an execution,
// or a header in the middle) has its blocks named "session N" (graph_name), with a warning
// giving the count; an "ONNX Source Ops" column is kept per node (ProfileNode::source_ops).
// Throws InputError naming the file and the 1-based line (of the record's first line when a
// quoted field spans lines) with the cause.
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

// A graph as profiles name it: "Graph 0 (model)", "Graph 0: model.prefill",
// "Graph 3".  nullopt when `text` is none of these.
struct ProfileGraphLabel {
  int index = 0;
  std::string name;  // "" for a bare "Graph 3"
};
std::optional<ProfileGraphLabel> ParseProfileGraphLabel(std::string_view text);

}  // namespace htpscope
