#include "formats/profile_text.h"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <set>
#include <utility>

#include "base/errors.h"
#include "formats/byte_source.h"
#include "formats/text_util.h"

namespace htpscope {
namespace {

constexpr size_t kMaxWarnings = 20;
constexpr size_t kMaxQuotedChars = 80;
constexpr std::string_view kUtf8Bom = "\xEF\xBB\xBF";

bool EndsWithIgnoreCase(std::string_view s, std::string_view suffix) {
  return s.size() >= suffix.size() && EqualsIgnoreCase(s.substr(s.size() - suffix.size()), suffix);
}

bool IsDigit(char c) { return c >= '0' && c <= '9'; }

// A line quoted for an error message, shortened so one bad line cannot flood it.
std::string Quote(std::string_view text) {
  if (text.size() <= kMaxQuotedChars) return fmt::format("\"{}\"", text);
  return fmt::format("\"{}...\"", text.substr(0, kMaxQuotedChars));
}

size_t IndentOf(std::string_view line) {
  size_t n = 0;
  while (n < line.size() && (line[n] == ' ' || line[n] == '\t')) ++n;
  return n;
}

// Splits "<name><sep><tail>" where <sep> is the first ':' outside
// parentheses that is followed by whitespace or ends the line, so that
// "bbb_indep0:OpId_19 (cycles) : 1  cycles" and
// "Backend (Accelerator (execute) time (cycles)): 2  cycles" both split at
// the right colon.  Returns false when the line has no such colon.
bool SplitNameValue(std::string_view text, std::string_view* name, std::string_view* tail) {
  int depth = 0;
  size_t sep = std::string_view::npos;
  for (size_t i = 0; i < text.size(); ++i) {
    char c = text[i];
    if (c == '(') {
      ++depth;
    } else if (c == ')') {
      if (depth > 0) --depth;
    } else if (c == ':' && depth == 0 &&
               (i + 1 == text.size() || std::isspace(static_cast<unsigned char>(text[i + 1])))) {
      sep = i;
      break;
    }
  }
  if (sep == std::string_view::npos) {
    // Unbalanced parentheses in a name: fall back to the plain separators.
    sep = text.find(" : ");
    if (sep != std::string_view::npos) {
      ++sep;
    } else {
      sep = text.find(": ");
    }
  }
  if (sep == std::string_view::npos || sep == 0) return false;
  *name = Trim(text.substr(0, sep));
  *tail = Trim(text.substr(sep + 1));
  return !name->empty();
}

// Units printed after a value.  "object" events carry no value.
bool IsKnownUnit(std::string_view unit) {
  static constexpr std::string_view kUnits[] = {"us",     "ms",    "ns",    "s",       "sec",
                                                "cycles", "count", "bytes", "inf/sec", "object"};
  return std::any_of(std::begin(kUnits), std::end(kUnits),
                     [&](std::string_view u) { return EqualsIgnoreCase(u, unit); });
}

// True when the '(' at `open` is closed by the last character of `text`:
// "Backend (Accelerator (execute) time (cycles))" but not "Backend (a) b (c)".
bool ClosesAtEnd(std::string_view text, size_t open) {
  int depth = 0;
  for (size_t i = open; i < text.size(); ++i) {
    if (text[i] == '(') {
      ++depth;
    } else if (text[i] == ')' && --depth == 0) {
      return i + 1 == text.size();
    }
  }
  return false;
}

bool StartsLikeNumber(std::string_view token) {
  return !token.empty() &&
         (IsDigit(token[0]) || token[0] == '-' || token[0] == '+' || token[0] == '.');
}

std::vector<std::string_view> SplitWhitespace(std::string_view text) {
  std::vector<std::string_view> out;
  size_t i = 0;
  while (i < text.size()) {
    while (i < text.size() && std::isspace(static_cast<unsigned char>(text[i]))) ++i;
    size_t start = i;
    while (i < text.size() && !std::isspace(static_cast<unsigned char>(text[i]))) ++i;
    if (i > start) out.push_back(text.substr(start, i - start));
  }
  return out;
}

// The value part of a line: "87938  cycles", "214.8888 inf/sec", "object",
// "147075 cycles : DSP".
struct ParsedValue {
  bool has_value = false;
  double value = 0;
  std::optional<int64_t> integer;
  std::string unit;
  std::string tag;
};

enum class ListKind { kNone, kOverlap, kOverlapWait };

class TextParser {
 public:
  TextParser(const std::string& path, std::string_view text) : path_(path), text_(text) {}

