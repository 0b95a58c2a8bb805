// Profile CSV as written by ONNX Runtime's QNN execution provider and by
// qnn-profile-viewer (formats.md §5.3, and the QAIRT 2.4x layout described in
// profile_text.h).  Records are split per RFC 4180 (profile_csv_records.h).
//
// Before the header: "key, value" preamble lines (viewer, application and
// backend versions, log location), kept in ProfileReport::header.  Short
// lines after data rows are preamble only when a header follows them (a
// second profile appended to the file); otherwise they are rows with too
// few columns.
//
// Row placement:
//  * ROOT rows are metrics.  INIT / COMPOSE GRAPHS / FINALIZE / DE-INIT rows
//    go to statistics blocks "Init Stats" / "Compose Graphs Stats" /
//    "Finalize Stats" / "De-Init Stats", INF/SEC rows to "Execute Stats
//    (Overall)", EXECUTE-family rows to the executions ("Execute Stat N" raw
//    blocks).  BACKEND and UNKNOWN rows (HTP-specific event types all print as
//    BACKEND) are placed by their identifier: "(load binary)"/"(init" ->
//    Init, "finalize" -> Finalize, "deinit"/"de-init" -> De-Init, anything
//    else -> execution.
//  * A NETRUN EXECUTE ROOT row "Graph N: NAME" opens an execution of graph N
//    (its timestamp becomes the block's); only EXECUTE rows make executions.
//    A NETRUN row of that form of another phase (FINALIZE) opens that
//    phase's block of graph N, or names the open one when it has no graph
//    and no NetRun row yet (its Backend rows came first).  Otherwise a new block of a kind starts
//    when a ROOT identifier repeats within the current one: for executions
//    this is "the next execution" (of the same graph), whether the repeated
//    row is typed EXECUTE or BACKEND.  "NULL" identifiers never split.
//  * Sub-events (Event Level SUB-EVENT, SUB-SUB-EVENT, ... at any depth)
//    belong to the last ROOT row.  Under a ROOT row not in cycles they are
//    stages of its phase (FINALIZE's "Graph Optimizations", ...): metrics
//    whose parent is the row above them.  SUB-EVENT rows under a cycles ROOT row are
//    the per-node cycles (Message NODE, or an "... (cycles)" / OpId label);
//    their SUB-SUB-EVENT rows are linting entries ("Wait (Scheduler) time",
//    "Overlap time", "Overlap (wait) time", "Resources" with its list in the
//    Time column) and the SUB-SUB-SUB-EVENT rows under an overlap entry name
//    the overlapping ops.  ONNX Runtime writes every sub-event as SUB-EVENT:
//    there linting rows follow their node row flat, and rows with no number
//    right after an overlap entry name the overlapping ops.
//  * A header row in the middle of the file (two files concatenated: no
//    QNN tool writes a second header into a file) closes the current blocks.
//
// With the 8th column "ONNX Source Ops" the identifier is everything before
// the last field, so an identifier may still contain commas; a source-op list
// containing commas must then be quoted.  The last field of a per-node row is
// kept as the node's source ops (ProfileNode::source_ops).  Without a header
// row, 7 columns are assumed and an unquoted identifier may contain commas.
//
// Sessions (docs/profile-readers.md, "ONNX Runtime's QNN EP CSV"): ONNX
// Runtime opens the file in append mode at every extraction of events and
// writes the header only when the file does not exist yet, so every
// inference session using the same profiling_file_path appends its rows
// with no marker.  A session's load binary / compose / finalize rows all
// come at its creation, before its first execution: in a file without
// NETRUN rows or preamble (ONNX Runtime's layout), an INIT, COMPOSE or
// FINALIZE row after an execution row ("(execute" in its identifier, or
// Message EXECUTE...) starts the next session, and so does a header after
// data rows.  With more than one, every block is named after its session
// (graph_name "session N") and a warning gives the count; sessions whose
// rows interleave (two sessions running at once) cannot be told apart.
#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <unordered_set>

#include "base/errors.h"
#include "base/text_util.h"
#include "formats/byte_source.h"
#include "formats/profile_csv_records.h"
#include "formats/profile_text.h"
#include "formats/profile_text_shared.h"

