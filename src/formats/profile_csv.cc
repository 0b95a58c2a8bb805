// Profile CSV as written by ONNX Runtime's QNN execution provider and by
// qnn-profile-viewer (formats.md §5.3).
//
// Row placement:
//  * ROOT rows are metrics.  INIT / FINALIZE / DE-INIT rows go to statistics
//    blocks "Init Stats" / "Finalize Stats" / "De-Init Stats"; EXECUTE-family
//    rows go to the executions ("Execute Stat N" raw blocks).  BACKEND and
//    UNKNOWN rows (HTP-specific event types all print as BACKEND) are placed
//    by their identifier: "(load binary)"/"(init" -> Init, "finalize" ->
//    Finalize, "deinit"/"de-init" -> De-Init, anything else -> execution.
//  * A new block of a kind starts when a ROOT identifier repeats within the
//    current one: for executions this is "the next execution", whether the
//    repeated row is typed EXECUTE or BACKEND.  "NULL" identifiers never split.
//  * SUB-EVENT rows belong to the last ROOT row: NODE rows are per-node cycles
//    of that (cycles) row; linting rows ("Wait (Scheduler) time", "Overlap
//    time", "Overlap (wait) time") fill in the last node.
//  * A header row in the middle of the file (a second run appended to it)
//    closes the current blocks.
//
// With the 8th column "ONNX Source Ops" the identifier and the source ops are
// separated at the last comma of the row (or before a trailing quoted field),
// so an identifier may still contain commas; a source-op list containing
// commas must then be quoted.  Without a header row, 7 columns are assumed.
#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <unordered_set>

#include "base/errors.h"
#include "formats/byte_source.h"
#include "formats/profile_text.h"
#include "formats/text_util.h"

namespace htpscope {
namespace {

constexpr size_t kMaxWarnings = 20;
constexpr std::string_view kUtf8Bom = "\xEF\xBB\xBF";
constexpr std::string_view kHeader =
    "Msg Timestamp,Message,Time,Unit of Measurement,Timing Source,Event Level,Event Identifier";
constexpr std::array<std::string_view, 7> kColumns = {
    "Msg Timestamp", "Message",         "Time", "Unit of Measurement", "Timing Source",
    "Event Level",   "Event Identifier"};
constexpr std::string_view kSourceOpsColumn = "ONNX Source Ops";

std::string ToUpper(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return out;
}

bool Contains(std::string_view haystack, std::string_view needle) {
  return haystack.find(needle) != std::string_view::npos;
}

// Splits on the first `count` commas; the last field keeps any further ones.
// Returns false when the row has fewer than `count` commas.
bool SplitFirstCommas(std::string_view row, size_t count, std::vector<std::string_view>* fields) {
  fields->clear();
  size_t pos = 0;
  for (size_t i = 0; i < count; ++i) {
    size_t comma = row.find(',', pos);
    if (comma == std::string_view::npos) return false;
    fields->push_back(row.substr(pos, comma - pos));
    pos = comma + 1;
  }
  fields->push_back(row.substr(pos));
  return true;
}

enum Kind { kInit, kFinalize, kDeinit, kExecute, kKindCount };

constexpr std::array<std::string_view, kKindCount> kKindTitles = {"Init Stats", "Finalize Stats",
                                                                  "De-Init Stats", ""};

Kind Classify(std::string_view message, std::string_view identifier) {
  if (message == "INIT") return kInit;
  if (message == "FINALIZE") return kFinalize;
  if (message == "DE-INIT" || message == "DEINIT") return kDeinit;
  if (message.substr(0, 7) == "EXECUTE" || message == "NODE") return kExecute;
  std::string id = ToLower(identifier);
  if (Contains(id, "load binary") || Contains(id, "(init")) return kInit;
  if (Contains(id, "finalize")) return kFinalize;
  if (Contains(id, "deinit") || Contains(id, "de-init")) return kDeinit;
  return kExecute;
}

class CsvParser {
 public:
  CsvParser(const std::string& path, std::string_view text) : path_(path), text_(text) {}

