// Rendering the memory view of a run (text; JSON schema "htpscope.memory/1",
// documented in docs/lint-heap-memory.md).
#pragma once

#include <nlohmann/json.hpp>
#include <string>

#include "analysis/memory.h"
#include "report/lazy_json.h"

namespace htpscope {

// `top_n` rows in each per-op table.
std::string RenderMemoryText(const MemoryView& memory, int top_n);

// Every op and QNN op is listed; nothing is cut.
// The document `memory --json` prints, its per-op lists built as they are
// written.  Holds a reference to `memory`.
LazyObject MemoryJson(const MemoryView& memory);

}  // namespace htpscope
