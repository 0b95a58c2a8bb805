#include "report/html_report.h"

#include <fmt/format.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <deque>
#include <functional>
#include <future>
#include <map>
#include <string_view>
#include <unordered_map>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "analysis/timeline.h"
#include "base/errors.h"
#include "model/figures.h"
#include "model/warning_codes.h"
#include "report/device_profile_report.h"
#include "report/format_util.h"
#include "report/html_assets.h"  // generated from src/report/html/ at build time
#include "report/summary_report.h"

namespace htpscope {
namespace {

using nlohmann::json;

// The page's script and style must not end their own element early.
static_assert(html_assets::kReportJs.find("</script") == std::string_view::npos);
static_assert(html_assets::kReportCss.find("</style") == std::string_view::npos);

constexpr std::string_view kSchema = "htpscope.report/1";

// Interns input strings into the model's "strings" array so that each name
// travels once however many bars carry it.
class StringTable {
 public:
  int Index(std::string_view s) {
    auto it = index_.find(s);
    if (it != index_.end()) return it->second;
    int i = static_cast<int>(strings_.size());
    strings_.emplace_back(s);
    index_.emplace(strings_.back(), i);
    return i;
  }
  json ToJson() const {
    json a = json::array();
    for (const auto& s : strings_) a.push_back(s);
    return a;
  }

