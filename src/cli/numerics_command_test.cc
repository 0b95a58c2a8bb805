// Runs the built `htpscope numerics` on generated tensor sets and checks
// the exit-status contract: 0 nothing divergent, 1 divergent, 2 bad input.
#include <gtest/gtest.h>
#include <stdlib.h>
#include <sys/wait.h>

#include <cstring>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "base/test_paths.h"
#include "cli/numerics_test_util.h"

namespace htpscope::numerics_command_test {
namespace {

namespace fs = std::filesystem;
using testing_support::NpyFloat32;

struct CliRun {
  int status;
  std::string out, err;
};

class NumericsCommandTest : public testing::Test {
 protected:
  void SetUp() override {
    std::string pattern = testing::TempDir() + "numerics_cli_XXXXXX";
    ASSERT_NE(mkdtemp(pattern.data()), nullptr);
    dir_ = pattern;
    // Reference: NCHW float32 [1, 2, 2, 2] per handle.  Device: NHWC uint8
    // with scale 0.5, offset 10, so q = 2 × real + 10.
    std::vector<float> ref = {0, 1, 2, 3, 4, 5, 6, 7};
    Write("ref/a__debugID_0.npy", NpyFloat32({1, 2, 2, 2}, ref));
    Write("ref/b__debugID_1.npy", NpyFloat32({1, 2, 2, 2}, ref));
    std::string nhwc;
    for (int p = 0; p < 4; ++p)
      for (int c = 0; c < 2; ++c) nhwc += static_cast<char>(2 * ref[c * 4 + p] + 10);
    Write("dev/a.raw", nhwc);
    std::string wrong = nhwc;
    wrong[0] = static_cast<char>(wrong[0] + 8);  // +4.0 at (c=0, pixel 0) of handle 1
    Write("dev/b.raw", wrong);
    Write("dev/manifest.json", Manifest("b.raw"));
    Write("same/manifest.json", Manifest("a.raw"));
    fs::copy_file(dir_ + "/dev/a.raw", dir_ + "/same/a.raw");
  }
  void TearDown() override { fs::remove_all(dir_); }

  static std::string Manifest(const std::string& second_file) {
    return R"({"version": 1, "tensors": [
      {"name": "a__debugID_0", "file": "a.raw", "dtype": "uint8", "shape": [1, 2, 2, 2],
       "layout": "NHWC", "quantization": {"scale": 0.5, "offset": 10}, "ops": ["q::Input"]},
      {"name": "b__debugID_1", "file": ")" +
           second_file + R"(", "dtype": "uint8", "shape": [1, 2, 2, 2],
       "layout": "NHWC", "quantization": {"scale": 0.5, "offset": 10}, "ops": ["q::Conv"]}]})";
  }
  void Write(const std::string& name, const std::string& bytes) {
    fs::create_directories(fs::path(dir_ + "/" + name).parent_path());
    std::ofstream(dir_ + "/" + name, std::ios::binary) << bytes;
  }
  static std::string Slurp(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
  }
  CliRun Numerics(const std::string& args) {
    std::string cmd = std::string("cd '") + dir_ + "' && '" + HTPSCOPE_BINARY + "' numerics " +
                      args + " >out.txt 2>err.txt";
    int raw = std::system(cmd.c_str());
    return {WIFEXITED(raw) ? WEXITSTATUS(raw) : -1, Slurp(dir_ + "/out.txt"),
            Slurp(dir_ + "/err.txt")};
  }

  std::string dir_;
};

TEST_F(NumericsCommandTest, ExitZeroWhenNothingDiverges) {
  CliRun run = Numerics("ref same --ref-layout NCHW");
  EXPECT_EQ(run.status, 0) << run.err;
  EXPECT_NE(run.out.find("no divergent handle (cosine >= 0.99)"), std::string::npos) << run.out;
  EXPECT_NE(run.out.find("2 rows: 2 compared (0 divergent)"), std::string::npos) << run.out;
}

TEST_F(NumericsCommandTest, ExitOneAndJsonNamesFirstDivergentHandle) {
  // Handle 1 is off by 4 in one of 8 elements: MSE 16/8 = 2, max_abs 4.
  CliRun run = Numerics("ref dev --ref-layout NCHW --metric max_abs --threshold 1 --json");
  EXPECT_EQ(run.status, 1) << run.err;
  nlohmann::json doc = nlohmann::json::parse(run.out);
  EXPECT_EQ(doc["first_divergent_handle"], 1);
  ASSERT_EQ(doc["handles"].size(), 2u);
  EXPECT_EQ(doc["handles"][0]["status"], "compared");
  EXPECT_EQ(doc["handles"][0]["mse"], 0.0);
  EXPECT_TRUE(doc["handles"][0]["snr_db"].is_null());  // identical: +inf
  EXPECT_EQ(doc["handles"][1]["mse"], 2.0);
  EXPECT_EQ(doc["handles"][1]["max_abs"], 4.0);
  EXPECT_EQ(doc["handles"][1]["mean_abs"], 0.5);
  EXPECT_EQ(doc["handles"][1]["runtime_ops"], nlohmann::json({"q::Conv"}));
}

