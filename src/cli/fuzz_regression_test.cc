// Replays every input under fuzz/regressions/<target>/ (inputs that once
// crashed, hung or broke the error contract of a reader; see
// docs/robustness.md) through the reader that target fuzzes.  Each must be
// read or rejected with an InputError naming the input.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <string>

#include "analysis/summary.h"
#include "base/corpus_test_util.h"
#include "base/errors.h"
#include "base/test_paths.h"
#include "formats/byte_source.h"
#include "formats/etdump.h"
#include "formats/heap_profile.h"
#include "formats/htp_graph.h"
#include "formats/llm_runner_stats.h"
#include "formats/npy.h"
#include "formats/optrace.h"
#include "formats/profile_text.h"
#include "formats/qhas.h"
#include "formats/runtrace.h"
#include "formats/tensor_manifest.h"
#include "model/run_fuzz_support.h"

namespace htpscope::fuzz_regression_test {
namespace {

namespace fs = std::filesystem;

std::string Slurp(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

// The data files tensor_manifest_fuzz.cc gives manifests to refer to.
std::string ManifestDataDir() {
  static const std::string dir = [] {
    std::string d = testing_support::TempDir("regression_manifest");
    std::ofstream(d + "/a.raw", std::ios::binary) << std::string(16, '\x01');
    std::string header = "{'descr': '<f4', 'fortran_order': False, 'shape': (2, 2), }";
    header.resize(117, ' ');
    header += '\n';
    std::ofstream(d + "/b.npy", std::ios::binary)
        << std::string("\x93NUMPY\x01\x00", 8) << static_cast<char>(header.size()) << '\0' << header
        << std::string(16, '\0');
    return d;
  }();
  return dir;
}

// summary_fuzz's input: a whole run (model/run_fuzz_support.h), loaded and
// summarised.
void ReplayRun(const std::string&, const std::string& input) {
  static fuzz::RunFiles files;
  std::string_view failed_part;
  htpscope::Run run = fuzz::LoadFuzzRun(input, files, &failed_part);
  Summarize(run);
}

using Replay = std::function<void(const std::string& path, const std::string& content)>;

// One entry per fuzz target (src/*/<target>_fuzz.cc).
const std::map<std::string, Replay>& Replays() {
  static const std::map<std::string, Replay> replays = {
      {"optrace",
       [](const std::string& p, const std::string& c) { ParseOptrace(p, c.data(), c.size()); }},
      {"optrace_streaming",
       [](const std::string& p, const std::string& c) {
         // The streamed read must accept and reject what the whole parse
         // does, with the same events in the same order (chunk sizes as the
         // fuzz target picks them).
         std::string whole_error, streamed_error;
         Optrace whole, streamed;
         try {
           whole = ParseOptrace(p, c.data(), c.size());
         } catch (const InputError& e) {
           whole_error = e.what();
         }
         try {
           ReadOptraceOptions options;
           options.threads = 2;
           options.chunk_bytes = c.size() % 2 ? 64 : 4096;
           streamed = ReadOptrace(p, options);
         } catch (const InputError& e) {
           streamed_error = e.what();
         }
         EXPECT_EQ(streamed_error, whole_error);
         EXPECT_EQ(streamed.events_read, whole.events_read);
         EXPECT_EQ(streamed.duplicate_slices, whole.duplicate_slices);
         auto flow_ids = [](const Optrace& t) {
           std::vector<uint64_t> ids;
           for (const auto& f : t.flows) ids.push_back(f.flow_id);
           return ids;
         };
         EXPECT_EQ(flow_ids(streamed), flow_ids(whole));
         auto samples = [](const Optrace& t) {
           std::vector<std::pair<int64_t, int64_t>> all;
           for (const auto& [name, track] : t.counters)
             for (const auto& sample : track) all.emplace_back(sample.ts_cycles, sample.value);
           return all;
         };
         EXPECT_EQ(samples(streamed), samples(whole));
         if (!whole_error.empty()) ParseOptrace(p, c.data(), c.size());  // rethrows
       }},
      {"runtrace", [](const std::string& p, const std::string& c) { ParseRuntrace(p, c); }},
      {"htp_graph", [](const std::string& p, const std::string& c) { ParseHtpGraph(p, c); }},
      {"qhas", [](const std::string& p, const std::string& c) { ParseQhas(p, c); }},
      {"byte_source", [](const std::string& p, const std::string&) { ReadWholeFile(p); }},
      {"npy",
       [](const std::string& p, const std::string& c) {
         NpyHeader h = ParseNpyHeader(p, c);
         TensorFileReader reader("t", NpyTensorData(p, h));
         std::vector<double> out(256);
         std::vector<char> scratch;
         for (uint64_t first = 0; first < reader.element_count(); first += out.size())
           reader.Read(first, std::min<uint64_t>(out.size(), reader.element_count() - first),
                       out.data(), scratch);
       }},
      {"profile_text",
       [](const std::string& p, const std::string& c) {
         HeapCheckpointsFromProfile(ParseProfileText(p, c), c);
       }},
      {"profile_csv",
       [](const std::string& p, const std::string& c) {
         HeapCheckpointsFromProfile(ParseProfileCsv(p, c), c);
       }},
      {"heap_profile",
       [](const std::string& p, const std::string& c) {
         if (c.find('{') != std::string::npos)
           HeapCheckpointsFromQnnProfile(ParseQnnProfileJson(p, c));
         else
           ParseExecuTorchHeapFile(p, c);
       }},
      {"summary", [](const std::string& p, const std::string& c) { ReplayRun(p, c); }},
      {"tensor_manifest",
       [](const std::string& p, const std::string& c) {
         ParseTensorManifest(p, simdjson::padded_string(c), ManifestDataDir());
       }},
      {"etdump", [](const std::string& p, const std::string& c) { ParseEtdump(p, c); }},
      {"llm_runner_stats",
       [](const std::string& p, const std::string& c) {
         // Fed in pieces as the fuzz target does: the same error either way.
         std::string whole_error, pieces_error;
         try {
           ParseLlmRunnerStats(p, c);
         } catch (const InputError& e) {
           whole_error = e.what();
         }
         try {
           ParseLlmRunnerStats(p, c, c.empty() ? 1 : 1 + static_cast<uint8_t>(c[0]) % 23);
         } catch (const InputError& e) {
           pieces_error = e.what();
         }
         EXPECT_EQ(pieces_error, whole_error);
         ReadLlmRunnerStats(p);
       }},
  };
  return replays;
}

TEST(FuzzRegression, EveryRecordedInputIsReadOrRejectedCleanly) {
  fs::path root = fs::path(HTPSCOPE_SOURCE_DIR) / "fuzz" / "regressions";
  ASSERT_TRUE(fs::is_directory(root)) << root;
  size_t replayed = 0, targets = 0;
  for (const auto& target : fs::directory_iterator(root)) {
    if (!target.is_directory()) continue;
    std::string name = target.path().filename().string();
    auto it = Replays().find(name);
    ASSERT_NE(it, Replays().end()) << "no replay for fuzz target " << name;
    ++targets;
    size_t of_target = 0;
    for (const auto& input : fs::directory_iterator(target.path())) {
      std::string path = input.path().string();
      SCOPED_TRACE(path);
      ++replayed;
      ++of_target;
      try {
        it->second(path, Slurp(path));
      } catch (const InputError& e) {
        EXPECT_FALSE(e.problem().empty());
        // Problems with a tensor's data file name that file, and its length;
        // a run's parts are files of their own.
        if (name == "npy" || name == "tensor_manifest" || name == "summary") continue;
        EXPECT_EQ(e.file(), path) << e.what();
        // Line-oriented readers may judge a whole file without a line.
        if (name == "profile_text" || name == "profile_csv" || name == "heap_profile" ||
            name == "llm_runner_stats")
          continue;
        EXPECT_TRUE(e.byte_offset() || e.line()) << e.what();
        // A byte offset lies within the input, or one past its end.
        if (e.byte_offset()) {
          EXPECT_LE(*e.byte_offset(), fs::file_size(input.path())) << e.what();
        }
      }
    }
    EXPECT_GT(of_target, 0u) << "fuzz/regressions/" << name << " holds no input";
  }
  // A replay that found nothing to replay tests nothing.
  EXPECT_GT(targets, 0u);
  EXPECT_GE(replayed, targets);
  RecordProperty("replayed", static_cast<int>(replayed));
}

}  // namespace
}  // namespace htpscope::fuzz_regression_test