  ProfileReport Run() {
    report_.path = path_;
    report_.format = ProfileFormat::kText;
    if (text_.substr(0, kUtf8Bom.size()) == kUtf8Bom) text_.remove_prefix(kUtf8Bom.size());
    if (Trim(text_).empty())
      throw InputError(path_, "empty file: expected qnn-profile-viewer text output");
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
    Close();
    if (report_.statistics.empty() && report_.raw.empty()) {
      // Point at the first line that was not understood, else at the end.
      bool unrecognised = first_warning_line_ > 0;
      throw InputError(
          path_,
          fmt::format("no profile sections found{}: expected qnn-profile-viewer output with "
                      "\"Execute Stat N\" blocks or \"... Stats:\" sections",
                      unrecognised ? " (this is the first line not understood)"
                                   : " before the end of the file"),
          {}, unrecognised ? first_warning_line_ : last_content_line_);
    }
    if (dropped_warnings_ > 0)
      report_.warnings.push_back(fmt::format("{} more warnings not shown", dropped_warnings_));
    return std::move(report_);
  }

 private:
  enum class Part { kHeader, kStatistics, kRaw };

  struct OpenBlock {
    ProfileBlock block;
    bool raw = false;
    bool snpe_layers = false;  // SNPE "Layer Times:": node lines with no root line
    bool placeholder = false;  // "Execute Stats:" before its "Execute Stat N" blocks
  };

  [[noreturn]] void Fail(std::string problem) const {
    throw InputError(path_, std::move(problem), {}, line_);
  }

  void Warn(std::string message) {
    if (first_warning_line_ == 0) first_warning_line_ = line_;
    if (report_.warnings.size() < kMaxWarnings) {
      report_.warnings.push_back(fmt::format("line {}: {}", line_, message));
    } else {
      ++dropped_warnings_;
    }
  }

  void HandleLine(std::string_view line) {
    std::string_view trimmed = Trim(line);
    if (trimmed.empty()) return;
    last_content_line_ = line_;
    size_t indent = IndentOf(line);
    if (trimmed.find_first_not_of('-') == std::string_view::npos) return;  // "-----" rule
    if (indent == 0 && HandleHeaderKey(trimmed)) return;
    // Sub-headers may be written "--- Graph 0 (model):".
    std::string_view head = trimmed;
    if (head.substr(0, 3) == "---") head = Trim(head.substr(head.find_first_not_of('-')));
    if (HandleSectionHeader(head)) return;
    if (!open_) {
      Warn(fmt::format("line outside any section ignored: {}", Quote(trimmed)));
      return;
    }
    if (open_->snpe_layers) {
      HandleLayerLine(trimmed, indent);
    } else {
      HandleContent(trimmed, indent);
    }
  }

  // The file header ("qnn-profile-viewer: v2.45...", "Time Scale: 1e-06", ...).
  bool HandleHeaderKey(std::string_view trimmed) {
    static constexpr std::string_view kIgnored[] = {
        "Input Log File Location:", "Log File Created:", "Time Scale:", "Epoch Timestamp:",
        "Generated using:",         "qnn-net-run:",      "Backend:"};
    constexpr std::string_view kViewer = "qnn-profile-viewer:";
    if (trimmed.substr(0, kViewer.size()) == kViewer) {
      Close();
      part_ = Part::kHeader;
      report_.viewer_version = std::string(Trim(trimmed.substr(kViewer.size())));
      return true;
    }
    for (std::string_view key : kIgnored) {
      if (trimmed.substr(0, key.size()) == key) {
        Close();
        return true;
      }
    }
    return false;
  }