 private:
  std::deque<std::string> strings_;  // stable addresses for the views in index_
  std::unordered_map<std::string_view, int> index_;
};

json Column(std::string key, std::string label, std::string type, std::string help = "") {
  json c{{"key", std::move(key)}, {"label", std::move(label)}, {"type", std::move(type)}};
  if (!help.empty()) c["help"] = std::move(help);
  return c;
}

// A table in columnar form: rows are arrays in `columns` order.
json Table(std::string title, std::string help, json columns, json rows, size_t total_rows,
           std::string kept) {
  json t{{"title", std::move(title)}, {"help", std::move(help)}, {"columns", std::move(columns)}};
  t["shown_rows"] = rows.size();
  t["total_rows"] = total_rows;
  if (rows.size() < total_rows) t["kept"] = std::move(kept);
  t["rows"] = std::move(rows);
  return t;
}

// Cuts the lazy array `key` of `doc` to its first `max_rows` elements (still
// built only as the page is written); when it had more, `total_key` holds
// how many.
void KeepFirstRows(LazyObject& doc, const char* key, const char* total_key, size_t max_rows) {
  LazyArray rows = TakeArray(doc, key);
  if (rows.size > max_rows) {
    doc.members[total_key] = rows.size;
    rows.size = max_rows;
  }
  doc.arrays.emplace_back(key, std::move(rows));
}

// `groups`: summary --json's "ops" or "htp_op_types", in their order.
json GroupTable(const LazyArray& groups, bool qnn, size_t max_rows) {
  json columns = json::array();
  columns.push_back(Column("name", qnn ? "QNN op" : "HTP op type", "text"));
  if (qnn) columns.push_back(Column("type", "QNN op type", "text"));
  columns.push_back(Column("category", "kind", "category",
                           "compute, system_service or boundary (docs/metrics.md)"));
  columns.push_back(
      Column("dpc_cycles", "DPC cycles", "cycles", "Σ Dominant Path Cycles, once per op ID"));
  columns.push_back(Column("dpc_share_of_wall_pct", "% wall", "pct", "DPC ÷ graph wall cycles"));
  columns.push_back(Column(ItemFigureName(ItemFigure::kWorkCycles), "work cycles", "cycles",
                           "Σ slice durations over threads: volume, not time"));
  columns.push_back(Column("work_share_pct", "% work", "pct", "of all work cycles"));
  columns.push_back(Column("instances", "instances", "count", "op IDs (tiles)"));
  columns.push_back(Column("dpc_lower_bound", "DPC lower bound", "bool",
                           "ran as several slices: the trace holds one slice's DPC"));
  json rows = json::array();
  for (size_t i = 0; i < groups.size && i < max_rows; ++i) {
    const json g = groups.element(i);
    json row = json::array();
    for (const auto& c : columns) {
      auto it = g.find(c["key"].get<std::string>());
      row.push_back(it == g.end() ? json(nullptr) : *it);
    }
    rows.push_back(std::move(row));
  }
  return Table(qnn ? "QNN ops" : "HTP op types",
               qnn ? "Every QNN op of the traced execution, by dominant-path cycles"
                   : "Every HTP op type the compiled graph ran, by dominant-path cycles",
               std::move(columns), std::move(rows), groups.size,
               "the ops with the most DPC cycles");
}

json InstanceTable(const Run& run, int64_t origin_cycles, size_t max_rows) {
  json columns = json::array(
      {Column("op_id", "op ID", "id"), Column("qnn_op_name", "QNN op", "text"),
       Column("qnn_op_type", "QNN op type", "text"), Column("htp_op_type", "HTP op type", "text"),
       Column("category", "kind", "category"),
       Column("start_offset_cycles", "start", "offset",
              "first slice start, cycles since the first op"),
       Column("duration_cycles", "duration", "cycles", "args \"Duration (cycles)\""),
       Column("dpc_cycles", "DPC cycles", "cycles", "Dominant Path Cycles"),
       Column(ItemFigureName(ItemFigure::kWorkCycles), "work cycles", "cycles",
              "Σ its slices' durations"),
       Column("slices", "slices", "count", "threads the op was split across"),
       Column("units", "units", "text"), Column("flags", "flags", "text")});
  std::vector<size_t> keep;
  if (run.op_instances.size() > max_rows) {
    // The most DPC, then work, then the first: selected on a flat copy of
    // the keys (comparing through the 136-byte rows missed the cache at
    // every step), then back to start order.
    struct Key {
      int64_t dpc_cycles, work_cycles;
      size_t index;
      bool operator<(const Key& o) const {
        if (dpc_cycles != o.dpc_cycles) return dpc_cycles > o.dpc_cycles;
        if (work_cycles != o.work_cycles) return work_cycles > o.work_cycles;
        return index < o.index;
      }
    };
    std::vector<Key> keys(run.op_instances.size());
    for (size_t i = 0; i < keys.size(); ++i)
      keys[i] = {run.op_instances[i].dpc_cycles, run.op_instances[i].work_cycles, i};
    std::nth_element(keys.begin(), keys.begin() + static_cast<ptrdiff_t>(max_rows), keys.end());
    keep.resize(max_rows);
    for (size_t k = 0; k < max_rows; ++k) keep[k] = keys[k].index;
    std::sort(keep.begin(), keep.end());
  } else {
    keep.resize(run.op_instances.size());
    for (size_t i = 0; i < keep.size(); ++i) keep[i] = i;
  }
  json rows = json::array();
  for (size_t i : keep) {
    const OpInstanceRow& op = run.op_instances[i];
    std::string units = op.on_hmx_thread && op.on_hvx_thread ? "HMX+HVX"
                        : op.on_hmx_thread                   ? "HMX"
                        : op.on_hvx_thread                   ? "HVX"
                                                             : "";
    rows.push_back(
        json::array({OpIdHex(op.op_id), run.Str(op.qnn_op_name), run.Str(op.qnn_op_type),
                     run.Str(op.htp_op_type), OpCategoryName(op.category),
                     op.first_start_cycle - origin_cycles, op.op_duration_cycles, op.dpc_cycles,
                     op.work_cycles, op.slice_count, units, OpFlagNames(op.flags, " ")}));
  }
  json table = Table("Op instances", "Every executed HTP op instance (op ID), in start order",
                     std::move(columns), std::move(rows), run.op_instances.size(),
                     "the instances with the most DPC cycles, in start order");
  table["share_column"] = "dpc_cycles";
  return table;
}

// The "timeline" section: the run's thread timeline over the whole trace
// (analysis/timeline.h), each thread's slices downsampled to bars.
json TimelineSection(const Run& run, const HtmlReportOptions& options) {
  const RunFigures& fine = run.figures;
  const int64_t origin = *fine.start_cycle;
  const int64_t wall = std::max<int64_t>(*fine.graph_wall_cycles, 1);
  const int width_px = std::max(options.timeline_width_px, 1);
  const double pixel_cycles = static_cast<double>(wall) / width_px;

  // The whole trace's window holds every slice, unclipped, even when the
  // trace spans no cycle.
  TimelineWindow whole_trace;
  whole_trace.allow_empty = true;
  const Timeline timeline =
      run.slices.empty() ? Timeline{} : BuildTimeline(run, Grouping{}, whole_trace);

  StringTable strings;
  std::map<int, int> description_of_type;  // HTP op type string -> description string
  json threads = json::array();
  size_t total_bars = 0;
  // Declared once: GCC 12 -O3 mistakes a vector destroyed at the end of each
  // iteration for a use after free (-Wuse-after-free).
  std::vector<TimelineBar> bars;
  std::vector<uint32_t> indices;
  for (const TimelineRow& row : timeline.rows) {
    indices.clear();
    for (uint32_t k : row.slices) indices.push_back(timeline.slices[k].slice);
    bars = DownsampleThreadSlices(run.slices, indices, origin, pixel_cycles);
    total_bars += bars.size();
    json rows = json::array();
    for (const auto& b : bars) {
      const SliceRow& s = run.slices[b.slice_index];
      const OpInstanceRow& op = run.op_instances[s.instance];
      int htp_type = strings.Index(run.Str(op.htp_op_type));
      if (op.description != StringPool::kEmpty && !description_of_type.count(htp_type))
        description_of_type[htp_type] = strings.Index(run.Str(op.description));
      // [start, span, busy, ops, name, QNN type, HTP type, DPC, flags, kind, op ID]
      rows.push_back(json::array(
          {b.start_cycles - origin, b.end_cycles - b.start_cycles, b.busy_cycles, b.slice_count,
           strings.Index(run.Str(op.qnn_op_name)), strings.Index(run.Str(op.qnn_op_type)), htp_type,
           op.dpc_cycles, op.flags, OpCategoryName(op.category), OpIdHex(s.op_id)}));
    }
    threads.push_back({{"tid", row.tid},
                       {"kind", UnitKindName(row.kind)},
                       {"name", row.name},
                       {"bars", std::move(rows)}});
  }
  json descriptions = json::array();
  for (auto [type, text] : description_of_type) descriptions.push_back({type, text});
  return {{"origin_cycle", origin},
          {"wall_cycles", wall},
          {"base_width_px", width_px},
          {"pixel_cycles", pixel_cycles},
          {"slices", run.slices.size()},
          {"bars", total_bars},
          {"bar_fields",
           {"start_offset_cycles", "span_cycles", "busy_cycles", "ops", "qnn_op_name",
            "qnn_op_type", "htp_op_type", "dpc_cycles", "flags", "category", "op_id"}},
          {"strings", strings.ToJson()},
          {"descriptions", std::move(descriptions)},
          {"threads", std::move(threads)}};
}

// `overview`: the small members of summary --json.
json BuildUnitsMemory(const Run& run, const json& overview, const HtmlReportOptions& options) {
  const RunFigures& f = run.figures;
  json out;
  out["units"] = overview["units"];
  for (Figure figure : {Figure::kGraphWallCycles, Figure::kPeakVtcmBytes})
    out[FigureName(figure)] = overview[FigureName(figure)];
  std::optional<int64_t> origin = f.start_cycle;
  out["peak_vtcm_offset_cycles"] =
      f.peak_vtcm_cycle && origin ? json(*f.peak_vtcm_cycle - *origin) : json(nullptr);
  out["counters"] = json::array();
  if (run.Gives(RunData::kTimedSlices) && origin && f.graph_wall_cycles) {
    const double pixel_cycles = static_cast<double>(std::max<int64_t>(*f.graph_wall_cycles, 1)) /
                                std::max(options.timeline_width_px, 1);
    for (const auto& [name, samples] : run.counters) {
      if (samples.empty()) continue;
      json points = json::array();
      int64_t peak = samples.front().value;
      for (const auto& s : samples) peak = std::max(peak, s.value);
      for (const auto& p : DownsampleCounter(samples, *origin, pixel_cycles))
        points.push_back({p.ts_cycle - *origin, p.min_value, p.max_value, p.last_value});
      out["counters"].push_back(
          {{"name", name},
           {"unit", "bytes"},
           {"samples", samples.size()},
           {"peak_bytes", peak},
           {"point_fields", {"offset_cycles", "min_bytes", "max_bytes", "last_bytes"}},
           {"points", std::move(points)}});
    }
  }
  if (!run.qhas_cores.empty()) {
    const QhasCoreRow& o = run.qhas_cores.front();
    out["traffic"] = {{"source", "QHAS htp_overall_summary (the traced execution)"},
                      {FigureName(Figure::kDramReadBytes), o.total_dram_read_bytes},
                      {FigureName(Figure::kDramWriteBytes), o.total_dram_write_bytes},
                      {FigureName(Figure::kVtcmReadBytes), o.total_vtcm_read_bytes},
                      {FigureName(Figure::kVtcmWriteBytes), o.total_vtcm_write_bytes}};
  }
  return out;
}

struct Substitution {
  std::string_view placeholder;
  std::string_view value;
  // When set, writes the value at the end of the page instead (a big text
  // written in place rather than built apart and copied in).
  std::function<void(std::string&)> write = nullptr;
};

// Fills each placeholder of `page_template` with its value in one pass:
// placeholders are looked up in the template alone, never in a value, so a
// value holding placeholder text (a title "{{DATA}}", a run directory named
// so) is written as it is.  Each placeholder must occur exactly once.
// `reserve_bytes`: room made up front for the values written in place.
std::string FillTemplate(std::string_view page_template, std::vector<Substitution> substitutions,
                         size_t reserve_bytes = 0) {
  std::vector<std::pair<size_t, const Substitution*>> at;
  size_t size = page_template.size();
  for (const auto& s : substitutions) {
    size_t first = page_template.find(s.placeholder);
    if (first == std::string_view::npos ||
        page_template.find(s.placeholder, first + 1) != std::string_view::npos)
      throw InternalError(fmt::format("report template lacks {} or has it twice", s.placeholder));
    at.emplace_back(first, &s);
    size += s.value.size();
  }
  std::sort(at.begin(), at.end());
  std::string page;
  page.reserve(size + reserve_bytes);
  size_t done = 0;
  for (const auto& [where, s] : at) {
    if (where < done) throw InternalError("report template placeholders overlap");
    page.append(page_template.substr(done, where - done));
    if (s->write)
      s->write(page);
    else
      page.append(s->value);
    done = where + s->placeholder.size();
  }
  page.append(page_template.substr(done));
  return page;
}

}  // namespace

std::vector<TimelineBar> DownsampleThreadSlices(const std::vector<SliceRow>& slices,
                                                std::vector<uint32_t> indices,
                                                int64_t origin_cycles, double pixel_cycles) {
  // Sorted by (start, end, index) as keys side by side, not through the
  // slice table (a cache miss per comparison); not at all when in order.
  struct Key {
    int64_t start, end;
    uint32_t index;
    bool operator<(const Key& o) const {
      return start != o.start ? start < o.start : end != o.end ? end < o.end : index < o.index;
    }
  };
  std::vector<Key> keys;
  keys.reserve(indices.size());
  for (uint32_t i : indices) keys.push_back({slices[i].start_cycle, slices[i].end_cycle(), i});
  if (!std::is_sorted(keys.begin(), keys.end())) std::sort(keys.begin(), keys.end());
  for (size_t k = 0; k < keys.size(); ++k) indices[k] = keys[k].index;
  std::vector<TimelineBar> bars;
  TimelineBar open;
  int64_t open_column = 0, open_longest = -1;
  auto flush = [&] {
    if (open.slice_count) bars.push_back(open);
    open = TimelineBar{};
  };
  for (uint32_t i : indices) {
    const SliceRow& s = slices[i];
    if (pixel_cycles <= 0 || static_cast<double>(s.dur_cycles) >= pixel_cycles) {
      bars.push_back({s.start_cycle, s.end_cycle(), s.dur_cycles, 1, i});
      continue;
    }
    auto column = static_cast<int64_t>(
        std::floor(static_cast<double>(s.start_cycle - origin_cycles) / pixel_cycles));
    if (open.slice_count && column != open_column) flush();
    if (!open.slice_count) {
      open = {s.start_cycle, s.end_cycle(), 0, 0, i};
      open_column = column;
      open_longest = -1;
    }
    open.end_cycles = std::max(open.end_cycles, s.end_cycle());
    open.busy_cycles += s.dur_cycles;
    open.slice_count += 1;
    if (s.dur_cycles > open_longest) {
      open_longest = s.dur_cycles;
      open.slice_index = i;
    }
  }
  flush();
  std::stable_sort(bars.begin(), bars.end(), [](const TimelineBar& a, const TimelineBar& b) {
    return a.start_cycles < b.start_cycles;
  });
  return bars;
}

std::vector<CounterPoint> DownsampleCounter(const std::vector<CounterSampleRow>& samples,
                                            int64_t origin_cycles, double pixel_cycles) {
  auto earlier = [](const CounterSampleRow& a, const CounterSampleRow& b) {
    return a.ts_cycles < b.ts_cycles;
  };
  // A trace writes each counter in time order: sorted (a copy of every
  // sample) only when it did not.
  std::vector<CounterSampleRow> resorted;
  if (!std::is_sorted(samples.begin(), samples.end(), earlier)) {
    resorted = samples;
    std::stable_sort(resorted.begin(), resorted.end(), earlier);
  }
  const std::vector<CounterSampleRow>& sorted = resorted.empty() ? samples : resorted;
  std::vector<CounterPoint> points;
  int64_t column = 0;
  for (const auto& s : sorted) {
    int64_t c = pixel_cycles > 0
                    ? static_cast<int64_t>(std::floor(
                          static_cast<double>(s.ts_cycles - origin_cycles) / pixel_cycles))
                    : s.ts_cycles;
    if (points.empty() || c != column) {
      points.push_back({s.ts_cycles, s.value, s.value, s.value});
      column = c;
      continue;
    }
    CounterPoint& p = points.back();
    p.min_value = std::min(p.min_value, s.value);
    p.max_value = std::max(p.max_value, s.value);
    p.last_value = s.value;
  }
  return points;
}

namespace {

// The run's figures come from a traced timeline (the optrace's cycles).
bool TraceTimed(const Run& run) {
  return run.figures.fine_source == Source::kOptrace && run.figures.start_cycle.has_value();
}

}  // namespace

std::future<json> StartTimelineSection(const Run& run, const HtmlReportOptions& options) {
  if (!TraceTimed(run)) return {};
  return std::async(std::launch::async | std::launch::deferred,
                    [&run, options] { return TimelineSection(run, options); });
}

LazyObject BuildLazyReportModel(const Summary& summary, const HtmlReportOptions& options) {
  return BuildLazyReportModel(summary, options, StartTimelineSection(*summary.run, options));
}

LazyObject BuildLazyReportModel(const Summary& summary, const HtmlReportOptions& options,
                                std::future<json> timeline) {
  const Run& run = *summary.run;
  // The op instance table reads only the run: made on another core while
  // the rest of the model is.
  std::future<json> instances;
  if (TraceTimed(run) && !run.op_instances.empty())
    instances = std::async(std::launch::async | std::launch::deferred, [&run, &options] {
      return InstanceTable(run, *run.figures.start_cycle, options.max_table_rows);
    });
  LazyObject model;
  model.members["schema"] = kSchema;
  model.members["title"] = options.title.empty() ? "htpscope report — " + run.label : options.title;
  model.members["label"] = run.label;
  // What each warning code of the run means, from the warning registry: the
  // page shows it beside the warning (backquotes of its Markdown dropped).
  json explanations = json::object();
  for (const WarningRow& w : summary.warnings) {  // the run's, then the summary's own
    std::string text(WarningInfo(w.code).description);
    std::erase(text, '`');
    explanations[std::string(WarningName(w.code))] = std::move(text);
  }
  model.members["warning_explanations"] = std::move(explanations);
  // What each run-level figure is, from the figure registry: the overview's
  // cards say it under their figure (backquotes of its Markdown dropped).
  json descriptions = json::object();
  for (const FigureInfo& f : Figures()) {
    std::string text(f.description);
    std::erase(text, '`');
    descriptions[f.name] = std::move(text);
  }
  model.members["figure_descriptions"] = std::move(descriptions);

  // The per-op lists are built only as far as the page shows them.
  LazyObject overview = SummaryJson(summary);
  const LazyArray qnn_ops = TakeArray(overview, "ops");
  const LazyArray htp_types = TakeArray(overview, "htp_op_types");
  // The per-op warm-up lists every profile node: a big run's would dwarf the
  // page, so at most max_table_rows of it (the most warm-up first per graph).
  KeepFirstRows(overview, "op_warmup", "op_warmup_total_rows", options.max_table_rows);
  // So do the per-op steady state (the most steady cycles first per graph)
  // and the profile's phase figures (every execution's lines).
  KeepFirstRows(overview, "op_steady_state", "op_steady_state_total_rows", options.max_table_rows);
  KeepFirstRows(overview, "profile_phases", "profile_phases_total_rows", options.max_table_rows);
  // So do the hardware tables' per-op rows (the most path cycles, work or
  // DRAM bytes read first).
  for (const char* key : {"dominant_path_by_unit", "op_rollup", "vtcm_read_hits"})
    if (LazyObject* table = FindObject(overview, key))  // null when the run gives none
      KeepFirstRows(*table, "ops", "ops_total_rows", options.max_table_rows);
  json tables;
  if (qnn_ops.size) tables["qnn_ops"] = GroupTable(qnn_ops, true, options.max_table_rows);
  if (htp_types.size) tables["htp_op_types"] = GroupTable(htp_types, false, options.max_table_rows);
  if (instances.valid()) tables["instances"] = instances.get();
  if (!tables.empty()) model.members["tables"] = std::move(tables);
  if (timeline.valid()) model.members["timeline"] = timeline.get();
  if (!run.units.empty() || run.figures.peak_vtcm_bytes)
    model.members["units_memory"] = BuildUnitsMemory(run, overview.members, options);
  // The module tree has its own section (an icicle) when op names carry
  // modules; the overview keeps its copy, as summary --json prints it.
  if (overview.members.contains("modules")) {
    const json& modules = overview.members["modules"];
    bool any = false;
    for (const auto& n : modules["nodes"])
      any = any || (n["depth"].get<int>() > 0 && !n["unplaced"].get<bool>() &&
                    n["path"].get<std::string>().rfind("graph:", 0) != 0);
    if (any) model.members["modules"] = modules;
  }
  // An AI Hub or Genie profile or a runner's log given with the run: the
  // views the device-only page shows, under their own keys.
  json views = DeviceProfileViews(run, options.max_table_rows);
  for (auto it = views.begin(); it != views.end(); ++it)
    model.members[it.key()] = std::move(it.value());
  model.AddObject("overview", std::move(overview));
  return model;
}

json BuildReportModel(const Summary& summary, const HtmlReportOptions& options) {
  return Materialize(BuildLazyReportModel(summary, options));
}

namespace {

// JSON text made safe inside <script type="application/json"> (see
// JsonForHtmlScript).
std::string EscapeJsonForScript(std::string_view text) {
  std::string out;
  out.reserve(text.size() + text.size() / 32);
  ScriptJsonEscaper escaper(&out);
  escaper.Append(text);
  escaper.Finish();
  return out;
}

// The page titled `title` (raw text) holding the model's JSON, as
// JsonForHtmlScript's text: `data`, or what `write_data` appends to the page
// (about `data_bytes` of it).
std::string Page(const json& title, std::string_view data,
                 std::function<void(std::string&)> write_data = nullptr, size_t data_bytes = 0) {
  const std::string escaped_title =
      XmlEscape(title.is_string() ? title.get<std::string>() : std::string("htpscope report"),
                MarkupEscape::kHtml);
  return FillTemplate(html_assets::kReportHtml,
                      {{"{{TITLE}}", escaped_title},
                       {"/*{{CSS}}*/", html_assets::kReportCss},
                       {"{{DATA}}", data, std::move(write_data)},
                       {"/*{{JS}}*/", html_assets::kReportJs}},
                      data_bytes);
}

}  // namespace

bool ScriptJsonEscaper::IsLineSeparatorPrefix(std::string_view b) {
  return (b.size() >= 1 && b[0] == '\xE2') && (b.size() < 2 || b[1] == '\x80') &&
         (b.size() < 3 || b[2] == '\xA8' || b[2] == '\xA9');
}

void ScriptJsonEscaper::Append(std::string_view piece) {
  // The bytes held back are escaped with the piece's first two: they then
  // form a separator, or not (and a new prefix at the end is held again).
  while (!carried_.empty() && !piece.empty()) {
    const size_t take = std::min<size_t>(2, piece.size());
    std::string joined = carried_;
    joined.append(piece.substr(0, take));
    carried_.clear();
    piece.remove_prefix(take);
    Escape(joined, /*last=*/false);
  }
  if (!piece.empty()) Escape(piece, /*last=*/false);
}

void ScriptJsonEscaper::Finish() {
  std::string held = std::move(carried_);
  carried_.clear();
  Escape(held, /*last=*/true);
}

namespace {

// The first byte of `text` at or after `from` that may need an escape ('<',
// '>', '&', or E2, which begins U+2028 and U+2029), else text.size().  A
// report page is megabytes of JSON with few such bytes: 16 at a time.
size_t NextByteToEscape(std::string_view text, size_t from) {
#if defined(__SSE2__)
  const __m128i lt = _mm_set1_epi8('<'), gt = _mm_set1_epi8('>'), amp = _mm_set1_epi8('&'),
                e2 = _mm_set1_epi8('\xE2');
  for (; from + 16 <= text.size(); from += 16) {
    const __m128i b = _mm_loadu_si128(reinterpret_cast<const __m128i*>(text.data() + from));
    const __m128i hits = _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(b, lt), _mm_cmpeq_epi8(b, gt)),
                                      _mm_or_si128(_mm_cmpeq_epi8(b, amp), _mm_cmpeq_epi8(b, e2)));
    if (const auto bits = static_cast<uint32_t>(_mm_movemask_epi8(hits)); bits != 0)
      return from + static_cast<size_t>(std::countr_zero(bits));
  }
#endif
  for (; from < text.size(); ++from) {
    const char c = text[from];
    if (c == '<' || c == '>' || c == '&' || c == '\xE2') return from;
  }
  return text.size();
}

}  // namespace

