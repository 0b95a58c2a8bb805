#include "analysis/heap.h"

#include <gtest/gtest.h>

#include <fstream>

#include "base/corpus_test_util.h"

namespace htpscope::heap_test {
namespace {

bool Contains(const std::string& haystack, std::string_view needle) {
  return haystack.find(needle) != std::string::npos;
}

// The heap usage of a file holding `text`, read as the heap command reads it.
HeapUsage AnalyzeText(const std::string& name, const std::string& text) {
  std::string path = testing_support::TempDir("heap_text") + "/" + name;
  std::ofstream(path, std::ios::binary) << text;
  return AnalyzeHeap(LoadHeapFile(path));
}

HeapUsage Analyze(const std::string& text) { return AnalyzeText("heap.txt", text); }

TEST(Heap, DeltaOfAValidFile) {
  // The reference pair from ExecuTorch's backend README (SM8850): no growth.
  HeapUsage u = Analyze(
      "DSP:before_context_created (bytes), 928212\nDSP:after_context_freed (bytes), 928212\n");
  EXPECT_TRUE(u.ok());
  EXPECT_EQ(u.format, "ExecuTorch heap file");
  ASSERT_TRUE(u.before && u.after);
  EXPECT_EQ(u.before->value_bytes, 928212);
  EXPECT_EQ(u.after->value_bytes, 928212);
  EXPECT_EQ(u.delta_bytes, 0);
  EXPECT_FALSE(u.heap_released());

  u = Analyze(
      "DSP:before_context_created (bytes), 928212\nDSP:after_context_freed (bytes), 1060864\n");
  EXPECT_EQ(u.delta_bytes, 132652);  // 1060864 − 928212
}

TEST(Heap, NegativeDeltaIsHeapReleasedNotAnError) {
  HeapUsage u =
      Analyze("DSP:before_context_created (bytes), 1000\nDSP:after_context_freed (bytes), 600\n");
  EXPECT_TRUE(u.ok());
  EXPECT_EQ(u.delta_bytes, -400);
  EXPECT_TRUE(u.heap_released());
}

TEST(Heap, MissingCheckpointWithholdsTheDelta) {
  HeapUsage u = Analyze("DSP:before_context_created (bytes), 1000\n");
  EXPECT_FALSE(u.ok());
  ASSERT_TRUE(u.before);
  EXPECT_EQ(u.before->value_bytes, 1000);  // what the file supports is still given
  EXPECT_FALSE(u.after);
  EXPECT_FALSE(u.delta_bytes);
  ASSERT_EQ(u.problems.size(), 1u);
  EXPECT_TRUE(Contains(u.problems[0], "missing DSP:after_context_freed")) << u.problems[0];

  u = Analyze("DSP:after_context_freed (bytes), 1000\n");
  ASSERT_EQ(u.problems.size(), 1u);
  EXPECT_TRUE(Contains(u.problems[0], "missing DSP:before_context_created")) << u.problems[0];
}

TEST(Heap, DuplicateCheckpointIsAmbiguous) {
  HeapUsage u = Analyze(
      "DSP:before_context_created (bytes), 1000\nDSP:after_context_freed (bytes), 1200\n"
      "DSP:before_context_created (bytes), 1100\n");
  EXPECT_FALSE(u.ok());
  EXPECT_FALSE(u.before);
  ASSERT_TRUE(u.after);
  EXPECT_EQ(u.after->value_bytes, 1200);
  EXPECT_FALSE(u.delta_bytes);
  ASSERT_EQ(u.problems.size(), 1u);
  EXPECT_TRUE(
      Contains(u.problems[0], "DSP:before_context_created appears 2 times (line 1, line 3)"))
      << u.problems[0];
}

TEST(Heap, WrongOrderKeepsValuesWithholdsDelta) {
  HeapUsage u = Analyze(
      "DSP:after_context_freed (bytes), 928212\nDSP:before_context_created (bytes), 900000\n");
  EXPECT_FALSE(u.ok());
  ASSERT_TRUE(u.before && u.after);
  EXPECT_EQ(u.before->value_bytes, 900000);
  EXPECT_EQ(u.after->value_bytes, 928212);
  EXPECT_FALSE(u.delta_bytes);
  ASSERT_EQ(u.problems.size(), 1u);
  EXPECT_TRUE(Contains(u.problems[0], "(line 1) comes before")) << u.problems[0];
}

TEST(Heap, WrongOrderInJsonByByteOffset) {
  std::string json = R"({"header": {"artifact_type": "QNN_PROFILE"}, "messages": [
    {"method": "BACKEND_DEINIT", "profilingEvents": [
      {"identifier": "DSP:after_context_freed", "unit": "BYTES", "value": 5}]},
    {"method": "BACKEND_CREATE_FROM_BINARY", "profilingEvents": [
      {"identifier": "DSP:before_context_created", "unit": "BYTES", "value": 4}]}]})";
  HeapUsage u = AnalyzeText("p.json", json);
  ASSERT_EQ(u.problems.size(), 1u);
  EXPECT_TRUE(Contains(u.problems[0], "comes before")) << u.problems[0];
  EXPECT_TRUE(Contains(u.problems[0], "byte ")) << u.problems[0];
  EXPECT_FALSE(u.delta_bytes);
}

TEST(Heap, ReadErrorBecomesTheFilesProblem) {
  std::string dir = testing_support::TempDir("heap_analysis");
  std::string bad = dir + "/bad.txt";
  std::ofstream(bad)
      << "DSP:before_context_created (bytes), 1\nDSP:after_context_freed (bytes), x\n";
  HeapUsage u = ReadAndAnalyzeHeap(bad);
  EXPECT_EQ(u.path, bad);
  EXPECT_FALSE(u.format);
  EXPECT_FALSE(u.before);
  ASSERT_EQ(u.problems.size(), 1u);
  EXPECT_TRUE(Contains(u.problems[0], "line 2: ")) << u.problems[0];
  EXPECT_TRUE(Contains(u.problems[0], "not a whole number of bytes")) << u.problems[0];

  HeapUsage missing = ReadAndAnalyzeHeap(dir + "/absent.txt");
  ASSERT_EQ(missing.problems.size(), 1u);
}

}  // namespace
}  // namespace htpscope::heap_test
