#include "formats/profile_text.h"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <set>
#include <tuple>
#include <utility>

#include "base/errors.h"
#include "base/text_util.h"
#include "formats/byte_source.h"
#include "formats/profile_text_shared.h"

namespace htpscope {
namespace {

using profile_internal::LintEntry;

constexpr size_t kMaxQuotedChars = 80;

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
    } else if (c == ':' && depth == 0 && (i + 1 == text.size() || IsAsciiSpace(text[i + 1]))) {
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

// The white-space separated words of a value part ("87938  cycles"), kept
// without allocating: a value has at most two, so only the first two, the
// last and how many there are matter.
struct ValueWords {
  std::string_view first, second, last;
  size_t count = 0;

  bool empty() const { return count == 0; }
  size_t size() const { return count; }
};

ValueWords SplitWhitespace(std::string_view text) {
  ValueWords out;
  size_t i = 0;
  while (i < text.size()) {
    while (i < text.size() && IsAsciiSpace(text[i])) ++i;
    size_t start = i;
    while (i < text.size() && !IsAsciiSpace(text[i])) ++i;
    if (i == start) continue;
    std::string_view word = text.substr(start, i - start);
    if (out.count == 0) out.first = word;
    if (out.count == 1) out.second = word;
    out.last = word;
    ++out.count;
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

class TextParser {
 public:
  TextParser(const std::string& path, std::string_view text) : path_(path), text_(text) {}

  ProfileReport Run() {
    report_.path = path_;
    report_.format = ProfileFormat::kText;
    text_ = profile_internal::SkipBom(text_);
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
      bool unrecognised = warnings_.first_line() > 0;
      throw InputError(
          path_,
          fmt::format("no profile sections found{}: expected qnn-profile-viewer output with "
                      "\"Execute Stat N\" blocks or \"... Stats:\" sections",
                      unrecognised ? " (this is the first line not understood)"
                                   : " before the end of the file"),
          {}, unrecognised ? warnings_.first_line() : last_content_line_);
    }
    AssignGraphs();
    warnings_.Finish();
    return std::move(report_);
  }

 private:
  enum class Part { kHeader, kStatistics, kRaw };

  struct OpenBlock {
    ProfileBlock block;
    bool raw = false;
    bool snpe_layers = false;  // SNPE "Layer Times:": node lines with no root line
    bool placeholder = false;  // dropped when empty ("Execute Stats:" before its blocks, ...)
  };

  [[noreturn]] void Fail(std::string problem) const {
    throw InputError(path_, std::move(problem), {}, line_);
  }

  void Warn(const std::string& message) { warnings_.Add(line_, message); }

  // When the raw dump names no graph and the statistics name exactly one,
  // every execution is of that graph; then each graph's executions are numbered.
  void AssignGraphs() {
    std::set<std::tuple<bool, int, std::string>> named;
    for (const auto& b : report_.statistics)
      if (b.graph_index || !b.graph_name.empty())
        named.emplace(b.graph_index.has_value(), b.graph_index.value_or(0), b.graph_name);
    bool raw_named = std::any_of(report_.raw.begin(), report_.raw.end(), [](const ProfileBlock& b) {
      return b.graph_index || !b.graph_name.empty();
    });
    if (named.size() == 1 && !raw_named) {
      const ProfileBlock* source = nullptr;
      for (const auto& b : report_.statistics)
        if (b.graph_index || !b.graph_name.empty()) source = &b;
      for (auto& b : report_.raw) {
        if (b.execution <= 0) continue;
        b.graph_index = source->graph_index;
        b.graph_name = source->graph_name;
      }
    }
    profile_internal::NumberGraphExecutions(&report_);
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
    static constexpr std::string_view kKeys[] = {
        "Input Log File Location:", "Log File Created:", "Time Scale:", "Epoch Timestamp:",
        "Generated using:",         "qnn-net-run:",      "Backend:",    "qnn-profile-viewer:"};
    for (std::string_view key : kKeys) {
      if (trimmed.substr(0, key.size()) != key) continue;
      Close();
      ProfileHeaderEntry entry;
      entry.key = std::string(key.substr(0, key.size() - 1));
      entry.value = std::string(Trim(trimmed.substr(key.size())));
      entry.line = static_cast<int>(line_);
      if (key == "qnn-profile-viewer:") {
        part_ = Part::kHeader;
        report_.viewer_version = entry.value;
      } else if (key == "qnn-net-run:") {
        report_.application_version = entry.value;
      } else if (key == "Backend:") {
        report_.backend_version = entry.value;
      }
      report_.header.push_back(std::move(entry));
      return true;
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
      Open(fmt::format("Execute Stat {}", execution), true, execution);
      SetGraph(&open_->block, raw_graph_label_, raw_graph_);
      part_ = Part::kRaw;
      return true;
    }
    if (IsGraphNameHeader(head)) {  // "Graph 0: model.prefill"
      StartGroup(head, /*is_graph=*/true);
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

  // "Graph 0: model.prefill" alone on a line (no " : <value>" after it).
  static bool IsGraphNameHeader(std::string_view head) {
    std::optional<ProfileGraphLabel> label = ParseProfileGraphLabel(head);
    return label && head.find(':') != std::string_view::npos && head.back() != ':' &&
           head.find(" : ") == std::string_view::npos;
  }

  static void SetGraph(ProfileBlock* b, std::string_view label,
                       const std::optional<ProfileGraphLabel>& graph) {
    b->graph = std::string(label);
    b->graph_index.reset();
    b->graph_name.clear();
    if (graph) {
      b->graph_index = graph->index;
      b->graph_name = graph->name;
    }
  }

  // "Total Inference Time:" / "Graph N (name):" inside a section: a new
  // group of the same section, kept in its own block so graphs stay apart.
  // In the raw dump a graph line also names the graph of the "Execute Stat"
  // blocks that follow.
  void StartGroup(std::string_view graph, bool is_graph) {
    std::optional<ProfileGraphLabel> label;
    if (is_graph) label = ParseProfileGraphLabel(graph);
    if (is_graph && part_ == Part::kRaw) {
      raw_graph_ = label;
      raw_graph_label_ = std::string(graph);
    }
    if (!open_) {
      if (is_graph && part_ == Part::kRaw) return;
      Warn(fmt::format("{} outside any section ignored",
                       Quote(is_graph ? graph : std::string_view("Total Inference Time"))));
      return;
    }
    ProfileBlock& b = open_->block;
    bool empty = b.metrics.empty() && b.nodes.empty();
    if (empty && (b.graph.empty() || !is_graph)) {
      if (is_graph) SetGraph(&b, graph, label);
      return;
    }
    std::string title = b.title;
    bool raw = open_->raw, snpe_layers = open_->snpe_layers;
    int execution = b.execution;
    Open(std::move(title), raw, execution);
    open_->snpe_layers = snpe_layers;
    // A raw graph line between two "Execute Stat" blocks leaves this one empty: drop it then.
    open_->placeholder = raw && is_graph;
    SetGraph(&open_->block, graph, label);
  }

  void Open(std::string title, bool raw, int execution) {
    Close();
    // Not emplace(): clang rejects it for a nested class with member initialisers.
    open_ = OpenBlock{};
    open_->raw = raw;
    open_->block.phase = ProfilePhaseOfTitle(title);
    open_->block.title = std::move(title);
    open_->block.execution = execution;
    open_->block.first_line = static_cast<int>(line_);
    // Executions of a graph repeat its node lines: sized once like the
    // largest block so far rather than grown by doubling.
    if (raw && execution > 0) open_->block.nodes.reserve(most_execution_nodes_);
  }

  void Close() {
    if (open_) {
      const ProfileBlock& b = open_->block;
      bool empty = b.metrics.empty() && b.nodes.empty();
      // "Execute Stat N" twice for one graph: kept apart, with a warning at the second.
      if (!(open_->placeholder && empty) && b.execution > 0 &&
          !executions_seen_
               .emplace(std::make_tuple(b.graph_index.has_value(), b.graph_index.value_or(0),
                                        b.graph_name),
                        b.execution)
               .second)
        warnings_.Add(static_cast<uint64_t>(b.first_line),
                      fmt::format("\"Execute Stat {}\" appears again; kept as a separate block",
                                  b.execution));
      if (b.execution > 0) most_execution_nodes_ = std::max(most_execution_nodes_, b.nodes.size());
      // A block far smaller than the reservation it was opened with gives the
      // rest back: many short blocks after a long one must not each keep the
      // long one's room.
      std::vector<ProfileNode>& nodes = open_->block.nodes;
      if (nodes.capacity() > 2 * nodes.size() + 16) nodes.shrink_to_fit();
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
    list_.reset();
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
    const ValueWords tokens = SplitWhitespace(tail);
    auto expected = [&] {
      return fmt::format("\"{}\": expected \"<number>  <unit>\" after the colon, got {}", name,
                         Quote(tail));
    };
    if (tokens.empty()) {
      Warn(fmt::format("\"{}\" has no value; ignored", name));
      return std::nullopt;
    }
    bool number_expected = StartsLikeNumber(tokens.first) || IsKnownUnit(tokens.last);
    if (tokens.size() == 1 && EqualsIgnoreCase(tokens.first, "object")) {
      out.unit = "object";  // OBJECT events have nothing the viewer can print
      return out;
    }
    if (tokens.size() == 1 && IsKnownUnit(tokens.first))
      Fail(fmt::format("\"{}\": unit \"{}\" with no number before it", name, tokens.first));
    if (tokens.size() > 2) {
      if (number_expected) Fail(expected());
      Warn(fmt::format("unrecognised value {} for \"{}\"; ignored", Quote(tail), name));
      return std::nullopt;
    }
    std::string problem;
    std::optional<ProfileNumber> number = ParseProfileNumber(tokens.first, &problem);
    if (!number) {
      if (number_expected) Fail(fmt::format("\"{}\": {}", name, problem));
      Warn(fmt::format("unrecognised value {} for \"{}\"; ignored", Quote(tail), name));
      return std::nullopt;
    }
    out.has_value = true;
    out.value = number->value;
    out.integer = number->integer;
    if (tokens.size() == 2) out.unit = ToLower(tokens.second);
    if (out.unit == "cycles" && !out.integer)
      Fail(
          fmt::format("\"{}\": expected a whole number of cycles, got \"{}\"", name, tokens.first));
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

  void AddRoot(ProfileMetric metric, ParsedValue value, size_t indent) {
    ProfileBlock& b = open_->block;
    metric.has_value = value.has_value;
    metric.value = value.value;
    metric.unit = std::move(value.unit);
    b.metrics.push_back(std::move(metric));
    if (!root_indent_) root_indent_ = indent;
    root_ = static_cast<int>(b.metrics.size()) - 1;
    ResetNodes();
  }

  // "Graph 0: model.prefill : 1500000  us": the NETRUN execute event of a
  // graph, as the CSV prints it in a ROOT row; names the block's graph.
  bool HandleGraphValueLine(std::string_view trimmed, size_t indent) {
    size_t sep = trimmed.rfind(" : ");
    if (sep == std::string_view::npos) return false;
    std::string_view label_text = Trim(trimmed.substr(0, sep));
    std::optional<ProfileGraphLabel> label = ParseProfileGraphLabel(label_text);
    if (!label) return false;
    std::optional<ParsedValue> value = ParseValue(label_text, Trim(trimmed.substr(sep + 3)));
    if (!value) return true;
    ProfileBlock& b = open_->block;
    if ((b.graph_index || !b.graph_name.empty()) &&
        (b.graph_index != label->index || b.graph_name != label->name))
      Warn(
          fmt::format("{} names another graph than \"{}\" above it; the block is taken to be of {}",
                      Quote(trimmed), b.graph, Quote(label_text)));
    SetGraph(&b, label_text, label);
    ProfileMetric metric;
    metric.name = "NetRun";
    metric.source = "NetRun";
    AddRoot(std::move(metric), std::move(*value), indent);
    return true;
  }

  // A metric named as a line prints it: "Backend (RPC (execute) time)" is
  // RPC (execute) time from the Backend, "NetRun" / "NetRun IPS" NetRun's.
  static ProfileMetric MetricNamed(std::string_view name) {
    ProfileMetric metric;
    constexpr std::string_view kBackend = "Backend (";
    if (name.substr(0, kBackend.size()) == kBackend && ClosesAtEnd(name, kBackend.size() - 1)) {
      metric.source = "Backend";
      metric.name = std::string(name.substr(kBackend.size(), name.size() - kBackend.size() - 1));
    } else {
      if (name == "NetRun" || name.substr(0, 7) == "NetRun ") metric.source = "NetRun";
      metric.name = std::string(name);
    }
    return metric;
  }

  // A line indented under a root line that is not in cycles and is no
  // per-node line: a stage of the root's phase ("Graph Optimizations :
  // 40652  us" under "QNN (finalize) time"), kept as a metric whose parent
  // is the root.  False when the line is a per-node line (left to the
  // per-node rules, which refuse it under a root not in cycles).
  bool HandleStageLine(std::string_view trimmed) {
    std::string_view name, tail;
    if (!SplitNameValue(trimmed, &name, &tail) || IsNodeLabel(name)) return false;
    std::optional<ParsedValue> value = ParseValue(name, tail);
    if (!value) return true;
    ProfileMetric metric = MetricNamed(name);
    metric.has_value = value->has_value;
    metric.value = value->value;
    metric.unit = std::move(value->unit);
    metric.parent = root_;
    open_->block.metrics.push_back(std::move(metric));
    return true;
  }

  void HandleContent(std::string_view trimmed, size_t indent) {
    ProfileBlock& b = open_->block;
    if (!root_indent_ || indent <= *root_indent_) {
      if (HandleGraphValueLine(trimmed, indent)) return;
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
      AddRoot(MetricNamed(name), std::move(*value), indent);
      return;
    }
    if (root_ >= 0 && b.metrics[root_].unit != "cycles" && HandleStageLine(trimmed)) return;
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
          IsAsciiSpace(trimmed[digits + 1]))
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
      list_.reset();
      std::string_view name, tail;
      if (!SplitNameValue(trimmed, &name, &tail)) {
        Warn(fmt::format("unrecognised line under \"{}\" ignored: {}", node.label, Quote(trimmed)));
        return;
      }
      std::optional<LintEntry> entry = profile_internal::LintEntryOf(name);
      if (!entry) {
        Warn(fmt::format("unknown linting entry under \"{}\" ignored: {}", node.label,
                         Quote(trimmed)));
        return;
      }
      ProfileNodeLint& lint = node.lint.Make();
      if (*entry == LintEntry::kResources) {
        lint.resources = profile_internal::SplitResources(tail);
        return;
      }
      std::optional<ParsedValue> value;
      if (!tail.empty()) value = ParseValue(name, tail);
      if (!value || !value->has_value || value->unit != "cycles")
        Fail(fmt::format("\"{}\" of \"{}\": expected \"<number>  cycles\", got {}", name,
                         node.label, Quote(tail)));
      std::optional<int64_t>* slot = profile_internal::LintCyclesSlot(*entry, &lint);
      if (slot->has_value())
        Warn(fmt::format("\"{}\" repeated under \"{}\"; the last one is kept", name, node.label));
      *slot = *value->integer;
      if (profile_internal::LintNameList(*entry, &lint)) list_ = entry;
      return;
    }
    // Deeper still (any depth): the names listed under "Overlap time" / "Overlap (wait) time".
    if (list_) {
      profile_internal::LintNameList(*list_, &node.lint.Make())->emplace_back(OverlapName(trimmed));
    } else {
      Warn(fmt::format("unexpected line under \"{}\" ignored: {}", node.label, Quote(trimmed)));
    }
  }

  // An overlapping op's name line, without a value part the raw dump may
  // print after it ("q_proj:OpId_40 :   cycles").
  static std::string OverlapName(std::string_view line) {
    size_t colon = line.rfind(':');
    if (colon != std::string_view::npos && colon > 0 && IsAsciiSpace(line[colon - 1])) {
      const ValueWords tokens = SplitWhitespace(line.substr(colon + 1));
      auto value_word = [](std::string_view t) { return IsKnownUnit(t) || StartsLikeNumber(t); };
      bool value_only = tokens.size() <= 2 && (tokens.size() < 1 || value_word(tokens.first)) &&
                        (tokens.size() < 2 || value_word(tokens.second));
      if (value_only) return std::string(Trim(line.substr(0, colon)));
    }
    return std::string(Trim(line));
  }

  const std::string& path_;
  std::string_view text_;
  ProfileReport report_;
  uint64_t line_ = 0;
  uint64_t last_content_line_ = 0;
  profile_internal::ProfileWarnings warnings_{&report_.warnings};
  Part part_ = Part::kHeader;
  std::optional<OpenBlock> open_;
  size_t most_execution_nodes_ = 0;  // node lines of the largest "Execute Stat" block so far
  // "Execute Stat N" seen, per graph of the raw dump.
  std::set<std::pair<std::tuple<bool, int, std::string>, int>> executions_seen_;
  // The graph named by the last graph line of the raw dump.
  std::optional<ProfileGraphLabel> raw_graph_;
  std::string raw_graph_label_;
  // Nesting inside the open block, by relative indentation: root lines, the
  // per-node lines under the current root, linting sub-entries under the
  // current node, and the op names listed under an overlap entry.
  std::optional<size_t> root_indent_, node_indent_, sub_indent_;
  int root_ = -1;
  int node_ = -1;
  bool root_nodes_decided_ = false, root_takes_nodes_ = false;
  std::optional<LintEntry> list_;  // the overlap entry whose op names follow
};

bool StartsWithLine(std::string_view line, std::string_view prefix) {
  return line.substr(0, prefix.size()) == prefix;
}

}  // namespace

bool LooksLikeProfileText(std::string_view prefix) {
  prefix = profile_internal::SkipBom(prefix);
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
  const WholeText file = WholeText::Read(path);
  return ParseProfileText(path, file.text());
}

ProfileReport ParseProfileText(const std::string& path, std::string_view text) {
  return TextParser(path, text).Run();
}

}  // namespace htpscope