void ScriptJsonEscaper::Escape(std::string_view text, bool last) {
  size_t run_start = 0;  // unescaped bytes from here on are copied as one run
  for (size_t i = NextByteToEscape(text, 0); i < text.size(); i = NextByteToEscape(text, i + 1)) {
    const char* escape = nullptr;
    size_t width = 1;  // bytes the escape replaces
    switch (text[i]) {
      case '<':
        escape = "\\u003c";
        break;
      case '>':
        escape = "\\u003e";
        break;
      case '&':
        escape = "\\u0026";
        break;
      default: {  // E2
        const std::string_view rest = text.substr(i);
        if (rest.size() >= 3 && IsLineSeparatorPrefix(rest.substr(0, 3))) {
          escape = rest[2] == '\xA8' ? "\\u2028" : "\\u2029";
          width = 3;
        } else if (!last && rest.size() < 3 && IsLineSeparatorPrefix(rest)) {
          out_->append(text.substr(run_start, i - run_start));
          carried_.assign(rest);  // completed (or not) by the next piece
          return;
        }
        break;
      }
    }
    if (!escape) continue;  // stays in the run, an E2 that begins no separator too
    out_->append(text.substr(run_start, i - run_start));
    *out_ += escape;
    i += width - 1;
    run_start = i + 1;
  }
  out_->append(text.substr(run_start));
}