namespace htpscope {
namespace {

using profile_internal::CsvRecord;
using profile_internal::kCsvColumnCount;
using profile_internal::kCsvColumns;
using profile_internal::kCsvSourceOpsColumn;
using profile_internal::LintEntry;

constexpr std::string_view kHeader =
    "Msg Timestamp,Message,Time,Unit of Measurement,Timing Source,Event Level,Event Identifier";
// Short lines held while waiting to see whether a header follows them.
constexpr size_t kMaxPendingPreamble = 64;

std::string ToUpper(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return out;
}

bool Contains(std::string_view haystack, std::string_view needle) {
  return haystack.find(needle) != std::string_view::npos;
}

bool IsDigit(char c) { return c >= '0' && c <= '9'; }

enum Kind { kInit, kCompose, kFinalize, kDeinit, kOverall, kExecute, kKindCount };

constexpr std::array<std::string_view, kKindCount> kKindTitles = {
    "Init Stats",    "Compose Graphs Stats",    "Finalize Stats",
    "De-Init Stats", "Execute Stats (Overall)", ""};
constexpr std::array<ProfilePhase, kKindCount> kKindPhases = {
    ProfilePhase::kInit,   ProfilePhase::kCompose,    ProfilePhase::kFinalize,
    ProfilePhase::kDeinit, ProfilePhase::kExecuteIps, ProfilePhase::kExecute};

Kind Classify(std::string_view message, std::string_view identifier, std::string_view unit) {
  if (message == "INIT") return kInit;
  if (message.substr(0, 7) == "COMPOSE") return kCompose;
  if (message == "FINALIZE") return kFinalize;
  if (message == "DE-INIT" || message == "DEINIT") return kDeinit;
  if (unit == "inf/sec") return kOverall;
  if (message.substr(0, 7) == "EXECUTE" || message == "NODE") return kExecute;
  std::string id = ToLower(identifier);
  if (Contains(id, "load binary") || Contains(id, "(init")) return kInit;
  if (Contains(id, "finalize")) return kFinalize;
  if (Contains(id, "deinit") || Contains(id, "de-init")) return kDeinit;
  return kExecute;
}

// "1,234,567" or "1,000.5": digits grouped by three after the first comma.
bool IsThousandsGrouped(std::string_view text) {
  size_t dot = std::min(text.find('.'), text.size());
  std::string_view whole = text.substr(0, dot);
  size_t first = whole.find(',');
  if (first == 0 || first == std::string_view::npos || first > 3) return false;
  for (size_t i = 0; i < whole.size(); ++i) {
    bool comma_here = i >= first && (i - first) % 4 == 0;
    if (comma_here ? whole[i] != ',' : !IsDigit(whole[i])) return false;
  }
  return (whole.size() - first) % 4 == 0;
}

// One data row, its columns trimmed.
struct Row {
  std::string_view timestamp, time, identifier, level;
  // The "ONNX Source Ops" cell when the header declares that column and the
  // row has it.
  std::optional<std::string_view> source_ops;
  std::string message, unit, source;  // message and source upper-, unit lower-cased
  int depth = 0;
};

// What a row turned out to be; its sub-events are read in that light.
// kStage: a sub-event of a root row that is not in cycles (the stages of
// FINALIZE, "Graph Optimizations", ...), kept as a metric of its own.
enum class Role { kRoot, kNode, kLintList, kLintOther, kOpName, kStage, kIgnored };

class CsvParser {
 public:
  CsvParser(const std::string& path, std::string_view text)
      : path_(path), text_(profile_internal::SkipBom(text)), reader_(path, text_) {}

  ProfileReport Run() {
    report_.path = path_;
    report_.format = ProfileFormat::kCsv;
    if (Trim(text_).empty())
      throw InputError(path_, fmt::format("empty file: expected profile CSV ({})", kHeader));
    CsvRecord record;
    while (reader_.Next(&record)) {
      line_ = record.first_line;
      if (record.Blank()) continue;
      last_content_line_ = record.last_line;
      HandleRecord(record);
    }
    if (!pending_.empty()) FailPending();
    if (rows_ == 0)
      throw InputError(path_, "no data rows after the CSV header: the file ends here", {},
                       last_content_line_);
    Finish();
    return std::move(report_);
  }

 private:
  // Where a block lives: report_.raw for executions, else report_.statistics.
  struct BlockRef {
    bool raw = false;
    size_t index = 0;
  };
  struct Current {
    std::optional<BlockRef> block;
    std::unordered_set<std::string> root_ids;
  };
  struct PendingLine {
    ProfileHeaderEntry entry;
    size_t columns = 0;
  };

  [[noreturn]] void Fail(std::string problem, std::optional<uint64_t> line = {}) const {
    throw InputError(path_, std::move(problem), {}, line.value_or(line_));
  }

  void Warn(const std::string& message) { warnings_.Add(line_, message); }

  ProfileBlock& Block(BlockRef ref) {
    return ref.raw ? report_.raw[ref.index] : report_.statistics[ref.index];
  }

  std::string ColumnsProblem(size_t found) const {
    return fmt::format("expected {} comma-separated columns ({}), found {}", kCsvColumnCount,
                       kHeader, found);
  }

