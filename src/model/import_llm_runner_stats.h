// Importing an ExecuTorch LLM runner's stats lines (formats/llm_runner_stats.h)
// into the run's table of generations (model/device_profiles.h).
#pragma once

#include "formats/llm_runner_stats.h"
#include "model/device_profiles.h"

namespace htpscope::model_import {

// One row per stats line, in log order, its timestamps in µs and the
// runner's own figures derived from them (LlmGenerationRow).
LlmRunnerStatsTables ImportLlmRunnerStats(LlmRunnerStats&& stats);

}  // namespace htpscope::model_import
