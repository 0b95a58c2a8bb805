#include "report/timeline_report.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "analysis/dependency_graph.h"
#include "report/format_util.h"
#include "report/row_limit.h"

namespace htpscope {
namespace {

using nlohmann::json;

json ConcurrencyJson(const ConcurrencyStats& s) {
  return json{{"start_cycle", s.first_start_cycles},
              {"end_cycle", s.last_end_cycles},
              {"busy_cycles", s.busy_cycles},
              {"span_cycles", s.span_cycles},
              {"active_cycles", s.active_cycles},
              {"busy_over_span", s.busy_over_span()},
              {"max_concurrency", s.max_concurrency},
              {"max_concurrency_at_cycle", s.max_concurrency_at_cycles},
              {"slices", s.intervals}};
}

// Fill colours for op groups (cycled) and for the boundary/system marks.
constexpr const char* kGroupColors[] = {"#4e79a7", "#f28e2b", "#59a14f", "#e15759", "#76b7b2",
                                        "#edc948", "#b07aa1", "#ff9da7", "#9c755f", "#3b8bc2",
                                        "#86bc86", "#d37295", "#a0cbe8", "#ffbe7d", "#8cd17d"};
const char* MarkColor(SliceMark mark) {
  switch (mark) {
    case SliceMark::kGroup:
      return "#000000";
    case SliceMark::kSpillFill:
      return "#d62728";
    case SliceMark::kConcat:
      return "#8c564b";
    case SliceMark::kForceFormat:
      return "#bcbd22";
    case SliceMark::kSlice:
      return "#7f7f7f";
    case SliceMark::kDmaCopy:
      return "#17becf";
    case SliceMark::kDmaCheckpoint:
      return "#c7c7c7";
    case SliceMark::kSync:
      return "#393b79";
    case SliceMark::kOtherService:
      return "#a5a5a5";
  }
  return "#a5a5a5";
}
constexpr SliceMark kAllMarks[] = {SliceMark::kSpillFill,   SliceMark::kConcat,
                                   SliceMark::kForceFormat, SliceMark::kSlice,
                                   SliceMark::kDmaCopy,     SliceMark::kDmaCheckpoint,
                                   SliceMark::kSync,        SliceMark::kOtherService};

std::string RowLabel(const TimelineRow& row) {
  return fmt::format("{} {}",
                     row.kind == UnitKind::kHvx   ? "HVX"
                     : row.kind == UnitKind::kHmx ? "HMX"
                                                  : "tid",
                     row.tid);
}

std::string Pct(double v) { return fmt::format("{:.1f} %", v); }

// The slice covering most of each column of a row.
std::string RowPicture(const Timeline& t, const TimelineRow& row, int width) {
  std::string line(width, '.');
  std::vector<int64_t> best(width, -1);
  double per_col = static_cast<double>(t.window_cycles()) / width;
  for (uint32_t k : row.slices) {
    const TimelineSlice& s = t.slices[k];
    char c = s.mark == SliceMark::kGroup ? t.groups[s.group].letter : MarkChar(s.mark);
    int first = static_cast<int>((s.start_cycles - t.window_start_cycles) / per_col);
    int last = static_cast<int>(std::ceil((s.end_cycles - t.window_start_cycles) / per_col)) - 1;
    first = std::clamp(first, 0, width - 1);
    last = std::clamp(last, first, width - 1);
    for (int col = first; col <= last; ++col) {
      double col_start = t.window_start_cycles + col * per_col;
      double col_end = col_start + per_col;
      double cover =
          std::min<double>(s.end_cycles, col_end) - std::max<double>(s.start_cycles, col_start);
      int64_t covered = static_cast<int64_t>(std::max(cover, 0.0)) + 1;  // +1: a touch still shows
      if (covered > best[col]) {
        best[col] = covered;
        line[col] = c;
      }
    }
  }
  return line;
}

std::string Ruler(const Timeline& t, int width, size_t indent) {
  std::string line(indent + width + 16, ' ');
  auto place = [&](int col, const std::string& label, bool right_align) {
    size_t at = indent + col;
    if (right_align) at = at + 1 >= label.size() ? at + 1 - label.size() : 0;
    for (size_t i = 0; i < label.size() && at + i < line.size(); ++i) line[at + i] = label[i];
  };
  int64_t span = t.window_cycles();
  int64_t origin = t.window_start_cycles - t.graph_start_cycles;
  // fmt, not "|" + std::string: GCC 12 at -O3 warns (-Wrestrict) on the latter.
  place(0, fmt::format("|{}", GroupDigits(origin)), false);
  if (width >= 40) place(width / 2, fmt::format("|{}", GroupDigits(origin + span / 2)), false);
  place(width - 1, GroupDigits(origin + span) + "|", true);
  while (!line.empty() && line.back() == ' ') line.pop_back();
  return line;
}

}  // namespace

std::string AsciiFit(std::string_view text, size_t width) {
  std::string out;
  for (char ch : text) {
    unsigned char c = static_cast<unsigned char>(ch);
    out += c >= 0x20 && c < 0x7f ? ch : '?';
  }
  if (out.size() > width && width >= 3) out = out.substr(0, width - 2) + "..";
  return out;
}

std::string DescribeThreads(const std::vector<uint32_t>& tids) {
  std::vector<std::string> parts;
  std::string hvx;
  for (size_t i = 0; i < tids.size();) {
    if (UnitKindOfTid(tids[i]) != UnitKind::kHvx) {
      parts.push_back(
          fmt::format("{} {}", UnitKindOfTid(tids[i]) == UnitKind::kHmx ? "HMX" : "tid", tids[i]));
      ++i;
      continue;
    }
    size_t j = i;
    while (j + 1 < tids.size() && tids[j + 1] == tids[j] + 1 &&
           UnitKindOfTid(tids[j + 1]) == UnitKind::kHvx)
      ++j;
    std::string run = j == i ? fmt::format("{}", tids[i]) : fmt::format("{}-{}", tids[i], tids[j]);
    hvx += (hvx.empty() ? "HVX " : ", ") + run;
    i = j + 1;
  }
  if (!hvx.empty()) parts.push_back(hvx);
  return fmt::format("{}", fmt::join(parts, ", "));
}

std::string RenderTimelineText(const Timeline& t, int width, size_t max_rows) {
  const RowLimit limit{max_rows};
  width = std::max(width, 10);
  std::string out;
  const size_t label_width = 10;
  out += fmt::format("Timeline of {}\n", AsciiFit(t.label, 200));
  out += fmt::format(
      "Window: {}: graph cycles {} .. {} ({} cycles; absolute cycles {} .. {})\n",
      AsciiFit(t.window, 200), GroupDigits(t.window_start_cycles - t.graph_start_cycles),
      GroupDigits(t.window_end_cycles - t.graph_start_cycles), GroupDigits(t.window_cycles()),
      GroupDigits(t.window_start_cycles), GroupDigits(t.window_end_cycles));
  out += fmt::format(
      "Scale: {} columns of {} cycles; each column shows the slice covering most of it; "
      "'.' idle\n\n",
      width, FormatMeasure(static_cast<double>(t.window_cycles()) / width, 1));
  out += Ruler(t, width, label_width + 1) + "\n";
  for (const auto& row : t.rows)
    out += fmt::format("{:<{}} {}\n", RowLabel(row), label_width, RowPicture(t, row, width));
  out += "\nMarks: letters = op groups (table below);";
  for (SliceMark m : kAllMarks) out += fmt::format(" {} {};", MarkChar(m), MarkName(m));
  out += " . idle\n";

  out += fmt::format(
      "\nOp groups by first start (graph cycles; busy = sum of slice cycles over threads; "
      "span = last end - first start)\n");
  size_t name_width = 12;
  for (const auto& g : t.groups)
    name_width = std::max(name_width, std::min<size_t>(g.name.size(), 40));
  out += fmt::format("  {:<4} {:<{}} {:>12} {:>12} {:>12} {:>12} {:>9} {:>5}  {}\n", "mark",
                     "group", name_width, "first start", "last end", "busy", "span", "busy/span",
                     "conc", "units");
  // The busiest groups (ties: the first first), shown in first-start order;
  // only those shown are ordered, the rest summed.
  std::vector<size_t> busiest(t.groups.size());
  int64_t rest_busy = 0;
  for (size_t k = 0; k < busiest.size(); ++k) {
    busiest[k] = k;
    rest_busy += t.groups[k].stats.busy_cycles;
  }
  const size_t groups_shown = limit.Shown(t.groups.size());
  std::partial_sort(busiest.begin(), busiest.begin() + static_cast<ptrdiff_t>(groups_shown),
                    busiest.end(), [&](size_t a, size_t b) {
                      const int64_t x = t.groups[a].stats.busy_cycles;
                      const int64_t y = t.groups[b].stats.busy_cycles;
                      return x != y ? x > y : a < b;
                    });
  busiest.resize(groups_shown);
  for (size_t k : busiest) rest_busy -= t.groups[k].stats.busy_cycles;
  std::sort(busiest.begin(), busiest.end());
  for (size_t k : busiest) {
    const auto& g = t.groups[k];
    out += fmt::format("  {:<4} {:<{}} {:>12} {:>12} {:>12} {:>12} {:>9.2f} {:>5}  {}{}\n",
                       std::string(1, g.letter), AsciiFit(g.name, 40), name_width,
                       GroupDigits(g.stats.first_start_cycles - t.graph_start_cycles),
                       GroupDigits(g.stats.last_end_cycles - t.graph_start_cycles),
                       GroupDigits(g.stats.busy_cycles), GroupDigits(g.stats.span_cycles),
                       g.stats.busy_over_span(), g.stats.max_concurrency, DescribeThreads(g.tids),
                       g.category == OpCategory::kCompute ? "" : "  (boundary/system ops only)");
  }
  AppendMoreLine(out, t.groups.size(), groups_shown, "op groups",
                 fmt::format(", {} busy cycles", GroupDigits(rest_busy)));
  out += fmt::format("  {:<4} {:<{}} {:>12} {:>12} {:>12} {:>12} {:>9.2f} {:>5}\n", "", "(all)",
                     name_width, GroupDigits(t.all.first_start_cycles - t.graph_start_cycles),
                     GroupDigits(t.all.last_end_cycles - t.graph_start_cycles),
                     GroupDigits(t.all.busy_cycles), GroupDigits(t.all.span_cycles),
                     t.all.busy_over_span(), t.all.max_concurrency);
  out +=
      "  conc = maximum concurrency: most slices running at one cycle (each thread's slice once)\n";

  out += "\nThreads (cycles in the window)\n";
  out += fmt::format("  {:<10} {:>12} {:>12} {:>8}\n", "thread", "busy", "idle", "busy %");
  for (const auto& row : t.rows)
    out +=
        fmt::format("  {:<10} {:>12} {:>12} {:>8}\n", RowLabel(row), GroupDigits(row.active_cycles),
                    GroupDigits(t.window_cycles() - row.active_cycles),
                    Pct(100.0 * static_cast<double>(row.active_cycles) /
                        static_cast<double>(t.window_cycles())));
  out += fmt::format(
      "\nHMX/HVX overlap: {} cycles = {} of the window (HMX work {} cycles: slices flagged "
      "uses_hmx; HVX work {} cycles: slices on HVX threads)\n",
      GroupDigits(t.hmx_hvx_overlap_cycles), Pct(t.hmx_hvx_overlap_pct),
      GroupDigits(t.hmx_active_cycles), GroupDigits(t.hvx_active_cycles));
  if (!t.warnings.empty()) {
    out += "\nWarnings\n";
    const size_t warnings_shown = limit.Shown(t.warnings.size());
    for (size_t k = 0; k < warnings_shown; ++k)
      out += fmt::format("  [{}] {}\n", WarningName(t.warnings[k].code),
                         AsciiFit(t.warnings[k].message, 1000));
    AppendMoreLine(out, t.warnings.size(), warnings_shown, "warnings");
  }
  return out;
}

std::string RenderTimelineSvg(const Timeline& t, const Run& run) {
  const double left = 90, plot = 1100, right = 20, top = 50, row_h = 22, row_gap = 8;
  const double rows_h = t.rows.size() * (row_h + row_gap);
  const double legend_top = top + rows_h + 40;
  const size_t legend_cols = 3;
  const size_t legend_items = t.groups.size() + std::size(kAllMarks);
  const double legend_h = ((legend_items + legend_cols - 1) / legend_cols) * 18 + 30;
  const double width = left + plot + right, height = legend_top + legend_h;
  const double scale = plot / static_cast<double>(t.window_cycles());
  auto x_of = [&](int64_t cycle) { return left + (cycle - t.window_start_cycles) * scale; };
  auto color = [&](const TimelineSlice& s) {
    return s.mark == SliceMark::kGroup ? kGroupColors[s.group % std::size(kGroupColors)]
                                       : MarkColor(s.mark);
  };

  std::string out;
  out += "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
  out += fmt::format(
      "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{:.0f}\" height=\"{:.0f}\" "
      "viewBox=\"0 0 {:.0f} {:.0f}\" font-family=\"monospace\" font-size=\"11\">\n",
      width, height, width, height);
  out += fmt::format("<title>{}</title>\n", XmlEscape("htpscope timeline: " + t.label));
  out += "<rect x=\"0\" y=\"0\" width=\"100%\" height=\"100%\" fill=\"#ffffff\"/>\n";
  out += fmt::format(
      "<text x=\"{}\" y=\"18\" font-size=\"13\">{}</text>\n", left,
      XmlEscape(fmt::format("{} - {}: graph cycles {} .. {} ({} cycles)", t.label, t.window,
                            t.window_start_cycles - t.graph_start_cycles,
                            t.window_end_cycles - t.graph_start_cycles, t.window_cycles())));
  // Axis: 5 ticks.
  for (int i = 0; i <= 4; ++i) {
    int64_t cycle = t.window_start_cycles + t.window_cycles() * i / 4;
    double x = x_of(cycle);
    out += fmt::format(
        "<line x1=\"{:.2f}\" y1=\"{}\" x2=\"{:.2f}\" y2=\"{:.2f}\" stroke=\"#dddddd\"/>\n", x,
        top - 8, x, top + rows_h);
    out += fmt::format("<text x=\"{:.2f}\" y=\"{}\" text-anchor=\"{}\">{}</text>\n", x, top - 12,
                       i == 0   ? "start"
                       : i == 4 ? "end"
                                : "middle",
                       GroupDigits(cycle - t.graph_start_cycles));
  }
  for (size_t r = 0; r < t.rows.size(); ++r) {
    const TimelineRow& row = t.rows[r];
    double y = top + r * (row_h + row_gap);
    out += fmt::format("<g class=\"row\" data-tid=\"{}\">\n", row.tid);
    out += fmt::format("<text x=\"{}\" y=\"{:.1f}\" text-anchor=\"end\">{}</text>\n", left - 8,
                       y + row_h * 0.7, RowLabel(row));
    out += fmt::format(
        "<rect x=\"{}\" y=\"{:.1f}\" width=\"{}\" height=\"{}\" fill=\"#f3f3f3\" "
        "stroke=\"#cccccc\"><title>idle where blank</title></rect>\n",
        left, y, plot, row_h);
    for (uint32_t k : row.slices) {
      const TimelineSlice& s = t.slices[k];
      const SliceRow& src = run.slices[s.slice];
      const OpInstanceRow& op = run.op_instances[src.instance];
      double x = x_of(s.start_cycles);
      double w = std::max((s.end_cycles - s.start_cycles) * scale, 0.5);
      std::string tip = fmt::format(
          "{} | {} | {} | {} | graph cycles {}..{} ({} cycles){}", t.groups[s.group].name,
          run.Str(op.htp_op_type), OpIdHex(src.op_id), MarkName(s.mark),
          s.start_cycles - t.graph_start_cycles, s.end_cycles - t.graph_start_cycles,
          s.end_cycles - s.start_cycles,
          s.start_cycles != src.start_cycle || s.end_cycles != src.end_cycle() ? " (clipped)" : "");
      out += fmt::format(
          "<rect x=\"{:.2f}\" y=\"{:.1f}\" width=\"{:.2f}\" height=\"{}\" "
          "fill=\"{}\"><title>{}</title></rect>\n",
          x, y, w, row_h, color(s), XmlEscape(tip));
    }
    out += "</g>\n";
  }
  // Legend.
  out += fmt::format("<text x=\"{}\" y=\"{:.1f}\" font-size=\"12\">Legend</text>\n", left,
                     legend_top - 8);
  size_t item = 0;
  auto legend = [&](const std::string& fill, const std::string& text) {
    double x = left + (item % legend_cols) * (plot / legend_cols);
    double y = legend_top + (item / legend_cols) * 18;
    out += fmt::format(
        "<rect x=\"{:.1f}\" y=\"{:.1f}\" width=\"12\" height=\"12\" fill=\"{}\"/>"
        "<text x=\"{:.1f}\" y=\"{:.1f}\">{}</text>\n",
        x, y, fill, x + 18, y + 10, XmlEscape(text));
    ++item;
  };
  for (size_t g = 0; g < t.groups.size(); ++g)
    legend(kGroupColors[g % std::size(kGroupColors)],
           fmt::format("{} ({}, conc {})", t.groups[g].name, t.groups[g].letter,
                       t.groups[g].stats.max_concurrency));
  for (SliceMark m : kAllMarks)
    legend(MarkColor(m), fmt::format("{} {}", MarkChar(m), MarkName(m)));
  out += "</svg>\n";
  return out;
}

LazyObject TimelineJson(const Timeline& t, const Run& run) {
  LazyObject doc;
  json& j = doc.members;
  j["label"] = t.label;
  j["window"] = {{"description", t.window},
                 {"start_cycle", t.window_start_cycles},
                 {"end_cycle", t.window_end_cycles},
                 {"graph_start_cycle", t.graph_start_cycles},
                 {"graph_end_cycle", t.graph_end_cycles},
                 {"cycles", t.window_cycles()}};
  j["all"] = ConcurrencyJson(t.all);
  j["hmx_active_cycles"] = t.hmx_active_cycles;
  j["hvx_active_cycles"] = t.hvx_active_cycles;
  j["hmx_hvx_overlap_cycles"] = t.hmx_hvx_overlap_cycles;
  j["hmx_hvx_overlap_pct"] = t.hmx_hvx_overlap_pct;
  doc.AddArray("groups", t.groups.size(), [&t](size_t i) {
    const TimelineGroup& g = t.groups[i];
    json gj = ConcurrencyJson(g.stats);
    gj["name"] = g.name;
    gj["letter"] = std::string(1, g.letter);
    gj["category"] = g.category == OpCategory::kCompute ? "compute" : "boundary_or_system";
    gj["ops"] = g.ops;
    gj["tids"] = g.tids;
    return gj;
  });
  doc.AddObjectArray("rows", t.rows.size(), [&t, &run](size_t r) {
    const TimelineRow& row = t.rows[r];
    LazyObject rj;
    rj.members = {{"tid", row.tid},
                  {"unit", UnitKindName(row.kind)},
                  {"busy_cycles", row.busy_cycles},
                  {"active_cycles", row.active_cycles},
                  {"idle_cycles", t.window_cycles() - row.active_cycles}};
    rj.AddArray("slices", row.slices.size(), [&t, &run, &row](size_t k) {
      const TimelineSlice& s = t.slices[row.slices[k]];
      const SliceRow& src = run.slices[s.slice];
      const OpInstanceRow& op = run.op_instances[src.instance];
      return json{{"op_id", OpIdHex(src.op_id)},
                  {"group", t.groups[s.group].name},
                  {"htp_op_type", std::string(run.Str(op.htp_op_type))},
                  {"mark", s.mark == SliceMark::kGroup ? "group" : MarkName(s.mark)},
                  {"start_cycle", s.start_cycles},
                  {"end_cycle", s.end_cycles}};
    });
    return rj;
  });
  doc.AddArray("warnings", t.warnings.size(), [&t](size_t i) {
    return json{{"code", WarningName(t.warnings[i].code)}, {"message", t.warnings[i].message}};
  });
  return doc;
}

}  // namespace htpscope