  void HandleRecord(const CsvRecord& record) {
    if (profile_internal::IsCsvHeader(record)) {
      CommitPreamble();
      HandleHeader(record);
      return;
    }
    size_t n = record.fields.size();
    if (n < kCsvColumnCount) {
      std::string_view key = Trim(record.fields[0]);
      // A row cut short (its first field a Msg Timestamp) is never preamble.
      bool timestamp = EqualsIgnoreCase(key, "UNKNOWN") ||
                       (!key.empty() && std::all_of(key.begin(), key.end(), IsDigit));
      if (timestamp) Fail(ColumnsProblem(n));
      if (n < 2 || key.empty()) {
        if (!header_seen_ && rows_ == 0)
          Fail(
              fmt::format("expected \"key, value\" lines, the CSV header ({}) or data rows of {} "
                          "columns; found {} column(s)",
                          kHeader, kCsvColumnCount, n));
        Fail(ColumnsProblem(n));
      }
      // A "key, value" line: preamble when a header follows it.
      PendingLine p;
      p.entry.key = std::string(key);
      p.entry.value = std::string(Trim(record.RawFrom(text_, 1)));
      if (n == 2 && record.quoted[1]) p.entry.value = std::string(Trim(record.fields[1]));
      p.entry.line = static_cast<int>(record.first_line);
      p.columns = n;
      pending_.push_back(std::move(p));
      if (pending_.size() > kMaxPendingPreamble) FailPending();
      return;
    }
    if (!pending_.empty()) FailPending();
    HandleRow(record);
  }

  // Short lines not followed by a header: the first is a bad row (or, at the
  // top of the file, a preamble without its header).
  [[noreturn]] void FailPending() const {
    const PendingLine& p = pending_.front();
    uint64_t line = static_cast<uint64_t>(p.entry.line);
    if (!header_seen_ && rows_ == 0)
      Fail(
          fmt::format("\"key, value\" line{} at the top of the file but no CSV header ({}) "
                      "after {}: expected the header before the data rows",
                      pending_.size() > 1 ? "s" : "", kHeader, pending_.size() > 1 ? "them" : "it"),
          line);
    Fail(ColumnsProblem(p.columns), line);
  }

  void CommitPreamble() {
    for (PendingLine& p : pending_) {
      std::string key = ToLower(p.entry.key);
      std::string* version = nullptr;
      if (Contains(key, "profile-viewer") && Contains(key, "version")) {
        version = &report_.viewer_version;
      } else if (key.rfind("backend", 0) == 0 && Contains(key, "version")) {
        version = &report_.backend_version;
      } else if (Contains(key, "version")) {
        version = &report_.application_version;
      }
      if (version && version->empty()) *version = p.entry.value;
      report_.header.push_back(std::move(p.entry));
    }
    pending_.clear();
  }

  void HandleHeader(const CsvRecord& record) {
    std::vector<std::string_view> names;
    for (const auto& f : record.fields) names.push_back(Trim(f));
    bool seven =
        names.size() >= kCsvColumnCount &&
        std::equal(std::begin(kCsvColumns), std::end(kCsvColumns), names.begin(),
                   [](std::string_view a, std::string_view b) { return EqualsIgnoreCase(a, b); });
    bool eight =
        names.size() == kCsvColumnCount + 1 && EqualsIgnoreCase(names.back(), kCsvSourceOpsColumn);
    if (!seven || (names.size() != kCsvColumnCount && !eight))
      Fail(fmt::format("unexpected CSV header: expected \"{}\" (optionally followed by \",{}\")",
                       kHeader, kCsvSourceOpsColumn));
    columns_ = names.size();
    header_seen_ = true;
    // A header after data rows: another file's rows follow (another session
    // in ONNX Runtime's layout); start new blocks.
    if (session_rows_) {
      StartSession();
    } else {
      CloseBlocks();
    }
  }

  // Forgets the open blocks: the next row of every kind opens a new one.
  void CloseBlocks() {
    for (auto& c : current_) c = Current{};
    last_root_.reset();
    roles_.clear();
    graph_.reset();
    graph_label_.clear();
  }

  // The rows from here on are another session's.
  void StartSession() {
    CloseBlocks();
    ++session_;
    session_lines_.push_back(line_);
    session_rows_ = false;
    session_executed_ = false;
  }