  ProfileReport Run() {
    report_.path = path_;
    report_.format = ProfileFormat::kCsv;
    if (text_.substr(0, kUtf8Bom.size()) == kUtf8Bom) text_.remove_prefix(kUtf8Bom.size());
    if (Trim(text_).empty())
      throw InputError(path_, fmt::format("empty file: expected profile CSV ({})", kHeader));
    size_t pos = 0;
    while (pos <= text_.size()) {
      size_t end = text_.find('\n', pos);
      if (end == std::string_view::npos) end = text_.size();
      std::string_view line = text_.substr(pos, end - pos);
      if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
      ++line_;
      HandleLine(line);
      pos = end + 1;
    }
    if (rows_ == 0)
      throw InputError(path_, "no data rows after the CSV header: the file ends here", {},
                       last_content_line_);
    if (dropped_warnings_ > 0)
      report_.warnings.push_back(fmt::format("{} more warnings not shown", dropped_warnings_));
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

  [[noreturn]] void Fail(std::string problem) const {
    throw InputError(path_, std::move(problem), {}, line_);
  }

  void Warn(std::string message) {
    if (report_.warnings.size() < kMaxWarnings) {
      report_.warnings.push_back(fmt::format("line {}: {}", line_, message));
    } else {
      ++dropped_warnings_;
    }
  }

  ProfileBlock& Block(BlockRef ref) {
    return ref.raw ? report_.raw[ref.index] : report_.statistics[ref.index];
  }

  void HandleLine(std::string_view line) {
    if (Trim(line).empty()) return;
    last_content_line_ = line_;
    if (line.substr(0, 14) == "Msg Timestamp,") {
      HandleHeader(line);
      return;
    }
    std::vector<std::string_view> f;
    if (!SplitFirstCommas(line, kColumns.size() - 1, &f))
      Fail(fmt::format("expected {} comma-separated columns ({}), found {}", kColumns.size(),
                       kHeader, std::count(line.begin(), line.end(), ',') + 1));
    ++rows_;
    std::string_view identifier = f[6];
    if (columns_ == 8) identifier = DropSourceOps(identifier);
    identifier = Trim(identifier);

    std::string message = ToUpper(Trim(f[1]));
    std::string level = ToUpper(Trim(f[5]));
    if (level != "ROOT" && level != "SUB-EVENT")
      Fail(fmt::format("Event Level \"{}\": expected ROOT or SUB-EVENT", Trim(f[5])));

    ProfileMetric metric;
    metric.name = std::string(identifier);
    std::string source = ToUpper(Trim(f[4]));
    metric.source = source == "BACKEND"  ? "Backend"
                    : source == "NETRUN" ? "NetRun"
                                         : std::string(Trim(f[4]));
    metric.unit = ToLower(Trim(f[3]));
    std::optional<int64_t> integer = SetValue(Trim(f[2]), &metric);

    if (level == "ROOT") {
      AddRoot(Classify(message, identifier), std::move(metric));
    } else {
      AddSubEvent(message, std::move(metric), integer);
    }
  }

  void HandleHeader(std::string_view line) {
    std::vector<std::string_view> names;
    size_t pos = 0;
    while (pos <= line.size()) {
      size_t comma = std::min(line.find(',', pos), line.size());
      names.push_back(Trim(line.substr(pos, comma - pos)));
      pos = comma + 1;
    }
    bool seven = names.size() >= kColumns.size() &&
                 std::equal(kColumns.begin(), kColumns.end(), names.begin());
    bool eight = names.size() == kColumns.size() + 1 && names.back() == kSourceOpsColumn;
    if (!seven || (names.size() != kColumns.size() && !eight))
      Fail(fmt::format("unexpected CSV header: expected \"{}\" (optionally followed by \",{}\")",
                       kHeader, kSourceOpsColumn));
    columns_ = names.size();
    // A header after data rows: another run was appended; start new blocks.
    for (auto& c : current_) c = Current{};
    last_root_.reset();
    last_node_ = -1;
  }

  // "<identifier>,<source ops>" -> "<identifier>".
  std::string_view DropSourceOps(std::string_view tail) {
    std::string_view trimmed = Trim(tail);
    if (!trimmed.empty() && trimmed.back() == '"') {
      size_t open = trimmed.rfind(",\"", trimmed.size() - 1);
      if (open != std::string_view::npos) return trimmed.substr(0, open);
    }
    size_t comma = tail.rfind(',');
    if (comma == std::string_view::npos) {
      Warn("row has no \"ONNX Source Ops\" column although the header declares it");
      return tail;
    }
    return tail.substr(0, comma);
  }

  // Sets metric->value from the Time column; returns it as an integer when
  // it is a whole number that fits int64.
  std::optional<int64_t> SetValue(std::string_view text, ProfileMetric* metric) {
    const std::string& unit = metric->unit;
    if (unit == "object") return std::nullopt;  // an opaque object, not a quantity
    std::string problem;
    std::optional<ProfileNumber> number = ParseProfileNumber(text, &problem);
    bool required = unit == "us" || unit == "cycles" || unit == "count" || unit == "bytes";
    if (!number) {
      if (required)
        Fail(fmt::format("Time of \"{}\": {} (expected a number of {})", metric->name, problem,
                         unit));
      Warn(
          fmt::format("Time of \"{}\" ({}) kept without a value: {}", metric->name, unit, problem));
      return std::nullopt;
    }
    if (unit == "cycles" && !number->integer)
      Fail(fmt::format("Time of \"{}\": expected a whole number of cycles, got \"{}\"",
                       metric->name, text));
    metric->has_value = true;
    metric->value = number->value;
    return number->integer;
  }

  void AddRoot(Kind kind, ProfileMetric metric) {
    Current& c = current_[kind];
    bool repeated = metric.name != "NULL" && c.root_ids.count(metric.name) > 0;
    if (!c.block || repeated) {
      c.root_ids.clear();
      ProfileBlock block;
      if (kind == kExecute) {
        block.execution = static_cast<int>(report_.raw.size()) + 1;
        block.title = fmt::format("Execute Stat {}", block.execution);
        report_.raw.push_back(std::move(block));
        c.block = BlockRef{true, report_.raw.size() - 1};
      } else {
        block.title = std::string(kKindTitles[kind]);
        report_.statistics.push_back(std::move(block));
        c.block = BlockRef{false, report_.statistics.size() - 1};
      }
    }
    c.root_ids.insert(metric.name);
    ProfileBlock& b = Block(*c.block);
    b.metrics.push_back(std::move(metric));
    last_root_ = *c.block;
    last_root_index_ = b.metrics.size() - 1;
    last_node_ = -1;
    root_nodes_decided_ = false;
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

  void AddSubEvent(const std::string& message, ProfileMetric metric,
                   std::optional<int64_t> integer) {
    if (!last_root_)
      Fail(fmt::format(
          "SUB-EVENT row \"{}\" has no ROOT row above it: expected it after the "
          "cycles ROOT row it belongs to (e.g. \"Accelerator (execute) time (cycles)\")",
          metric.name));
    ProfileBlock& b = Block(*last_root_);
    const ProfileMetric& root = b.metrics[last_root_index_];
    if (message == "NODE") {
      if (root.unit != "cycles")
        Fail(
            fmt::format("NODE row \"{}\" follows ROOT row \"{}\", which is in {}: expected it "
                        "after a cycles ROOT row",
                        metric.name, root.name, root.unit));
      if (metric.unit != "cycles") {
        Warn(fmt::format("NODE row \"{}\" is in {} rather than cycles; ignored", metric.name,
                         metric.unit));
        last_node_ = -1;
        return;
      }
      last_node_ = -1;
      if (!RootTakesNodes(b, root.name)) return;
      ProfileNode node;
      std::string_view label = metric.name;
      if (label.size() >= 8 && ToLower(label.substr(label.size() - 8)) == "(cycles)")
        label = Trim(label.substr(0, label.size() - 8));
      SetProfileNodeLabel(label, &node);
      node.cycles = *integer;  // SetValue made sure cycles are whole and in range
      b.nodes.push_back(std::move(node));
      last_node_ = static_cast<int>(b.nodes.size()) - 1;
      return;
    }
    std::string name = ToLower(metric.name);
    std::optional<int64_t>* slot = nullptr;
    if (last_node_ >= 0) {
      ProfileNode& node = b.nodes[last_node_];
      if (name == "wait (scheduler) time") slot = &node.wait_cycles;
      if (name == "overlap time") slot = &node.overlap_cycles;
      if (name == "overlap (wait) time") slot = &node.overlap_wait_cycles;
      if (slot) {
        if (metric.unit != "cycles" || !integer)
          Fail(fmt::format("\"{}\" of \"{}\": expected a number of cycles", metric.name,
                           node.label));
        *slot = *integer;
        node.has_lint = true;
        return;
      }
    }
    Warn(fmt::format("SUB-EVENT row \"{}\" ({}) ignored", metric.name, message));
  }

  const std::string& path_;
  std::string_view text_;
  ProfileReport report_;
  uint64_t line_ = 0;
  uint64_t last_content_line_ = 0;
  size_t rows_ = 0;
  size_t columns_ = kColumns.size();
  size_t dropped_warnings_ = 0;
  std::array<Current, kKindCount> current_;
  std::optional<BlockRef> last_root_;
  size_t last_root_index_ = 0;
  int last_node_ = -1;
  bool root_nodes_decided_ = false, root_takes_nodes_ = false;
};

}  // namespace

bool LooksLikeProfileCsv(std::string_view prefix) {
  if (prefix.substr(0, kUtf8Bom.size()) == kUtf8Bom) prefix.remove_prefix(kUtf8Bom.size());
  if (prefix.substr(0, kHeader.size()) == kHeader) return true;
  // A file appended to by a second run may start without a header.
  std::string_view first = prefix.substr(0, prefix.find('\n'));
  std::vector<std::string_view> f;
  if (!SplitFirstCommas(first, kColumns.size() - 1, &f)) return false;
  std::string unit = ToUpper(Trim(f[3])), source = ToUpper(Trim(f[4])), level = ToUpper(Trim(f[5]));
  static constexpr std::string_view kUnits[] = {"US",     "BYTES",   "CYCLES", "COUNT",
                                                "OBJECT", "BACKEND", "UNKNOWN"};
  return (level == "ROOT" || level == "SUB-EVENT") && (source == "BACKEND" || source == "NETRUN") &&
         std::find(std::begin(kUnits), std::end(kUnits), unit) != std::end(kUnits);
}

ProfileReport ReadProfileCsv(const std::string& path) {
  LoadedFile file = ReadWholeFile(path);
  return ParseProfileCsv(path, std::string_view(file.bytes.data(), file.bytes.size()));
}

ProfileReport ParseProfileCsv(const std::string& path, std::string_view text) {
  return CsvParser(path, text).Run();
}

}  // namespace htpscope