  bool HandleSectionHeader(std::string_view head) {
    if (head == "Printing All Data Received From Back End") {
      Close();
      part_ = Part::kRaw;
      return true;
    }
    constexpr std::string_view kExecuteStat = "Execute Stat ";
    if (head.substr(0, kExecuteStat.size()) == kExecuteStat) {
      std::string_view number = Trim(head.substr(kExecuteStat.size()));
      if (!number.empty() && number.back() == ':')
        number = Trim(number.substr(0, number.size() - 1));
      int execution = 0;
      auto [ptr, ec] = std::from_chars(number.data(), number.data() + number.size(), execution);
      if (number.empty() || ec != std::errc() || ptr != number.data() + number.size() ||
          execution <= 0)
        Fail(fmt::format("{}: expected \"Execute Stat <n>\" with a positive integer n",
                         Quote(head)));
      if (!executions_seen_.insert(execution).second)
        Warn(fmt::format("\"Execute Stat {}\" appears again; kept as a separate block", execution));
      Open(fmt::format("Execute Stat {}", execution), true, execution);
      part_ = Part::kRaw;
      return true;
    }
    if (head.empty() || head.back() != ':') return false;
    std::string_view title = Trim(head.substr(0, head.size() - 1));
    // "Resources:" and other "name:" lines with a colon inside are content.
    std::string_view name, tail;
    if (!SplitNameValue(head, &name, &tail) || !tail.empty() || name != title) return false;

    if (EndsWithIgnoreCase(title, "Statistics")) {  // "Qnn Init/Prepare/.../Lib-Load Statistics"
      Close();
      part_ = Part::kStatistics;
      return true;
    }
    if (title == "Execute Stats") {
      Open("Execute Stats", true, 0);
      open_->placeholder = true;
      part_ = Part::kRaw;
      return true;
    }
    if (title == "Create From Binary Stats") {
      Open(std::string(title), true, 0);
      return true;
    }
    bool stats = EndsWithIgnoreCase(title, " Stats");
    bool stats_of_kind = title.find(" Stats (") != std::string_view::npos && title.back() == ')';
    if (stats || stats_of_kind) {
      // "Execute Stats (Average)" and friends are always statistics; a plain
      // "X Stats" belongs to whichever part of the file it is printed in.
      Open(std::string(title), stats && part_ == Part::kRaw, 0);
      return true;
    }
    if (title == "Per-Graph Execution Times" || title == "Layer Times") {
      report_.format = ProfileFormat::kSnpeDiagview;
      Open(std::string(title), false, 0);
      open_->snpe_layers = title == "Layer Times";
      return true;
    }
    if (EqualsIgnoreCase(title, "Total Inference Time")) {
      StartGroup("", /*is_graph=*/false);
      return true;
    }
    if (title.substr(0, 6) == "Graph " && title.size() > 6 && IsDigit(title[6])) {
      StartGroup(title, /*is_graph=*/true);
      return true;
    }
    return false;
  }

  // "Total Inference Time:" / "Graph N (name):" inside a section: a new
  // group of the same section, kept in its own block so graphs stay apart.
  void StartGroup(std::string_view graph, bool is_graph) {
    if (!open_) {
      Warn(fmt::format("{} outside any section ignored",
                       Quote(is_graph ? graph : std::string_view("Total Inference Time"))));
      return;
    }
    ProfileBlock& b = open_->block;
    bool empty = b.metrics.empty() && b.nodes.empty();
    if (empty && (b.graph.empty() || !is_graph)) {
      if (is_graph) b.graph = std::string(graph);
      return;
    }
    std::string title = b.title;
    bool raw = open_->raw, snpe_layers = open_->snpe_layers;
    int execution = b.execution;
    Open(std::move(title), raw, execution);
    open_->snpe_layers = snpe_layers;
    open_->block.graph = std::string(graph);
  }

  void Open(std::string title, bool raw, int execution) {
    Close();
    // Not emplace(): clang rejects it for a nested class with member initialisers.
    open_ = OpenBlock{};
    open_->raw = raw;
    open_->block.title = std::move(title);
    open_->block.execution = execution;
    open_->block.first_line = static_cast<int>(line_);
  }

  void Close() {
    if (open_) {
      bool empty = open_->block.metrics.empty() && open_->block.nodes.empty();
      if (!(open_->placeholder && empty))
        (open_->raw ? report_.raw : report_.statistics).push_back(std::move(open_->block));
      open_.reset();
    }
    root_indent_.reset();
    root_ = -1;
    ResetNodes();
  }

  void ResetNodes() {
    node_indent_.reset();
    node_ = -1;
    root_takes_nodes_ = false;
    root_nodes_decided_ = false;
    ResetLint();
  }

  void ResetLint() {
    sub_indent_.reset();
    list_ = ListKind::kNone;
  }

