// End-to-end: the htpscope binary's timeline and graph subcommands.
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <cstdio>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>

#include "base/corpus_test_util.h"
#include "base/test_paths.h"

namespace htpscope::timeline_graph_command_test {
namespace {

struct Result {
  int status = -1;
  std::string out;
};

Result RunCli(const std::string& args) {
  Result r;
  std::string cmd = std::string(HTPSCOPE_BINARY) + " " + args + " 2>/dev/null";
  FILE* p = popen(cmd.c_str(), "r");
  if (!p) return r;
  char buf[4096];
  size_t n;
  while ((n = fread(buf, 1, sizeof buf, p)) > 0) r.out.append(buf, n);
  int status = pclose(p);
  r.status = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return r;
}

TEST(TimelineCommand, CorpusGdnJsonAndWellFormedSvg) {
  HTPSCOPE_REQUIRE_CORPUS("gdn_hvx_int16");
  std::string dir = testing_support::TempDir("cli_timeline");
  std::string run = testing_support::CorpusRun("gdn_hvx_int16");
  Result r = RunCli("timeline " + run + " --json --svg " + dir + "/t.svg");
  ASSERT_EQ(r.status, 0) << r.out;
  auto j = nlohmann::json::parse(r.out);
  bool found = false;
  for (const auto& g : j["groups"])
    if (g["name"] == "GdnSolve_0") {
      found = true;
      EXPECT_EQ(g["max_concurrency"], 4);
      EXPECT_EQ(g["span_cycles"], 5966470);
    }
  EXPECT_TRUE(found);
  EXPECT_EQ(j["hmx_hvx_overlap_pct"], 0.0);
  EXPECT_EQ(std::system(("xmllint --noout " + dir + "/t.svg").c_str()), 0);

  Result text = RunCli("timeline " + run + " --width 60 --from GdnSolve_0 --to Output");
  ASSERT_EQ(text.status, 0);
  EXPECT_NE(text.out.find("from the first start of GdnSolve_0, to the last end of Output"),
            std::string::npos)
      << text.out;
  EXPECT_EQ(RunCli("timeline " + run + " --group 'bad=('").status, 2);
  EXPECT_EQ(RunCli("timeline " + run + " --from nothing_named_so").status, 2);
}

TEST(GraphCommand, CorpusNativeJsonDotExpectAndWhatIf) {
  HTPSCOPE_REQUIRE_CORPUS("native_256");
  std::string dir = testing_support::TempDir("cli_graph");
  std::ofstream(dir + "/expect.txt") << "Input -> MatMul_0\nMatMul_0 -> MatMul_1\n";
  std::string run = testing_support::CorpusRun("native_256");
  Result r = RunCli("graph " + run + " --json --dot " + dir + "/g.dot --expect " + dir +
                    "/expect.txt --drop-edge 'Input->MatMul_0'");
  ASSERT_EQ(r.status, 1) << r.out;  // an expected edge is missing: the gate fails
  auto j = nlohmann::json::parse(r.out);
  int constants = 0;
  for (const auto& s : j["shared_tensors"]) constants += s["constant"].get<bool>();
  EXPECT_EQ(constants, 2);
  EXPECT_GT(j["critical_path_cycles"].get<int64_t>(), 0);
  EXPECT_FALSE(j["critical_path"].empty());
  EXPECT_EQ(j["dominant_path"]["qhas_comparison"]["identical"], true);
  ASSERT_EQ(j["expect"]["missing"].size(), 1u);  // the matmuls are independent
  EXPECT_EQ(j["expect"]["missing"][0]["to"], "MatMul_1");
  EXPECT_EQ(j["what_if"].size(), 1u);
  std::ifstream dot(dir + "/g.dot");
  std::string first;
  std::getline(dot, first);
  EXPECT_EQ(first, "digraph htp_graph {");
  EXPECT_EQ(RunCli("graph " + run + " --drop-edge 'Input->Nowhere'").status, 2);
}

}  // namespace
}  // namespace htpscope::timeline_graph_command_test
