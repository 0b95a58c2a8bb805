#include "report/gate_report.h"

#include "report/json_values.h"

namespace htpscope {

using json = nlohmann::json;

json DeltaJson(const MetricDelta& d) {
  return json{{"a", OptionalJson(d.a_value())},
              {"b", OptionalJson(d.b_value())},
              {"change", OptionalJson(d.change)},
              {"change_pct", OptionalJson(d.change_pct)},
              {"unit", d.unit},
              {"basis", d.basis},
              {"a_stats", StatsJson(d.a)},
              {"b_stats", StatsJson(d.b)},
              {"noise_bound", OptionalJson(d.noise_bound)},
              {"within_noise", d.within_noise}};
}

json GatesJson(const std::vector<GateResult>& gates) {
  json out = json::array();
  for (const auto& g : gates) {
    json exceeded = json::array();
    for (const auto& e : g.exceeded)
      exceeded.push_back({{"subject", e.subject},
                          {"change", e.change},
                          {"change_pct", OptionalJson(e.change_pct)},
                          {"noise_bound", OptionalJson(e.noise_bound)},
                          {"within_noise", e.within_noise}});
    out.push_back({{"expr", g.expr},
                   {"passed", g.passed},
                   {"within_noise", g.within_noise},
                   {"evaluated", g.evaluated},
                   {"compared", g.compared},
                   {"exceeded", exceeded},
                   {"skipped", g.skipped},
                   {"detail", g.detail}});
  }
  return out;
}

std::string GateMark(const GateResult& g) {
  if (!g.evaluated) return "ERROR";
  if (!g.passed) return "FAIL";
  return g.within_noise ? "NOISE" : "PASS";
}

}  // namespace htpscope