  // The identifier: the rest of the record after the 6th comma (7 columns),
  // or up to the last field ("ONNX Source Ops", then set in *source_ops).
  std::string_view IdentifierOf(const CsvRecord& record,
                                std::optional<std::string_view>* source_ops) {
    size_t n = record.fields.size();
    if (columns_ == kCsvColumnCount + 1) {
      if (n == kCsvColumnCount) {
        Warn("row has no \"ONNX Source Ops\" column although the header declares it");
        return record.fields[6];
      }
      *source_ops = record.fields[n - 1];
      if (n == kCsvColumnCount + 1) return record.fields[6];
      size_t last = record.field_begin[n - 1];  // just after the comma before the last field
      return std::string_view(text_).substr(record.field_begin[6],
                                            last - 1 - record.field_begin[6]);
    }
    if (n == kCsvColumnCount) return record.fields[6];
    return record.RawFrom(text_, 6);
  }

  void HandleRow(const CsvRecord& record) {
    const auto& f = record.fields;
    Row r;
    r.timestamp = Trim(f[0]);
    r.message = ToUpper(Trim(f[1]));
    r.time = Trim(f[2]);
    r.unit = ToLower(Trim(f[3]));
    r.source = ToUpper(Trim(f[4]));
    r.level = Trim(f[5]);
    r.identifier = Trim(IdentifierOf(record, &r.source_ops));
    if (r.source_ops) r.source_ops = Trim(*r.source_ops);
    r.depth = profile_internal::CsvEventDepth(r.level);
    if (r.depth < 0)
      Fail(
          fmt::format("Event Level \"{}\": expected ROOT or SUB-EVENT (SUB-SUB-EVENT, ... for "
                      "deeper sub-events)",
                      r.level));
    ++rows_;
    if (r.depth == 0) {
      HandleRoot(r);
    } else {
      HandleSub(r);
    }
  }

  // Parses the Time column.  Returns the number when there is one; fails
  // when `required` (the unit is a quantity) and there is none, the message
  // starting with `what` (default: Time of "<identifier>").
  std::optional<ProfileNumber> ParseTime(const Row& r, bool required, std::string what = {}) {
    std::string problem;
    std::optional<ProfileNumber> number = ParseProfileNumber(r.time, &problem);
    if (!number && Contains(r.time, ",")) {
      if (IsThousandsGrouped(r.time)) {
        std::string digits(r.time);
        digits.erase(std::remove(digits.begin(), digits.end(), ','), digits.end());
        number = ParseProfileNumber(digits, &problem);
        if (number && !thousands_warned_) {
          thousands_warned_ = true;
          Warn(
              fmt::format("Time \"{}\" of \"{}\" is read as {}: its digits are grouped with "
                          "commas, which no QNN tool writes (the file was probably re-saved "
                          "by a spreadsheet); other values like it are read the same way",
                          r.time, r.identifier, digits));
        }
      } else {
        problem = fmt::format(
            "\"{}\" is not a number (a comma is read only as a thousands separator between "
            "groups of three digits, as in \"1,000\")",
            r.time);
      }
    }
    if (what.empty()) what = fmt::format("Time of \"{}\"", r.identifier);
    if (!number && required)
      Fail(fmt::format("{}: {} (expected a number of {})", what, problem,
                       r.unit.empty() ? "the stated unit" : r.unit));
    if (!number && !r.time.empty() && r.unit != "object")
      Warn(fmt::format("Time of \"{}\" ({}) kept without a value: {}", r.identifier, r.unit,
                       problem));
    return number;
  }

  static bool QuantityUnit(std::string_view unit) {
    return unit == "us" || unit == "cycles" || unit == "count" || unit == "bytes";
  }

  // The whole number of cycles in the Time column of `r`; `what` starts the
  // error message.
  int64_t Cycles(const Row& r, const std::string& what) {
    std::optional<ProfileNumber> number = ParseTime(r, /*required=*/true, what);
    if (!number->integer)
      Fail(fmt::format("{}: expected a whole number of cycles, got \"{}\"", what, r.time));
    return *number->integer;
  }

  void SetValue(const Row& r, ProfileMetric* metric) {
    if (r.unit == "object") return;  // an opaque object, not a quantity
    std::optional<ProfileNumber> number = ParseTime(r, QuantityUnit(r.unit));
    if (!number) return;
    if (r.unit == "cycles" && !number->integer)
      Fail(fmt::format("Time of \"{}\": expected a whole number of cycles, got \"{}\"",
                       metric->name, r.time));
    metric->has_value = true;
    metric->value = number->value;
  }

