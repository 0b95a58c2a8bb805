// Rendering DSP heap usage of one or more runs (text table, one row per
// file; JSON schema "htpscope.heap/1", documented in docs/lint-heap-memory.md).
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "analysis/heap.h"

namespace htpscope {

std::string RenderHeapText(const std::vector<HeapUsage>& runs);
nlohmann::json HeapToJson(const std::vector<HeapUsage>& runs);

}  // namespace htpscope
