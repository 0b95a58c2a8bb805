// The self-contained HTML report (`htpscope report`, `htpscope diff --format html`).
//
// One JSON data model of a run is built here and embedded into a static page
// (src/report/html/report.{html,css,js}, compiled in) whose script renders
// every section from it.  The page makes no network request and works from
// file://.
//
// Data model (schema "htpscope.report/1", docs/report.md): a section is
// rendered when its key is present, so a view plugs in by adding its key:
//   overview      SummaryToJson(summary) without its per-op lists — the very
//                 figures `summary --json` prints;
//   timeline      per hardware thread, bars in cycles since the first op;
//                 slices narrower than one pixel at `timeline_width_px` are
//                 merged per pixel column into "N ops" bars;
//   tables        QNN ops, HTP op types, op instances (columnar rows);
//   modules       the module tree (`summary --json`'s "modules", also in the
//                 overview) when op names carry modules: an icicle to click
//                 into, and the repeated-block tables;
//   units_memory  per-unit occupancy, counter tracks (VTCM alloc, DRAM/VTCM
//                 read/write) reduced per pixel column, peak VTCM;
//   aihub, genie, llm_runner  the device profiles the run holds beside its
//                 QNN artifacts (DeviceProfileViews): the figures and tables
//                 the device-only page shows, drawn by the page's script;
//   graph, lint, heap, numerics, memory, diff: the JSON of those analyses as
//                 they print it with --json, rendered generically.
//
// Safety: every string from an input file travels only inside the JSON,
// which is escaped for a <script type="application/json"> element
// (JsonForHtmlScript); the page reads it with JSON.parse and writes it with
// textContent.  No input string is ever spliced into HTML.
#pragma once

#include <cstdint>
#include <future>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <vector>

#include "analysis/summary.h"
#include "model/run.h"
#include "report/lazy_json.h"

namespace htpscope {

// Pixel columns across the graph wall at zoom 1: slices narrower than one
// column are merged.  4000 px keeps every slice at least 1/4000 of the wall
// wide exact while bounding a thread to ~8000 bars.
inline constexpr int kTimelineBaseWidthPx = 4000;
// Rows kept per table (QNN ops, op instances); the biggest by DPC, then work.
inline constexpr size_t kDefaultMaxTableRows = 10000;

struct HtmlReportOptions {
  std::string title;  // default "htpscope report — <run label>"
  int timeline_width_px = kTimelineBaseWidthPx;
  size_t max_table_rows = kDefaultMaxTableRows;
};

// One bar of a thread's timeline.  An exact bar is one slice
// (slice_count == 1); an aggregate merges the slices narrower than one pixel
// whose start falls in one pixel column.
struct TimelineBar {
  int64_t start_cycles = 0;  // absolute: earliest start of its slices
  int64_t end_cycles = 0;    // absolute: latest end of its slices
  int64_t busy_cycles = 0;   // Σ the slices' durations
  uint32_t slice_count = 0;
  uint32_t slice_index = 0;  // the slice (exact), or the longest merged slice
};

// Downsamples one thread's slices: `indices` select slices of `slices` (any
// order).  Slices with dur ≥ `pixel_cycles` stay exact; narrower ones are
// merged per pixel column floor((start − origin) ÷ pixel_cycles) (a column
// holding one narrow slice keeps it exact).  Bars are ordered by start.
// Σ busy_cycles equals Σ the selected slices' durations, and a thread gets at
// most one aggregate per column plus its exact slices.
std::vector<TimelineBar> DownsampleThreadSlices(const std::vector<SliceRow>& slices,
                                                std::vector<uint32_t> indices,
                                                int64_t origin_cycles, double pixel_cycles);

// One pixel column of a counter track: the samples whose ts falls in it.
struct CounterPoint {
  int64_t ts_cycle = 0;  // absolute: first sample of the column
  int64_t min_value = 0, max_value = 0, last_value = 0;
};

// Reduces a counter track (samples in any order) to one point per pixel
// column holding samples, ordered by ts.  The track's maximum survives as
// some column's max_value.
std::vector<CounterPoint> DownsampleCounter(const std::vector<CounterSampleRow>& samples,
                                            int64_t origin_cycles, double pixel_cycles);

// Rows kept per list in an analysis section (graph, lint, ...): nodes and
// edges of a big graph would otherwise outweigh the rest of the page.
inline constexpr size_t kDefaultMaxSectionItems = 2000;

// The report's data model for one run (sections overview, timeline, tables,
// units_memory, modules, and aihub, genie, llm_runner for the device
// profiles it holds, AI Hub's layers capped at `max_table_rows`; the others
// are added by the caller under their keys), its
// long per-op lists left to be written as the page is rendered: they read
// `summary` and its run, which must outlive the model.
LazyObject BuildLazyReportModel(const Summary& summary, const HtmlReportOptions& options = {});
// The same, its timeline section the one `timeline` gives (StartTimelineSection
// on the summary's run and the same options).
LazyObject BuildLazyReportModel(const Summary& summary, const HtmlReportOptions& options,
                                std::future<nlohmann::json> timeline);
// The report's timeline section (the run's thread timeline over the whole
// trace, each thread's slices downsampled to bars), built on another core:
// started as soon as the run is loaded, it overlaps the rest of the report.
// Reads only `run`, which must outlive it; no future (not valid()) when the
// run has no traced timing to draw.
std::future<nlohmann::json> StartTimelineSection(const Run& run, const HtmlReportOptions& options);
// The same, built: Materialize(BuildLazyReportModel(summary, options)).
nlohmann::json BuildReportModel(const Summary& summary, const HtmlReportOptions& options = {});

// JSON text made safe inside <script type="application/json">, written
// piece by piece (the report's JSON is escaped as it is written, never held
// unescaped): '<', '>' and '&' become \u escapes, as do U+2028 and U+2029
// (bytes E2 80 A8 / E2 80 A9), whose bytes may be split between pieces.
// Every other byte is copied (invalid UTF-8 is the JSON writer's to replace).
class ScriptJsonEscaper {
 public:
  explicit ScriptJsonEscaper(std::string* out) : out_(out) {}
  // Appends `piece`, escaped, to the output; up to two bytes at its end that
  // may begin a separator are held back for the next piece.
  void Append(std::string_view piece);
  // Writes what was held back; call once, after the last piece.
  void Finish();

 private:
  static bool IsLineSeparatorPrefix(std::string_view bytes);
  // Escapes `text`; unless `last`, a possible separator cut at its end is
  // carried to the next piece.
  void Escape(std::string_view text, bool last);

  std::string* out_;
  std::string carried_;  // 1 or 2 bytes that may begin E2 80 A8 / A9
};

// JSON text safe inside <script type="application/json">: '<', '>', '&',
// U+2028 and U+2029 are written as \u escapes (only strings can hold them,
// so the text is still the same JSON); invalid UTF-8 becomes U+FFFD.
std::string JsonForHtmlScript(const nlohmann::json& value);

// The complete page for `model` (a BuildReportModel result, optionally with
// more sections).  The page's <title> is model["title"].
std::string RenderHtmlReport(const nlohmann::json& model);
// The same page for a lazy model (BuildLazyReportModel), its lists written
// straight into the page's text.
std::string RenderHtmlReport(const LazyObject& model);

// A page holding only a diff section: `diff_json` is the diff's JSON as
// `htpscope diff --format json` prints it (RunDiffToJson).
std::string RenderDiffHtml(const nlohmann::json& diff_json,
                           const std::string& title = "htpscope diff");

}  // namespace htpscope
