// qnn-profile-viewer text output (profile_text.txt) as the default reader
// prints it: the header, the Init / Compose Graphs / De-Init statistics, and
// the raw dump with one "Execute Stat N" block per execution.  Each block's
// "Accelerator (execute) time (cycles)" is the sum of its indented per-node
// lines; execution 1's node lines are the QHAS per-QNN-op cycles.  As in the
// real files, the VTCM-acquire and power-on "us" values are runtrace ticks.
#include <fmt/format.h>

#include <ctime>

#include "rng.h"
#include "writers.h"

namespace htpscope::synth {

void WriteProfileText(const Model& m, OutputFile& out) {
  const SynthOptions& o = m.options;
  Rng rng(Mix64(o.seed ^ 0x70726f66696c65ULL));
  const std::time_t created = 1777307899 + rng.Range(0, 30 * 86400);
  std::tm tm{};
  gmtime_r(&created, &tm);
  char date[64];
  std::strftime(date, sizeof date, "%a %b %e %H:%M:%S %Y", &tm);
  const int64_t load_rpc = rng.Range(6000, 12000);
  const int64_t load_qnn_acc = load_rpc - rng.Range(100, 300);
  const int64_t load_acc = load_qnn_acc - rng.Range(250, 320);
  const int64_t load_qnn = load_rpc + rng.Range(10000, 20000);
  const int64_t deinit_rpc = rng.Range(900, 980);
  // Drawn in this order (the order GCC evaluated them in when they were
  // arguments of one call): every compiler writes the same file.
  const int64_t steady_clock = rng.Range(800000000000, 1700000000000);
  const int64_t epoch_us = static_cast<int64_t>(created) * 1000000 + rng.Range(0, 999999);
  out.Print(
      "Input Log File Location: device_out/qnn-profiling-data_0.log\n"
      "Log File Created: {}\n"
      "Time Scale: 1e-06\n"
      "Epoch Timestamp: {} Steady Clock Timestamp: {}\n"
      "Generated using: \n"
      "qnn-profile-viewer: v2.45.0.260326154327\n"
      "qnn-net-run: v2.45.0.260326154327\n"
      "Backend: v2.45.0.260326154327\n\n"
      "Qnn Init/Prepare/Finalize/De-Init/Execute/Lib-Load Statistics:\n"
      "------------------------------------------------------------\n"
      "Init Stats:\n-----------\n"
      "    NetRun: {} us\n"
      "    Backend (RPC (load binary) time): {} us\n"
      "    Backend (QNN accelerator (load binary) time): {} us\n"
      "    Backend (Accelerator (load binary) time): {} us\n"
      "    Backend (QNN (load binary) time): {} us\n\n"
      "Compose Graphs Stats:\n--------------\n    NetRun: 0 us\n\n"
      "De-Init Stats:\n--------------\n"
      "    NetRun: {} us\n"
      "    Backend (RPC (deinit) time): {} us\n"
      "    Backend (QNN Accelerator (deinit) time): {} us\n"
      "    Backend (Accelerator (deinit) time): {} us\n"
      "    Backend (QNN (deinit) time): {} us\n\n\n"
      "Printing All Data Received From Back End\n\n"
      "Create From Binary Stats:\n"
      "RPC (load binary) time : {}  us\n"
      "QNN accelerator (load binary) time : {}  us\n"
      "Accelerator (load binary) time : {}  us\n"
      "QNN (load binary) time : {}  us\n\n\n"
      "Execute Stats: \n",
      date, epoch_us, steady_clock, load_qnn + 17, load_rpc, load_qnn_acc, load_acc, load_qnn,
      deinit_rpc + 3030, deinit_rpc, deinit_rpc - 97, deinit_rpc - 122, deinit_rpc + 3016, load_rpc,
      load_qnn_acc, load_acc, load_qnn);
  const std::vector<uint32_t> nodes = m.ProfileNodes();
  std::vector<std::string> labels;
  labels.reserve(nodes.size());
  for (uint32_t q : nodes) labels.push_back(m.ProfileLabel(q));
  for (const auto& x : m.executions) {
    out.Print(
        "\nExecute Stat {}\n\n"
        "Number of HVX threads used : {}  count\n"
        "RPC (execute) time : {}  us\n"
        "QNN accelerator (execute) time : {}  us\n"
        "Num times yield occured : 0  count\n"
        "Time for initial VTCM acquire : {}  us\n"
        "Time for HVX + HMX power on and acquire : {}  us\n"
        "Accelerator (execute) time (cycles) : {}  cycles\n",
        x.index, kHvxThreads, x.rpc_us, x.qnn_accelerator_us, x.phases[1].ticks(),
        x.phases[2].ticks(), x.accelerator_cycles);
    for (size_t k = 0; k < nodes.size(); ++k)
      out.Print("    {} (cycles) : {}  cycles\n", labels[k], m.NodeCycles(nodes[k], x.index));
    out.Print(
        "Accelerator (execute) time : {}  us\n"
        "Accelerator (execute excluding wait) time : {}  us\n"
        "Unknown event type :   object\n"
        "QNN (execute) time : {}  us\n",
        x.accelerator_us, x.accelerator_excl_wait_us, x.qnn_execute_us);
  }
}

}  // namespace htpscope::synth
