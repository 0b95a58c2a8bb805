// Runs the built htpscope on the AI Hub profiles of a 4-layer decoder
// (src/formats/testdata/aihub_profile_decoder4{,_slower}.json; how they are
// built: analysis/module_run_test.cc): `summary --modules` splits each
// module's time by compute unit and names the layers off the NPU, `summary
// --json`, `sql` and `report` carry the same, and `diff` (text and JSON)
// names the layer and the block that got slower, with module gates.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "cli/cli_test_util.h"

namespace htpscope::aihub_modules_cli_test {
namespace {

using testing_support::CliResult;
using testing_support::RunCli;
using testing_support::Slurp;

const std::string kTestdata = std::string(HTPSCOPE_SOURCE_DIR) + "/src/formats/testdata/";
const std::string kA = kTestdata + "aihub_profile_decoder4.json";
const std::string kB = kTestdata + "aihub_profile_decoder4_slower.json";

bool Has(const std::string& text, const std::string& line) {
  return text.find(line) != std::string::npos;
}

TEST(AihubModulesCli, SummaryModulesSplitsTimeByComputeUnit) {
  CliResult r = RunCli("summary " + kA + " --modules=2", "aihub_modules");
  ASSERT_EQ(r.status, 0) << r.err;
  // The AI Hub sections, then the tree.
  EXPECT_LT(r.out.find("AI Hub profile (qai_hub layout)"), r.out.find("Modules: time by"));
  EXPECT_TRUE(Has(r.out, "time: AI Hub per-layer execution_time in µs")) << r.out;
  EXPECT_TRUE(Has(r.out, "from the AI Hub profile")) << r.out;
  EXPECT_TRUE(Has(r.out, "71 layers: 71 with an ONNX scope")) << r.out;
  // Module, NPU us, layers, GPU us, layers, CPU us, layers, off NPU (time share).
  // Root: NPU 3,698 − 295 over 68 layers, GPU 20 over 1, CPU 180 + 95 over 2.
  EXPECT_TRUE(Has(r.out,
                  "  (all)                                                3,403      68          "
                  "  20       1           275       2     8.0 %\n"))
      << r.out;
  // Layer 1: its Softmax on the CPU, 95 of 829 µs = 11.5 %.
  EXPECT_TRUE(Has(r.out,
                  "    layers.1/…                                           734      16          "
                  "   -       -            95       1    11.5 %\n"))
      << r.out;
  EXPECT_TRUE(Has(r.out, "  Off the NPU, by module: 3 of 71 layers, 295 us = 8.0 % of the time\n"))
      << r.out;
  EXPECT_TRUE(
      Has(r.out,
          "    model/layers.1/self_attn: 1 layer, 95 us\n"
          "      CPU          95 us    2.6 %  Softmax  /model/layers.1/self_attn/Softmax\n"))
      << r.out;
  EXPECT_TRUE(Has(r.out, "      GPU          20 us    0.5 %  RmsNorm  /model/norm/Mul_1\n"));
  // The repeated blocks: layers.N spread 747..829, median (749 + 753) / 2.
  EXPECT_TRUE(Has(r.out, "model/layers.N: 4 blocks, median 751 us (min 747, max 829); 4 alike"))
      << r.out;
  EXPECT_TRUE(Has(r.out,
                  "    layers.1                     829      1.10      17  1 layer off the "
                  "NPU (95 us)\n"))
      << r.out;
  EXPECT_TRUE(Has(r.out, "No block is far from its siblings."));

  CliResult slow = RunCli("summary " + kB + " --modules", "aihub_modules");
  ASSERT_EQ(slow.status, 0) << slow.err;
  // Blocks 749, 829, 1,243, 747: median (749 + 829) / 2 = 789; 1,243 / 789 = 1.58.
  EXPECT_TRUE(Has(slow.out, "    layers.2                   1,243      1.58      17  slow\n"))
      << slow.out;
  EXPECT_TRUE(Has(slow.out,
                  "model/layers.2 is 1.58 × the median of the 4 blocks of its family "
                  "(slow)"))
      << slow.out;
  // Without --modules: the AI Hub sections alone, as before.
  CliResult plain = RunCli("summary " + kA, "aihub_modules");
  EXPECT_FALSE(Has(plain.out, "Modules: time by"));
}

TEST(AihubModulesCli, SummaryJsonSqlAndReportCarryTheSplit) {
  CliResult r = RunCli("summary --json " + kA, "aihub_modules");
  ASSERT_EQ(r.status, 0) << r.err;
  const auto m = nlohmann::json::parse(r.out)["modules"];
  EXPECT_EQ(m["source"], "aihub");
  EXPECT_EQ(m["basis"], "aihub_layer_us");
  EXPECT_EQ(m["time_unit"], "us");
  EXPECT_DOUBLE_EQ(m["total"].get<double>(), 3698);
  const auto& root = m["nodes"][0];
  EXPECT_DOUBLE_EQ(root["time_by_unit"]["NPU"].get<double>(), 3403);
  EXPECT_DOUBLE_EQ(root["time_by_unit"]["CPU"].get<double>(), 275);
  EXPECT_EQ(root["ops_by_unit"]["NPU"], 68);
  EXPECT_EQ(root["ops_by_unit"]["GPU"], 1);
  ASSERT_EQ(m["off_npu_op_list"].size(), 3u);
  EXPECT_EQ(m["off_npu_op_list"][0]["name"], "/model/layers.1/self_attn/Softmax");
  EXPECT_EQ(m["off_npu_op_list"][0]["module"], "model/layers.1/self_attn");
  EXPECT_EQ(m["off_npu_op_list"][0]["compute_unit"], "CPU");
  EXPECT_DOUBLE_EQ(m["off_npu_op_list"][0]["time"].get<double>(), 95);

  CliResult sql = RunCli("sql " + kA +
                             " --format csv -q \"select path, time_us, npu_time_us, cpu_time_us, "
                             "gpu_time_us, npu_ops, off_npu_ops from modules where depth = 2 and "
                             "name like 'layers.%' order by path\"",
                         "aihub_modules");
  ASSERT_EQ(sql.status, 0) << sql.err;
  EXPECT_TRUE(Has(sql.out, "model/layers.0,749,749,0,0,17,0\r\n")) << sql.out;
  EXPECT_TRUE(Has(sql.out, "model/layers.1,829,734,95,0,16,1\r\n")) << sql.out;

  const std::string dir = testing_support::TempDir("aihub_modules_report");
  CliResult page = RunCli("report " + kA + " -o " + dir + "/r.html", "aihub_modules");
  ASSERT_EQ(page.status, 0) << page.err;
  const std::string html = Slurp(dir + "/r.html");
  EXPECT_TRUE(Has(html, "<h2>Modules: time by the model's own modules</h2>"));
  EXPECT_TRUE(Has(html, "<td>model/layers.1</td><td class=\"n\">829</td>")) << html;
  EXPECT_TRUE(Has(html, "<h3>Off the NPU, by module</h3>"));
}

TEST(AihubModulesCli, DiffNamesTheLayerAndBlockThatGotSlower) {
  CliResult r = RunCli("diff " + kA + " " + kB, "aihub_modules");
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_TRUE(Has(r.out, "Layers that changed (1 of 71;")) << r.out;
  EXPECT_TRUE(Has(r.out, "+490  /model/layers.2/mlp/down_proj/MatMul\n")) << r.out;
  EXPECT_TRUE(Has(r.out, "Modules by |Δ| (us)")) << r.out;
  EXPECT_TRUE(Has(r.out, "the repeated block that grew most: model/layers.2 (+490 us, +65.1 %)"))
      << r.out;

  CliResult j = RunCli("diff " + kA + " " + kB + " --format json", "aihub_modules");
  ASSERT_EQ(j.status, 0) << j.err;
  const auto d = nlohmann::json::parse(j.out);
  EXPECT_EQ(d["modules"]["slowest_block"], "model/layers.2");
  EXPECT_EQ(d["modules"]["basis"], "aihub_layer_us");
  bool found = false;
  for (const auto& m : d["modules"]["modules"])
    if (m["path"] == "model/layers.2") {
      found = true;
      EXPECT_DOUBLE_EQ(m["a"].get<double>(), 753);
      EXPECT_DOUBLE_EQ(m["b"].get<double>(), 1243);
    }
  EXPECT_TRUE(found);

  CliResult gate =
      RunCli("diff " + kA + " " + kB + " --fail-on 'module:model/layers.*:us>+20%' --format json",
             "aihub_modules");
  EXPECT_EQ(gate.status, 1) << gate.err;
  const auto g = nlohmann::json::parse(gate.out)["gates"][0];
  EXPECT_FALSE(g["passed"]);
  EXPECT_TRUE(Has(g.dump(), "module:model/layers.2:us")) << g.dump();
  CliResult pass =
      RunCli("diff " + kA + " " + kB + " --fail-on 'module:lm_head:us>+1%'", "aihub_modules");
  EXPECT_EQ(pass.status, 0) << pass.out;
}

}  // namespace
}  // namespace htpscope::aihub_modules_cli_test
