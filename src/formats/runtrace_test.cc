#include "formats/runtrace.h"

#include <fmt/format.h>
#include <gtest/gtest.h>

#include "base/corpus_test_util.h"
#include "base/errors.h"
#include "formats/json_layout_test_util.h"

namespace htpscope::runtrace_test {
namespace {

TEST(RuntraceCorpus, V8c8ExecutionsAndPhaseClocks) {
  HTPSCOPE_REQUIRE_CORPUS("v8c8_256");
  Runtrace r = ReadRuntrace(testing_support::CorpusFile("v8c8_256", "chrometrace_runtrace.json"));
  ASSERT_EQ(r.executions.size(), 3u);
  for (const auto& e : r.executions) {
    ASSERT_EQ(e.phases.size(), 4u);
    EXPECT_EQ(e.graph_name, "v8c8");
    ASSERT_NE(e.Enclosing(), nullptr);
  }
  const RunExecution& first = r.executions[0];
  EXPECT_EQ(first.index, 1);
  const RunPhase* dsp = first.Find("QNN DSP Execute");
  ASSERT_NE(dsp, nullptr);
  EXPECT_EQ(dsp->wall_ticks(), 19296);
  EXPECT_EQ(dsp->wall_cycles(), 1104607);
  EXPECT_DOUBLE_EQ(dsp->wall_us(), 1005.0);  // 19296 / 19.2
  const RunPhase* graph = first.Find("Graph Execute");
  ASSERT_NE(graph, nullptr);
  EXPECT_EQ(graph->start_cycles, 1668827859454);
  EXPECT_EQ(graph->end_cycles, 1668828052197);
  EXPECT_EQ(graph->wall_cycles(), 192743);
  // 192743 cycles / (1909 / 19.2 µs) / 1000 = 1.938538... GHz; the file prints 1.93854.
  EXPECT_NEAR(graph->effective_ghz(), 1.93854, 5e-6);
  EXPECT_NEAR(graph->reported_frequency_ghz, 1.93854, 1e-12);
  const RunPhase* vtcm = first.Find("VTCM Acquire");
  ASSERT_NE(vtcm, nullptr);
  EXPECT_NEAR(vtcm->effective_ghz(), 0.80073, 5e-6);
}

TEST(RuntraceParse, PhasesGroupIntoEnclosingExecutionsWhateverTheOrder) {
  std::string json = R"json({"header": {"artifact_type": "RUN_TRACE"}, "traceEvents": [
{"name": "Graph Execute", "ph": "X", "tid": 0, "pid": 0, "ts": 500, "dur": 192, "args": {"graph_name": "g", "stat_start_ticks": 1500, "stat_end_ticks": 1692, "stat_start_cycles": 20000, "stat_end_cycles": 40000}},
{"name": "QNN DSP Execute", "ph": "X", "tid": 0, "pid": 0, "ts": 0, "dur": 384, "args": {"graph_name": "g", "stat_start_ticks": 1000, "stat_end_ticks": 1384, "stat_start_cycles": 0, "stat_end_cycles": 10000}},
{"name": "QNN DSP Execute", "ph": "X", "tid": 0, "pid": 0, "ts": 400, "dur": 400, "args": {"graph_name": "g", "stat_start_ticks": 1400, "stat_end_ticks": 1800, "stat_start_cycles": 15000, "stat_end_cycles": 45000}},
{"name": "Graph Execute", "ph": "X", "tid": 0, "pid": 0, "ts": 10, "dur": 96, "args": {"graph_name": "g", "stat_start_ticks": 1010, "stat_end_ticks": 1106}},
{ "cat": "__metadata", "pid": 0, "tid": 0, "ph": "M", "name": "thread_name", "args": {"name": "Core 0 Execs"}}
]})json";
  Runtrace r = ParseRuntrace("rt.json", json);
  ASSERT_EQ(r.executions.size(), 2u);
  EXPECT_EQ(r.executions[0].phases.size(), 2u);
  const RunPhase* g1 = r.executions[0].Find("Graph Execute");
  ASSERT_NE(g1, nullptr);
  EXPECT_FALSE(g1->has_cycles);
  EXPECT_EQ(g1->effective_ghz(), 0);
  EXPECT_DOUBLE_EQ(g1->wall_us(), 5.0);  // 96 ticks at 19.2 MHz
  const RunPhase* g2 = r.executions[1].Find("Graph Execute");
  ASSERT_NE(g2, nullptr);
  // 20000 cycles in 192 ticks = 10 µs -> 2.0 GHz
  EXPECT_DOUBLE_EQ(g2->effective_ghz(), 2.0);
  EXPECT_TRUE(r.warnings.empty());
}

