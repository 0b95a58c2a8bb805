// Test support for profiles as qnn-net-run and the viewer write them:
//  * the real QAIRT 2.47 pair in ../shared/corpus/qnn_net_run_2.47 (a
//    detailed-level viewer CSV of tiny_block_prefill and of
//    tiny_block_decode, 10 executions each; tests skip without it);
//  * src/formats/testdata/netrun_phases.csv, hand-made: every phase in the
//    order the viewer prints them (DE-INIT before the executions), graph
//    "g", four executions of ops a (OpId_10), b (OpId_11), c (OpId_12):
//      cold:  a 500, b 100, c 50  (650 cycles; NetRun 40 µs, power-on 35,
//             VTCM acquire 5)
//      2..4:  a 100/120/90, b 80/60/90, c 20/20/20 (200 cycles each)
//    so the steady medians are a 100 (min 90, max 120, MAD 10, share 0.5),
//    b 80 (60, 90, MAD 10, 0.4), c 20 (MAD 0, 0.1); INIT 1400 µs as the
//    viewer prints it, spanning COMPOSE 500 and FINALIZE 800 (QNN
//    (finalize) time 790: Graph Optimizations 600, VTCM Allocation 50):
//    100 µs of init alone; DE-INIT 300, EXECUTE IPS 50 inf/sec.
//  * src/formats/testdata/netrun_two_graphs.csv, hand-made: graphs "p"
//    (Graph 0) and "d" (Graph 1) finalized one after the other (NetRun 100
//    and 50 µs; Graph Optimizations 70 and 30) and executed in turn, three
//    times each (p first):
//      p: x (OpId_1) 30, 10, 12; y (OpId_2) 10, 5, 4   (cycles 40, 15, 16)
//      d: x (OpId_1) 20, 6, 8;   z (OpId_3) 8, 3, 3    (cycles 28, 9, 12:
//         execution 3's ops add up to 11, not 12)
//    INIT 1000 µs (spanning COMPOSE 200 and both finalizes: 650 µs of init
//    alone), cold executes p 20 µs, d 15; time to first inference
//    1000 + 20 = 1020 µs.
#pragma once

#include <filesystem>
#include <string>

#include "formats/linting_example_test_util.h"

namespace htpscope::testing_support {

inline std::string QnnNetRunCorpusDir() {
  return std::string(HTPSCOPE_SOURCE_DIR) + "/../shared/corpus/qnn_net_run_2.47";
}

// "prefill" or "decode": the viewer's CSV of that graph.
inline std::string QnnNetRunCsv(const std::string& graph) {
  return QnnNetRunCorpusDir() + "/tiny_llm_block_" + graph + ".profile.csv";
}

}  // namespace htpscope::testing_support

#define HTPSCOPE_REQUIRE_QNN_NET_RUN_CORPUS()                                          \
  do {                                                                                 \
    if (!std::filesystem::exists(::htpscope::testing_support::QnnNetRunCorpusDir()))   \
      GTEST_SKIP() << "corpus qnn_net_run_2.47 not present (../shared/corpus absent)"; \
  } while (0)