  void HandleRoot(const Row& r) {
    std::optional<ProfileGraphLabel> graph;
    if (r.source == "NETRUN") graph = ParseProfileGraphLabel(r.identifier);
    ProfileMetric metric;
    metric.name = std::string(r.identifier);
    if (r.source == "NETRUN" &&
        (graph || r.identifier.empty() || EqualsIgnoreCase(r.identifier, "null")))
      metric.name = "NetRun";
    metric.source = r.source == "BACKEND"  ? "Backend"
                    : r.source == "NETRUN" ? "NetRun"
                                           : std::string(r.source);
    metric.unit = r.unit;
    SetValue(r, &metric);

    // Only an EXECUTE row names an execution: a NETRUN FINALIZE row "Graph
    // N: NAME" is that graph's preparation (its Finalize block).
    Kind kind = Classify(r.message, r.identifier, r.unit);
    if (r.source == "NETRUN") netrun_seen_ = true;
    if ((kind == kInit || kind == kCompose || kind == kFinalize) && session_executed_)
      StartSession();
    session_rows_ = true;
    if (kind == kExecute &&
        (r.message.substr(0, 7) == "EXECUTE" || Contains(ToLower(r.identifier), "(execute")))
      session_executed_ = true;
    Current& c = current_[kind];
    std::string id(r.identifier);  // "null" never splits, though its metric is "NetRun"
    bool repeated = !EqualsIgnoreCase(id, "null") && c.root_ids.count(id) > 0;
    if (graph && kind == kExecute) {
      graph_ = graph;
      graph_label_ = std::string(r.identifier);
      graph_rows_seen_ = true;
    }
    if (graph && kind != kExecute) {
      // A phase of one graph: its own block, unless the block open for the
      // phase names no graph and has no NetRun row yet (its Backend rows
      // came first): then the graph is that block's.
      ProfileBlock* open = c.block ? &Block(*c.block) : nullptr;
      bool adopt = open && !open->graph_index && open->graph_name.empty() &&
                   !open->Find("NetRun") && !repeated;
      if (!adopt) OpenBlock(kind);
      ProfileBlock& b = Block(*c.block);
      b.graph = std::string(r.identifier);
      b.graph_index = graph->index;
      b.graph_name = graph->name;
    } else if (graph || !c.block || repeated) {
      OpenBlock(kind);
    }
    c.root_ids.insert(std::move(id));
    ProfileBlock& b = Block(*c.block);
    if (!b.timestamp_us && !r.timestamp.empty() &&
        std::all_of(r.timestamp.begin(), r.timestamp.end(), IsDigit)) {
      std::string problem;
      if (auto ts = ParseProfileNumber(r.timestamp, &problem); ts && ts->integer)
        b.timestamp_us = static_cast<uint64_t>(*ts->integer);
    }
    b.metrics.push_back(std::move(metric));
    last_root_ = *c.block;
    last_root_index_ = b.metrics.size() - 1;
    roles_.assign(1, Role::kRoot);
    metric_at_.assign(1, static_cast<int32_t>(last_root_index_));
    node_ = -1;
    node_skipped_ = false;
    flat_list_.reset();
    root_nodes_decided_ = false;
  }

  void OpenBlock(Kind kind) {
    Current& c = current_[kind];
    c.root_ids.clear();
    ProfileBlock block;
    block.first_line = static_cast<int>(line_);
    block.phase = kKindPhases[kind];
    if (kind == kExecute) {
      block.execution = static_cast<int>(report_.raw.size()) + 1;
      block.title = fmt::format("Execute Stat {}", block.execution);
      if (graph_) {
        block.graph = graph_label_;
        block.graph_index = graph_->index;
        block.graph_name = graph_->name;
      }
      report_.raw.push_back(std::move(block));
      raw_session_.push_back(session_);
      c.block = BlockRef{true, report_.raw.size() - 1};
    } else {
      block.title = std::string(kKindTitles[kind]);
      report_.statistics.push_back(std::move(block));
      statistics_session_.push_back(session_);
      c.block = BlockRef{false, report_.statistics.size() - 1};
    }
  }

  // A block holds the nodes of one parent; a critical-path parent (linting)
  // is preferred over a thread-aggregate one.
  bool RootTakesNodes(ProfileBlock& b, const std::string& parent) {
    if (root_nodes_decided_) return root_takes_nodes_;
    root_nodes_decided_ = true;
    auto critical = [](const std::string& name) {
      return Contains(ToLower(name), "critical path");
    };
    if (b.nodes.empty() && b.nodes_parent.empty()) {
      b.nodes_parent = parent;
      root_takes_nodes_ = true;
    } else if (critical(parent) && !critical(b.nodes_parent)) {
      Warn(fmt::format("NODE rows of \"{}\" replace those of \"{}\" in \"{}\"", parent,
                       b.nodes_parent, b.title));
      b.nodes.clear();
      b.nodes_parent = parent;
      root_takes_nodes_ = true;
    } else {
      Warn(fmt::format("NODE rows of \"{}\" ignored: \"{}\" already has those of \"{}\"", parent,
                       b.title, b.nodes_parent));
      root_takes_nodes_ = false;
    }
    return root_takes_nodes_;
  }

