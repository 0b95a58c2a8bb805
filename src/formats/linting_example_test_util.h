// The linting-level profile example of formats.md §5.2b, verbatim: the
// documented qnn-profile-viewer layout, shared by the reader's, the lint
// analysis's and the lint report's tests (whose expected figures are worked
// out by hand from it).
//
// Also the hand-made profile test inputs under src/formats/testdata/ (their
// figures are listed where the tests use them):
//  * qairt247_linting_two_graphs.csv: QAIRT 2.47 viewer CSV at linting level,
//    graphs "model.prefill" (2 executions) and "model.decode" (3), interleaved;
//  * ort_qnn_ep_resnet50.csv: ONNX Runtime QNN EP CSV, ResNet-50, 5 executions
//    (execution 1: 3,755,250 cycles, 1132 µs excluding wait);
//  * detailed_two_graphs.txt: qnn-profile-viewer detailed-level text of the
//    same two graphs.
#pragma once

#include <string>

#include "base/test_paths.h"

namespace htpscope::testing_support {

// The path of a profile test input under src/formats/testdata/.
inline std::string ProfileTestdata(const std::string& name) {
  return std::string(HTPSCOPE_SOURCE_DIR) + "/src/formats/testdata/" + name;
}

// The per-op lines (four ops, 1 000 000 critical-path cycles in all).
inline const std::string kLintingExampleOps = R"(      Input OpId_2 (cycles): 0  cycles
            Wait (Scheduler) time: 0  cycles
            Overlap time: 0  cycles
            Overlap (wait) time: 0  cycles
            Resources:
      net_conv1_Conv2D:OpId_20 (cycles): 300000  cycles
            Wait (Scheduler) time: 40  cycles
            Overlap time: 150000  cycles
               net_mul_mul:OpId_30
               Output OpId_3
            Overlap (wait) time: 40  cycles
               net_conv1_Conv2D:OpId_20
            Resources: HVX, HMX, DMA
      net_mul_mul:OpId_30 (cycles): 600000  cycles
            Wait (Scheduler) time: 0  cycles
            Overlap time: 60000  cycles
               net_conv1_Conv2D:OpId_20
            Overlap (wait) time: 0  cycles
            Resources: HVX
      Output OpId_3 (cycles): 99960  cycles
            Wait (Scheduler) time: 0  cycles
            Overlap time: 5000  cycles
            Overlap (wait) time: 0  cycles
            Resources: HVX
)";

// The whole example: the statistics block, then the ops.
inline const std::string kLintingLayoutExample = R"(Execute Stats (Average):
------------------------
Total Inference Time:
---------------------
   NetRun:  9120 us
   Backend (RPC (execute) time): 8800  us
   Backend (QNN accelerator (execute) time): 8105  us
   Backend (Num times yield occured): 0  count
   Backend (Time for initial VTCM acquire): 0  us
   Backend (Time for HVX + HMX power on and acquire): 0  us
   Backend (Accelerator (critical path execute) time (cycles)): 1000000  cycles
)" + kLintingExampleOps;

}  // namespace htpscope::testing_support
