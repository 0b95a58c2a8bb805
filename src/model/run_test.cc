#include "model/run.h"

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "base/corpus_test_util.h"
#include "base/errors.h"
#include "formats/linting_example_test_util.h"
#include "model/fake_qhas_test_util.h"
#include "model/fake_run_test_util.h"

namespace htpscope::run_test {
namespace {

namespace fs = std::filesystem;

TEST(LoadRun, CorpusV8c8DirectoryByContent) {
  HTPSCOPE_REQUIRE_CORPUS("v8c8_256");
  htpscope::Run run = LoadRun({testing_support::CorpusRun("v8c8_256")});
  EXPECT_TRUE(run.Has(ArtifactKind::kOptrace) && run.Has(ArtifactKind::kRuntrace) &&
              run.Has(ArtifactKind::kHtpGraph) && run.Has(ArtifactKind::kQhas) && run.HasProfile());
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
  EXPECT_TRUE(run.Has(ArtifactKind::kOptrace));
  EXPECT_TRUE(run.Has(ArtifactKind::kRuntrace));
  EXPECT_FALSE(run.Has(ArtifactKind::kQhas));
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

// The files are read at the same time, but the error reported is the first
// file's in the order given, as reading one after another would report it.
TEST(LoadRun, FirstFilesErrorWinsThoughFilesAreReadTogether) {
  std::string dir = testing_support::TempDir("errororder");
  const std::string optrace = dir + "/broken_optrace.json";
  const std::string qhas = dir + "/broken_qhas.json";
  std::ofstream(optrace) << R"({"header": {"artifact_type": "OP_TRACE"}, "traceEvents": [{"ph": )";
  std::ofstream(qhas) << R"({"header": {"artifact_type": "QHAS"}, "data": {"htp_op_instances": )";
  std::ofstream(dir + "/notes.txt") << "just some notes\n";
  for (const auto& [files, expected] :
       std::vector<std::pair<std::vector<std::string>, std::string>>{
           {{optrace, qhas}, optrace},
           {{qhas, optrace}, qhas},
           {{optrace, dir + "/notes.txt"}, optrace},
           {{dir + "/notes.txt", optrace}, dir + "/notes.txt"}}) {
    try {
      LoadRun(files);
      ADD_FAILURE() << "broken files accepted";
    } catch (const InputError& e) {
      EXPECT_EQ(e.file(), expected) << e.what();
    }
  }
}

// Each artifact row keeps its file's place and the version its reader found.
TEST(LoadRun, CorpusArtifactRowsInFileOrderWithTheirVersions) {
  HTPSCOPE_REQUIRE_CORPUS("v8c8_256");
  const std::string qhas =
      testing_support::CorpusFile("v8c8_256", "chrometrace_qnn_htp_analysis_summary.json");
  const std::string optrace = testing_support::CorpusFile("v8c8_256", "chrometrace.json");
  const std::string profile = testing_support::CorpusFile("v8c8_256", "profile_text.txt");
  htpscope::Run run = LoadRun({qhas, profile, optrace});
  ASSERT_EQ(run.artifacts.size(), 3u);
  EXPECT_EQ(run.artifacts[0].path, qhas);
  EXPECT_EQ(run.artifacts[0].type, ArtifactKind::kQhas);
  EXPECT_EQ(run.artifacts[0].version, "1.0.0");
  EXPECT_EQ(run.artifacts[1].path, profile);
  EXPECT_EQ(run.artifacts[1].version, "v2.45.0.260326154327");
  EXPECT_EQ(run.artifacts[1].backend_version, "v2.45.0.260326154327");
  EXPECT_EQ(run.artifacts[2].path, optrace);
  EXPECT_EQ(run.artifacts[2].type, ArtifactKind::kOptrace);
  EXPECT_EQ(run.artifacts[2].version, "1.1.0");
}

TEST(LoadRun, NamedFileThatIsNoArtifactIsAnError) {
  std::string dir = testing_support::TempDir("notartifact");
  std::ofstream(dir + "/notes.txt") << "just some notes\n";
  EXPECT_THROW(LoadRun({dir + "/notes.txt"}), InputError);
  EXPECT_THROW(LoadRun({dir + "/missing"}), InputError);
  // In a directory it is skipped; a run of nothing else is an error.
  try {
    LoadRun({dir});
    FAIL() << "a run without artifacts was read";
  } catch (const InputError& e) {
    EXPECT_EQ(e.file(), dir);
    EXPECT_EQ(e.problem(), "no profiling artifact among the 1 file(s) read (skipped " + dir +
                               "/notes.txt: not a recognised profiling artifact)");
  }
}

}  // namespace
}  // namespace htpscope::run_test

namespace htpscope::run_test {
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
    if (w.code == WarningCode::partial_qhas) {
      flagged = true;
      EXPECT_NE(w.message.find("10 of 86 QNN nodes"), std::string::npos) << w.message;
    }
  EXPECT_TRUE(flagged);
}

// QHAS traffic per op: an op's rows (one per thread) need not follow each
// other; its row sums them all, takes its names from its first row, and
// the ops come in order of their first rows.
TEST(LoadRun, QhasTrafficSumsEachOpsRowsWhereverTheyAre) {
  using testing_support::FakeQhasInstance;
  std::vector<FakeQhasInstance> rows = {
      {0x20, "Conv", "conv_a", "hvx", 512, 0, 100, 0, 1000, 10},
      {0x10, "Add", "add_b", "hvx", 512, 100, 50, 0, 200, 20},
      {0x20, "Conv", "conv_a", "hvx", 513, 0, 90, 0, 3000, 30},  // conv_a's second thread
      {0x10, "Add", "add_b", "hvx", 513, 100, 40, 0, 400, 40},
      {0x20, "Conv", "conv_a", "hvx", 514, 5, 80, 0, 5000, 50},
  };
  htpscope::Run run = testing_support::FakeRun(
      "", "", testing_support::FakeQhasJson({{0, 1000, 0, {{"HVX", 512, 360}}, {}}}, rows));
  ASSERT_EQ(run.traffic_source, Source::kQhas);
  ASSERT_EQ(run.traffic.size(), 2u);
  EXPECT_EQ(run.traffic[0].op_id, 0x20u);
  EXPECT_EQ(run.Str(run.traffic[0].qnn_op_name), "conv_a");
  EXPECT_EQ(run.traffic[0].dram_read_bytes, 9000);
  EXPECT_EQ(run.traffic[0].vtcm_read_bytes, 90);
  EXPECT_EQ(run.traffic[0].cycles, 270);
  EXPECT_EQ(run.traffic[1].op_id, 0x10u);
  EXPECT_EQ(run.Str(run.traffic[1].qnn_op_name), "add_b");
  EXPECT_EQ(run.traffic[1].dram_read_bytes, 600);
  EXPECT_EQ(run.traffic[1].vtcm_read_bytes, 60);
  EXPECT_EQ(run.traffic[1].cycles, 90);
}

// The HTP graph's mem_* params against QHAS, node by node: each node's
// bytes against its op's rows summed (one row per thread).
TEST(LoadRun, GraphNodeTrafficIsComparedWithEachOpsSummedQhasRows) {
  using testing_support::FakeQhasInstance;
  std::vector<FakeQhasInstance> rows = {
      {0x20, "Conv", "conv_a", "hvx", 512, 0, 100, 0, 1000, 10},
      {0x10, "Add", "add_b", "hvx", 512, 100, 50, 0, 200, 20},
      {0x20, "Conv", "conv_a", "hvx", 513, 0, 90, 0, 8000, 80},
      {0x10, "Add", "add_b", "hvx", 513, 100, 40, 0, 400, 40},
  };
  std::string graph = testing_support::HtpGraphJson(
      {{0x20, "Conv", "conv_a", {}}, {0x10, "Add", "add_b", {}}, {0x30, "Mul", "mul_c", {}}}, {});
  auto with_traffic = [&](const char* name, int dram_read, int vtcm_read) {
    const std::string plain = fmt::format(R"("qnn_op_name": {{"1544": "{}"}})", name);
    const size_t at = graph.find(plain);
    ASSERT_NE(at, std::string::npos) << name;
    graph.replace(at, plain.size(),
                  plain + fmt::format(R"(, "mem_dram_read": {{"100": {}}}, )"
                                      R"("mem_dram_write": {{"100": 0}}, )"
                                      R"("mem_vtcm_read": {{"100": {}}}, )"
                                      R"("mem_vtcm_write": {{"100": 0}})",
                                      dram_read, vtcm_read));
  };
  with_traffic("conv_a", 9000, 90);  // QHAS: 1000 + 8000, 10 + 80
  with_traffic("add_b", 601, 60);    // QHAS: 600, 60
  with_traffic("mul_c", 5, 5);       // no QHAS rows: not compared
  htpscope::Run run = testing_support::FakeRun(
      "", graph, testing_support::FakeQhasJson({{0, 1000, 0, {{"HVX", 512, 280}}, {}}}, rows));
  const CrossCheckRow* nodes = nullptr;
  for (const auto& c : run.cross_checks)
    if (c.name == "per-op traffic of HTP graph nodes") nodes = &c;
  ASSERT_NE(nodes, nullptr);
  EXPECT_EQ(nodes->a, 1);  // nodes whose mem_* equal QHAS
  EXPECT_EQ(nodes->b, 2);  // nodes compared
  EXPECT_FALSE(nodes->agree);
}

// The profile's per-node cycles of execution 1 against QHAS's per-QNN-op
// cycles (compared beside the join's other steps): v8c8_256 agrees on all
// 12 nodes QHAS lists; one node's cycles changed in a copy of its profile
// makes it 11 of 12, the node named in the note.
TEST(LoadRun, CorpusProfileNodesAgainstQhasNameTheNodeThatDiffers) {
  HTPSCOPE_REQUIRE_CORPUS("v8c8_256");
  auto nodes_check = [](const htpscope::Run& run) -> const CrossCheckRow* {
    for (const auto& c : run.cross_checks)
      if (c.name == "execution 1 node cycles equal to QHAS") return &c;
    return nullptr;
  };
  const std::string qhas =
      testing_support::CorpusFile("v8c8_256", "chrometrace_qnn_htp_analysis_summary.json");
  const std::string profile = testing_support::CorpusFile("v8c8_256", "profile_text.txt");
  htpscope::Run run = LoadRun({profile, qhas});
  const CrossCheckRow* check = nodes_check(run);
  ASSERT_NE(check, nullptr);
  EXPECT_EQ(check->a, 12);
  EXPECT_EQ(check->b, 12);
  EXPECT_TRUE(check->agree);

  std::ifstream in(profile, std::ios::binary);
  std::string text((std::istreambuf_iterator<char>(in)), {});
  const std::string line = "bbb_indep0:OpId_19 (cycles) : 87938  cycles";
  const size_t at = text.find(line);
  ASSERT_NE(at, std::string::npos);
  text.replace(at, line.size(), "bbb_indep0:OpId_19 (cycles) : 87000  cycles");
  const std::string dir = testing_support::TempDir("nodes_vs_qhas");
  std::ofstream(dir + "/profile_text.txt", std::ios::binary) << text;
  run = LoadRun({dir + "/profile_text.txt", qhas});
  check = nodes_check(run);
  ASSERT_NE(check, nullptr);
  EXPECT_EQ(check->a, 11);
  EXPECT_EQ(check->b, 12);
  EXPECT_FALSE(check->agree);
  EXPECT_NE(check->note.find("profile 87000 vs QHAS 87938"), std::string::npos) << check->note;
  EXPECT_NE(check->note.find("bbb_indep0"), std::string::npos) << check->note;
}

// ONNX Runtime's QNN EP CSV (execution 1: 3,755,250 work cycles, 1,132 µs
// excluding wait) with the QHAS of the same session (Σ cycles_used
// 3,756,198; graph_execute_us 1132; timeline 1,582,526 cycles).
TEST(LoadRun, OrtCsvWithItsQhasIsCrossCheckedAndGivesTheClock) {
  std::string dir = testing_support::TempDir("ortqhas");
  std::ofstream(dir + "/qhas.json") << TrimmedQhas();
  htpscope::Run run =
      LoadRun({testing_support::ProfileTestdata("ort_qnn_ep_resnet50.csv"), dir + "/qhas.json"});
  const CrossCheckRow* work = nullptr;
  const CrossCheckRow* time = nullptr;
  for (const auto& c : run.cross_checks) {
    if (c.name == "execution 1 work cycles vs QHAS") work = &c;
    if (c.name == "execution 1 graph execute time vs QHAS") time = &c;
  }
  ASSERT_TRUE(work && time);
  EXPECT_EQ(work->a, 3755250);
  EXPECT_EQ(work->b, 3756198);
  EXPECT_TRUE(work->agree);  // 948 cycles apart: 0.025 %, within 0.5 %
  EXPECT_EQ(time->a, 1132);
  EXPECT_EQ(time->b, 1132);
  EXPECT_TRUE(time->agree);
  // 1,582,526 cycles ÷ 1,132 µs = 1.39799 GHz.
  ASSERT_TRUE(run.figures.qhas_clock_ghz);
  EXPECT_NEAR(*run.figures.qhas_clock_ghz, 1.39799, 1e-5);
}

}  // namespace
}  // namespace htpscope::run_test
