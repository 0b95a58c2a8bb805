// `htpscope numerics REF DEVICE`: where do the device's numerics diverge
// from the reference?  Exit status: 0 no compared handle diverges, 1 at
// least one does (beyond --threshold, or a NaN/Inf mismatch), 2 bad input
// or usage.  See docs/numerics.md.
#include <fmt/format.h>

#include <cstdio>
#include <iostream>
#include <string>

#include "analysis/numerics.h"
#include "base/errors.h"
#include "cli/cli_support.h"
#include "cli/commands.h"
#include "cli/terminal.h"
#include "model/side_input_registry.h"
#include "model/tensor_set.h"
#include "report/numerics_report.h"

namespace htpscope::cli {
namespace {

struct NumericsArgs {
  std::string reference;
  std::string device;
  // Each side's manifest and ETDump debug buffer.
  SideInputOptions reference_input;
  SideInputOptions device_input;
  std::string metric = "cosine";
  std::optional<double> threshold;
  bool json = false;
  bool csv = false;
  std::string htp_graph;
  std::string reference_layout;
  std::string device_layout;
  int threads = 2;
  size_t preview = 4;
};

TensorLayout LayoutOption(const std::string& name) {
  if (name.empty()) return TensorLayout::kUnstated;
  return *ParseTensorLayout(name);  // CLI11 already checked membership
}

int RunNumerics(const NumericsArgs& args) {
  NumericsOptions options;
  options.metric = *ParseNumericsMetric(args.metric);
  auto threshold = args.threshold ? args.threshold : DefaultThreshold(options.metric);
  if (!threshold) {
    fmt::print(stderr,
               "htpscope: error: --metric {} has no default threshold (its scale depends on "
               "the tensors); give --threshold\n",
               args.metric);
    return 2;
  }
  options.threshold = *threshold;
  options.threads = args.threads;
  options.preview_values = args.preview;
  options.reference_layout = LayoutOption(args.reference_layout);
  options.device_layout = LayoutOption(args.device_layout);
  if (!args.htp_graph.empty()) options.execution_order_ops = ExecutionOrderOps(args.htp_graph);

  TensorSet reference = LoadSideInput<SideInput::kTensorSet>(args.reference, args.reference_input);
  TensorSet device = LoadSideInput<SideInput::kTensorSet>(args.device, args.device_input);
  NumericsResult result = CompareTensorSets(reference, device, options);
  if (args.json) {
    // Tensor names come from files: invalid UTF-8 is replaced, never fatal.
    fmt::print("{}\n", NumericsToJson(result).dump(
                           2, ' ', false, nlohmann::ordered_json::error_handler_t::replace));
  } else if (args.csv) {
    std::fflush(stdout);
    WriteNumericsCsv(result, std::cout);
    std::cout.flush();
    if (!std::cout) throw OutputError("<stdout>", "cannot write CSV output");
  } else {
    PrintReport(FormatNumericsText(result));
  }
  return result.divergent > 0 ? 1 : 0;
}

}  // namespace

void RegisterNumericsCommand(CLI::App& app, CommandRegistry& registry) {
  auto* cmd = app.add_subcommand(
      "numerics",
      "Compare reference and device tensors per debug handle and find the first divergent op");
  static NumericsArgs args;
  cmd->add_option(
         "REF", args.reference,
         "Reference tensors: a directory (.npy files, or manifest.json + raw files), a "
         "manifest .json, one .npy file, or an ExecuTorch ETDump (with --ref-debug-buffer)")
      ->required();
  cmd->add_option("DEVICE", args.device,
                  "Device tensors, in the same forms as REF (an ETDump with --debug-buffer)")
      ->required();
  cmd->add_option("--debug-buffer", args.device_input.debug_buffer,
                  "Debug buffer (debug_output.bin) holding the tensors of the DEVICE ETDump");
  cmd->add_option("--ref-debug-buffer", args.reference_input.debug_buffer,
                  "Debug buffer holding the tensors of the REF ETDump");
  cmd->add_option("--manifest-ref", args.reference_input.manifest,
                  "Manifest describing REF (a directory); its file paths are relative to REF")
      ->check(CLI::ExistingFile);
  cmd->add_option("--manifest-device", args.device_input.manifest,
                  "Manifest describing DEVICE (a directory); its file paths are relative to DEVICE")
      ->check(CLI::ExistingFile);
  cmd->add_option("--metric", args.metric,
                  "Primary metric: cosine (default), snr, mse, mean_abs, max_abs")
      ->check(CLI::IsMember({"cosine", "snr", "snr_db", "mse", "mean_abs", "max_abs"}));
  cmd->add_option("--threshold", args.threshold,
                  "Divergence threshold: below it for cosine (default 0.99) and snr (dB, default "
                  "20), above it for mse, mean_abs and max_abs (required for those)");
  auto* json = cmd->add_flag("--json", args.json, "Write JSON instead of the table");
  cmd->add_flag("--csv", args.csv, "Write CSV instead of the table")->excludes(json);
  cmd->add_option("--htp-graph", args.htp_graph,
                  "chrometrace_htp.json of the device run: order rows by its execution order")
      ->check(CLI::ExistingFile);
  const std::vector<std::string> layouts = {"NCHW", "NHWC", "NCW", "NWC", "NCDHW", "NDHWC"};
  cmd->add_option("--ref-layout", args.reference_layout,
                  "Layout of reference tensors whose source states none (e.g. NCHW for .npy)")
      ->check(CLI::IsMember(layouts));
  cmd->add_option("--device-layout", args.device_layout,
                  "Layout of device tensors whose source states none (e.g. NHWC)")
      ->check(CLI::IsMember(layouts));
  cmd->add_option("--threads", args.threads, "Threads per tensor comparison (default 2)")
      ->check(Between(1, 64));
  cmd->add_option("--preview", args.preview, "Values shown per tensor preview (default 4)")
      ->check(Between(0, 64));
  registry.Add(cmd, [] { return RunNumerics(args); });
}

}  // namespace htpscope::cli