  void HandleSub(const Row& r) {
    if (!last_root_)
      Fail(fmt::format(
          "{} row \"{}\" has no ROOT row above it: expected it after the "
          "cycles ROOT row it belongs to (e.g. \"Accelerator (execute) time (cycles)\")",
          r.level, r.identifier));
    if (static_cast<size_t>(r.depth) > roles_.size())
      Fail(
          fmt::format("{} row \"{}\" is {} levels below the row above it: expected a row of "
                      "the level in between first",
                      r.level, r.identifier, static_cast<size_t>(r.depth) + 1 - roles_.size()));
    roles_.resize(static_cast<size_t>(r.depth));
    metric_at_.resize(static_cast<size_t>(r.depth), -1);
    Role parent = roles_.back();
    Role role = Role::kIgnored;
    int32_t metric = -1;
    switch (parent) {
      case Role::kRoot:
        role = HandleOpRow(r, &metric);
        break;
      case Role::kNode:
        role = HandleLintRow(r, CurrentNode());
        break;
      case Role::kLintList:
        role = AddOverlapName(r);
        break;
      case Role::kStage:
        role = AddStage(r, metric_at_.back(), &metric);
        break;
      case Role::kLintOther:
      case Role::kOpName:
        Warn(fmt::format("{} row \"{}\" nested under a linting entry or op name ignored", r.level,
                         r.identifier));
        break;
      case Role::kIgnored:
        break;  // under a row already ignored (and warned about)
    }
    roles_.push_back(role);
    metric_at_.push_back(metric);
  }

  // A sub-event of the metric `parent` of the last ROOT row's block that is
  // a figure of its own (a FINALIZE stage).  Sets *metric to its index.
  Role AddStage(const Row& r, int32_t parent, int32_t* metric) {
    ProfileBlock& b = Block(*last_root_);
    ProfileMetric m;
    m.name = std::string(r.identifier);
    m.source = r.source == "BACKEND"  ? "Backend"
               : r.source == "NETRUN" ? "NetRun"
                                      : std::string(r.source);
    m.unit = r.unit;
    m.parent = parent;
    SetValue(r, &m);
    b.metrics.push_back(std::move(m));
    *metric = static_cast<int32_t>(b.metrics.size()) - 1;
    return Role::kStage;
  }

  ProfileNode& CurrentNode() { return Block(*last_root_).nodes[static_cast<size_t>(node_)]; }

  // A direct sub-event of a ROOT row: a per-node row, or in ONNX Runtime's
  // flat layout a linting entry of the node above it or an overlapping op.
  Role HandleOpRow(const Row& r, int32_t* metric) {
    ProfileBlock& b = Block(*last_root_);
    const ProfileMetric& root = b.metrics[last_root_index_];
    // Under a root row that is not in cycles nothing is a per-node row: a
    // sub-event that does not look like one is a stage of that root's phase.
    if (root.unit != "cycles" && r.message != "NODE" &&
        !profile_internal::LintEntryOf(r.identifier) &&
        !(r.unit == "cycles" &&
          (profile_internal::HasOpId(r.identifier) || EndsWithCycles(r.identifier)))) {
      flat_list_.reset();
      node_ = -1;
      node_skipped_ = true;
      return AddStage(r, static_cast<int32_t>(last_root_index_), metric);
    }
    std::optional<LintEntry> lint = profile_internal::LintEntryOf(r.identifier);
    if (lint) {
      if (node_ < 0) {
        if (!node_skipped_)  // else the node row was ignored, with a warning
          Warn(fmt::format("linting entry \"{}\" with no per-node row above it ignored",
                           r.identifier));
        return Role::kIgnored;
      }
      Role role = HandleLintRow(r, CurrentNode());
      flat_list_.reset();
      if (role == Role::kLintList) flat_list_ = lint;
      return role;
    }
    if (flat_list_ && node_ >= 0) {
      std::string problem;
      if (!ParseProfileNumber(r.time, &problem)) return AddOverlapName(r, *flat_list_);
    }
    flat_list_.reset();
    node_ = -1;
    node_skipped_ = true;
    bool node_message = r.message == "NODE";
    bool looks_like_node = r.unit == "cycles" && (profile_internal::HasOpId(r.identifier) ||
                                                  EndsWithCycles(r.identifier));
    if (node_message && root.unit != "cycles")
      Fail(
          fmt::format("NODE row \"{}\" follows ROOT row \"{}\", which is in {}: expected it after "
                      "a cycles ROOT row",
                      r.identifier, root.name, root.unit));
    if (node_message && r.unit != "cycles") {
      Warn(fmt::format("NODE row \"{}\" is in {} rather than cycles; ignored", r.identifier,
                       r.unit));
      return Role::kIgnored;
    }
    if (!node_message && (!looks_like_node || root.unit != "cycles")) {
      Warn(fmt::format("{} row \"{}\" ({}) ignored", r.level, r.identifier, r.message));
      return Role::kIgnored;
    }
    int64_t cycles = Cycles(r, fmt::format("Time of \"{}\"", r.identifier));
    if (!RootTakesNodes(b, root.name)) return Role::kIgnored;
    ProfileNode node;
    std::string_view label = r.identifier;
    if (EndsWithCycles(label)) label = Trim(label.substr(0, label.size() - 8));
    SetProfileNodeLabel(label, &node);
    node.cycles = cycles;
    if (r.source_ops) node.source_ops.Make() = std::string(*r.source_ops);
    b.nodes.push_back(std::move(node));
    node_ = static_cast<int>(b.nodes.size()) - 1;
    node_skipped_ = false;
    return Role::kNode;
  }