  // Parses the value part of a line.  Returns nullopt (after a warning) when
  // the text is not a value at all; fails when a number must be there but is
  // malformed (a unit with no number, "12x  us", an int64 overflow).
  std::optional<ParsedValue> ParseValue(std::string_view name, std::string_view tail) {
    ParsedValue out;
    size_t tag_at = tail.find(" : ");
    if (tag_at != std::string_view::npos) {
      out.tag = std::string(Trim(tail.substr(tag_at + 3)));
      tail = Trim(tail.substr(0, tag_at));
    }
    std::vector<std::string_view> tokens = SplitWhitespace(tail);
    auto expected = [&] {
      return fmt::format("\"{}\": expected \"<number>  <unit>\" after the colon, got {}", name,
                         Quote(tail));
    };
    if (tokens.empty()) {
      Warn(fmt::format("\"{}\" has no value; ignored", name));
      return std::nullopt;
    }
    bool number_expected = StartsLikeNumber(tokens[0]) || IsKnownUnit(tokens.back());
    if (tokens.size() == 1 && EqualsIgnoreCase(tokens[0], "object")) {
      out.unit = "object";  // OBJECT events have nothing the viewer can print
      return out;
    }
    if (tokens.size() == 1 && IsKnownUnit(tokens[0]))
      Fail(fmt::format("\"{}\": unit \"{}\" with no number before it", name, tokens[0]));
    if (tokens.size() > 2) {
      if (number_expected) Fail(expected());
      Warn(fmt::format("unrecognised value {} for \"{}\"; ignored", Quote(tail), name));
      return std::nullopt;
    }
    std::string problem;
    std::optional<ProfileNumber> number = ParseProfileNumber(tokens[0], &problem);
    if (!number) {
      if (number_expected) Fail(fmt::format("\"{}\": {}", name, problem));
      Warn(fmt::format("unrecognised value {} for \"{}\"; ignored", Quote(tail), name));
      return std::nullopt;
    }
    out.has_value = true;
    out.value = number->value;
    out.integer = number->integer;
    if (tokens.size() == 2) out.unit = ToLower(tokens[1]);
    if (out.unit == "cycles" && !out.integer)
      Fail(fmt::format("\"{}\": expected a whole number of cycles, got \"{}\"", name, tokens[0]));
    return out;
  }

  static bool IsNodeLabel(std::string_view name) {
    ProfileNode probe;
    SetProfileNodeLabel(NodeLabel(name), &probe);
    return probe.op_id.has_value();
  }

  // "Input OpId_2 (cycles)" -> "Input OpId_2".
  static std::string_view NodeLabel(std::string_view name) {
    if (EndsWithIgnoreCase(name, "(cycles)")) name = Trim(name.substr(0, name.size() - 8));
    return name;
  }

  void HandleContent(std::string_view trimmed, size_t indent) {
    ProfileBlock& b = open_->block;
    if (!root_indent_ || indent <= *root_indent_) {
      std::string_view name, tail;
      if (!SplitNameValue(trimmed, &name, &tail)) {
        Warn(fmt::format("unrecognised line ignored: {}", Quote(trimmed)));
        return;
      }
      if (IsNodeLabel(name)) {
        if (root_ < 0)
          Fail(
              fmt::format("per-node line {} has no root line above it: expected it indented "
                          "under a cycles line such as \"Accelerator (execute) time (cycles)\"",
                          Quote(trimmed)));
        Fail(fmt::format("per-node line {} is not indented under its root line \"{}\"",
                         Quote(trimmed), b.metrics[root_].name));
      }
      std::optional<ParsedValue> value = ParseValue(name, tail);
      if (!value) return;
      ProfileMetric metric;
      constexpr std::string_view kBackend = "Backend (";
      if (name.substr(0, kBackend.size()) == kBackend && ClosesAtEnd(name, kBackend.size() - 1)) {
        metric.source = "Backend";
        metric.name = std::string(name.substr(kBackend.size(), name.size() - kBackend.size() - 1));
      } else {
        if (name == "NetRun" || name.substr(0, 7) == "NetRun ") metric.source = "NetRun";
        metric.name = std::string(name);
      }
      metric.has_value = value->has_value;
      metric.value = value->value;
      metric.unit = std::move(value->unit);
      b.metrics.push_back(std::move(metric));
      if (!root_indent_) root_indent_ = indent;
      root_ = static_cast<int>(b.metrics.size()) - 1;
      ResetNodes();
      return;
    }
    if (!node_indent_ || indent <= *node_indent_) {
      if (!node_indent_) node_indent_ = indent;
      HandleNodeLine(trimmed, /*snpe=*/false);
      return;
    }
    HandleLintLine(trimmed, indent);
  }

