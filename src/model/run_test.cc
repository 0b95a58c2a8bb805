#include "model/run.h"

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "base/corpus_test_util.h"
#include "base/errors.h"

namespace htpscope {
namespace {

namespace fs = std::filesystem;

TEST(LoadRun, CorpusV8c8DirectoryByContent) {
  HTPSCOPE_REQUIRE_CORPUS("v8c8_256");
  htpscope::Run run = LoadRun({testing_support::CorpusRun("v8c8_256")});
  EXPECT_TRUE(run.Has(ArtifactType::kOptrace) && run.Has(ArtifactType::kRuntrace) &&
              run.Has(ArtifactType::kHtpGraph) && run.Has(ArtifactType::kQhas) && run.HasProfile());
  EXPECT_EQ(run.artifacts.size(), 5u);
  // The viewer config (JSON without a header) and the console log are not artifacts.
  ASSERT_EQ(run.skipped.size(), 2u);
  EXPECT_NE(run.skipped[0].find("_optrace_config.json: JSON that is not a run artifact"),
            std::string::npos);
  EXPECT_NE(run.skipped[1].find("optrace_run.log: not a recognised profiling artifact"),
            std::string::npos);
  EXPECT_EQ(run.op_instances.size(), 53u);
}

TEST(LoadRun, CorpusRecognisesArtifactsWhateverTheirNames) {
  HTPSCOPE_REQUIRE_CORPUS("native_256");
  std::string dir = testing_support::TempDir("renamed");
  fs::copy_file(testing_support::CorpusFile("native_256", "chrometrace_runtrace.json"),
                dir + "/a.json");
  fs::copy_file(testing_support::CorpusFile("native_256", "chrometrace.json"), dir + "/b.txt");
  htpscope::Run run = LoadRun({dir + "/b.txt", dir + "/a.json"});
  EXPECT_TRUE(run.Has(ArtifactType::kOptrace));
  EXPECT_TRUE(run.Has(ArtifactType::kRuntrace));
  EXPECT_FALSE(run.Has(ArtifactType::kQhas));
  EXPECT_EQ(run.op_instances.size(), 99u);
}

TEST(LoadRun, CorpusTwoTracesInOneDirectoryIsAnError) {
  HTPSCOPE_REQUIRE_CORPUS("native_256");
  std::string dir = testing_support::TempDir("twotraces");
  fs::copy_file(testing_support::CorpusFile("native_256", "chrometrace.json"), dir + "/one.json");
  fs::copy_file(testing_support::CorpusFile("v8c8_256", "chrometrace.json"), dir + "/two.json");
  try {
    LoadRun({dir});
    FAIL() << "two optraces accepted";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("a second optrace (OP_TRACE) artifact"), std::string::npos)
        << e.what();
  }
}

TEST(LoadRun, NamedFileThatIsNoArtifactIsAnError) {
  std::string dir = testing_support::TempDir("notartifact");
  std::ofstream(dir + "/notes.txt") << "just some notes\n";
  EXPECT_THROW(LoadRun({dir + "/notes.txt"}), InputError);
  EXPECT_THROW(LoadRun({dir + "/missing"}), InputError);
  // In a directory it is skipped, and the run is simply empty.
  htpscope::Run run = LoadRun({dir});
  EXPECT_EQ(run.skipped.size(), 1u);
  EXPECT_FALSE(run.Has(ArtifactType::kOptrace));
}

}  // namespace
}  // namespace htpscope

namespace htpscope {
namespace {

// A QHAS published with its op lists trimmed (10 of 86 QNN nodes listed,
// no HTP op instances, no dominant path) while htp_overall_summary is whole:
// Σ htp_resources cycles_used = 3,756,198.
std::string TrimmedQhas() {
  std::string rows;
  for (int i = 0; i < 10; ++i)
    rows += fmt::format(R"({}{{"qnn_op": "conv_{}", "qnn_op_type": "Conv2d", "cycles": {}, )"
                        R"("num_dominant_path_cycles_htp_0": {}, "num_htp_ops": 34}})",
                        i ? ", " : "", i, 190000 + i, 54850 + i);
  return fmt::format(R"({{"header": {{"artifact_type": "QHAS"}}, "data": {{
  "htp_overall_summary": {{"data": [{{"htp": 0, "percent_idle": 2.5, "time_us": 1500,
    "graph_execute_us": 1132, "timeline_cycles": 1582526, "peak_vtcm_alloc": 4194304,
    "qnn_nodes": 86, "htp_nodes": 1481,
    "htp_resources": {{"data": [
      {{"type": "HMX", "tid": 256, "cycles_used": 1000000}},
      {{"type": "HVX", "tid": 512, "cycles_used": 700000}},
      {{"type": "HVX", "tid": 513, "cycles_used": 690000}},
      {{"type": "HVX", "tid": 514, "cycles_used": 683198}},
      {{"type": "HVX", "tid": 515, "cycles_used": 683000}}]}}}}]}},
  "qnn_op_instances_nodes": {{"data": [{}]}},
  "htp_op_instances": {{"data": []}},
  "dominant_path_htp_0": {{"data": []}}}}}})",
                     rows);
}

TEST(LoadRun, PartialQhasGivesWholeGraphFiguresFromTheOverallRow) {
  std::string dir = testing_support::TempDir("partialqhas");
  std::ofstream(dir + "/qhas.json") << TrimmedQhas();
  htpscope::Run run = LoadRun({dir + "/qhas.json"});
  const RunFigures& f = run.figures;
  EXPECT_EQ(f.fine_source, Source::kQhas);
  ASSERT_FALSE(run.qhas_cores.empty());
  EXPECT_FALSE(run.qhas_cores[0].lists_complete);
  // Whole-graph work: Σ htp_resources cycles_used, not Σ of the 10 listed rows.
  EXPECT_EQ(f.work_cycles, 3756198);
  EXPECT_EQ(f.work_source, Source::kQhas);
  EXPECT_EQ(f.graph_wall_cycles, 1582526);
  // Dominant path: timeline × (1 − 2.5 %) = 1,542,962.85.
  EXPECT_EQ(f.dpc_sum_cycles, 1542963);
  EXPECT_EQ(f.dpc_basis, DpcBasis::kQhas);
  EXPECT_FALSE(f.op_instances.has_value());  // the file does not say how many
  EXPECT_EQ(f.domain_cycles, 1000000);
  ASSERT_EQ(run.qnn_ops.size(), 10u);
  EXPECT_EQ(run.Str(run.qnn_ops[0].name), "conv_9");  // the most DPC first
  bool flagged = false;
  for (const auto& w : run.warnings)
    if (w.code == "partial_qhas") {
      flagged = true;
      EXPECT_NE(w.message.find("10 of 86 QNN nodes"), std::string::npos) << w.message;
    }
  EXPECT_TRUE(flagged);
}

}  // namespace
}  // namespace htpscope