std::string JsonForHtmlScript(const json& value) {
  return EscapeJsonForScript(value.dump(-1, ' ', false, json::error_handler_t::replace));
}

std::string RenderHtmlReport(const json& model) {
  const bool titled = model.is_object() && model.contains("title");
  return Page(titled ? model["title"] : json(), JsonForHtmlScript(model));
}

std::string RenderHtmlReport(const LazyObject& model) {
  // Escaped as it is written, straight into the page: neither an unescaped
  // nor an escaped copy of the whole text.  Room for a typical big run's
  // data (~14 MB for 80 k ops) is made up front: room never written costs
  // no memory, and the page is not copied as it grows.
  constexpr size_t kDataBytes = size_t{16} << 20;
  const auto title = model.members.find("title");
  return Page(
      title != model.members.end() ? *title : json(), {},
      [&model](std::string& page) {
        ScriptJsonEscaper escaper(&page);
        WriteLazyJson(
            model, -1, [&](std::string_view piece) { escaper.Append(piece); },
            json::error_handler_t::replace);
        escaper.Finish();
      },
      kDataBytes);
}

std::string RenderDiffHtml(const json& diff_json, const std::string& title) {
  json model;
  model["schema"] = kSchema;
  model["title"] = title;
  model["diff"] = diff_json;
  return RenderHtmlReport(model);
}

}  // namespace htpscope