TEST(RuntraceErrors, PhaseEndingBeforeItStarts) {
  std::string json = R"json({"header": {"artifact_type": "RUN_TRACE"}, "traceEvents": [
{"name": "Graph Execute", "ph": "X", "args": {"stat_start_ticks": 10, "stat_end_ticks": 5}}]})json";
  try {
    ParseRuntrace("rt.json", json);
    FAIL() << "expected an error";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("ends (tick 5) before it starts (tick 10)"),
              std::string::npos)
        << e.what();
    EXPECT_EQ(e.file(), "rt.json");
    EXPECT_TRUE(e.byte_offset().has_value());
  }
}

std::string Describe(const Runtrace& r) {
  std::string out = fmt::format("{}|{}\n", r.version, fmt::join(r.warnings, ";"));
  for (const RunExecution& e : r.executions) {
    out += fmt::format("exec {} {}\n", e.index, e.graph_name);
    for (const RunPhase& p : e.phases)
      out += fmt::format("  {} {} {} {} {} {} {} {} {}\n", p.name, p.graph_name, p.start_ticks,
                         p.end_ticks, p.start_cycles, p.end_cycles, p.has_cycles,
                         p.reported_time_us, p.reported_frequency_ghz);
  }
  return out;
}

std::string SyntheticRuntrace(int executions) {
  std::string text = R"({"header": {"artifact_type": "RUN_TRACE"}, "traceEvents": [)";
  for (int i = 0; i < executions; ++i) {
    const int64_t t = 1000 * i;
    for (const char* name : {"QNN DSP Execute", "Graph Execute"})
      text += fmt::format(
          R"({}{{"name": "{}", "ph": "X", "tid": 0, "pid": 0, "ts": {}, "dur": 100, "args": {{)"
          R"("graph_name": "g[\"x\"]", "stat_start_ticks": {}, "stat_end_ticks": {},)"
          R"( "stat_start_cycles": {}, "stat_end_cycles": {}, "summary_time_us": 5.2}}}})",
          i || name[0] != 'Q' ? ",\n" : "\n", name, t, t + (name[0] == 'G'),
          t + 100 - (name[0] == 'G'), 20 * t, 20 * t + 1900);
    text += R"(,
{ "cat": "__metadata", "pid": 0, "tid": 0, "ph": "M", "name": "thread_name", "args": {"name": "Core 0 Execs"}})";
  }
  return text + "\n]}\n";
}

TEST(RuntraceStreaming, EveryLayoutPlainAndGzipGivesTheWholeParsesExecutions) {
  struct Input {
    std::string name, text;
  };
  std::vector<Input> inputs = {{"synthetic", SyntheticRuntrace(40)}};
  for (const char* run : {"v8c8_256", "native_256", "chain8_archive"})
    if (std::filesystem::exists(testing_support::CorpusRun(run)))
      inputs.push_back({run, testing_support::ReadTestFile(
                                 testing_support::CorpusFile(run, "chrometrace_runtrace.json"))});
  for (const Input& input : inputs) {
    const std::string whole = Describe(ParseRuntrace(input.name, input.text));
    for (auto layout : testing_support::kAllJsonLayouts) {
      const std::string laid_out = testing_support::Relayout(input.text, layout, 2);
      for (bool gzip : {false, true}) {
        SCOPED_TRACE(::testing::Message()
                     << input.name << " " << testing_support::JsonLayoutName(layout)
                     << (gzip ? " gz" : " plain"));
        const Runtrace r = ReadRuntrace(
            testing_support::WriteTestFile("runtrace_" + input.name, laid_out, gzip), {2, 512});
        EXPECT_GT(r.chunks_parsed, 1u);
        EXPECT_EQ(Describe(r), whole);
      }
    }
  }
}

}  // namespace
}  // namespace htpscope::runtrace_test
