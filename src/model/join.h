// Joining the imported tables of a run into one consistent model: checking
// that the artifacts belong to one run, choosing the source of every figure
// (the rules of docs/metrics.md, "Sources"), and deriving the op groups,
// units, figures, cross-checks and what is missing.  Private to the model.
#pragma once

#include "model/import.h"
#include "model/run.h"

namespace htpscope {

// Completes `run` after every artifact was imported.  Throws InputError
// when the artifacts do not belong to one run and !options.allow_mismatch.
void JoinRun(Run& run, const model_import::QhasFacts& qhas, const LoadOptions& options);

// Parts of JoinRun, in the order it calls them (join_*.cc).
void CheckArtifactsBelongTogether(Run& run, const model_import::QhasFacts& qhas,
                                  const LoadOptions& options);
void ChooseInstanceDpc(Run& run, const model_import::QhasFacts& qhas);
void BuildUnits(Run& run, const model_import::QhasFacts& qhas);
void BuildOpGroups(Run& run, const model_import::QhasFacts& qhas);
void BuildTraffic(Run& run, const model_import::QhasFacts& qhas);
void BuildFigures(Run& run);
void BuildCrossChecks(Run& run, const model_import::QhasFacts& qhas);
void BuildMissing(Run& run);

}  // namespace htpscope
