#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "model/join.h"
#include "model/run.h"

namespace htpscope::join_checks_test {
namespace {

// A run of optrace op IDs beside an HTP graph, a profile and QHAS op IDs,
// each sharing a known number of IDs with the optrace.  The optrace's IDs
// are listed out of order and the profile's with repeats, as tables may.
struct SharedIdsRun {
  Run run;

  SharedIdsRun() {
    run.artifacts = {{"trace.json", ArtifactKind::kOptrace, "", "", ""},
                     {"graph_htp.json", ArtifactKind::kHtpGraph, "", "", ""},
                     {"profile.txt", ArtifactKind::kProfileText, "", "", ""},
                     {"qhas.json", ArtifactKind::kQhas, "", "", ""}};
    // Op IDs: QNN op id in the low 32 bits.  Listed by start, not by ID.
    for (uint64_t id : {0x0000000500000007ull, 0x0000000100000002ull, 0x0000000300000003ull,
                        0x0000000200000002ull, 0x0000000900000010ull}) {
      OpInstanceRow op;
      op.op_id = id;
      run.op_instances.push_back(op);
    }
    // Graph nodes by ID: 2 of 6 occur in the optrace.
    for (uint64_t id : {0x0000000000000001ull, 0x0000000100000002ull, 0x0000000200000001ull,
                        0x0000000500000007ull, 0x0000000600000000ull, 0x0000000a00000000ull}) {
      GraphNodeRow node;
      node.id = id;
      run.graph_nodes.push_back(node);
    }
    // Executed profile OpId_n 2, 4, 5, 6 (2 listed twice; 16 has no cycles,
    // one node no OpId): 1 of the 4 distinct ones, 2, is a QNN op id of the
    // optrace (counting 16 or each 2 would give 2 of 5).
    auto node = [&](std::optional<uint32_t> op_id, int64_t cycles) {
      ProfileNodeRow n;
      n.op_id = op_id;
      n.cycles = cycles;
      run.profile_nodes.push_back(n);
    };
    node(4, 10);
    node(2, 5);
    node(16, 0);
    node(6, 7);
    node(std::nullopt, 9);
    node(2, 8);
    node(5, 1);
    // QHAS: distinct and sorted; 3 of 5 occur in the optrace.
    run.qhas_op_ids = {0x0000000100000002ull, 0x0000000200000002ull, 0x0000000400000000ull,
                       0x0000000900000010ull, 0x0000000b00000000ull};
  }
};

bool HasMessage(const Run& run, const std::string& code, const std::string& text) {
  for (const WarningRow& w : run.warnings)
    if (WarningName(w.code) == code && w.message.find(text) != std::string::npos) return true;
  return false;
}

TEST(JoinChecks, SharedIdCountsAreExactWhateverTheTablesOrder) {
  SharedIdsRun s;
  LoadOptions allow;
  allow.allow_mismatch = true;
  CheckArtifactsBelongTogether(s.run, allow);
  EXPECT_TRUE(HasMessage(s.run, "mismatched_artifacts",
                         "graph_htp.json: does not belong to the same run: 2 of 6 HTP graph node "
                         "IDs occur in the optrace trace.json"));
  EXPECT_TRUE(HasMessage(s.run, "qhas_mismatch", "2 of 5 QHAS op IDs are absent from the optrace"));
  EXPECT_TRUE(HasMessage(s.run, "mismatched_artifacts",
                         "1 of 4 executed profile OpId_n occur as QNN op ids in the optrace"));
}

TEST(JoinChecks, GraphNodesOutOfIdOrderAreCountedAlike) {
  SharedIdsRun s;
  std::swap(s.run.graph_nodes.front(), s.run.graph_nodes.back());
  LoadOptions allow;
  allow.allow_mismatch = true;
  CheckArtifactsBelongTogether(s.run, allow);
  EXPECT_TRUE(HasMessage(s.run, "mismatched_artifacts", "2 of 6 HTP graph node IDs"));
}

TEST(JoinChecks, MostIdsSharedIsOneRun) {
  SharedIdsRun s;
  s.run.graph_nodes.resize(2);  // 0x1 (absent) and 0x100000002 (present): half is enough
  s.run.qhas_op_ids = {0x0000000100000002ull, 0x0000000900000010ull};
  s.run.profile_nodes.resize(2);  // OpId 4 (absent) and 2 (present)
  CheckArtifactsBelongTogether(s.run, LoadOptions{});
  EXPECT_TRUE(s.run.warnings.empty());
}

}  // namespace
}  // namespace htpscope::join_checks_test
