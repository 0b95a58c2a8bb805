// "Why does my model take so long to load": the phases before a graph's
// first inference as the profile prints them (Run::profile_phases) — INIT
// (context creation / loading the binary), COMPOSE GRAPHS, each graph's
// FINALIZE (graph preparation) with its stages, and the graph's cold first
// EXECUTE with the power-on and VTCM-acquire times the backend reports with
// it.  Every figure is NetRun's wall time (µs as printed) where the profile
// prints one, else the Backend's "QNN (<phase>) time"; nothing is derived
// from timestamps.
//
// qnn-profile-viewer's NetRun INIT spans COMPOSE GRAPHS and every FINALIZE
// (on the QAIRT 2.47 logs it is exactly the sum of the three phases' spans:
// docs/profile-readers.md), so those are parts of it, not added to it.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "model/run.h"

namespace htpscope {

// One figure of a phase: its value in µs and the line it comes from.
struct PhaseFigure {
  double us = 0;
  std::string_view source;  // "NetRun" or "Backend"
  std::string_view name;    // "NetRun", "QNN (finalize) time", "Graph Optimizations"
};

struct GraphFirstInference {
  uint32_t graph = 0;                        // index into Run::graphs
  std::optional<PhaseFigure> finalize;       // the graph's FINALIZE
  std::vector<PhaseFigure> finalize_stages;  // its sub-events (Backend), in profile order
  std::optional<PhaseFigure> cold_execute;   // the graph's first EXECUTE
  // Reported by the backend with the cold execution ("Time for HVX + HMX
  // power on and acquire", "Time for initial VTCM acquire"): not parts of
  // the execute time above (power-on can exceed it), and the steady median
  // of each over executions 2..N for comparison.
  std::optional<double> power_on_us, vtcm_acquire_us;
  std::optional<double> steady_power_on_us, steady_vtcm_acquire_us;
};

struct FirstInference {
  std::optional<PhaseFigure> init;  // INIT (the application's)
  // Whether `init` holds compose and the finalizes: NetRun's INIT when it is
  // at least compose + Σ finalize > 0 (a smaller one cannot hold them, and
  // is taken as a phase of its own; a context binary has neither).
  bool init_spans_compose_and_finalize = false;
  // init − compose − Σ finalize (µs): the INIT phase alone, when init spans
  // them and the run holds every graph's finalize (not after --graph).
  std::optional<double> init_alone_us;
  std::optional<PhaseFigure> compose;           // COMPOSE GRAPHS
  std::vector<GraphFirstInference> graphs;      // graphs with any of these figures, in order
  std::optional<PhaseFigure> deinit;            // DE-INIT, for completeness
  std::optional<double> inferences_per_second;  // EXECUTE IPS (NetRun), as printed
  // init + the cold execute of the graph executed first when init spans
  // compose and the finalizes, else init + compose + every graph's finalize
  // + that cold execute: the sum of the parts the profile prints, not a wall
  // clock; nullopt when it prints neither an init nor a cold execute.
  // `missing` names the parts left out.
  std::optional<double> total_us;
  std::vector<std::string> missing;
  bool empty() const { return !init && !compose && graphs.empty() && !deinit; }
};

// From run.profile_phases and run.executions.  Values not in µs are left out.
FirstInference ComputeFirstInference(const Run& run);

}  // namespace htpscope