  static bool EndsWithCycles(std::string_view s) {
    return s.size() >= 8 && EqualsIgnoreCase(s.substr(s.size() - 8), "(cycles)");
  }

  // A linting entry of `node`.
  Role HandleLintRow(const Row& r, ProfileNode& node) {
    std::optional<LintEntry> entry = profile_internal::LintEntryOf(r.identifier);
    if (!entry) {
      Warn(fmt::format("unknown linting entry under \"{}\" ignored: \"{}\"", node.label,
                       r.identifier));
      return Role::kIgnored;
    }
    ProfileNodeLint& lint = node.lint.Make();
    if (*entry == LintEntry::kResources) {
      lint.resources = profile_internal::SplitResources(r.time);
      return Role::kLintOther;
    }
    if (r.unit != "cycles")
      Fail(fmt::format("\"{}\" of \"{}\": expected a number of cycles, got \"{}\" {}", r.identifier,
                       node.label, r.time, r.unit));
    int64_t cycles = Cycles(r, fmt::format("\"{}\" of \"{}\"", r.identifier, node.label));
    std::optional<int64_t>* slot = profile_internal::LintCyclesSlot(*entry, &lint);
    if (slot->has_value())
      Warn(fmt::format("\"{}\" repeated under \"{}\"; the last one is kept", r.identifier,
                       node.label));
    *slot = cycles;
    if (!profile_internal::LintNameList(*entry, &lint)) return Role::kLintOther;
    list_ = entry;
    return Role::kLintList;
  }

  Role AddOverlapName(const Row& r) { return AddOverlapName(r, *list_); }

  Role AddOverlapName(const Row& r, LintEntry list) {
    ProfileNode& node = CurrentNode();
    if (r.identifier.empty()) {
      Warn(fmt::format("empty op name under \"{}\" of \"{}\" ignored",
                       list == LintEntry::kOverlap ? "Overlap time" : "Overlap (wait) time",
                       node.label));
      return Role::kIgnored;
    }
    profile_internal::LintNameList(list, &node.lint.Make())->emplace_back(r.identifier);
    return Role::kOpName;
  }

  // Names every block after its session when the file holds several in
  // ONNX Runtime's layout (no NETRUN rows, no preamble).
  void NameSessions() {
    if (session_ == 1 || netrun_seen_ || !report_.header.empty()) return;
    auto name = [](ProfileBlock& b, int session) {
      b.graph_name = fmt::format("session {}", session);
      b.graph = b.graph_name;
    };
    for (size_t i = 0; i < report_.raw.size(); ++i) name(report_.raw[i], raw_session_[i]);
    for (size_t i = 0; i < report_.statistics.size(); ++i)
      name(report_.statistics[i], statistics_session_[i]);
    std::string starts;
    for (uint64_t line : session_lines_)
      starts += fmt::format("{}{}", starts.empty() ? "" : ", ", line);
    warnings_.Add(session_lines_.front(),
                  fmt::format("the file holds {} inference sessions, kept apart as graphs "
                              "\"session 1\" .. \"session {}\" (ONNX Runtime appends every "
                              "session to the same file with no marker; sessions 2.. start at "
                              "lines {}: a load binary / compose / finalize row after an "
                              "execution, or a repeated header)",
                              session_, session_, starts));
  }

  void Finish() {
    NameSessions();
    if (graph_rows_seen_) {
      size_t unnamed = 0;
      int first = 0;
      for (const auto& b : report_.raw) {
        if (b.execution <= 0 || b.graph_index || !b.graph_name.empty()) continue;
        if (unnamed++ == 0) first = b.first_line;
      }
      if (unnamed > 0)
        warnings_.Add(static_cast<uint64_t>(first),
                      fmt::format("{} execution block(s) before the first \"Graph N: NAME\" row "
                                  "belong to no graph",
                                  unnamed));
    }
    profile_internal::NumberGraphExecutions(&report_);
    warnings_.Finish();
  }

