#include "report/trend_report.h"

#include <fmt/format.h>

#include <sstream>

#include "base/errors.h"
#include "report/csv_writer.h"
#include "report/format_util.h"

namespace htpscope {
namespace {

std::string MarkText(const TrendRow& row) {
  std::string mark = TrendMarkName(row.mark);
  if ((row.mark == TrendMark::kUp || row.mark == TrendMark::kDown) && !row.noise_assessed)
    mark += " (noise not assessed)";
  return mark;
}

std::string Optional(const std::optional<double>& v, const char* spec) {
  return v ? fmt::format(fmt::runtime(spec), *v) : "";
}

std::string RenderText(const TrendView& v) {
  std::string out =
      fmt::format("{} over {} run{}{} ({}; {}), each run against the {} run{} before it\n\n",
                  v.metric.name, v.rows.size(), v.rows.size() == 1 ? "" : "s",
                  v.label.empty() ? "" : fmt::format(" labelled \"{}\"", v.label), v.metric.basis,
                  v.metric.unit, v.baseline_runs, v.baseline_runs == 1 ? "" : "s");
  std::vector<std::vector<std::string>> table = {{"run_id", "label", "ingested_at", "run", "n",
                                                  "median", "change", "change %", "noise ±",
                                                  "mark"}};
  for (const TrendRow& r : v.rows) {
    const MetricDelta* d = r.delta ? &*r.delta : nullptr;
    table.push_back({std::to_string(r.point.run_id), r.point.label, r.point.ingested_at,
                     r.point.run, r.stats ? std::to_string(r.stats->n) : "0",
                     r.stats ? FormatFigure(r.stats->median) : "-",
                     d && d->change ? (*d->change >= 0 ? "+" : "") + FormatFigure(*d->change) : "",
                     d ? Optional(d->change_pct, "{:+.1f} %") : "",
                     d && d->noise_bound ? FormatMeasure(*d->noise_bound, 1) : "", MarkText(r)});
  }
  std::vector<size_t> width(table.front().size(), 0);
  for (const auto& row : table)
    for (size_t c = 0; c < row.size(); ++c) width[c] = std::max(width[c], DisplayWidth(row[c]));
  const std::vector<bool> right = {true, false, false, false, true, true, true, true, true, false};
  for (const auto& row : table) {
    std::string line;
    for (size_t c = 0; c < row.size(); ++c) {
      if (c > 0) line += "  ";
      line += right[c] ? fmt::format("{:>{}}", row[c], width[c])
                       : fmt::format("{:<{}}", row[c], width[c]);
    }
    while (!line.empty() && line.back() == ' ') line.pop_back();
    out += line + "\n";
  }
  out += fmt::format(
      "\nup/down: the run's median moved beyond the noise bound that `htpscope diff` uses "
      "(3 × 1.4826 × MAD of both sides combined, assessed when a side has 3 or more samples; "
      "docs/diff.md); \"noise not assessed\": too few samples to tell noise from change.\n");
  return out;
}

}  // namespace

nlohmann::json TrendToJson(const TrendView& v) {
  nlohmann::json runs = nlohmann::json::array();
  for (const TrendRow& r : v.rows) {
    nlohmann::json j = {{"run_id", r.point.run_id},
                        {"run", r.point.run},
                        {"label", r.point.label},
                        {"ingested_at", r.point.ingested_at},
                        {"n", r.stats ? r.stats->n : 0},
                        {"samples", r.point.samples},
                        {"baseline_runs", r.baseline_runs},
                        {"mark", TrendMarkName(r.mark)},
                        {"noise_assessed", r.noise_assessed}};
    auto put = [&](const char* key, const std::optional<double>& value) {
      j[key] = value ? nlohmann::json(*value) : nlohmann::json(nullptr);
    };
    put("median", r.stats ? std::optional(r.stats->median) : std::nullopt);
    put("min", r.stats ? std::optional(r.stats->min) : std::nullopt);
    put("max", r.stats ? std::optional(r.stats->max) : std::nullopt);
    put("change", r.delta ? r.delta->change : std::nullopt);
    put("change_pct", r.delta ? r.delta->change_pct : std::nullopt);
    put("noise_bound", r.delta ? r.delta->noise_bound : std::nullopt);
    j["within_noise"] = r.delta && r.delta->within_noise;
    runs.push_back(std::move(j));
  }
  return {{"metric", v.metric.name},          {"unit", v.metric.unit},
          {"basis", v.metric.basis},          {"label", v.label},
          {"baseline_runs", v.baseline_runs}, {"runs", runs}};
}

void WriteTrend(const TrendView& view, QueryFormat format, std::ostream& out,
                const std::string& out_name) {
  std::string text;
  switch (format) {
    case QueryFormat::kTable:
      text = RenderText(view);
      break;
    case QueryFormat::kJson:
      text = TrendToJson(view).dump(2) + "\n";
      break;
    case QueryFormat::kCsv: {
      std::ostringstream csv_text;
      CsvWriter csv(csv_text, out_name);
      csv.WriteRow({"run_id", "run", "label", "ingested_at", "n", "median", "min", "max", "change",
                    "change_pct", "noise_bound", "mark"});
      for (const TrendRow& r : view.rows) {
        auto num = [](const std::optional<double>& v) { return v ? FormatReal(*v) : ""; };
        const MetricDelta* d = r.delta ? &*r.delta : nullptr;
        csv.WriteRow(std::vector<std::string>{
            std::to_string(r.point.run_id), r.point.run, r.point.label, r.point.ingested_at,
            std::to_string(r.stats ? r.stats->n : 0),
            num(r.stats ? std::optional(r.stats->median) : std::nullopt),
            num(r.stats ? std::optional(r.stats->min) : std::nullopt),
            num(r.stats ? std::optional(r.stats->max) : std::nullopt),
            num(d ? d->change : std::nullopt), num(d ? d->change_pct : std::nullopt),
            num(d ? d->noise_bound : std::nullopt), MarkText(r)});
      }
      text = csv_text.str();
      break;
    }
  }
  out.write(text.data(), static_cast<std::streamsize>(text.size()));
  out.flush();
  if (!out) throw OutputError(out_name, "cannot write the trend");
}

}  // namespace htpscope
