// The profile's phases table, the graph choice keeping them, and the check
// that per-node cycles add up to their execution's root line.
#include <gtest/gtest.h>

#include "formats/qnn_net_run_test_util.h"
#include "model/run.h"

namespace htpscope::join_phases_test {
namespace {

const ProfilePhaseRow* FindPhase(const Run& run, ProfilePhase phase, std::string_view stage,
                                 std::optional<uint32_t> graph = std::nullopt) {
  for (const auto& p : run.profile_phases)
    if (p.phase == phase && p.stage == stage && (!graph || p.graph == graph)) return &p;
  return nullptr;
}

const CrossCheckRow* FindCheck(const Run& run, std::string_view prefix) {
  for (const auto& c : run.cross_checks)
    if (c.name.rfind(prefix, 0) == 0) return &c;
  for (const auto& c : run.cross_checks) ADD_FAILURE() << "cross-check: " << c.name;
  return nullptr;
}

// netrun_phases.csv: the phases in clock order (DE-INIT, printed before the
// executions, comes last), the finalize stages under their parent.
TEST(ProfilePhasesTable, EveryPhaseInClockOrder) {
  htpscope::Run run = LoadRun({testing_support::ProfileTestdata("netrun_phases.csv")});
  ASSERT_EQ(run.graphs.size(), 1u);
  EXPECT_EQ(run.graphs[0].name, "g");
  EXPECT_EQ(run.graphs[0].executions, 4u);
  ASSERT_EQ(run.executions.size(), 4u);
  EXPECT_TRUE(run.executions[0].cold);
  EXPECT_EQ(run.executions[0].netrun_us, 40);
  // 2 init + 1 compose + 5 finalize + 4 × 5 execute + 1 ips + 2 deinit.
  ASSERT_EQ(run.profile_phases.size(), 31u);
  EXPECT_EQ(run.profile_phases.front().phase, ProfilePhase::kInit);
  EXPECT_EQ(run.profile_phases.back().phase, ProfilePhase::kDeinit);
  EXPECT_EQ(run.profile_phases[run.profile_phases.size() - 3].phase, ProfilePhase::kExecuteIps);
  const ProfilePhaseRow* opt = FindPhase(run, ProfilePhase::kFinalize, "Graph Optimizations");
  ASSERT_TRUE(opt);
  EXPECT_EQ(opt->graph, 0u);
  EXPECT_EQ(opt->parent_stage, "QNN (finalize) time");
  EXPECT_EQ(opt->source, "Backend");
  EXPECT_EQ(opt->value, 600);
  EXPECT_EQ(opt->unit, "us");
  EXPECT_EQ(opt->timestamp_us, 3000u);
  const ProfilePhaseRow* init = FindPhase(run, ProfilePhase::kInit, "NetRun");
  ASSERT_TRUE(init);
  EXPECT_FALSE(init->graph);
  EXPECT_EQ(init->value, 1400);
  const ProfilePhaseRow* power =
      FindPhase(run, ProfilePhase::kExecute, "Time for HVX + HMX power on and acquire");
  ASSERT_TRUE(power);
  EXPECT_EQ(power->execution, 0u);
  EXPECT_EQ(power->value, 35);
  // Every execution's per-node cycles add up to its root line.
  const CrossCheckRow* sums =
      FindCheck(run, "Σ per-node cycles = Accelerator (execute) time (cycles)");
  ASSERT_TRUE(sums);
  EXPECT_TRUE(sums->agree);
  EXPECT_EQ(sums->a, 4);
  EXPECT_EQ(sums->b, 4);
  for (const auto& w : run.warnings) EXPECT_NE(WarningName(w.code), "reader") << w.message;
}

// netrun_two_graphs.csv: each graph's finalize is its own; --graph keeps one
// graph's phases and the application's; decode's execution 3 does not add up.
TEST(ProfilePhasesTable, TwoGraphsAndTheGraphChoice) {
  htpscope::Run run = LoadRun({testing_support::ProfileTestdata("netrun_two_graphs.csv")});
  ASSERT_EQ(run.graphs.size(), 2u);
  EXPECT_EQ(run.graphs[0].name, "p");
  EXPECT_EQ(run.graphs[1].name, "d");
  EXPECT_EQ(run.graphs[0].executions, 3u);
  EXPECT_EQ(run.graphs[1].executions, 3u);
  const ProfilePhaseRow* p = FindPhase(run, ProfilePhase::kFinalize, "NetRun", 0);
  const ProfilePhaseRow* d = FindPhase(run, ProfilePhase::kFinalize, "NetRun", 1);
  ASSERT_TRUE(p && d);
  EXPECT_EQ(p->value, 100);
  EXPECT_EQ(d->value, 50);
  const CrossCheckRow* sums_p = FindCheck(
      run, "Σ per-node cycles = Accelerator (execute) time (cycles) (per execution) of p");
  const CrossCheckRow* sums_d = FindCheck(
      run, "Σ per-node cycles = Accelerator (execute) time (cycles) (per execution) of d");
  ASSERT_TRUE(sums_p && sums_d);
  EXPECT_TRUE(sums_p->agree);
  EXPECT_FALSE(sums_d->agree);
  EXPECT_EQ(sums_d->a, 2);
  EXPECT_EQ(sums_d->b, 3);
  EXPECT_NE(sums_d->note.find("execution 3: Σ 11 vs 12"), std::string::npos) << sums_d->note;

  LoadOptions options;
  options.graph = "d";
  htpscope::Run decode =
      LoadRun({testing_support::ProfileTestdata("netrun_two_graphs.csv")}, options);
  ASSERT_EQ(decode.graphs.size(), 1u);
  EXPECT_EQ(decode.executions.size(), 3u);
  EXPECT_FALSE(FindPhase(decode, ProfilePhase::kFinalize, "NetRun", 1));
  const ProfilePhaseRow* kept = FindPhase(decode, ProfilePhase::kFinalize, "NetRun", 0);
  ASSERT_TRUE(kept);
  EXPECT_EQ(kept->value, 50);
  const ProfilePhaseRow* stage = FindPhase(decode, ProfilePhase::kFinalize, "Graph Optimizations");
  ASSERT_TRUE(stage);
  EXPECT_EQ(stage->value, 30);
  EXPECT_EQ(stage->parent_stage, "QNN (finalize) time");  // the parent moved with the block
  ASSERT_TRUE(FindPhase(decode, ProfilePhase::kInit, "NetRun"));
  ASSERT_TRUE(FindPhase(decode, ProfilePhase::kDeinit, "NetRun"));
}

// The real prefill CSV: ten executions, the FINALIZE row none of them, each
// one's 70 per-node lines adding up to its Accelerator (execute) time.
TEST(ProfilePhasesTable, CorpusQnnNetRunPrefillSkipsWithoutCorpus) {
  HTPSCOPE_REQUIRE_QNN_NET_RUN_CORPUS();
  htpscope::Run run = LoadRun({testing_support::QnnNetRunCsv("prefill")});
  ASSERT_EQ(run.graphs.size(), 1u);
  EXPECT_EQ(run.graphs[0].name, "tiny_block_prefill");
  ASSERT_EQ(run.executions.size(), 10u);
  EXPECT_EQ(run.executions[0].netrun_us, 8540);
  EXPECT_EQ(run.executions[0].accelerator_cycles, 599195);
  EXPECT_EQ(run.executions[9].accelerator_cycles, 360575);
  const ProfilePhaseRow* opt = FindPhase(run, ProfilePhase::kFinalize, "Graph Optimizations");
  ASSERT_TRUE(opt);
  EXPECT_EQ(opt->value, 40652);
  const CrossCheckRow* sums =
      FindCheck(run, "Σ per-node cycles = Accelerator (execute) time (cycles)");
  ASSERT_TRUE(sums);
  EXPECT_TRUE(sums->agree);
  EXPECT_EQ(sums->b, 10);
  for (const auto& w : run.warnings) EXPECT_NE(WarningName(w.code), "reader") << w.message;
}

}  // namespace
}  // namespace htpscope::join_phases_test
