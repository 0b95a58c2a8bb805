// A small run for the dependency graph's tests (build, op groups, graph
// comparison, reachability): two branches meant to be independent, each
// with its own scratch constant, after the compiler merged the two
// constants into one static tensor.
#pragma once

#include <cstdint>
#include <string>

#include "analysis/dependency_graph.h"
#include "analysis/op_groups.h"
#include "model/fake_run_test_util.h"

namespace htpscope::testing_support {

// The op IDs of TwoBranchesSharingOneConstant (tests take them with
// `using namespace testing_support::two_branches`).
namespace two_branches {
inline constexpr uint64_t kInput = 0x0000000100000002;
inline constexpr uint64_t kBranchA = 0x0000000200000010;
inline constexpr uint64_t kBranchB = 0x0000000300000020;
inline constexpr uint64_t kOutput = 0x0000000400000003;
inline constexpr uint64_t kZeros = 0x0000100200000008;  // the de-duplicated constant
}  // namespace two_branches

// Input feeds branch_a and branch_b (HTP graph inputs, with the shared
// constant); Output, only in the optrace, reads both branches.
inline Run TwoBranchesSharingOneConstant() {
  using namespace two_branches;
  std::string graph = HtpGraphJson({{kInput, "q::*InputSlice", "Input", {}},
                                    {kBranchA, "q::Conv", "branch_a", {kInput, kZeros}},
                                    {kBranchB, "q::Conv", "branch_b", {kInput, kZeros}}},
                                   {kZeros});
  std::string trace = OptraceJson({
      {kInput, "Input", "q::*InputSlice", "dma", 256, 0, 100},
      {kBranchA, "branch_a", "q::Conv", "uses_hvx", 512, 100, 400},
      {kBranchB, "branch_b", "q::Conv", "uses_hvx", 513, 100, 300},
      // The output slice is not in the HTP graph: its inputs come from the trace.
      {kOutput, "Output", "q::*OutputSlice", "dma", 256, 500, 50, {kBranchA, kBranchB, kBranchA}},
  });
  return FakeRun(trace, graph);
}

// The nodes grouped by their QNN op.
inline NodeGroups GroupsByQnnOp(const DependencyGraph& g) {
  return GroupNodes(g, [](const DepNode& n) { return std::string(n.qnn_op_name); });
}

}  // namespace htpscope::testing_support