TEST_F(NumericsCommandTest, TextAndCsvOutputs) {
  CliRun text = Numerics("ref dev --ref-layout NCHW");
  EXPECT_EQ(text.status, 1);
  EXPECT_NE(text.out.find("first divergent handle: 1 (reference ops: b; runtime ops: q::Conv)"),
            std::string::npos)
      << text.out;
  CliRun csv = Numerics("ref dev --ref-layout NCHW --csv");
  EXPECT_EQ(csv.status, 1);
  EXPECT_EQ(csv.out.rfind("order,handle,output_index,status,", 0), 0u) << csv.out;
  EXPECT_EQ(std::count(csv.out.begin(), csv.out.end(), '\n'), 3);
  EXPECT_NE(csv.out.find("\r\n"), std::string::npos);  // RFC 4180 record ends
}

TEST_F(NumericsCommandTest, BadInputExitsTwoWithFileNamed) {
  Write("badjson/manifest.json", R"({"tensors": [{"name": "a", "dtype": "uint8",)");
  CliRun bad_json = Numerics("ref badjson");
  EXPECT_EQ(bad_json.status, 2);
  EXPECT_NE(bad_json.err.find("badjson/manifest.json: at byte "), std::string::npos)
      << bad_json.err;

  Write("trunc/manifest.json", Manifest("b.raw"));
  Write("trunc/a.raw", "abcdefgh");
  Write("trunc/b.raw", "abc");
  CliRun truncated = Numerics("ref trunc");
  EXPECT_EQ(truncated.status, 2);
  EXPECT_NE(truncated.err.find("trunc/b.raw: tensor \"b__debugID_1\": file has 3 bytes but uint8 "
                               "× [1, 2, 2, 2] = 8 elements needs 8 bytes"),
            std::string::npos)
      << truncated.err;

  // [1, 2, 2, 2] reads as NCHW or NHWC: with the reference layout unstated, refuse to guess.
  CliRun ambiguous = Numerics("ref dev");
  EXPECT_EQ(ambiguous.status, 2);
  EXPECT_NE(ambiguous.err.find("layout is ambiguous"), std::string::npos) << ambiguous.err;
  // How to settle it is said with the options that do.
  EXPECT_NE(ambiguous.err.find("which fits both NHWC and NCHW; state it (manifest \"layout\", or "
                               "--ref-layout/--device-layout)\n"),
            std::string::npos)
      << ambiguous.err;
  // An ETDump without its debug buffer: the options that give one.
  Write("dump.etdp", std::string("\0\0\0\0ED00", 8) + std::string(8, '\0'));
  CliRun etdump = Numerics("dump.etdp dev");
  EXPECT_EQ(etdump.status, 2);
  EXPECT_NE(etdump.err.find("dump.etdp: is an ExecuTorch ETDump: its tensors are in the debug "
                            "buffer the runtime wrote beside it; give it with --debug-buffer (or "
                            "--ref-debug-buffer)\n"),
            std::string::npos)
      << etdump.err;

  Write("wide/manifest.json", R"({"tensors": [{"name": "a__debugID_0", "file": "a.raw",
    "dtype": "uint8", "shape": [8], "quantization": {"scale": 0.5, "offset": 10}}]})");
  fs::copy_file(dir_ + "/dev/a.raw", dir_ + "/wide/a.raw");
  CliRun shape = Numerics("ref/a__debugID_0.npy wide");
  EXPECT_EQ(shape.status, 2);
  EXPECT_NE(shape.err.find("shape mismatch"), std::string::npos) << shape.err;

  CliRun no_threshold = Numerics("ref dev --metric mse");
  EXPECT_EQ(no_threshold.status, 2);
  EXPECT_NE(no_threshold.err.find("give --threshold"), std::string::npos);

  CliRun usage = Numerics("ref dev --json --csv");
  EXPECT_EQ(usage.status, 2);
  CliRun missing = Numerics("nowhere dev");
  EXPECT_EQ(missing.status, 2);
  EXPECT_NE(missing.err.find("nowhere: does not exist"), std::string::npos) << missing.err;
}

}  // namespace
}  // namespace htpscope::numerics_command_test
