// Runs the built htpscope on ExecuTorch ETDumps: `summary` of the tutorial
// ETDump and of flatc-written ones, `numerics` of an ETDump + debug buffer
// against .npy references (exit 1 at the first divergent handle), and bad
// ETDumps (exit 2 naming the file).
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <cstring>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "cli/cli_test_util.h"
#include "cli/numerics_test_util.h"
#include "formats/etdump_test_util.h"

namespace htpscope::etdump_cli_test {
namespace {

using testing_support::CliResult;
using testing_support::NpyFloat32;
using testing_support::RunCli;
using testing_support::Slurp;

void Write(const std::string& path, const std::string& bytes) {
  std::filesystem::create_directories(std::filesystem::path(path).parent_path());
  std::ofstream(path, std::ios::binary) << bytes;
}

std::string Floats(const std::vector<float>& values) {
  return std::string(reinterpret_cast<const char*>(values.data()), values.size() * sizeof(float));
}

std::string FloatDebugEvent(int handle, int64_t offset) {
  return fmt::format(
      R"({{"debug_event": {{"delegate_debug_id_int": {}, "debug_entry": {{"val": "Tensor", )"
      R"("tensor": {{"scalar_type": "FLOAT", "sizes": [2, 2], "offset": {}}}}}}}}})",
      handle, offset);
}

// References h0..h2 as .npy; the device's ETDump logs the same tensors,
// handle 1 sign-flipped and handle 2 scaled by 3 (cosine 1, but max_abs 6).
class EtdumpCliTest : public testing::Test {
 protected:
  void SetUp() override {
    dir_ = testing_support::TempDir("etdump_cli");
    std::vector<std::vector<float>> ref = {{1, 2, 3, 4}, {5, -6, 7, 8}, {0.5, 1, 1.5, 2}};
    for (int h = 0; h < 3; ++h)
      Write(fmt::format("{}/ref/op{}__debugID_{}.npy", dir_, h, h), NpyFloat32({2, 2}, ref[h]));
    std::vector<float> flipped = {-5, 6, -7, -8};
    std::vector<float> tripled = {1.5, 3, 4.5, 6};
    // Tensors at 0, 64 and 128, as ExecuTorch aligns them.
    std::string buffer = Floats(ref[0]) + std::string(48, '\0') + Floats(flipped) +
                         std::string(48, '\0') + Floats(tripled);
    Write(dir_ + "/debug_output.bin", buffer);
    Write(dir_ + "/same_output.bin", Floats(ref[0]) + std::string(48, '\0') + Floats(ref[1]) +
                                         std::string(48, '\0') + Floats(ref[2]));
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }

  std::string DeviceEtdump() {
    return testing_support::WriteEtdump(dir_, "device",
                                        R"({"run_data": [{"name": "Execute", "events": [
          {"profile_event": {"name": "Method::execute", "start_time": 1, "end_time": 901}},
          )" + FloatDebugEvent(0, 0) + ",\n" +
                                            FloatDebugEvent(1, 64) + ",\n" +
                                            FloatDebugEvent(2, 128) + "]}]}");
  }

