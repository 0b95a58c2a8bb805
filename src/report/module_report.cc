#include "report/module_report.h"

#include <fmt/format.h>

#include <algorithm>

#include "report/format_util.h"
#include "report/text_sanitize.h"

namespace htpscope {
namespace {

using nlohmann::json;

constexpr size_t kNameWidth = 44;
constexpr size_t kOpWidth = 56;

std::string ModuleShareText(const std::optional<double>& pct) {
  return pct ? fmt::format("{:.1f} %", *pct) : std::string("-");
}

std::string SpellingCounts(const ModuleTree& t) {
  std::vector<std::string> parts;
  const char* what[] = {"without a module", "with an ONNX scope", "with a dotted module path",
                        "with a sanitised module path"};
  for (size_t s : {1u, 2u, 3u, 0u})
    if (t.ops_by_spelling[s] > 0)
      parts.push_back(fmt::format("{} {}", FormatCount(t.ops_by_spelling[s]), what[s]));
  return fmt::format("{}", fmt::join(parts, ", "));
}

std::string BlockPath(const ModuleTree& t, const ModuleBlockFamily& f) {
  const std::string& parent = t.nodes[f.parent].path;
  return (parent.empty() ? "" : parent + "/") + f.keyword + ".N";
}

json OptionalNumber(const std::optional<double>& v) { return v ? json(*v) : json(nullptr); }

// What the tree's source is called in a sentence ("from the AI Hub profile").
std::string ModuleSourceText(const std::string& source) {
  return source == "aihub" ? "AI Hub profile" : source;
}

// What an op is called: an AI Hub profile's ops are its layers.
std::string OpNoun(const RunModules& m, int64_t count) {
  const bool layers = m.source == "aihub";
  return count == 1 ? (layers ? "layer" : "op") : (layers ? "layers" : "ops");
}

// The node's label in a depth-limited table: indented, "/…" when cut.
std::string ModuleLabel(const ModuleNode& n, int depth) {
  std::string name = n.depth == 0 ? "(all)" : TerminalSafe(n.name);
  if (n.depth >= depth && !n.children.empty()) name += "/…";
  return std::string(2 * std::max(0, n.depth - 1), ' ') + name;
}

// The share of the node's time off the NPU; "-" when nothing left it.
std::string OffNpuShare(const ModuleNode& n) {
  if (n.off_npu_ops() == 0 || n.time <= 0) return "-";
  return fmt::format("{:.1f} %", n.off_npu_time() / n.time * 100.0);
}

// Where the ops ran, by module down to `depth`, then the ops that left the
// NPU grouped by their module (docs/modules.md, "AI Hub profiles").
void AppendComputeUnitsText(const RunModules& m, int depth, std::string& out) {
  const ModuleTree& t = m.tree;
  const char* unit = ModuleTimeUnit(t.basis);
  const std::vector<ModuleUnitTime>& units = t.nodes[0].by_unit;
  out += fmt::format("\n  Where the {} ran, by module: {} and {} per compute unit\n", OpNoun(m, 2),
                     unit, OpNoun(m, 2));
  std::string head = fmt::format("  {:<{}}", "module", kNameWidth);
  for (const auto& u : units)
    head += fmt::format("  {:>12}  {:>6}", TerminalSafe(u.unit) + " " + unit, OpNoun(m, 2));
  out += head + fmt::format("  {:>8}\n", "off NPU");
  for (const auto& n : t.nodes) {
    if (n.depth > depth) continue;
    std::string line =
        fmt::format("  {:<{}}", Ellipsize(ModuleLabel(n, depth), kNameWidth), kNameWidth);
    for (const auto& u : units) {
      const ModuleUnitTime* here = n.Unit(u.unit);
      line += here
                  ? fmt::format("  {:>12}  {:>6}", FormatFigure(here->time), FormatCount(here->ops))
                  : fmt::format("  {:>12}  {:>6}", "-", "-");
    }
    out += line + fmt::format("  {:>8}\n", OffNpuShare(n));
  }
  const std::vector<uint32_t> off = OffNpuOps(t);
  const ModuleNode& root = t.nodes[0];
  if (off.empty()) {
    out += fmt::format("  Every {} ran on the NPU.\n", OpNoun(m, 1));
    return;
  }
  out += fmt::format("\n  Off the NPU, by module: {} of {} {}, {} {} = {} of the time\n",
                     FormatCount(root.off_npu_ops()), FormatCount(t.ops.size()), OpNoun(m, 2),
                     FormatFigure(root.off_npu_time()), unit, OffNpuShare(root));
  uint32_t module = UINT32_MAX;
  for (uint32_t i : off) {
    const ModuleOp& op = t.ops[i];
    if (op.node != module) {
      module = op.node;
      const ModuleNode& n = t.nodes[module];
      int64_t count = 0;
      double time = 0;
      for (uint32_t j : off)
        if (t.ops[j].node == module) {
          ++count;
          time += t.ops[j].time;
        }
      out += fmt::format("    {}: {} {}, {} {}\n", TerminalSafe(n.path.empty() ? "(all)" : n.path),
                         FormatCount(count), OpNoun(m, count), FormatFigure(time), unit);
    }
    const std::string_view type = t.Text(op.type);
    out += fmt::format("      {:<4} {:>10} {}  {:>7}  {}{}\n",
                       TerminalSafe(t.Text(op.compute_unit)), FormatFigure(op.time), unit,
                       t.total > 0 ? fmt::format("{:.1f} %", op.time / t.total * 100.0) : "-",
                       type.empty() ? "" : TerminalSafe(type) + "  ", TerminalSafe(op.name));
  }
}

}  // namespace

std::vector<std::string> ModuleFindings(const ModuleTree& t) {
  std::vector<std::string> out;
  for (const auto& f : t.families)
    for (const auto& b : f.blocks) {
      if (b.finding.empty()) continue;
      out.push_back(fmt::format("{} is {:.2f} × the median of the {} blocks of its family ({}{})",
                                t.nodes[b.node].path, b.ratio_to_median.value_or(0),
                                f.blocks.size(), b.finding,
                                b.same_structure ? "" : "; its ops differ from the others'"));
    }
  return out;
}

std::string RenderModulesText(const RunModules& m, int depth, int top_n) {
  const ModuleTree& t = m.tree;
  std::string out = "\nModules: time by the model's own modules (docs/modules.md)\n";
  out += std::string(DisplayWidth(out) - 2, '-') + "\n";
  if (!m.available()) {
    for (const auto& n : m.notes) out += "  " + TerminalSafe(n) + "\n";
    return out;
  }
  const char* unit = ModuleTimeUnit(t.basis);
  out += fmt::format("  time: {}", ModuleTimeBasisLabel(t.basis));
  if (m.steady_executions > 0) out += fmt::format(" ({} steady executions)", m.steady_executions);
  out += fmt::format("; from the {}\n", ModuleSourceText(m.source));
  out += fmt::format("  {} {}: {}\n", FormatCount(t.ops.size()), OpNoun(m, t.ops.size()),
                     SpellingCounts(t));
  for (const auto& n : m.notes) out += "  note: " + TerminalSafe(n) + "\n";
  out += fmt::format("  {:<{}}  {:>14}  {:>7}  {:>6}  {}\n", "module", kNameWidth, unit, "share",
                     OpNoun(m, 2), fmt::format("longest {}", OpNoun(m, 1)));
  for (const auto& n : t.nodes) {
    if (n.depth > depth) continue;
    std::string label = ModuleLabel(n, depth);
    std::string longest =
        n.top_ops.empty() ? std::string() : TerminalSafe(t.ops[n.top_ops.front().op].name);
    out += fmt::format("  {:<{}}  {:>14}  {:>7}  {:>6}  {}\n", Ellipsize(label, kNameWidth),
                       kNameWidth, FormatFigure(n.time), ModuleShareText(n.share_pct),
                       FormatCount(n.ops), EllipsizeLeft(longest, kOpWidth));
  }

  if (t.has_compute_units()) AppendComputeUnitsText(m, depth, out);

  if (t.families.empty()) return out;
  out += fmt::format(
      "\n  Repeated blocks: each compared with its family's median block (slow ≥ {:.1f} ×, fast ≤ "
      "{:.1f} ×;\n  judged only with ≥ {} blocks of which more than half have the same ops)\n",
      kBlockSlowRatio, kBlockFastRatio, kMinBlocksForFindings);
  for (const auto& f : t.families) {
    out += fmt::format("  {}: {} blocks, median {} {} (min {}, max {}); {}\n",
                       TerminalSafe(BlockPath(t, f)), f.blocks.size(), FormatFigure(f.median), unit,
                       FormatFigure(f.min), FormatFigure(f.max),
                       f.compared ? fmt::format("{} alike, judged", f.alike)
                       : f.blocks.size() < kMinBlocksForFindings
                           ? fmt::format("not judged: fewer than {} blocks", kMinBlocksForFindings)
                           : std::string("not judged: no structure most of them share"));
    // Long families: the slowest top_n and every named block, in index order.
    std::vector<const ModuleBlock*> shown;
    for (const auto& b : f.blocks) shown.push_back(&b);
    const size_t limit = static_cast<size_t>(std::max(1, top_n));
    if (shown.size() > 2 * limit) {
      std::vector<const ModuleBlock*> by_time = shown;
      std::stable_sort(
          by_time.begin(), by_time.end(),
          [](const ModuleBlock* a, const ModuleBlock* b) { return a->time > b->time; });
      std::vector<const ModuleBlock*> keep(by_time.begin(), by_time.begin() + limit);
      for (const auto* b : shown)
        if (!b->finding.empty() && std::find(keep.begin(), keep.end(), b) == keep.end())
          keep.push_back(b);
      std::sort(keep.begin(), keep.end(),
                [](const ModuleBlock* a, const ModuleBlock* b) { return a->index < b->index; });
      shown.swap(keep);
    }
    out +=
        fmt::format("    {:<16}  {:>14}  {:>8}  {:>6}\n", "block", unit, "× median", OpNoun(m, 2));
    for (const auto* b : shown) {
      std::string note = b->finding;
      if (f.compared && !b->same_structure) note += note.empty() ? "ops differ" : ", ops differ";
      if (const ModuleNode& n = t.nodes[b->node]; n.off_npu_ops() > 0)
        note += fmt::format("{}{} {} off the NPU ({} {})", note.empty() ? "" : ", ",
                            FormatCount(n.off_npu_ops()), OpNoun(m, n.off_npu_ops()),
                            FormatFigure(n.off_npu_time()), unit);
      std::string line =
          fmt::format("    {:<16}  {:>14}  {:>8}  {:>6}  {}",
                      Ellipsize(TerminalSafe(t.nodes[b->node].name), 16), FormatFigure(b->time),
                      b->ratio_to_median ? fmt::format("{:.2f}", *b->ratio_to_median) : "-",
                      FormatCount(b->ops), note);
      line.erase(line.find_last_not_of(' ') + 1);
      out += line + "\n";
    }
    if (shown.size() < f.blocks.size())
      out += fmt::format("    … {} more blocks (--top)\n", f.blocks.size() - shown.size());
  }
  std::vector<std::string> findings = ModuleFindings(t);
  out += findings.empty() ? "  No block is far from its siblings.\n" : "  Findings:\n";
  for (const auto& s : findings) out += "    " + TerminalSafe(s) + "\n";
  return out;
}

json ModulesToJson(const RunModules& m) {
  const ModuleTree& t = m.tree;
  json j;
  j["available"] = m.available();
  j["source"] = m.source;
  j["basis"] = ModuleTimeBasisName(t.basis);
  j["basis_label"] = ModuleTimeBasisLabel(t.basis);
  j["time_unit"] = ModuleTimeUnit(t.basis);
  j["steady_executions"] = m.steady_executions;
  j["total"] = t.total;
  j["ops"] = t.ops.size();
  j["ops_by_spelling"] = json::object();
  for (size_t s = 0; s < 4; ++s)
    j["ops_by_spelling"][ModuleSpellingName(static_cast<ModuleSpelling>(s))] = t.ops_by_spelling[s];
  j["notes"] = m.notes;
  json nodes = json::array();
  for (const auto& n : t.nodes) {
    json node{{"path", n.path},
              {"name", n.name},
              {"parent", n.parent < 0 ? json(nullptr) : json(t.nodes[n.parent].path)},
              {"depth", n.depth},
              {"time", n.time},
              {"self_time", n.self_time},
              {"share_pct", OptionalNumber(n.share_pct)},
              {"ops", n.ops},
              {"self_ops", n.self_ops},
              {"unplaced", n.unplaced},
              {"block", n.block ? json{{"keyword", n.block->keyword}, {"index", n.block->index}}
                                : json(nullptr)},
              {"top_ops", json::array()}};
    if (!n.by_unit.empty()) {
      node["time_by_unit"] = json::object();
      node["ops_by_unit"] = json::object();
      for (const auto& u : n.by_unit) {
        node["time_by_unit"][u.unit] = u.time;
        node["ops_by_unit"][u.unit] = u.ops;
      }
    }
    for (const auto& top : n.top_ops)
      node["top_ops"].push_back(
          {{"name", t.ops[top.op].name}, {"op", t.Text(t.ops[top.op].op)}, {"time", top.time}});
    nodes.push_back(std::move(node));
  }
  j["nodes"] = std::move(nodes);
  json families = json::array();
  json findings = json::array();
  for (const auto& f : t.families) {
    json family{{"parent", t.nodes[f.parent].path},
                {"keyword", f.keyword},
                {"median", f.median},
                {"min", f.min},
                {"max", f.max},
                {"alike", f.alike},
                {"judged", f.compared},
                {"blocks", json::array()}};
    for (const auto& b : f.blocks) {
      json block{{"path", t.nodes[b.node].path},
                 {"index", b.index},
                 {"time", b.time},
                 {"ops", b.ops},
                 {"ratio_to_median", OptionalNumber(b.ratio_to_median)},
                 {"finding", b.finding.empty() ? json(nullptr) : json(b.finding)},
                 {"same_structure", b.same_structure}};
      if (!b.finding.empty())
        findings.push_back({{"path", t.nodes[b.node].path},
                            {"finding", b.finding},
                            {"ratio_to_median", OptionalNumber(b.ratio_to_median)},
                            {"time", b.time},
                            {"family_median", f.median},
                            {"same_structure", b.same_structure}});
      family["blocks"].push_back(std::move(block));
    }
    families.push_back(std::move(family));
  }
  j["families"] = std::move(families);
  j["findings"] = std::move(findings);
  if (t.has_compute_units()) {
    json off = json::array();
    for (uint32_t i : OffNpuOps(t)) {
      const ModuleOp& op = t.ops[i];
      off.push_back({{"name", op.name},
                     {"type", t.Text(op.type)},
                     {"compute_unit", t.Text(op.compute_unit)},
                     {"time", op.time},
                     {"module", t.nodes[op.node].path}});
    }
    j["off_npu_op_list"] = std::move(off);
  }
  return j;
}

std::string RenderModulesHtml(const RunModules& m, int depth) {
  const ModuleTree& t = m.tree;
  bool any = false;
  for (const auto& n : t.nodes) any = any || (n.depth > 0 && !n.unplaced);
  if (!m.available() || !any) return "";
  auto h = [](std::string_view s) { return XmlEscape(s); };
  const char* unit = ModuleTimeUnit(t.basis);
  const std::vector<ModuleUnitTime>& units = t.nodes[0].by_unit;
  std::string out = "<h2>Modules: time by the model's own modules</h2>\n<p class=\"note\">Time: " +
                    h(ModuleTimeBasisLabel(t.basis)) + " (" + unit + "); from the " +
                    h(ModuleSourceText(m.source)) + ". docs/modules.md</p>\n";
  out += fmt::format("<table><tr><th>module</th><th>{}</th><th>share</th><th>{}</th>", unit,
                     OpNoun(m, 2));
  for (const auto& u : units)
    out += fmt::format("<th>{} {}</th><th>{}</th>", h(u.unit), unit, OpNoun(m, 2));
  if (!units.empty()) out += "<th>off NPU</th>";
  out += "</tr>\n";
  for (const auto& n : t.nodes) {
    if (n.depth > depth) continue;
    out += fmt::format(
        "<tr><td>{}</td><td class=\"n\">{}</td><td class=\"n\">{}</td>"
        "<td class=\"n\">{}</td>",
        h(n.depth == 0 ? std::string("(all)") : n.path), FormatFigure(n.time),
        ModuleShareText(n.share_pct), FormatCount(n.ops));
    for (const auto& u : units) {
      const ModuleUnitTime* here = n.Unit(u.unit);
      out += here ? fmt::format("<td class=\"n\">{}</td><td class=\"n\">{}</td>",
                                FormatFigure(here->time), FormatCount(here->ops))
                  : std::string("<td class=\"n\">-</td><td class=\"n\">-</td>");
    }
    if (!units.empty()) out += "<td class=\"n\">" + OffNpuShare(n) + "</td>";
    out += "</tr>\n";
  }
  out += "</table>\n";
  const std::vector<uint32_t> off = OffNpuOps(t);
  if (!off.empty()) {
    out += fmt::format(
        "<h3>Off the NPU, by module</h3>\n<table><tr><th>module</th><th>unit</th><th>type</th>"
        "<th>{}</th><th>{}</th></tr>\n",
        unit, m.source == "aihub" ? "layer" : "op");
    for (uint32_t i : off) {
      const ModuleOp& op = t.ops[i];
      out += fmt::format(
          "<tr class=\"fallback\"><td>{}</td><td>{}</td><td>{}</td><td class=\"n\">{}</td>"
          "<td>{}</td></tr>\n",
          h(t.nodes[op.node].path), h(t.Text(op.compute_unit)), h(t.Text(op.type)),
          FormatFigure(op.time), h(op.name));
    }
    out += "</table>\n";
  }
  std::vector<std::string> findings = ModuleFindings(t);
  if (!findings.empty()) {
    out += "<h3>Blocks far from their siblings</h3>\n<ul>\n";
    for (const auto& f : findings) out += "<li>" + h(f) + "</li>\n";
    out += "</ul>\n";
  }
  for (const auto& n : m.notes) out += "<p class=\"note\">" + h(n) + "</p>\n";
  return out;
}

}  // namespace htpscope
