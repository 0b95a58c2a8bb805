// The module tree of an ONNX Runtime QNN EP profile whose rows name the
// ONNX nodes behind each QNN op ("ONNX Source Ops"): an op is placed by the
// first of them.  Input: src/formats/testdata/ort_qnn_ep_sessions.csv
// (profile_csv_sessions_test.cc describes it): three sessions, the first two
// with the column, the third without.  Expected times are each op's median
// cycles over its session's executions 2..N, read off the file and summed by
// hand.
#include <gtest/gtest.h>

#include <string>

#include "analysis/module_run.h"
#include "formats/linting_example_test_util.h"
#include "model/fake_run_test_util.h"

namespace htpscope::module_run_source_ops_test {
namespace {

using testing_support::ProfileTestdata;

const ModuleNode& NodeAt(const ModuleTree& t, const std::string& path) {
  const ModuleNode* n = t.Find(path);
  EXPECT_TRUE(n) << path;
  static const ModuleNode kNone;
  return n ? *n : kNone;
}

TEST(RunModulesSourceOps, OpsArePlacedByTheirFirstOnnxSourceOp) {
  htpscope::Run run = LoadRun({ProfileTestdata("ort_qnn_ep_sessions.csv")});
  ASSERT_EQ(run.graphs.size(), 3u);
  EXPECT_EQ(run.graphs[1].name, "session 2");
  RunModules m = ComputeRunModules(run);
  ASSERT_TRUE(m.available());
  EXPECT_EQ(m.source, "profile");
  EXPECT_EQ(m.tree.basis, ModuleTimeBasis::kSteadyMedianCycles);
  EXPECT_EQ(m.tree.ops.size(), 21u);  // 7 ops in each of 3 sessions
  // Sessions 1 and 2 name the sources of 5 ops each (Input and Output have
  // an empty cell).
  ASSERT_EQ(m.notes.size(), 1u);
  EXPECT_NE(m.notes[0].find("10 op(s) named and placed by their first ONNX source op"),
            std::string::npos)
      << m.notes[0];

  // Session 2, medians of executions 2..3: layer1's Conv 73,000, its Add
  // 5,300, and the Convert (an EP name without a scope, built from
  // "/layer1/block.0/DequantizeLinear;...") 3,200 land in layer1/block.0.
  EXPECT_DOUBLE_EQ(NodeAt(m.tree, "graph:session 2/layer1/block.0").time, 73000 + 5300 + 3200);
  EXPECT_EQ(NodeAt(m.tree, "graph:session 2/layer1/block.0").ops, 3);
  EXPECT_DOUBLE_EQ(NodeAt(m.tree, "graph:session 2/layer1/block.0/conv").time, 73000);
  // The stem's Conv fused with its Relu: placed by the Conv.
  const ModuleNode& stem = NodeAt(m.tree, "graph:session 2/stem/conv");
  EXPECT_DOUBLE_EQ(stem.time, 42000);
  ASSERT_EQ(stem.top_ops.size(), 1u);
  EXPECT_EQ(m.tree.ops[stem.top_ops[0].op].name, "/stem/conv/Conv");
  EXPECT_EQ(m.tree.Text(m.tree.ops[stem.top_ops[0].op].op), "Conv");
  EXPECT_DOUBLE_EQ(NodeAt(m.tree, "graph:session 2/head/fc").time, 18000);  // (17,000 + 19,000) / 2
  // Input and Output have no source op: their own names, no module.
  EXPECT_DOUBLE_EQ(NodeAt(m.tree, "graph:session 2/" + std::string(kNoModule)).time, 810 + 690);

  // Session 1, its only steady execution (2): 70,000 + 5,000 + 3,000.
  EXPECT_DOUBLE_EQ(NodeAt(m.tree, "graph:session 1/layer1/block.0").time, 78000);

  // Session 3 has no column: the QNN op names place the ops, and the
  // Convert has no module.
  EXPECT_DOUBLE_EQ(NodeAt(m.tree, "graph:session 3/layer1/block.0").time, 69000 + 4900);
  const ModuleNode& unplaced = NodeAt(m.tree, "graph:session 3/" + std::string(kNoModule));
  EXPECT_DOUBLE_EQ(unplaced.time, 2900 + 700 + 1000);  // Convert, Input, Output
  EXPECT_EQ(unplaced.ops, 3);
  const ModuleNode& conv3 = NodeAt(m.tree, "graph:session 3/layer1/block.0/conv");
  ASSERT_EQ(conv3.top_ops.size(), 1u);
  EXPECT_EQ(m.tree.ops[conv3.top_ops[0].op].name, "/layer1/block.0/conv/Conv_token_2");
}

}  // namespace
}  // namespace htpscope::module_run_source_ops_test