  // SNPE "Layer Times:": "  2: name:OpId_21 (cycles) : 147075 cycles : DSP"
  // lines are the nodes themselves, with linting sub-entries below them.
  void HandleLayerLine(std::string_view trimmed, size_t indent) {
    if (!node_indent_ || indent <= *node_indent_) {
      if (!node_indent_) node_indent_ = indent;
      size_t digits = 0;
      while (digits < trimmed.size() && IsDigit(trimmed[digits])) ++digits;
      if (digits > 0 && digits + 1 < trimmed.size() && trimmed[digits] == ':' &&
          std::isspace(static_cast<unsigned char>(trimmed[digits + 1])))
        trimmed = Trim(trimmed.substr(digits + 1));  // the layer index
      HandleNodeLine(trimmed, /*snpe=*/true);
      return;
    }
    HandleLintLine(trimmed, indent);
  }

  // Decides once per root line whether its per-node lines go into the
  // block: a block holds the nodes of one parent.  A critical-path parent
  // (linting) is preferred over a thread-aggregate one.
  bool RootTakesNodes() {
    if (root_nodes_decided_) return root_takes_nodes_;
    root_nodes_decided_ = true;
    ProfileBlock& b = open_->block;
    const std::string& parent = b.metrics[root_].name;
    if (b.nodes.empty() && b.nodes_parent.empty()) {
      b.nodes_parent = parent;
      root_takes_nodes_ = true;
    } else if (ToLower(parent).find("critical path") != std::string::npos &&
               ToLower(b.nodes_parent).find("critical path") == std::string::npos) {
      Warn(fmt::format("per-node lines of \"{}\" replace those of \"{}\" in \"{}\"", parent,
                       b.nodes_parent, b.title));
      b.nodes.clear();
      b.nodes_parent = parent;
      root_takes_nodes_ = true;
    } else {
      Warn(fmt::format("per-node lines of \"{}\" ignored: \"{}\" already has those of \"{}\"",
                       parent, b.title, b.nodes_parent));
      root_takes_nodes_ = false;
    }
    return root_takes_nodes_;
  }

  void HandleNodeLine(std::string_view trimmed, bool snpe) {
    node_ = -1;
    ResetLint();
    std::string_view name, tail;
    if (!SplitNameValue(trimmed, &name, &tail)) {
      Warn(fmt::format("unrecognised line ignored: {}", Quote(trimmed)));
      return;
    }
    std::optional<ParsedValue> value = ParseValue(name, tail);
    if (!value) return;
    ProfileBlock& b = open_->block;
    if (value->unit != "cycles" || !value->has_value) {
      Warn(fmt::format("sub-event {} is not in cycles; ignored", Quote(trimmed)));
      return;
    }
    if (!snpe) {
      const ProfileMetric& root = b.metrics[root_];
      if (root.unit != "cycles")
        Fail(
            fmt::format("per-node line {} sits under \"{}\", which is in {}: expected it under a "
                        "cycles line such as \"Accelerator (execute) time (cycles)\"",
                        Quote(trimmed), root.name, root.unit.empty() ? "no unit" : root.unit));
      if (!RootTakesNodes()) return;
    }
    ProfileNode node;
    SetProfileNodeLabel(NodeLabel(name), &node);
    node.cycles = *value->integer;
    node.resource_tag = std::move(value->tag);
    b.nodes.push_back(std::move(node));
    node_ = static_cast<int>(b.nodes.size()) - 1;
  }

