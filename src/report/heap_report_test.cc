#include "report/heap_report.h"

#include <gtest/gtest.h>

#include <fstream>

#include "base/corpus_test_util.h"

namespace htpscope::heap_report_test {
namespace {

bool Contains(const std::string& haystack, std::string_view needle) {
  return haystack.find(needle) != std::string::npos;
}

// The heap usage of a file `name` holding `text` (the usage names its path).
HeapUsage Usage(const std::string& name, const std::string& text) {
  HeapFile file;
  file.path = name;
  file.format = "ExecuTorch heap file";
  std::string dir = testing_support::TempDir("heap_report");
  std::ofstream(dir + "/" + name, std::ios::binary) << text;
  HeapFile read = LoadHeapFile(dir + "/" + name);
  file.checkpoints = std::move(read.checkpoints);
  return AnalyzeHeap(file);
}

std::vector<HeapUsage> ThreeRuns() {
  return {Usage("a.txt",
                "DSP:before_context_created (bytes), 928212\n"
                "DSP:after_context_freed (bytes), 1060864\n"),
          Usage("b.txt",
                "DSP:before_context_created (bytes), 1060864\n"
                "DSP:after_context_freed (bytes), 928212\n"),
          Usage("c.txt", "DSP:before_context_created (bytes), 5\n")};
}

TEST(HeapReport, Json) {
  nlohmann::json j = HeapToJson(ThreeRuns());
  EXPECT_EQ(j["schema"], "htpscope.heap/1");
  ASSERT_EQ(j["runs"].size(), 3u);
  const auto& a = j["runs"][0];
  EXPECT_EQ(a["path"], "a.txt");
  EXPECT_EQ(a["format"], "ExecuTorch heap file");
  EXPECT_EQ(a["before_bytes"], 928212);
  EXPECT_EQ(a["after_bytes"], 1060864);
  EXPECT_EQ(a["delta_bytes"], 132652);
  EXPECT_EQ(a["heap_released"], false);
  EXPECT_EQ(a["before"]["identifier"], "DSP:before_context_created (bytes)");
  EXPECT_EQ(a["before"]["line"], 1);
  EXPECT_TRUE(a["before"]["byte_offset"].is_null());
  EXPECT_TRUE(a["problems"].empty());
  EXPECT_EQ(j["runs"][1]["delta_bytes"], -132652);
  EXPECT_EQ(j["runs"][1]["heap_released"], true);
  const auto& c = j["runs"][2];
  EXPECT_EQ(c["before_bytes"], 5);
  EXPECT_TRUE(c["after_bytes"].is_null());
  EXPECT_TRUE(c["delta_bytes"].is_null());
  EXPECT_TRUE(c["heap_released"].is_null());
  ASSERT_EQ(c["problems"].size(), 1u);
}

TEST(HeapReport, TextOneRowPerRun) {
  std::string text = RenderHeapText(ThreeRuns());
  EXPECT_TRUE(Contains(text, "928,212 (906.5 KiB)")) << text;
  EXPECT_TRUE(Contains(text, "+132,652 (+129.5 KiB)")) << text;
  EXPECT_TRUE(Contains(text, "-132,652 (-129.5 KiB) heap released")) << text;
  EXPECT_TRUE(Contains(text, "1 file(s) have problems")) << text;
  // c.txt: before shown, after and delta withheld.
  size_t row = text.find("  c.txt");
  ASSERT_NE(row, std::string::npos) << text;
  std::string line = text.substr(row, text.find('\n', row) - row);
  EXPECT_TRUE(Contains(line, "5 (5 B)")) << line;
  EXPECT_EQ(line.substr(line.size() - 1), "-") << line;
}

}  // namespace
}  // namespace htpscope::heap_report_test
