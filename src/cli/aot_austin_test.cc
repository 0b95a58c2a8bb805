// A real austin profile of a Python workload whose stage costs are known:
// austin samples the workload, `htpscope aot` attributes the samples to the
// built-in executorch-qnn stages, and each stage's seconds must be within
// 10 % of the time the workload itself measured for it.
//
// Skipped (with the reason) when austin is not installed or cannot sample
// any Python interpreter here: austin attaches to the interpreter it starts
// (ptrace-level access to its memory), and Debian bookworm's austin 1.0.1
// understands CPython up to 3.8 only, so older interpreters (e.g. pyenv's)
// are tried after python3.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "cli/cli_test_util.h"

namespace htpscope::aot_austin_test {
namespace {

namespace fs = std::filesystem;
using testing_support::RunCli;
using testing_support::Slurp;
using testing_support::TempDir;

// Stages spin on the wall clock, so their wall time (what austin's default
// mode measures) is known however busy the machine is.  The workload writes
// the wall time it spent in each stage.
constexpr char kWorkload[] = R"(import json, sys, time

def spin(seconds):
    end = time.perf_counter() + seconds
    while time.perf_counter() < end:
        pass

def export():
    spin(0.5)

def prepare_pt2e():
    spin(0.3)

def _calibrate():
    for _ in range(4):
        spin(0.2)

def convert_pt2e():
    spin(0.2)

def define_node():
    spin(0.25)

def to_edge_transform_and_lower():
    spin(0.4)
    for _ in range(4):
        define_node()

def main():
    t0 = time.perf_counter()
    export()
    t1 = time.perf_counter()
    prepare_pt2e()
    _calibrate()
    convert_pt2e()
    t2 = time.perf_counter()
    to_edge_transform_and_lower()
    t3 = time.perf_counter()
    with open(sys.argv[1], "w") as out:
        json.dump({"other": t1 - t0, "quantize": t2 - t1, "compile": t3 - t2}, out)

main()
)";

bool Shell(const std::string& command) { return std::system(command.c_str()) == 0; }

bool HaveAustin() { return Shell("command -v austin > /dev/null 2>&1"); }

// Interpreters to try: $HTPSCOPE_AUSTIN_PYTHON, python3, then the versioned
// ones of /usr/bin and pyenv, oldest last.
std::vector<std::string> CandidatePythons() {
  std::vector<std::string> out;
  if (const char* env = std::getenv("HTPSCOPE_AUSTIN_PYTHON")) out.push_back(env);
  out.push_back("python3");
  std::vector<std::string> versioned;
  std::error_code ec;
  for (const auto& e : fs::directory_iterator("/usr/bin", ec)) {
    std::string name = e.path().filename().string();
    if (name.rfind("python3.", 0) == 0 &&
        name.find_first_not_of("0123456789", 8) == std::string::npos)
      versioned.push_back(e.path().string());
  }
  std::string pyenv = std::getenv("PYENV_ROOT") ? std::getenv("PYENV_ROOT")
                      : std::getenv("HOME")     ? std::string(std::getenv("HOME")) + "/.pyenv"
                                                : "";
  if (!pyenv.empty())
    for (const auto& e : fs::directory_iterator(pyenv + "/versions", ec))
      if (fs::exists(e.path() / "bin/python3"))
        versioned.push_back((e.path() / "bin/python3").string());
  std::sort(versioned.rbegin(), versioned.rend());
  out.insert(out.end(), versioned.begin(), versioned.end());
  return out;
}

// Whether austin gets samples out of `python` on a short spin.
bool AustinCanSample(const std::string& python, const std::string& dir) {
  std::string probe = dir + "/probe.txt";
  std::string command = "timeout 20 austin -i 1000 -o '" + probe + "' '" + python +
                        "' -c 'import time\nt=time.perf_counter()\n"
                        "while time.perf_counter()-t<0.3: pass' > /dev/null 2>&1";
  fs::remove(probe);
  return Shell(command) && Slurp(probe).find("<module>") != std::string::npos;
}

TEST(AotAustin, RealProfileMatchesTheWorkloadsStageSplit) {
  if (!HaveAustin()) GTEST_SKIP() << "austin is not installed (Debian package austin)";
  std::string dir = TempDir("aot_austin");
  std::string python;
  for (const auto& candidate : CandidatePythons())
    if (AustinCanSample(candidate, dir)) {
      python = candidate;
      break;
    }
  if (python.empty())
    GTEST_SKIP() << "austin cannot sample any Python interpreter here (it cannot attach, or "
                    "this austin predates every installed CPython)";

  std::ofstream(dir + "/lower.py") << kWorkload;
  std::string profile = dir + "/austin.txt", truth = dir + "/truth.json";
  ASSERT_TRUE(Shell("timeout 60 austin -i 1000 -o '" + profile + "' '" + python + "' '" + dir +
                    "/lower.py' '" + truth + "' > /dev/null 2>&1"))
      << "austin failed on the workload with " << python;
  auto known = nlohmann::json::parse(Slurp(truth));

  auto r = RunCli("aot " + profile + " --json", "aot_austin_cli");
  ASSERT_EQ(r.status, 0) << r.err;
  auto j = nlohmann::json::parse(r.out);
  std::map<std::string, double> seconds;
  for (const auto& s : j["stages"]) seconds[s["stage"]] = s["seconds"].get<double>();
  for (const char* stage : {"quantize", "compile"}) {
    double expected = known[stage].get<double>();
    EXPECT_NEAR(seconds[stage], expected, 0.1 * expected) << stage << " with " << python << "\n"
                                                          << r.out;
  }
  // "other" also holds the interpreter's start-up and exit.
  EXPECT_GE(seconds["other"], 0.9 * known["other"].get<double>()) << r.out;
  // The split between the two stages, as a share of both.
  double both = seconds["quantize"] + seconds["compile"];
  double known_both = known["quantize"].get<double>() + known["compile"].get<double>();
  double share = seconds["quantize"] / both,
         known_share = known["quantize"].get<double>() / known_both;
  EXPECT_NEAR(share, known_share, 0.1 * known_share) << r.out;
}

}  // namespace
}  // namespace htpscope::aot_austin_test
