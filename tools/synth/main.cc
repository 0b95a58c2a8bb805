// htpscope-synth: writes a synthetic profiled run (optrace, HTP graph, QHAS,
// runtrace, profile text) with its ground truth, for testing and
// benchmarking htpscope.  Exit codes: 0 ok, 2 bad usage or I/O error.
#include <fmt/format.h>

#include <CLI/CLI.hpp>
#include <cstdio>
#include <exception>

#include "synth.h"

int main(int argc, char** argv) {
  using htpscope::synth::OutputOptions;
  using htpscope::synth::SynthOptions;
  SynthOptions o;
  OutputOptions out;
  CLI::App app{
      "htpscope-synth: generate a synthetic QNN HTP profiling run (chrometrace.json, "
      "chrometrace_htp.json, QHAS summary, runtrace, profile text) and its ground_truth.json"};
  app.add_option("-o,--out", out.dir, "Output directory (created when missing)")->required();
  app.add_option("--ops", o.ops, "Model (compute) QNN ops, 1 .. 10000000 (memory: ~1.2 KB per op)")
      ->capture_default_str();
  app.add_option("--seed", o.seed, "Random seed: same seed, same bytes")->capture_default_str();
  app.add_option("--graph-name", o.graph_name, "Graph name (QHAS model_id, runtrace graph_name)")
      ->capture_default_str();
  app.add_option("--executions", o.executions,
                 "Graph executions (profile text, runtrace); the first is cold")
      ->capture_default_str();
  app.add_option("--hmx-share", o.hmx_share, "Share of compute ops on HMX, 0..1")
      ->capture_default_str();
  app.add_option("--tiled-share", o.tiled_share,
                 "Share of HVX compute ops tiled across several HVX threads, 0..1")
      ->capture_default_str();
  app.add_option("--tile-threads", o.tile_threads, "HVX threads per tiled op, 2..4")
      ->capture_default_str();
  app.add_option("--branches", o.branches, "Independent chains of compute ops, 1..64")
      ->capture_default_str();
  app.add_option("--input-chunks", o.input_chunks, "Input DMA slices (at least --branches)")
      ->capture_default_str();
  app.add_option("--reshape-every", o.reshape_every,
                 "Insert a zero-cycle Reshape node before every n-th compute op (0: none)")
      ->capture_default_str();
  app.add_flag("--shared-constant", o.shared_constant,
               "The branches' first ops share one deduplicated constant (needs --branches >= 2)");
  app.add_flag("--spill-fill", o.spill_fill,
               "An HVX stage, a Spill/Fill handoff through DDR, then an HMX stage");
  app.add_flag("--system-service", o.system_service,
               "End with a SystemService SyncOp, which the profile text does not list");
  app.add_flag("--split-tile-dpc", o.split_tile_dpc,
               "Let the dominant path run over every slice of a tiled op, as in real traces: the "
               "optrace's per-ID DPC is then a lower bound and QHAS disagrees");
  app.add_flag("--gzip", out.gzip, "Write the artifacts gzip-compressed (.gz)");
  std::string layout = "writer";
  app.add_option("--layout", layout,
                 "Spacing of the JSON artifacts: writer (as QNN writes them), lines (json.dumps, "
                 "one event or row a line), minified (one line), indent2 (json.dump indent=2)")
      ->check(CLI::IsMember({"writer", "lines", "minified", "indent2"}))
      ->capture_default_str();
  app.add_option("--only", out.only,
                 "Write only these artifacts (chrometrace.json, chrometrace_htp.json, "
                 "chrometrace_qnn_htp_analysis_summary.json, chrometrace_runtrace.json, "
                 "profile_text.txt); ground_truth.json is always written");
  app.add_option("--top-ops", out.top_ops, "QNN ops listed in ground_truth.json")
      ->capture_default_str();
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    int rc = app.exit(e);
    return rc == 0 ? 0 : 2;
  }
  out.layout = *htpscope::synth::JsonLayoutOfName(layout);
  try {
    auto truth = htpscope::synth::GenerateRun(o, out);
    fmt::print(
        "{}: {} QNN ops, {} HTP op instances, {} slices, {} trace events; graph wall {} cycles, "
        "work {} cycles, {} executions\n",
        out.dir, truth.qnn_ops, truth.htp_op_instances, truth.slices, truth.trace.events,
        truth.graph_wall_cycles, truth.work_cycles, truth.executions.size());
  } catch (const std::exception& e) {
    fmt::print(stderr, "htpscope-synth: error: {}\n", e.what());
    return 2;
  }
  return 0;
}