  void HandleLintLine(std::string_view trimmed, size_t indent) {
    if (node_ < 0) return;  // under a node line that was ignored (already warned)
    ProfileNode& node = open_->block.nodes[node_];
    if (!sub_indent_ || indent <= *sub_indent_) {
      if (!sub_indent_) sub_indent_ = indent;
      list_ = ListKind::kNone;
      std::string_view name, tail;
      if (!SplitNameValue(trimmed, &name, &tail)) {
        Warn(fmt::format("unrecognised line under \"{}\" ignored: {}", node.label, Quote(trimmed)));
        return;
      }
      if (EqualsIgnoreCase(name, "Resources")) {
        node.has_lint = true;
        node.resources.clear();
        size_t pos = 0;
        while (pos <= tail.size()) {
          size_t comma = std::min(tail.find(',', pos), tail.size());
          std::string_view item = Trim(tail.substr(pos, comma - pos));
          if (!item.empty()) node.resources.emplace_back(item);
          pos = comma + 1;
        }
        return;
      }
      std::optional<int64_t>* slot = nullptr;
      ListKind list = ListKind::kNone;
      if (EqualsIgnoreCase(name, "Wait (Scheduler) time")) {
        slot = &node.wait_cycles;
      } else if (EqualsIgnoreCase(name, "Overlap time")) {
        slot = &node.overlap_cycles;
        list = ListKind::kOverlap;
      } else if (EqualsIgnoreCase(name, "Overlap (wait) time")) {
        slot = &node.overlap_wait_cycles;
        list = ListKind::kOverlapWait;
      } else {
        Warn(fmt::format("unknown linting entry under \"{}\" ignored: {}", node.label,
                         Quote(trimmed)));
        return;
      }
      std::optional<ParsedValue> value;
      if (!tail.empty()) value = ParseValue(name, tail);
      if (!value || !value->has_value || value->unit != "cycles")
        Fail(fmt::format("\"{}\" of \"{}\": expected \"<number>  cycles\", got {}", name,
                         node.label, Quote(tail)));
      if (slot->has_value())
        Warn(fmt::format("\"{}\" repeated under \"{}\"; the last one is kept", name, node.label));
      *slot = *value->integer;
      node.has_lint = true;
      list_ = list;
      return;
    }
    // Deeper still: the names listed under "Overlap time" / "Overlap (wait) time".
    if (list_ == ListKind::kOverlap) {
      node.overlap_ops.emplace_back(trimmed);
    } else if (list_ == ListKind::kOverlapWait) {
      node.overlap_wait_ops.emplace_back(trimmed);
    } else {
      Warn(fmt::format("unexpected line under \"{}\" ignored: {}", node.label, Quote(trimmed)));
    }
  }

  const std::string& path_;
  std::string_view text_;
  ProfileReport report_;
  uint64_t line_ = 0;
  uint64_t last_content_line_ = 0;
  uint64_t first_warning_line_ = 0;
  size_t dropped_warnings_ = 0;
  Part part_ = Part::kHeader;
  std::optional<OpenBlock> open_;
  std::set<int> executions_seen_;
  // Nesting inside the open block, by relative indentation: root lines, the
  // per-node lines under the current root, linting sub-entries under the
  // current node, and the op names listed under an overlap entry.
  std::optional<size_t> root_indent_, node_indent_, sub_indent_;
  int root_ = -1;
  int node_ = -1;
  bool root_nodes_decided_ = false, root_takes_nodes_ = false;
  ListKind list_ = ListKind::kNone;
};

bool StartsWithLine(std::string_view line, std::string_view prefix) {
  return line.substr(0, prefix.size()) == prefix;
}

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

bool LooksLikeProfileText(std::string_view prefix) {
  if (prefix.substr(0, kUtf8Bom.size()) == kUtf8Bom) prefix.remove_prefix(kUtf8Bom.size());
  size_t pos = 0;
  while (pos < prefix.size()) {
    size_t end = std::min(prefix.find('\n', pos), prefix.size());
    std::string_view line = Trim(prefix.substr(pos, end - pos));
    pos = end + 1;
    if (StartsWithLine(line, "qnn-profile-viewer:") ||
        StartsWithLine(line, "Qnn Init/Prepare/Finalize") ||
        line == "Printing All Data Received From Back End" || line == "Create From Binary Stats:" ||
        line == "Per-Graph Execution Times:" || line == "Layer Times:" ||
        (StartsWithLine(line, "Execute Stats (") && line.back() == ':') ||
        (StartsWithLine(line, "Execute Stat ") && line.size() > 13 && IsDigit(line[13])))
      return true;
  }
  return false;
}

ProfileReport ReadProfileText(const std::string& path) {
  LoadedFile file = ReadWholeFile(path);
  return ParseProfileText(path, std::string_view(file.bytes.data(), file.bytes.size()));
}

ProfileReport ParseProfileText(const std::string& path, std::string_view text) {
  return TextParser(path, text).Run();
}

}  // namespace htpscope