  const std::string& path_;
  std::string_view text_;
  profile_internal::CsvRecordReader reader_;
  ProfileReport report_;
  profile_internal::ProfileWarnings warnings_{&report_.warnings};
  uint64_t line_ = 0;  // first line of the record at hand
  uint64_t last_content_line_ = 0;
  size_t rows_ = 0;
  size_t columns_ = kCsvColumnCount;
  bool header_seen_ = false;
  std::vector<PendingLine> pending_;
  std::array<Current, kKindCount> current_;
  std::optional<ProfileGraphLabel> graph_;  // of the last "Graph N: NAME" row
  std::string graph_label_;
  bool graph_rows_seen_ = false;
  bool thousands_warned_ = false;
  bool netrun_seen_ = false;
  // Sessions (see the top of the file): the one at hand (from 1), whether it
  // has rows and execution rows yet, where each after the first starts, and
  // the session of each block of report_.raw and report_.statistics.
  int session_ = 1;
  bool session_rows_ = false, session_executed_ = false;
  std::vector<uint64_t> session_lines_;
  std::vector<int> raw_session_, statistics_session_;
  std::optional<BlockRef> last_root_;
  size_t last_root_index_ = 0;
  std::vector<Role> roles_;             // of the last row at each depth, down to the row at hand
  std::vector<int32_t> metric_at_;      // ... and the metric each made (-1 for none)
  int node_ = -1;                       // the last per-node row of the last ROOT row's block
  bool node_skipped_ = false;           // the last direct sub-event of the ROOT row was ignored
  std::optional<LintEntry> list_;       // the overlap entry whose op names follow (nested)
  std::optional<LintEntry> flat_list_;  // the same in ONNX Runtime's flat layout
  bool root_nodes_decided_ = false, root_takes_nodes_ = false;
};

// Naive split for sniffing a prefix (which may end inside a quoted field).
// A field quoted whole ("Msg Timestamp", as R's write.csv and QUOTE_ALL
// writers put every field) is taken without its quotes.
std::vector<std::string_view> SniffFields(std::string_view line) {
  std::vector<std::string_view> out = SplitAt(line, ',');
  for (std::string_view& field : out) {
    field = Trim(field);
    if (field.size() >= 2 && field.front() == '"' && field.back() == '"')
      field = Trim(field.substr(1, field.size() - 2));
  }
  return out;
}

bool LooksLikeDataRow(const std::vector<std::string_view>& f) {
  if (f.size() < kCsvColumnCount) return false;
  std::string unit = ToUpper(f[3]), source = ToUpper(f[4]);
  static constexpr std::string_view kUnits[] = {"US",     "BYTES",   "CYCLES",  "COUNT",
                                                "OBJECT", "BACKEND", "UNKNOWN", "INF/SEC"};
  return profile_internal::CsvEventDepth(f[5]) >= 0 &&
         (source == "BACKEND" || source == "NETRUN") &&
         std::find(std::begin(kUnits), std::end(kUnits), unit) != std::end(kUnits);
}

}  // namespace

bool LooksLikeProfileCsv(std::string_view prefix) {
  prefix = profile_internal::SkipBom(prefix);
  constexpr int kMaxPreambleLines = 32;
  size_t pos = 0;
  int lines = 0;
  while (pos < prefix.size() && lines++ <= kMaxPreambleLines) {
    size_t end = std::min(prefix.find('\n', pos), prefix.size());
    std::string_view line = prefix.substr(pos, end - pos);
    pos = end + 1;
    if (Trim(line).empty()) continue;
    std::vector<std::string_view> f = SniffFields(line);
    if (f.size() >= kCsvColumnCount &&
        std::equal(std::begin(kCsvColumns), std::end(kCsvColumns), f.begin(),
                   [](std::string_view a, std::string_view b) { return EqualsIgnoreCase(a, b); }))
      return true;
    // A file appended to by a second run may start without a header.
    if (lines == 1 && LooksLikeDataRow(f)) return true;
    // Otherwise only "key, value" preamble lines may come before the header.
    char first = Trim(line)[0];
    if (f.size() < 2 || f[0].empty() || first == '{' || first == '[' || first == '<') return false;
  }
  return false;
}

ProfileReport ReadProfileCsv(const std::string& path) {
  const WholeText file = WholeText::Read(path);
  return ParseProfileCsv(path, file.text());
}

ProfileReport ParseProfileCsv(const std::string& path, std::string_view text) {
  return CsvParser(path, text).Run();
}

}  // namespace htpscope
