// Joining the imported tables of a run into one consistent model: checking
// that the artifacts belong to one run, choosing the source of every figure
// (the rules of docs/metrics.md, "Sources"), and deriving the op groups,
// units, figures, cross-checks and what is missing.  Private to the model.
#pragma once

#include <string>
#include <vector>

#include "model/run.h"

namespace htpscope {

// Completes `run` after every artifact was imported.  Throws InputError
// when the artifacts do not belong to one run and !options.allow_mismatch.
void JoinRun(Run& run, const LoadOptions& options);

// Parts of JoinRun, in the order it calls them (join_*.cc).
void CheckArtifactsBelongTogether(Run& run, const LoadOptions& options);
void ChooseInstanceDpc(Run& run);
void BuildUnits(Run& run);
void BuildOpGroups(Run& run);
void BuildTraffic(Run& run);
void BuildFigures(Run& run);
// How the profile's per-node cycles of its first execution compare with
// QHAS's per-QNN-op cycles (joined by QNN op id, else by name).  Reads only
// the profile's tables and QHAS's (QhasTables), which no other step writes:
// JoinRun runs it beside its other steps.
struct ProfileNodesVsQhas {
  int agree = 0, compared = 0;
  std::vector<std::string> differing;  // "<node>: profile <a> vs QHAS <b>"
};
ProfileNodesVsQhas CompareProfileNodesWithQhas(const Run& run);
void BuildCrossChecks(Run& run, const ProfileNodesVsQhas& nodes_vs_qhas);
// Appends, per graph, how many of its executions' per-node cycles add up
// to their "Accelerator (execute) time (cycles)" (detailed level;
// join_profile_checks.cc).
void BuildProfileNodeSumChecks(Run& run);
void BuildMissing(Run& run);
// QHAS's fmt_change / ref_op onto the op instances, and its known defects
// (resource type "UNK", traffic counters all 0) as warnings with the
// fix-up the other artifacts allow (join_qhas_defects.cc).
void MarkQhasStaging(Run& run);
void CheckQhasUnitTypes(Run& run);
// True when QHAS lists op instances and every traffic counter of every row
// (run.qhas_op_instances) is 0.
bool QhasTrafficAllZero(const Run& run);
// Warns (multi_core_qhas) when QHAS describes several HTP cores.
void NoteQhasCores(Run& run);
// Keeps only graph `name` of the profile's tables; throws ValueError
// (kGraphName), listing the graphs there are, when the profile has no graph
// of that name.
void SelectGraph(Run& run, const std::string& name);
// Fills run.profile_phases from the profile's blocks and metrics (after
// SelectGraph: only the kept graph's rows and the application's).
void BuildProfilePhases(Run& run);

}  // namespace htpscope
