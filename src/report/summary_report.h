// Rendering a Summary for people (text) and machines (JSON).
//
// The JSON schema is documented in docs/summary-json.md; field names carry
// their unit (_cycles, _us, _bytes, _pct, _ghz).
#pragma once

#include <nlohmann/json.hpp>
#include <string>

#include "analysis/summary.h"
#include "report/lazy_json.h"

namespace htpscope {

// Plain-text report; `top_n` rows per op table.
std::string RenderSummaryText(const Summary& summary, int top_n);

// The machine-readable summary.  `top_n` limits nothing: every op is listed.
// The document `summary --json` prints, its per-op lists (ops,
// htp_op_types, op_warmup) built as they are written.  Holds a reference to
// `summary`.
LazyObject SummaryJson(const Summary& summary);
nlohmann::json SummaryToJson(const Summary& summary);  // materialized

}  // namespace htpscope
