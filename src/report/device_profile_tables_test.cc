#include "report/device_profile_tables.h"

#include <gtest/gtest.h>

#include <set>
#include <string>
#include <vector>

#include "model/figures.h"

namespace htpscope::device_profile_tables_test {
namespace {

// `trend --metric` follows exactly the registry's device figures marked
// trend, named, united and described as the registry says, in the order
// trend's help lists them.
TEST(DeviceProfileTrend, MetricsAreTheRegistrysTrendFigures) {
  std::vector<std::string> names;
  std::set<std::string> followed;
  for (const TrendMetric& m : DeviceProfileTrendMetrics()) {
    names.push_back(m.name);
    followed.insert(m.name);
    const DeviceFigureInfo* f = FindDeviceFigure(m.name);
    ASSERT_NE(f, nullptr) << m.name << " is not in model/figures.cc";
    EXPECT_TRUE(f->trend) << m.name;
    EXPECT_EQ(m.unit, f->unit) << m.name;
    EXPECT_EQ(m.basis, f->description) << m.name;
    EXPECT_NE(DeviceProfileTrendSql(m.name), "") << m.name;
  }
  EXPECT_EQ(names, (std::vector<std::string>{
                       "inference_us", "cold_inference_us", "estimated_inference_us",
                       "npu_time_pct", "fallback_layers", "ttft_us", "cold_ttft_us", "token_rate",
                       "prompt_rate", "decode_token_rate", "prefill_token_rate"}));
  for (const DeviceFigureInfo& f : DeviceFigures())
    EXPECT_EQ(followed.contains(f.name), f.trend) << f.name;
  EXPECT_EQ(DeviceProfileTrendSql("query_us"), "");  // a device figure trend does not follow
  EXPECT_EQ(DeviceProfileTrendSql("wall_us"), "");   // a run-level figure: run_store's query
}

// Time to first token is one trend of Genie's queries and a runner's
// generations, read from the column of that name in both tables.
TEST(DeviceProfileTrend, TtftReadsBothTablesColumnOfItsName) {
  const std::string sql = DeviceProfileTrendSql("ttft_us");
  EXPECT_NE(sql.find("SELECT ttft_us FROM genie_events e"), std::string::npos) << sql;
  EXPECT_NE(sql.find("SELECT ttft_us FROM llm_generations g"), std::string::npos) << sql;
  EXPECT_NE(sql.find(" UNION ALL "), std::string::npos) << sql;
  const std::string cold = DeviceProfileTrendSql("cold_ttft_us");
  EXPECT_NE(cold.find("SELECT ttft_us FROM genie_events WHERE run_id = ?1 AND query_index = 1 "
                      "AND ttft_us IS NOT NULL ORDER BY event_id"),
            std::string::npos)
      << cold;
  EXPECT_NE(cold.find("SELECT ttft_us FROM llm_generations WHERE run_id = ?1 AND "
                      "generation_index = 1 AND ttft_us IS NOT NULL"),
            std::string::npos)
      << cold;
}

// The columns holding one query's or generation's value of a device figure
// are named as the figure.
TEST(DeviceProfileTables, ColumnsOfADeviceFigureAreNamedAsIt) {
  std::vector<RunTable> tables;
  AppendDeviceProfileTables(tables);
  auto columns = [&tables](const std::string& table) {
    std::set<std::string> out;
    for (const RunTable& t : tables)
      if (t.name == table)
        for (const TableColumn& c : t.columns) out.insert(c.name);
    return out;
  };
  EXPECT_TRUE(columns("genie_events").contains(DeviceFigureName(DeviceFigure::kTtftUs)));
  const std::set<std::string> generations = columns("llm_generations");
  for (DeviceFigure f : {DeviceFigure::kTtftUs, DeviceFigure::kPrefillUs, DeviceFigure::kDecodeUs,
                         DeviceFigure::kModelLoadUs, DeviceFigure::kGpuPeakUsageMb})
    EXPECT_TRUE(generations.contains(DeviceFigureName(f))) << DeviceFigureName(f);
}

}  // namespace
}  // namespace htpscope::device_profile_tables_test
