#include "formats/profile_text.h"

#include <fmt/format.h>
#include <gtest/gtest.h>
#include <unistd.h>
#include <zlib.h>

#include <cstdint>
#include <filesystem>
#include <numeric>
#include <optional>
#include <string>
#include <vector>

#include "base/errors.h"
#include "base/test_paths.h"
#include "formats/byte_source.h"
#include "formats/linting_example_test_util.h"
#include "formats/profile_text_test_util.h"

namespace htpscope::profile_text_test {
namespace {

using testing_support::Contains;
using testing_support::FindNode;
using testing_support::kLintingLayoutExample;
using testing_support::Lint;
using testing_support::NodeSum;
using testing_support::Value;

constexpr char kPath[] = "profile.txt";

std::string CorpusFile(const std::string& relative) {
  return std::string(HTPSCOPE_SOURCE_DIR) + "/../shared/corpus/qcom_htp/" + relative;
}

#define SKIP_UNLESS_EXISTS(path)                           \
  do {                                                     \
    if (!std::filesystem::exists(path)) {                  \
      GTEST_SKIP() << "corpus file not found: " << (path); \
    }                                                      \
  } while (false)

std::optional<InputError> TextError(std::string_view text) {
  try {
    ParseProfileText(kPath, text);
  } catch (const InputError& e) {
    return e;
  }
  return std::nullopt;
}

// ---------------------------------------------------------------------------
// Real files.

TEST(ProfileTextCorpus, V8c8HeaderAndStatistics) {
  std::string path = CorpusFile("v8c8_256/profile_text.txt");
  SKIP_UNLESS_EXISTS(path);
  ProfileReport r = ReadProfileText(path);
  EXPECT_EQ(r.path, path);
  EXPECT_EQ(r.format, ProfileFormat::kText);
  EXPECT_EQ(r.viewer_version, "v2.45.0.260326154327");
  EXPECT_TRUE(r.warnings.empty()) << r.warnings.front();

  ASSERT_EQ(r.statistics.size(), 3u);
  const ProfileBlock& init = r.statistics[0];
  EXPECT_EQ(init.title, "Init Stats");
  EXPECT_EQ(init.first_line, 12);
  EXPECT_EQ(init.execution, 0);
  ASSERT_EQ(init.metrics.size(), 5u);
  EXPECT_EQ(init.metrics[0].name, "NetRun");
  EXPECT_EQ(init.metrics[0].source, "NetRun");
  EXPECT_EQ(init.metrics[0].value, 26695);
  EXPECT_EQ(init.metrics[0].unit, "us");
  EXPECT_EQ(init.metrics[1].name, "RPC (load binary) time");
  EXPECT_EQ(init.metrics[1].source, "Backend");
  EXPECT_EQ(init.metrics[1].value, 6696);
  EXPECT_EQ(Value(init, "QNN accelerator (load binary) time"), 6576);
  EXPECT_EQ(Value(init, "Accelerator (load binary) time"), 6318);
  EXPECT_EQ(Value(init, "QNN (load binary) time"), 26678);

  EXPECT_EQ(r.statistics[1].title, "Compose Graphs Stats");
  EXPECT_EQ(r.statistics[1].first_line, 20);
  ASSERT_EQ(r.statistics[1].metrics.size(), 1u);
  EXPECT_EQ(r.statistics[1].metrics[0].value, 0);
  EXPECT_TRUE(r.statistics[1].metrics[0].has_value);

  const ProfileBlock& deinit = r.statistics[2];
  EXPECT_EQ(deinit.title, "De-Init Stats");
  ASSERT_EQ(deinit.metrics.size(), 5u);
  EXPECT_EQ(Value(deinit, "NetRun"), 3997);
  EXPECT_EQ(Value(deinit, "RPC (deinit) time"), 963);
  // Printed with a capital A here only; Find is case-insensitive.
  const ProfileMetric* qnn_acc = deinit.Find("QNN accelerator (deinit) time");
  ASSERT_NE(qnn_acc, nullptr);
  EXPECT_EQ(qnn_acc->name, "QNN Accelerator (deinit) time");
  EXPECT_EQ(qnn_acc->value, 866);
  EXPECT_EQ(Value(deinit, "QNN (deinit) time"), 3983);

  ASSERT_EQ(r.raw.size(), 4u);  // Create From Binary Stats + 3 executions
  const ProfileBlock& create = r.raw[0];
  EXPECT_EQ(create.title, "Create From Binary Stats");
  EXPECT_EQ(create.first_line, 35);
  EXPECT_EQ(create.execution, 0);
  ASSERT_EQ(create.metrics.size(), 4u);
  EXPECT_EQ(create.metrics[0].name, "RPC (load binary) time");
  EXPECT_EQ(create.metrics[0].source, "");
  EXPECT_EQ(create.metrics[0].value, 6696);
  EXPECT_EQ(Value(create, "QNN (load binary) time"), 26678);
  EXPECT_TRUE(create.nodes.empty());
}

TEST(ProfileTextCorpus, V8c8Executions) {
  std::string path = CorpusFile("v8c8_256/profile_text.txt");
  SKIP_UNLESS_EXISTS(path);
  ProfileReport r = ReadProfileText(path);
  std::vector<const ProfileBlock*> ex = r.Executions();
  ASSERT_EQ(ex.size(), 3u);

  const int first_lines[] = {44, 86, 128};
  const double qnn_accelerator_us[] = {1409, 223, 208};
  const int64_t root_cycles[] = {317465, 150950, 170176};
  const double accelerator_us[] = {1037, 72, 65};
  const double qnn_execute_us[] = {4591, 2695, 2683};
  const double vtcm_us[] = {965, 118, 101};
  for (int i = 0; i < 3; ++i) {
    SCOPED_TRACE(i + 1);
    const ProfileBlock& b = *ex[i];
    EXPECT_EQ(b.title, "Execute Stat " + std::to_string(i + 1));
    EXPECT_EQ(b.execution, i + 1);
    EXPECT_EQ(b.first_line, first_lines[i]);
    EXPECT_EQ(b.graph, "");
    ASSERT_EQ(b.metrics.size(), 11u);
    EXPECT_EQ(Value(b, "QNN accelerator (execute) time"), qnn_accelerator_us[i]);
    const ProfileMetric* cycles = b.Find("Accelerator (execute) time (cycles)");
    ASSERT_NE(cycles, nullptr);
    EXPECT_EQ(cycles->value, root_cycles[i]);
    EXPECT_EQ(cycles->unit, "cycles");
    EXPECT_EQ(cycles->source, "");
    EXPECT_EQ(Value(b, "Accelerator (execute) time"), accelerator_us[i]);
    EXPECT_EQ(Value(b, "QNN (execute) time"), qnn_execute_us[i]);
    EXPECT_EQ(Value(b, "Time for initial VTCM acquire"), vtcm_us[i]);
    const ProfileMetric* threads = b.Find("Number of HVX threads used");
    ASSERT_NE(threads, nullptr);
    EXPECT_EQ(threads->value, 4);
    EXPECT_EQ(threads->unit, "count");
    EXPECT_EQ(Value(b, "Num times yield occured"), 0);
    const ProfileMetric* unknown = b.Find("Unknown event type");
    ASSERT_NE(unknown, nullptr);
    EXPECT_FALSE(unknown->has_value);
    EXPECT_EQ(unknown->unit, "object");

    EXPECT_EQ(b.nodes_parent, "Accelerator (execute) time (cycles)");
    ASSERT_EQ(b.nodes.size(), 28u);
    EXPECT_EQ(NodeSum(b), root_cycles[i]);
    for (const auto& n : b.nodes) EXPECT_FALSE(n.has_lint()) << n.label;
  }

  const ProfileBlock& first = *ex[0];
  const ProfileNode& input = first.nodes[0];
  EXPECT_EQ(input.label, "Input OpId_2");
  EXPECT_EQ(input.qnn_op_name, "Input");
  EXPECT_EQ(input.op_id, 2u);
  EXPECT_EQ(input.cycles, 130179);
  EXPECT_EQ(input.resource_tag, "");
  const ProfileNode& bare = first.nodes[2];
  EXPECT_EQ(bare.label, "OpId_17");
  EXPECT_EQ(bare.qnn_op_name, "");
  EXPECT_EQ(bare.op_id, 17u);
  EXPECT_EQ(bare.cycles, 8174);
  const ProfileNode& bbb0 = first.nodes[4];
  EXPECT_EQ(bbb0.label, "bbb_indep0:OpId_19");
  EXPECT_EQ(bbb0.qnn_op_name, "bbb_indep0");
  EXPECT_EQ(bbb0.op_id, 19u);
  EXPECT_EQ(bbb0.cycles, 87938);
  EXPECT_EQ(first.nodes.back().label, "Output OpId_3");
  EXPECT_EQ(first.nodes.back().cycles, 27733);
  const ProfileNode* bbb7 = FindNode(first, "bbb_indep7:OpId_40");
  ASSERT_NE(bbb7, nullptr);
  EXPECT_EQ(bbb7->cycles, 8815);
  EXPECT_EQ(FindNode(*ex[1], "bbb_indep0:OpId_19")->cycles, 9978);
  EXPECT_EQ(FindNode(*ex[1], "OpId_17")->cycles, 196);
  EXPECT_EQ(FindNode(*ex[2], "Input OpId_2")->cycles, 80956);
  EXPECT_EQ(FindNode(*ex[2], "Output OpId_3")->cycles, 22304);
}

TEST(ProfileTextCorpus, Native256) {
  std::string path = CorpusFile("native_256/profile_text.txt");
  SKIP_UNLESS_EXISTS(path);
  ProfileReport r = ReadProfileText(path);
  EXPECT_EQ(r.viewer_version, "v2.45.0.260326154327");
  EXPECT_TRUE(r.warnings.empty());
  ASSERT_EQ(r.statistics.size(), 3u);
  EXPECT_EQ(Value(r.statistics[0], "NetRun"), 17795);
  EXPECT_EQ(Value(r.statistics[0], "RPC (load binary) time"), 8480);
  EXPECT_EQ(Value(r.statistics[2], "QNN Accelerator (deinit) time"), 825);
  EXPECT_EQ(Value(r.raw[0], "QNN accelerator (load binary) time"), 8313);

  std::vector<const ProfileBlock*> ex = r.Executions();
  ASSERT_EQ(ex.size(), 3u);
  const int first_lines[] = {44, 84, 124};
  const double qnn_accelerator_us[] = {825, 201, 175};
  const int64_t root_cycles[] = {251974, 118273, 109134};
  const int64_t input_cycles[] = {19874, 20324, 21610};
  const int64_t output_cycles[] = {47682, 31640, 33152};
  for (int i = 0; i < 3; ++i) {
    SCOPED_TRACE(i + 1);
    const ProfileBlock& b = *ex[i];
    EXPECT_EQ(b.first_line, first_lines[i]);
    EXPECT_EQ(Value(b, "QNN accelerator (execute) time"), qnn_accelerator_us[i]);
    EXPECT_EQ(Value(b, "Accelerator (execute) time (cycles)"), root_cycles[i]);
    ASSERT_EQ(b.nodes.size(), 26u);
    EXPECT_EQ(NodeSum(b), root_cycles[i]);
    EXPECT_EQ(b.nodes.front().cycles, input_cycles[i]);
    EXPECT_EQ(b.nodes.back().cycles, output_cycles[i]);
  }
  const ProfileNode* matmul2 = FindNode(*ex[0], "MatMul_2:OpId_35");
  ASSERT_NE(matmul2, nullptr);
  EXPECT_EQ(matmul2->qnn_op_name, "MatMul_2");
  EXPECT_EQ(matmul2->op_id, 35u);
  EXPECT_EQ(matmul2->cycles, 67827);
  EXPECT_EQ(FindNode(*ex[0], "MatMul_0:OpId_25")->cycles, 39578);
  EXPECT_EQ(FindNode(*ex[0], "MatMul_0_pre_reshape:OpId_16")->cycles, 0);
  EXPECT_EQ(FindNode(*ex[1], "MatMul_1:OpId_30")->cycles, 7201);
  // The file does not end with a newline: its last line still counts.
  EXPECT_EQ(ex[2]->metrics.back().name, "QNN (execute) time");
  EXPECT_EQ(ex[2]->metrics.back().value, 2677);
}

TEST(ProfileTextCorpus, Chain8Archive) {
  std::string path = CorpusFile("chain8_archive/device_out_profile.txt");
  SKIP_UNLESS_EXISTS(path);
  ProfileReport r = ReadProfileText(path);
  EXPECT_EQ(r.viewer_version, "v2.45.0.260326154327");
  EXPECT_TRUE(r.warnings.empty());
  EXPECT_EQ(Value(r.statistics[0], "NetRun"), 24900);
  EXPECT_EQ(Value(r.statistics[0], "QNN (load binary) time"), 24883);
  EXPECT_EQ(Value(r.statistics[2], "NetRun"), 3449);
  std::vector<const ProfileBlock*> ex = r.Executions();
  ASSERT_EQ(ex.size(), 3u);
  const double qnn_accelerator_us[] = {1297, 157, 123};
  const int64_t root_cycles[] = {68365, 47827, 32837};
  const double power_on_us[] = {11947, 33, 9};
  for (int i = 0; i < 3; ++i) {
    SCOPED_TRACE(i + 1);
    const ProfileBlock& b = *ex[i];
    EXPECT_EQ(Value(b, "QNN accelerator (execute) time"), qnn_accelerator_us[i]);
    EXPECT_EQ(Value(b, "Accelerator (execute) time (cycles)"), root_cycles[i]);
    EXPECT_EQ(Value(b, "Time for HVX + HMX power on and acquire"), power_on_us[i]);
    ASSERT_EQ(b.nodes.size(), 12u);
    EXPECT_EQ(NodeSum(b), root_cycles[i]);
  }
  EXPECT_EQ(FindNode(*ex[0], "MatMul_0:OpId_18")->cycles, 32707);
  EXPECT_EQ(FindNode(*ex[0], "MatMul_3:OpId_30")->cycles, 7235);
  const ProfileNode* post = FindNode(*ex[0], "MatMul_7_post_reshape:OpId_49");
  ASSERT_NE(post, nullptr);
  EXPECT_EQ(post->qnn_op_name, "MatMul_7_post_reshape");
  EXPECT_EQ(post->op_id, 49u);
  EXPECT_EQ(post->cycles, 0);
  EXPECT_EQ(FindNode(*ex[2], "MatMul_7:OpId_46")->cycles, 2510);
}

TEST(ProfileTextCorpus, RecognisedByPrefix) {
  std::string path = CorpusFile("v8c8_256/profile_text.txt");
  SKIP_UNLESS_EXISTS(path);
  EXPECT_TRUE(LooksLikeProfileText(ReadPrefix(path, 4096)));
  EXPECT_FALSE(LooksLikeProfileCsv(ReadPrefix(path, 4096)));
  std::string json = CorpusFile("v8c8_256/chrometrace_runtrace.json");
  if (std::filesystem::exists(json)) {
    EXPECT_FALSE(LooksLikeProfileText(ReadPrefix(json, 4096)));
  }
}

// ---------------------------------------------------------------------------
// Constructed inputs.

// formats.md §5.1, second-hand statistics sections.
TEST(ProfileText, StatisticsSections) {
  ProfileReport r = ParseProfileText(kPath, R"(Execute Stats (Average):
--- Total Inference Time:
--- Graph 0 (model):
    NetRun:  2952 us
    Backend (Number of HVX threads used): 4 count
    Backend (QNN accelerator (execute) time): 2600 us
    Backend (Accelerator (execute) time (cycles)): 251974  cycles
Execute Stats (Overall):
---
    NetRun IPS:  214.8888 inf/sec
)");
  EXPECT_TRUE(r.warnings.empty());
  EXPECT_TRUE(r.raw.empty());
  EXPECT_TRUE(r.Executions().empty());
  ASSERT_EQ(r.statistics.size(), 2u);
  const ProfileBlock& avg = r.statistics[0];
  EXPECT_EQ(avg.title, "Execute Stats (Average)");
  EXPECT_EQ(avg.graph, "Graph 0 (model)");
  EXPECT_EQ(avg.first_line, 1);
  ASSERT_EQ(avg.metrics.size(), 4u);
  EXPECT_EQ(avg.metrics[0].name, "NetRun");
  EXPECT_EQ(avg.metrics[0].source, "NetRun");
  EXPECT_EQ(avg.metrics[0].value, 2952);
  EXPECT_EQ(avg.metrics[0].unit, "us");
  EXPECT_EQ(avg.metrics[1].name, "Number of HVX threads used");
  EXPECT_EQ(avg.metrics[1].source, "Backend");
  EXPECT_EQ(avg.metrics[1].value, 4);
  EXPECT_EQ(avg.metrics[1].unit, "count");
  EXPECT_EQ(avg.metrics[2].name, "QNN accelerator (execute) time");
  EXPECT_EQ(avg.metrics[2].value, 2600);
  // The name itself contains parentheses: split at the balanced one.
  EXPECT_EQ(avg.metrics[3].name, "Accelerator (execute) time (cycles)");
  EXPECT_EQ(avg.metrics[3].source, "Backend");
  EXPECT_EQ(avg.metrics[3].value, 251974);
  EXPECT_EQ(avg.metrics[3].unit, "cycles");
  const ProfileBlock& overall = r.statistics[1];
  EXPECT_EQ(overall.title, "Execute Stats (Overall)");
  EXPECT_EQ(overall.graph, "");
  ASSERT_EQ(overall.metrics.size(), 1u);
  EXPECT_EQ(overall.metrics[0].name, "NetRun IPS");
  EXPECT_EQ(overall.metrics[0].source, "NetRun");
  EXPECT_DOUBLE_EQ(overall.metrics[0].value, 214.8888);
  EXPECT_EQ(overall.metrics[0].unit, "inf/sec");
}

// formats.md §5.2b, the documented qnn-profile-viewer linting layout.
TEST(ProfileText, LintingLayout) {
  ProfileReport r = ParseProfileText(kPath, kLintingLayoutExample);
  EXPECT_TRUE(r.warnings.empty()) << r.warnings.front();
  ASSERT_EQ(r.statistics.size(), 1u);
  const ProfileBlock& b = r.statistics[0];
  EXPECT_EQ(b.title, "Execute Stats (Average)");
  EXPECT_EQ(b.graph, "");
  ASSERT_EQ(b.metrics.size(), 7u);
  EXPECT_EQ(Value(b, "NetRun"), 9120);
  EXPECT_EQ(Value(b, "RPC (execute) time"), 8800);
  EXPECT_EQ(Value(b, "QNN accelerator (execute) time"), 8105);
  EXPECT_EQ(Value(b, "Accelerator (critical path execute) time (cycles)"), 1000000);
  EXPECT_EQ(b.nodes_parent, "Accelerator (critical path execute) time (cycles)");
  ASSERT_EQ(b.nodes.size(), 4u);
  // The illustrative numbers add up to 999960, not to the 1000000 total.
  EXPECT_EQ(NodeSum(b), 999960);

  const ProfileNode& input = b.nodes[0];
  EXPECT_EQ(input.label, "Input OpId_2");
  EXPECT_EQ(input.cycles, 0);
  EXPECT_TRUE(input.has_lint());
  EXPECT_EQ(Lint(input).wait_cycles, 0);
  EXPECT_EQ(Lint(input).overlap_cycles, 0);
  EXPECT_EQ(Lint(input).overlap_wait_cycles, 0);
  EXPECT_TRUE(Lint(input).overlap_ops.empty());
  EXPECT_TRUE(Lint(input).overlap_wait_ops.empty());
  EXPECT_TRUE(Lint(input).resources.empty());

  const ProfileNode& conv = b.nodes[1];
  EXPECT_EQ(conv.label, "net_conv1_Conv2D:OpId_20");
  EXPECT_EQ(conv.qnn_op_name, "net_conv1_Conv2D");
  EXPECT_EQ(conv.op_id, 20u);
  EXPECT_EQ(conv.cycles, 300000);
  EXPECT_TRUE(conv.has_lint());
  EXPECT_EQ(Lint(conv).wait_cycles, 40);
  EXPECT_EQ(Lint(conv).overlap_cycles, 150000);
  EXPECT_EQ(Lint(conv).overlap_ops,
            (std::vector<std::string>{"net_mul_mul:OpId_30", "Output OpId_3"}));
  EXPECT_EQ(Lint(conv).overlap_wait_cycles, 40);
  EXPECT_EQ(Lint(conv).overlap_wait_ops, (std::vector<std::string>{"net_conv1_Conv2D:OpId_20"}));
  EXPECT_EQ(Lint(conv).resources, (std::vector<std::string>{"HVX", "HMX", "DMA"}));

  const ProfileNode& mul = b.nodes[2];
  EXPECT_EQ(mul.label, "net_mul_mul:OpId_30");
  EXPECT_EQ(mul.cycles, 600000);
  EXPECT_EQ(Lint(mul).wait_cycles, 0);
  EXPECT_EQ(Lint(mul).overlap_cycles, 60000);
  EXPECT_EQ(Lint(mul).overlap_ops, (std::vector<std::string>{"net_conv1_Conv2D:OpId_20"}));
  EXPECT_EQ(Lint(mul).overlap_wait_cycles, 0);
  EXPECT_TRUE(Lint(mul).overlap_wait_ops.empty());
  EXPECT_EQ(Lint(mul).resources, (std::vector<std::string>{"HVX"}));

  const ProfileNode& output = b.nodes[3];
  EXPECT_EQ(output.label, "Output OpId_3");
  EXPECT_EQ(output.op_id, 3u);
  EXPECT_EQ(output.cycles, 99960);
  EXPECT_EQ(Lint(output).wait_cycles, 0);
  EXPECT_EQ(Lint(output).overlap_cycles, 5000);
  EXPECT_TRUE(Lint(output).overlap_ops.empty());
  EXPECT_EQ(Lint(output).overlap_wait_cycles, 0);
  EXPECT_EQ(Lint(output).resources, (std::vector<std::string>{"HVX"}));
}

// formats.md §5.2, SNPE diagview flavour (plus a second layer with empty Resources).
TEST(ProfileText, SnpeDiagviewLinting) {
  ProfileReport r = ParseProfileText(kPath, R"(Per-Graph Execution Times:
---------------
HTP Subnet 0: 4327266 cycles

Layer Times:
---------------
  2: model_convStart_Conv2D:OpId_21 (cycles) : 147075 cycles : DSP
    Wait (Scheduler) time: 32 cycles
    Overlap time: 85292 cycles
      model_sub_sub:OpId_57
      Output OpId_3
    Overlap (wait) time: 32 cycles
      model_convStart_Conv2D:OpId_21
    Resources: HVX, HMX, DMA
  8: model_sub_sub:OpId_57 (cycles) : 5120 cycles : DSP
    Wait (Scheduler) time: 7 cycles
    Resources:
)");
  EXPECT_EQ(r.format, ProfileFormat::kSnpeDiagview);
  EXPECT_TRUE(r.warnings.empty()) << r.warnings.front();
  ASSERT_EQ(r.statistics.size(), 2u);
  const ProfileBlock& graphs = r.statistics[0];
  EXPECT_EQ(graphs.title, "Per-Graph Execution Times");
  ASSERT_EQ(graphs.metrics.size(), 1u);
  EXPECT_EQ(graphs.metrics[0].name, "HTP Subnet 0");
  EXPECT_EQ(graphs.metrics[0].value, 4327266);
  EXPECT_EQ(graphs.metrics[0].unit, "cycles");

  const ProfileBlock& layers = r.statistics[1];
  EXPECT_EQ(layers.title, "Layer Times");
  EXPECT_EQ(layers.first_line, 5);
  EXPECT_TRUE(layers.metrics.empty());
  EXPECT_EQ(layers.nodes_parent, "");
  ASSERT_EQ(layers.nodes.size(), 2u);
  const ProfileNode& conv = layers.nodes[0];
  EXPECT_EQ(conv.label, "model_convStart_Conv2D:OpId_21");
  EXPECT_EQ(conv.qnn_op_name, "model_convStart_Conv2D");
  EXPECT_EQ(conv.op_id, 21u);
  EXPECT_EQ(conv.cycles, 147075);
  EXPECT_EQ(conv.resource_tag, "DSP");
  EXPECT_TRUE(conv.has_lint());
  EXPECT_EQ(Lint(conv).wait_cycles, 32);
  EXPECT_EQ(Lint(conv).overlap_cycles, 85292);
  EXPECT_EQ(Lint(conv).overlap_ops,
            (std::vector<std::string>{"model_sub_sub:OpId_57", "Output OpId_3"}));
  EXPECT_EQ(Lint(conv).overlap_wait_cycles, 32);
  EXPECT_EQ(Lint(conv).overlap_wait_ops,
            (std::vector<std::string>{"model_convStart_Conv2D:OpId_21"}));
  EXPECT_EQ(Lint(conv).resources, (std::vector<std::string>{"HVX", "HMX", "DMA"}));
  const ProfileNode& sub = layers.nodes[1];
  EXPECT_EQ(sub.op_id, 57u);
  EXPECT_EQ(sub.cycles, 5120);
  EXPECT_EQ(Lint(sub).wait_cycles, 7);
  EXPECT_FALSE(Lint(sub).overlap_cycles.has_value());
  EXPECT_TRUE(sub.has_lint());
  EXPECT_TRUE(Lint(sub).resources.empty());
}

TEST(ProfileText, TwoGraphsStayApart) {
  ProfileReport r = ParseProfileText(kPath, R"(Execute Stats (Average):
------------------------
Total Inference Time:
---------------------
Graph 0 (encoder):
    NetRun: 100 us
    Backend (Accelerator (execute) time (cycles)): 5000  cycles
      enc:OpId_5 (cycles): 3000  cycles
      Output OpId_3 (cycles): 2000  cycles
Graph 1 (decoder):
    NetRun: 200 us
    Backend (Accelerator (execute) time (cycles)): 7000  cycles
      dec:OpId_9 (cycles): 7000  cycles
)");
  EXPECT_TRUE(r.warnings.empty());
  ASSERT_EQ(r.statistics.size(), 2u);
  const ProfileBlock& enc = r.statistics[0];
  const ProfileBlock& dec = r.statistics[1];
  EXPECT_EQ(enc.title, "Execute Stats (Average)");
  EXPECT_EQ(dec.title, "Execute Stats (Average)");
  EXPECT_EQ(enc.graph, "Graph 0 (encoder)");
  EXPECT_EQ(dec.graph, "Graph 1 (decoder)");
  EXPECT_EQ(dec.first_line, 10);
  EXPECT_EQ(Value(enc, "NetRun"), 100);
  EXPECT_EQ(Value(dec, "NetRun"), 200);
  ASSERT_EQ(enc.nodes.size(), 2u);
  ASSERT_EQ(dec.nodes.size(), 1u);
  EXPECT_EQ(NodeSum(enc), 5000);
  EXPECT_EQ(dec.nodes[0].qnn_op_name, "dec");
  EXPECT_EQ(dec.nodes[0].cycles, 7000);
}

// Executions are reserved like the largest before them; a short one after a
// long one keeps no more room than its own nodes need, however many follow.
TEST(ProfileText, ShortExecutionsAfterALongOneKeepNoSpareRoom) {
  std::string text = "Execute Stat 1\n\nAccelerator (execute) time (cycles) : 1  cycles\n";
  for (int i = 0; i < 5000; ++i)
    text += fmt::format("    op_{0}:OpId_{0} (cycles) : 1  cycles\n", i + 2);
  for (int n = 2; n <= 40; ++n)
    text += fmt::format(
        "\nExecute Stat {}\n\nAccelerator (execute) time (cycles) : 1  cycles\n"
        "    op_0:OpId_2 (cycles) : 1  cycles\n",
        n);
  ProfileReport r = ParseProfileText(kPath, text);
  std::vector<const ProfileBlock*> ex = r.Executions();
  ASSERT_EQ(ex.size(), 40u);
  EXPECT_EQ(ex[0]->nodes.size(), 5000u);
  for (size_t i = 1; i < ex.size(); ++i) {
    EXPECT_EQ(ex[i]->nodes.size(), 1u);
    EXPECT_LE(ex[i]->nodes.capacity(), 2 * ex[i]->nodes.size() + 16) << "execution " << i + 1;
  }
}

TEST(ProfileText, ConcatenatedRawDumpsStayApart) {
  constexpr char kOne[] = R"(qnn-profile-viewer: v2.45.0.1
Execute Stats: 

Execute Stat 1

Accelerator (execute) time (cycles) : 30  cycles
    Input OpId_2 (cycles) : 10  cycles
    Output OpId_3 (cycles) : 20  cycles

Execute Stat 2

Accelerator (execute) time (cycles) : 7  cycles
    Input OpId_2 (cycles) : 7  cycles
)";
  std::string text = std::string(kOne) + kOne;
  ProfileReport r = ParseProfileText(kPath, text);
  ASSERT_EQ(r.raw.size(), 4u);  // the empty "Execute Stats:" headers leave no block
  std::vector<const ProfileBlock*> ex = r.Executions();
  ASSERT_EQ(ex.size(), 4u);
  EXPECT_EQ(ex[0]->execution, 1);
  EXPECT_EQ(ex[1]->execution, 1);
  EXPECT_EQ(ex[2]->execution, 2);
  EXPECT_EQ(ex[0]->first_line, 4);
  EXPECT_EQ(ex[1]->first_line, 17);
  EXPECT_EQ(ex[1]->nodes.size(), 2u);
  EXPECT_EQ(ex[2]->nodes.size(), 1u);
  ASSERT_EQ(r.warnings.size(), 2u);  // Execute Stat 1 and 2 seen twice
  EXPECT_TRUE(Contains(r.warnings[0], "line 17:")) << r.warnings[0];
}

TEST(ProfileText, RawDumpQuirks) {
  // CRLF line ends, trailing spaces, a value-less OBJECT line, no final newline.
  ProfileReport r = ParseProfileText(
      kPath,
      "Generated using: \r\nqnn-profile-viewer: v2.45.0.260326154327\r\n\r\n"
      "Printing All Data Received From Back End\r\n\r\nExecute Stats: \r\n\r\n"
      "Execute Stat 1\r\n\r\nRPC (execute) time : 3161  us  \r\n"
      "Accelerator (execute) time (cycles) : 100  cycles\r\n"
      "    Input OpId_2 (cycles) : 60  cycles\r\n    OpId_17 (cycles) : 40  cycles\r\n"
      "Unknown event type :   object\r\nQNN (execute) time : 3955  us");
  EXPECT_EQ(r.viewer_version, "v2.45.0.260326154327");
  EXPECT_TRUE(r.warnings.empty()) << r.warnings.front();
  std::vector<const ProfileBlock*> ex = r.Executions();
  ASSERT_EQ(ex.size(), 1u);
  const ProfileBlock& b = *ex[0];
  ASSERT_EQ(b.metrics.size(), 4u);
  EXPECT_EQ(Value(b, "RPC (execute) time"), 3161);
  EXPECT_EQ(b.metrics[0].unit, "us");
  EXPECT_FALSE(b.metrics[2].has_value);
  EXPECT_EQ(b.metrics[2].unit, "object");
  EXPECT_EQ(Value(b, "QNN (execute) time"), 3955);
  ASSERT_EQ(b.nodes.size(), 2u);
  EXPECT_EQ(b.nodes[1].label, "OpId_17");
  EXPECT_EQ(b.nodes[1].cycles, 40);
}

TEST(ProfileText, NodesAttachToTheirOwnRoot) {
  // Sub-events under a non-cycles root are not nodes; per-node lines under a
  // second cycles root are kept out of a block that already has nodes.
  ProfileReport r = ParseProfileText(kPath, R"(Execute Stat 1
Accelerator (execute) time (cycles) : 10  cycles
    a:OpId_5 (cycles) : 10  cycles
RPC (execute) time : 50  us
    Host side (us) : 5  us
Other (cycles) : 4  cycles
    b:OpId_6 (cycles) : 4  cycles
)");
  ASSERT_EQ(r.raw.size(), 1u);
  const ProfileBlock& b = r.raw[0];
  EXPECT_EQ(b.nodes_parent, "Accelerator (execute) time (cycles)");
  ASSERT_EQ(b.nodes.size(), 1u);
  EXPECT_EQ(b.nodes[0].label, "a:OpId_5");
  // "Host side (us)" is a stage of RPC (execute) time: a metric of its own.
  ASSERT_EQ(b.metrics.size(), 4u);
  EXPECT_EQ(b.metrics[2].name, "Host side (us)");
  EXPECT_EQ(b.metrics[2].parent, 1);
  EXPECT_EQ(b.metrics[2].value, 5);
  ASSERT_EQ(r.warnings.size(), 1u);
  EXPECT_TRUE(Contains(r.warnings[0], "Other (cycles)"));
}

TEST(ProfileText, CriticalPathNodesWin) {
  ProfileReport r = ParseProfileText(kPath, R"(Execute Stat 1
Accelerator (execute) time (cycles) : 40  cycles
    a:OpId_5 (cycles) : 40  cycles
Accelerator (critical path execute) time (cycles) : 25  cycles
    a:OpId_5 (cycles) : 25  cycles
        Wait (Scheduler) time: 3  cycles
)");
  const ProfileBlock& b = r.raw[0];
  EXPECT_EQ(b.nodes_parent, "Accelerator (critical path execute) time (cycles)");
  ASSERT_EQ(b.nodes.size(), 1u);
  EXPECT_EQ(b.nodes[0].cycles, 25);
  EXPECT_EQ(Lint(b.nodes[0]).wait_cycles, 3);
  EXPECT_EQ(r.warnings.size(), 1u);
}

TEST(ProfileText, UnknownLinesAreWarnings) {
  std::string text = "Execute Stat 1\nAccelerator (execute) time (cycles) : 5  cycles\n";
  for (int i = 0; i < 30; ++i) text += "some free text without a value\n";
  text += "Odd : not a value at all\n";
  ProfileReport r = ParseProfileText(kPath, text);
  ASSERT_EQ(r.raw.size(), 1u);
  EXPECT_EQ(r.raw[0].metrics.size(), 1u);
  ASSERT_EQ(r.warnings.size(), 21u);  // the first 20 and a count of the rest
  EXPECT_TRUE(Contains(r.warnings[0], "line 3:")) << r.warnings[0];
  EXPECT_EQ(r.warnings[20], "11 more warnings not shown");
}

TEST(ProfileText, GzipInput) {
  std::filesystem::path path = std::filesystem::temp_directory_path() /
                               ("htpscope_profile_text_" + std::to_string(::getpid()) + ".txt.gz");
  const std::string text =
      "qnn-profile-viewer: v2.45.0.1\nExecute Stats: \n\nExecute Stat 1\n\n"
      "QNN accelerator (execute) time : 825  us\n"
      "Accelerator (execute) time (cycles) : 251974  cycles\n"
      "    Input OpId_2 (cycles) : 251974  cycles\n";
  gzFile gz = gzopen(path.c_str(), "wb");
  ASSERT_NE(gz, nullptr);
  ASSERT_EQ(gzwrite(gz, text.data(), static_cast<unsigned>(text.size())),
            static_cast<int>(text.size()));
  ASSERT_EQ(gzclose(gz), Z_OK);
  ProfileReport r = ReadProfileText(path.string());
  std::filesystem::remove(path);
  EXPECT_EQ(r.path, path.string());
  EXPECT_EQ(r.viewer_version, "v2.45.0.1");
  ASSERT_EQ(r.Executions().size(), 1u);
  EXPECT_EQ(Value(*r.Executions()[0], "QNN accelerator (execute) time"), 825);
  EXPECT_EQ(r.Executions()[0]->nodes.at(0).cycles, 251974);
}

TEST(ProfileText, MissingFileNamesIt) {
  try {
    ReadProfileText("/nonexistent/profile.txt");
    FAIL() << "expected InputError";
  } catch (const InputError& e) {
    EXPECT_EQ(e.file(), "/nonexistent/profile.txt");
  }
}

// ---------------------------------------------------------------------------
// Malformed inputs: InputError names the file and the 1-based line.

void ExpectTextError(std::string_view text, uint64_t line, std::string_view mentions) {
  std::optional<InputError> e = TextError(text);
  ASSERT_TRUE(e.has_value()) << "no error for:\n" << text;
  EXPECT_EQ(e->file(), kPath);
  EXPECT_TRUE(Contains(e->what(), kPath)) << e->what();
  EXPECT_EQ(e->line(), line) << e->what();
  EXPECT_TRUE(Contains(e->problem(), mentions)) << e->what();
}

TEST(ProfileText, NonNumericValue) {
  ExpectTextError("Execute Stat 1\n\nRPC (execute) time : 3x61  us\n", 3, "not a number");
  ExpectTextError("Init Stats:\n    NetRun: abc us\n", 2, "\"abc\" is not a number");
  ExpectTextError("Execute Stat 1\nRPC (execute) time : us\n", 2, "no number");
  ExpectTextError("Execute Stat 1\nRPC (execute) time : -5  us\n", 2, "negative");
  ExpectTextError("Execute Stat 1\nRPC (execute) time : 5 6  us\n", 2, "expected");
}

TEST(ProfileText, NodeWithoutRoot) {
  ExpectTextError(
      "Execute Stats: \n\nExecute Stat 1\n\n    Input OpId_2 (cycles) : 19874  cycles\n", 5,
      "no root line");
  ExpectTextError("Execute Stats (Average):\n      Input OpId_2 (cycles): 0  cycles\n", 2,
                  "no root line");
  // Flush with its root: not a sub-event of it.
  ExpectTextError(
      "Execute Stat 1\nAccelerator (execute) time (cycles) : 5  cycles\nbbb:OpId_19 (cycles) : 5 "
      " cycles\n",
      3, "not indented");
  // Under a microsecond line.
  ExpectTextError(
      "Execute Stat 1\nRPC (execute) time : 5  us\n    bbb:OpId_19 (cycles) : 5  cycles\n", 3,
      "which is in us");
}

TEST(ProfileText, BadExecuteStatNumber) {
  ExpectTextError("Execute Stats:\n\nExecute Stat one\n", 3, "positive integer");
  ExpectTextError("Execute Stat 1.5\n", 1, "positive integer");
  ExpectTextError("Execute Stat 0\n", 1, "positive integer");
  ExpectTextError("Execute Stat 99999999999\n", 1, "positive integer");
}

TEST(ProfileText, CyclesOverflowOrFraction) {
  ExpectTextError(
      "Execute Stat 1\nAccelerator (execute) time (cycles) : 99999999999999999999  cycles\n", 2,
      "overflows");
  ExpectTextError(
      "Execute Stat 1\nAccelerator (execute) time (cycles) : 10  cycles\n"
      "    a:OpId_3 (cycles) : 9223372036854775808  cycles\n",
      3, "overflows");
  ExpectTextError("Execute Stat 1\nAccelerator (execute) time (cycles) : 12.5  cycles\n", 2,
                  "whole number of cycles");
}

TEST(ProfileText, BadLintingEntry) {
  constexpr char kHead[] =
      "Execute Stats (Average):\n"
      "   Backend (Accelerator (critical path execute) time (cycles)): 10  cycles\n"
      "      a:OpId_3 (cycles): 10  cycles\n";
  ExpectTextError(std::string(kHead) + "            Overlap time: lots  cycles\n", 4,
                  "Overlap time");
  ExpectTextError(std::string(kHead) + "            Wait (Scheduler) time:\n", 4,
                  "Wait (Scheduler) time");
  ExpectTextError(std::string(kHead) + "            Overlap (wait) time: 5  us\n", 4,
                  "expected \"<number>  cycles\"");
}

TEST(ProfileText, EmptyOrUnrecognisedFile) {
  for (std::string_view text : {"", "\n\n  \n", "\xEF\xBB\xBF"}) {
    std::optional<InputError> e = TextError(text);
    ASSERT_TRUE(e.has_value());
    EXPECT_TRUE(Contains(e->what(), kPath));
    EXPECT_TRUE(Contains(e->problem(), "empty file")) << e->what();
  }
  // A verdict on the whole file points at the first line not understood...
  std::optional<InputError> e = TextError("\n{\"header\": {}}\nhello\n");
  ASSERT_TRUE(e.has_value());
  EXPECT_TRUE(Contains(e->problem(), "no profile sections")) << e->what();
  EXPECT_EQ(e->line(), 2u);
  // ... or, when every line was a header line, at the last one.
  e = TextError("qnn-profile-viewer: v2.45.0.1\nTime Scale: 1e-06\n\n");
  ASSERT_TRUE(e.has_value());
  EXPECT_TRUE(Contains(e->problem(), "no profile sections")) << e->what();
  EXPECT_EQ(e->line(), 2u);
}

TEST(ProfileText, BinaryGarbageDoesNotCrash) {
  std::string junk;
  for (int i = 0; i < 4096; ++i) junk.push_back(static_cast<char>((i * 7919) & 0xff));
  std::optional<InputError> e = TextError(junk);
  ASSERT_TRUE(e.has_value());  // either a bad line or no sections; never a crash
  // Garbage after a valid block only warns.
  ProfileReport r =
      ParseProfileText(kPath, "Execute Stat 1\nRPC (execute) time : 1  us\n\x01\x02\x03\n");
  EXPECT_EQ(r.warnings.size(), 1u);
}

// ---------------------------------------------------------------------------
// Helpers.

TEST(ProfileText, LooksLikeProfileText) {
  EXPECT_TRUE(LooksLikeProfileText("Input Log File Location: x\nqnn-profile-viewer: v2.45\n"));
  EXPECT_TRUE(LooksLikeProfileText("Execute Stats (Average):\n---\n"));
  EXPECT_TRUE(LooksLikeProfileText("\n\nExecute Stat 1\n\nRPC (execute) time : 1  us\n"));
  EXPECT_TRUE(LooksLikeProfileText("Per-Graph Execution Times:\n----\nHTP Subnet 0: 1 cycles\n"));
  EXPECT_FALSE(LooksLikeProfileText(""));
  EXPECT_FALSE(LooksLikeProfileText("{\"traceEvents\": []}"));
  EXPECT_FALSE(LooksLikeProfileText(
      "Msg Timestamp,Message,Time,Unit of Measurement,Timing Source,Event Level,Event "
      "Identifier\n"));
  EXPECT_FALSE(LooksLikeProfileText("Execute Stats are great\n"));
}

TEST(ProfileText, ParseProfileNumber) {
  std::string problem;
  std::optional<ProfileNumber> n = ParseProfileNumber("87938", &problem);
  ASSERT_TRUE(n.has_value());
  EXPECT_EQ(n->integer, 87938);
  EXPECT_EQ(n->value, 87938);
  n = ParseProfileNumber("214.8888", &problem);
  ASSERT_TRUE(n.has_value());
  EXPECT_FALSE(n->integer.has_value());
  EXPECT_DOUBLE_EQ(n->value, 214.8888);
  n = ParseProfileNumber("12.000000", &problem);  // std::to_string of a float
  ASSERT_TRUE(n.has_value());
  EXPECT_EQ(n->integer, 12);
  n = ParseProfileNumber("9223372036854775807", &problem);
  ASSERT_TRUE(n.has_value());
  EXPECT_EQ(n->integer, INT64_MAX);
  for (std::string_view bad : {"", "abc", "1x", "inf", "nan", "-1", "1e999", "0x10", "1,5"}) {
    problem.clear();
    EXPECT_FALSE(ParseProfileNumber(bad, &problem).has_value()) << bad;
    EXPECT_FALSE(problem.empty()) << bad;
  }
  EXPECT_FALSE(ParseProfileNumber("9223372036854775808", &problem).has_value());
  EXPECT_TRUE(Contains(problem, "overflows"));
}

TEST(ProfileText, SetProfileNodeLabel) {
  ProfileNode n;
  SetProfileNodeLabel("bbb_indep0:OpId_19", &n);
  EXPECT_EQ(n.label, "bbb_indep0:OpId_19");
  EXPECT_EQ(n.qnn_op_name, "bbb_indep0");
  EXPECT_EQ(n.op_id, 19u);
  SetProfileNodeLabel("Input OpId_2", &n);
  EXPECT_EQ(n.qnn_op_name, "Input");
  EXPECT_EQ(n.op_id, 2u);
  SetProfileNodeLabel("OpId_17", &n);
  EXPECT_EQ(n.qnn_op_name, "");
  EXPECT_EQ(n.op_id, 17u);
  SetProfileNodeLabel("a:b:OpId_4", &n);  // only the last ":OpId_n" is the id
  EXPECT_EQ(n.qnn_op_name, "a:b");
  EXPECT_EQ(n.op_id, 4u);
  for (std::string_view no_id :
       {"plain_name", "MyOpId_3", "x:OpId_", "x:OpId_3a", "x:OpId_99999999999"}) {
    SetProfileNodeLabel(no_id, &n);
    EXPECT_EQ(n.qnn_op_name, no_id);
    EXPECT_FALSE(n.op_id.has_value()) << no_id;
  }
}

}  // namespace
}  // namespace htpscope::profile_text_test
