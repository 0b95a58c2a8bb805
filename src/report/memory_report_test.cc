#include "report/memory_report.h"

#include <gtest/gtest.h>

#include "base/corpus_test_util.h"

namespace htpscope::memory_report_test {
namespace {

bool Contains(const std::string& haystack, std::string_view needle) {
  return haystack.find(needle) != std::string::npos;
}

TEST(MemoryReportCorpus, V8c8JsonAndText) {
  HTPSCOPE_REQUIRE_CORPUS("v8c8_256");
  htpscope::Run run = LoadRun({testing_support::CorpusRun("v8c8_256")});
  MemoryView m = AnalyzeMemory(run);
  nlohmann::json j = Materialize(MemoryJson(m));
  EXPECT_EQ(j["schema"], "htpscope.memory/1");
  EXPECT_EQ(j["peak_vtcm"]["peak_bytes"], 919552);
  EXPECT_EQ(j["peak_vtcm"]["peak_cycle"], 1668827901191);
  EXPECT_EQ(j["peak_vtcm"]["peak_offset_cycles"], 38323);
  EXPECT_EQ(j["peak_vtcm"]["source"], "optrace \"VTCM alloc\" counter");
  EXPECT_EQ(j["traffic_counters"].size(), 4u);
  EXPECT_EQ(j["totals"]["dram_read_bytes"], 591872);
  EXPECT_EQ(j["totals"]["vtcm_write_bytes"], 1640448);
  EXPECT_EQ(j["ops"].size(), 53u);  // every instance, not only the top N
  EXPECT_EQ(j["ops"][0]["op_id"], "0x0000104900000002");
  EXPECT_EQ(j["ops"][0]["category"], "boundary");
  EXPECT_EQ(j["qnn_ops"][0]["name"], "Input");
  EXPECT_EQ(j["qnn_ops"][0]["dram_dominant"], true);
  EXPECT_EQ(j["spill_fill"]["instances"], 0);
  EXPECT_EQ(j["spill_fill"]["dram_read_bytes"], 0);
  EXPECT_EQ(j["cross_checks"].size(), 6u);
  EXPECT_TRUE(j["missing"].empty());

  std::string text = RenderMemoryText(m, 3);
  EXPECT_TRUE(Contains(text,
                       "  peak 919,552 bytes (898.0 KiB) at cycle 1,668,827,901,191 (38,323 cycles "
                       "into the execution)"))
      << text;
  EXPECT_TRUE(Contains(text, "QNN ops by DRAM bytes (top 3 of 13):")) << text;
  EXPECT_TRUE(Contains(text, "HTP op instances by DRAM bytes (top 3 of 53):")) << text;
  EXPECT_TRUE(Contains(text,
                       "[agree] peak VTCM allocation: optrace max \"VTCM alloc\" counter 919,552 = "
                       "QHAS peak_vtcm_alloc 919,552\n"))
      << text;
  EXPECT_TRUE(Contains(text, "none: no HTP op type contains \"Spill\" or \"Fill\"")) << text;
}

TEST(MemoryReport, NoDataAtAll) {
  htpscope::Run run;
  run.label = "empty";
  MemoryView m;
  m.run = &run;
  nlohmann::json j = Materialize(MemoryJson(m));
  EXPECT_TRUE(j["peak_vtcm"].is_null());
  EXPECT_TRUE(j["totals"].is_null());
  EXPECT_TRUE(j["spill_fill"].is_null());
  EXPECT_TRUE(j["traffic_source"].is_null());
  std::string text = RenderMemoryText(m, 10);
  EXPECT_TRUE(Contains(text, "no VTCM allocation data")) << text;
}

}  // namespace
}  // namespace htpscope::memory_report_test