  std::string dir_;
};

TEST_F(EtdumpCliTest, NumericsFindsTheFirstDivergentHandleAndExitsOne) {
  std::string etdump = DeviceEtdump();
  ASSERT_FALSE(etdump.empty());
  CliResult run =
      RunCli(fmt::format("numerics '{}/ref' '{}' --debug-buffer '{}/debug_output.bin' "
                         "--json",
                         dir_, etdump, dir_));
  EXPECT_EQ(run.status, 1) << run.err;
  nlohmann::json doc = nlohmann::json::parse(run.out);
  EXPECT_EQ(doc["first_divergent_handle"], 1);
  EXPECT_EQ(doc["order"], "device_etdump");
  ASSERT_EQ(doc["handles"].size(), 3u);
  EXPECT_EQ(doc["handles"][0]["cosine"], 1.0);
  EXPECT_EQ(doc["handles"][1]["cosine"], -1.0);
  EXPECT_EQ(doc["handles"][1]["divergent"], true);
  EXPECT_EQ(doc["handles"][1]["device_preview"], nlohmann::json({-5, 6, -7, -8}));
  EXPECT_EQ(doc["handles"][2]["divergent"], false);  // parallel: cosine 1
  // By max_abs, handle 2 diverges too (|6 − 2| = 4), but handle 1 comes first.
  run =
      RunCli(fmt::format("numerics '{}/ref' '{}' --debug-buffer '{}/debug_output.bin' "
                         "--metric max_abs --threshold 3",
                         dir_, etdump, dir_));
  EXPECT_EQ(run.status, 1) << run.err;
  EXPECT_NE(run.out.find("first divergent handle: 1"), std::string::npos) << run.out;
  EXPECT_NE(run.out.find("3 rows: 3 compared (2 divergent)"), std::string::npos) << run.out;
  EXPECT_NE(run.out.find("rows in device ETDump order"), std::string::npos) << run.out;
}

TEST_F(EtdumpCliTest, NumericsOfTwoEtdumpsWithTheirBuffers) {
  std::string etdump = DeviceEtdump();
  ASSERT_FALSE(etdump.empty());
  CliResult same = RunCli(
      fmt::format("numerics '{0}' '{0}' --ref-debug-buffer '{1}/same_output.bin' --debug-buffer "
                  "'{1}/same_output.bin'",
                  etdump, dir_));
  EXPECT_EQ(same.status, 0) << same.err << same.out;
  CliResult flipped = RunCli(
      fmt::format("numerics '{0}' '{0}' --ref-debug-buffer '{1}/same_output.bin' --debug-buffer "
                  "'{1}/debug_output.bin' --json",
                  etdump, dir_));
  EXPECT_EQ(flipped.status, 1) << flipped.err;
  EXPECT_EQ(nlohmann::json::parse(flipped.out)["first_divergent_handle"], 1);
}

TEST_F(EtdumpCliTest, BadEtdumpsExitTwoNamingTheFile) {
  std::string etdump = DeviceEtdump();
  ASSERT_FALSE(etdump.empty());
  std::string whole = Slurp(etdump);
  std::string truncated = dir_ + "/truncated.etdp";
  Write(truncated, whole.substr(0, whole.size() / 2));
  CliResult run = RunCli(fmt::format("numerics '{}/ref' '{}' --debug-buffer '{}/debug_output.bin'",
                                     dir_, truncated, dir_));
  EXPECT_EQ(run.status, 2);
  EXPECT_NE(run.err.find(truncated + ": at byte " + std::to_string(whole.size() / 2) +
                         ": truncated ETDump"),
            std::string::npos)
      << run.err;
  run = RunCli(fmt::format("summary '{}'", truncated));
  EXPECT_EQ(run.status, 2);
  EXPECT_NE(run.err.find(truncated + ": at byte"), std::string::npos) << run.err;
  // An ETDump without its debug buffer, and a buffer too short for its tensors.
  run = RunCli(fmt::format("numerics '{}/ref' '{}'", dir_, etdump));
  EXPECT_EQ(run.status, 2);
  EXPECT_NE(run.err.find("--debug-buffer"), std::string::npos) << run.err;
  Write(dir_ + "/short.bin", std::string(100, '\0'));
  run = RunCli(
      fmt::format("numerics '{}/ref' '{}' --debug-buffer '{}/short.bin'", dir_, etdump, dir_));
  EXPECT_EQ(run.status, 2);
  EXPECT_NE(run.err.find(etdump + ": at byte"), std::string::npos) << run.err;
  EXPECT_NE(run.err.find("needs debug-buffer bytes up to 144"), std::string::npos) << run.err;
}

TEST_F(EtdumpCliTest, SummaryOfAFlatcEtdump) {
  std::string etdump = DeviceEtdump();
  ASSERT_FALSE(etdump.empty());
  CliResult run = RunCli(fmt::format("summary --json '{}'", etdump));
  EXPECT_EQ(run.status, 0) << run.err;
  nlohmann::json doc = nlohmann::json::parse(run.out);
  EXPECT_EQ(doc["etdump"]["runs"][0]["name"], "Execute");
  EXPECT_EQ(doc["etdump"]["runs"][0]["debug_events"], 3);
  EXPECT_EQ(doc["etdump"]["op_totals"][0]["name"], "Method::execute");
  EXPECT_EQ(doc["etdump"]["op_totals"][0]["total_ticks"], 900);
}

TEST(EtdumpCli, SummaryOfTheTutorialEtdumpNeedsSharedReference) {
  std::string path = testing_support::TutorialEtdump();
  if (path.empty()) GTEST_SKIP() << "../shared/reference/executorch absent";
  CliResult text = RunCli("summary '" + path + "'");
  EXPECT_EQ(text.status, 0) << text.err;
  EXPECT_NE(text.out.find("Run 'Default'"), std::string::npos) << text.out;
  EXPECT_NE(text.out.find("Run 'Execute'"), std::string::npos) << text.out;
  CliResult json = RunCli("summary --json '" + path + "'");
  ASSERT_EQ(json.status, 0) << json.err;
  nlohmann::json doc = nlohmann::json::parse(json.out)["etdump"];
  ASSERT_EQ(doc["runs"].size(), 2u);
  EXPECT_EQ(doc["runs"][0]["name"], "Default");
  EXPECT_EQ(doc["runs"][1]["name"], "Execute");
  std::map<std::string, nlohmann::json> totals;
  for (const auto& t : doc["op_totals"]) totals[t["name"]] = t;
  EXPECT_EQ(totals["native_call_convolution.out"]["count"], 2);
  EXPECT_EQ(totals["native_call_convolution.out"]["total_ticks"], 1576502);
  EXPECT_EQ(totals["Method::execute"]["total_ticks"], 1898821);
  EXPECT_EQ(doc["op_totals"][0]["name"], "Method::execute");
}

}  // namespace
}  // namespace htpscope::etdump_cli_test
