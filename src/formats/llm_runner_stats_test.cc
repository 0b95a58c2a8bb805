// The ExecuTorch LLM runner stats reader against logs written from the
// definition (ExecuTorch extension/llm/runner/stats.h, print_report and
// stats_to_json_string; the QNN llama runner's statsToJsonString).
#include "formats/llm_runner_stats.h"

#include <gtest/gtest.h>

#include <fstream>
#include <string>

#include "base/corpus_test_util.h"
#include "base/errors.h"
#include "formats/artifact_kind.h"
#include "formats/json_layout_test_util.h"
#include "formats/linting_example_test_util.h"

namespace htpscope::llm_runner_stats_test {
namespace {

using testing_support::Gzip;
using testing_support::ProfileTestdata;
using testing_support::TempDir;

// The full object of the current stats.h, without GPU fields.
constexpr char kFull[] =
    R"({"prompt_tokens":12,"generated_tokens":40,"model_load_start_ms":1000,)"
    R"("model_load_end_ms":1800,"inference_start_ms":2000,"inference_end_ms":3100,)"
    R"("prompt_eval_end_ms":2090,"first_token_ms":2095,"aggregate_sampling_time_ms":7,)"
    R"("SCALING_FACTOR_UNITS_PER_SECOND":1000})";

std::string ErrorOf(const std::string& text) {
  try {
    ParseLlmRunnerStats("run.log", text);
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

std::string WriteFile(const std::string& dir, const std::string& name, const std::string& bytes) {
  const std::string path = TempDir(dir) + "/" + name;
  std::ofstream(path, std::ios::binary) << bytes;
  return path;
}

TEST(LlmRunnerStats, ReadsTheExampleLogLineByLine) {
  const std::string path = ProfileTestdata("llm_runner_stats.log");
  EXPECT_EQ(DetectArtifactKind(path), ArtifactKind::kLlmRunnerStats);
  const LlmRunnerStats s = ReadLlmRunnerStats(path);
  EXPECT_EQ(s.log_lines, 35u);
  EXPECT_EQ(s.other_observer_lines, 0u);
  EXPECT_TRUE(s.unknown_keys.empty());
  ASSERT_EQ(s.lines.size(), 3u);
  const LlmRunnerStatsLine& first = s.lines[0];
  EXPECT_EQ(first.line, 8u);
  EXPECT_EQ(first.prompt_tokens, 27);
  EXPECT_EQ(first.generated_tokens, 96);
  EXPECT_EQ(first.model_load_start_ms, 93450120);
  EXPECT_EQ(first.model_load_end_ms, 93452098);
  EXPECT_EQ(first.inference_start_ms, 93452101);
  EXPECT_EQ(first.inference_end_ms, 93455344);
  EXPECT_EQ(first.prompt_eval_end_ms, 93452315);
  EXPECT_EQ(first.first_token_ms, 93452315);
  EXPECT_EQ(first.aggregate_sampling_time_ms, 41);
  EXPECT_EQ(first.units_per_second, 1000);
  EXPECT_FALSE(first.gpu_total_bytes);
  EXPECT_FALSE(first.gpu_peak_usage_mb);
  EXPECT_EQ(s.lines[1].line, 18u);
  EXPECT_EQ(s.lines[1].inference_start_ms, 93455400);
  EXPECT_EQ(s.lines[2].line, 28u);
  EXPECT_EQ(s.lines[2].aggregate_sampling_time_ms, 118);
}

TEST(LlmRunnerStats, OlderFieldSetGivesAbsentFiguresNotZeros) {
  const LlmRunnerStats s =
      ParseLlmRunnerStats("old.log",
                          "loading\nPyTorchObserver {\"prompt_tokens\":5,\"generated_tokens\":9,"
                          "\"inference_start_ms\":100,\"prompt_eval_end_ms\":130}\n");
  ASSERT_EQ(s.lines.size(), 1u);
  const LlmRunnerStatsLine& l = s.lines[0];
  EXPECT_EQ(l.line, 2u);
  EXPECT_EQ(l.prompt_tokens, 5);
  EXPECT_EQ(l.inference_start_ms, 100);
  EXPECT_EQ(l.prompt_eval_end_ms, 130);
  EXPECT_FALSE(l.model_load_start_ms);
  EXPECT_FALSE(l.inference_end_ms);
  EXPECT_FALSE(l.first_token_ms);
  EXPECT_FALSE(l.aggregate_sampling_time_ms);
  EXPECT_FALSE(l.units_per_second);
  EXPECT_EQ(l.UnitsPerSecond(), 1000);  // the definition's constant
}

TEST(LlmRunnerStats, GpuFieldsOfCudaBuilds) {
  const LlmRunnerStats s = ParseLlmRunnerStats(
      "gpu.log",
      R"(PyTorchObserver {"prompt_tokens":3,"generated_tokens":4,"model_load_start_ms":1,)"
      R"("model_load_end_ms":2,"inference_start_ms":3,"inference_end_ms":9,)"
      R"("prompt_eval_end_ms":5,"first_token_ms":5,"aggregate_sampling_time_ms":0,)"
      R"("gpu_total_bytes":25769803776,"gpu_free_before_load_bytes":25000000000,)"
      R"("gpu_free_after_load_bytes":21000000000,"gpu_free_after_generate_bytes":20500000000,)"
      R"("gpu_peak_usage_mb":5004.25,"SCALING_FACTOR_UNITS_PER_SECOND":1000})");
  ASSERT_EQ(s.lines.size(), 1u);
  const LlmRunnerStatsLine& l = s.lines[0];
  EXPECT_EQ(l.gpu_total_bytes, 25769803776);
  EXPECT_EQ(l.gpu_free_before_load_bytes, 25000000000);
  EXPECT_EQ(l.gpu_free_after_load_bytes, 21000000000);
  EXPECT_EQ(l.gpu_free_after_generate_bytes, 20500000000);
  EXPECT_DOUBLE_EQ(*l.gpu_peak_usage_mb, 5004.25);
  EXPECT_EQ(s.log_lines, 1u);  // no newline after the last line
}

TEST(LlmRunnerStats, CrlfPrefixesAndOtherLinesAround) {
  const std::string log = std::string("I/ExecuTorch: loading\r\n") +
                          "Paris is the capital. PyTorchObserver " + kFull + " \r\n" +
                          "I 00:00:01 executorch:stats.h:108] \tPrompt Tokens: 12\r\n" +
                          "PyTorchObserver " + kFull + "\r\n";
  const LlmRunnerStats s = ParseLlmRunnerStats("crlf.log", log);
  ASSERT_EQ(s.lines.size(), 2u);
  EXPECT_EQ(s.lines[0].line, 2u);
  EXPECT_EQ(s.lines[1].line, 4u);
  EXPECT_EQ(s.lines[1].first_token_ms, 2095);
  EXPECT_EQ(s.log_lines, 4u);
}

TEST(LlmRunnerStats, PiecesOfAnySizeReadTheSame) {
  const std::string log = std::string(70000, 'x') + " PyTorchObserver " + kFull + "\n" +
                          "token PyTorchObserve" + "\nPyTorchObserver " + kFull;
  const LlmRunnerStats whole = ParseLlmRunnerStats("p.log", log);
  ASSERT_EQ(whole.lines.size(), 2u);
  EXPECT_EQ(whole.lines[0].line, 1u);
  EXPECT_EQ(whole.lines[1].line, 3u);
  for (size_t piece : {1, 2, 3, 7, 16, 17, 18, 4096, 65536}) {
    const LlmRunnerStats s = ParseLlmRunnerStats("p.log", log, piece);
    ASSERT_EQ(s.lines.size(), 2u) << piece;
    EXPECT_EQ(s.lines[0].line, 1u) << piece;
    EXPECT_EQ(s.lines[1].line, 3u) << piece;
    EXPECT_EQ(s.lines[1].inference_end_ms, 3100) << piece;
    EXPECT_EQ(s.log_lines, 3u) << piece;
  }
}

TEST(LlmRunnerStats, GzipLogIsReadAndRecognised) {
  const std::string text = "model loaded\nPyTorchObserver " + std::string(kFull) + "\n";
  const std::string path = WriteFile("llm_gzip", "run.log.gz", Gzip(text));
  EXPECT_EQ(DetectArtifactKind(path), ArtifactKind::kLlmRunnerStats);
  const LlmRunnerStats s = ReadLlmRunnerStats(path);
  ASSERT_EQ(s.lines.size(), 1u);
  EXPECT_EQ(s.lines[0].line, 2u);
  EXPECT_EQ(s.lines[0].prompt_eval_end_ms, 2090);
}

TEST(LlmRunnerStats, RecognisedPastThePrefixWithinTheBoundedScan) {
  // A long model-loading log: the first stats line after the 16 KiB prefix.
  std::string log;
  while (log.size() < 3 * kArtifactSniffBytes) log += "I 00:00:00.1 executorch: loading\n";
  log += "PyTorchObserver " + std::string(kFull) + "\n";
  EXPECT_EQ(DetectArtifactKindFromPrefix(log.substr(0, kArtifactSniffBytes)),
            ArtifactKind::kUnknown);
  EXPECT_EQ(DetectArtifactKind(WriteFile("llm_late", "late.log", log)),
            ArtifactKind::kLlmRunnerStats);
  // Past the scan: not recognised by content.
  std::string far(kLlmRunnerScanBytes + 1024, 'y');
  for (size_t i = 100; i < far.size(); i += 100) far[i] = '\n';
  far += "PyTorchObserver " + std::string(kFull) + "\n";
  EXPECT_EQ(DetectArtifactKind(WriteFile("llm_far", "far.log", far)), ArtifactKind::kUnknown);
  // A binary file is not scanned.
  std::string binary(2 * kArtifactSniffBytes, '\0');
  binary += "PyTorchObserver " + std::string(kFull) + "\n";
  EXPECT_EQ(DetectArtifactKind(WriteFile("llm_bin", "b.bin", binary)), ArtifactKind::kUnknown);
}

TEST(LlmRunnerStats, BenchmarkObserverLinesArePassedOver) {
  constexpr char kBench[] =
      R"(PyTorchObserver {"type": "NET", "unit": "us", "metric": "latency", "value": "5123"})";
  EXPECT_FALSE(LooksLikeLlmRunnerStats(std::string(kBench) + "\n"));
  EXPECT_TRUE(LooksLikeLlmRunnerStats(std::string(kBench) + "\nPyTorchObserver {\"prompt"));
  const LlmRunnerStats s =
      ParseLlmRunnerStats("b.log", std::string(kBench) + "\nPyTorchObserver " + kFull + "\n");
  EXPECT_EQ(s.other_observer_lines, 1u);
  ASSERT_EQ(s.lines.size(), 1u);
  EXPECT_TRUE(s.unknown_keys.empty());  // the benchmark line's keys are not the runner's
  EXPECT_NE(ErrorOf(std::string(kBench) + "\n").find("PyTorch's benchmark observer"),
            std::string::npos);
}

TEST(LlmRunnerStats, UnknownKeysAreListedOnce) {
  const std::string extra = R"(PyTorchObserver {"prompt_tokens":1,"generated_tokens":2,)"
                            R"("token_encode_end_ms":4,"nested":{"a":[1,2]}})";
  const LlmRunnerStats s = ParseLlmRunnerStats("u.log", extra + "\n" + extra + "\n");
  EXPECT_EQ(s.unknown_keys, (std::vector<std::string>{"token_encode_end_ms", "nested"}));
}

TEST(LlmRunnerStats, AlmostAStatsLineIsRefusedNamingTheLineAndWhatIsWrong) {
  struct Case {
    std::string log;
    std::string expected;
  };
  const Case cases[] = {
      {"ok\nPyTorchObserver {\"prompt_tokens\":12,\"generated_tokens\":\n",
       "run.log:2: column 56: the PyTorchObserver object is not closed on its line"},
      {"PyTorchObserver {\"prompt_tokens\":1,\"generated_tokens\":2} tail\n",
       "run.log:1: column 57: text after the PyTorchObserver object: \" tail\""},
      {"PyTorchObserver {\"prompt_tokens\":12,,\"generated_tokens\":2}\n",
       "run.log:1: column 37: PyTorchObserver object: PyTorchObserver (malformed or truncated "
       "JSON)"},
      {"PyTorchObserver {\"prompt_tokens\":1,\"prompt_tokens\":1,\"generated_tokens\":2}\n",
       "\"prompt_tokens\" is given twice"},
      {"PyTorchObserver {\"prompt_tokens\":-1,\"generated_tokens\":2}\n",
       "prompt_tokens is -1: a token count is never negative"},
      {"PyTorchObserver {\"prompt_tokens\":1,\"generated_tokens\":2,\"first_token_ms\":-5}\n",
       "first_token_ms is -5"},
      {"PyTorchObserver {\"prompt_tokens\":\"12\",\"generated_tokens\":2}\n", "prompt_tokens"},
      {"PyTorchObserver {\"prompt_tokens\":1.5,\"generated_tokens\":2}\n", "prompt_tokens"},
      {"PyTorchObserver {\"prompt_tokens\":1,\"inference_start_ms\":3}\n",
       "run.log:1: the PyTorchObserver object has no \"generated_tokens\""},
      {"PyTorchObserver {}\n", "no \"prompt_tokens\""},
      {"PyTorchObserver {\"prompt_tokens\":1,\"generated_tokens\":2,"
       "\"SCALING_FACTOR_UNITS_PER_SECOND\":0}\n",
       "the units per second are positive"},
      {"PyTorchObserver {\"prompt_tokens\":1,\"generated_tokens\":2,"
       "\"inference_end_ms\":9300000000000000}\n",
       "inference_end_ms is 9300000000000000: in µs (1000 units per second) it does not fit"},
      {"PyTorchObserver {\"prompt_tokens\":1,\"generated_tokens\":2,\"gpu_peak_usage_mb\":-1}\n",
       "gpu_peak_usage_mb is -1"},
      {"PyTorchObserver {" + std::string(kLlmRunnerMaxObjectBytes, ' ') + "}\n",
       "run.log:1: the PyTorchObserver object is longer than 64 KiB"},
      {"just the generated text\n", "run.log: no PyTorchObserver stats line"},
      {"", "no PyTorchObserver stats line"},
  };
  for (const Case& c : cases) {
    const std::string error = ErrorOf(c.log);
    EXPECT_NE(error.find(c.expected), std::string::npos)
        << c.log.substr(0, 120) << "\n  gave: " << error;
  }
  EXPECT_EQ(
      ErrorOf("x\n\nPyTorchObserver {\"prompt_tokens\":1,\"generated_tokens\":[}\n").substr(0, 11),
      "run.log:3: ");
}

TEST(LlmRunnerStats, UnitsConvertToMicroseconds) {
  EXPECT_EQ(LlmRunnerUnitsToUs(1234, 1000), 1234000);
  EXPECT_EQ(LlmRunnerUnitsToUs(1234, 1000000), 1234);
  EXPECT_EQ(LlmRunnerUnitsToUs(5, 1), 5000000);
  EXPECT_EQ(LlmRunnerUnitsToUs(2, 3), 666667);  // rounded to the nearest µs
  EXPECT_EQ(LlmRunnerUnitsToUs(1, 0), std::nullopt);
  EXPECT_EQ(LlmRunnerUnitsToUs(INT64_MAX / 10, 1000), std::nullopt);
}

}  // namespace
}  // namespace htpscope::llm_runner_stats_test
