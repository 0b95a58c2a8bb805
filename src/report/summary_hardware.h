// The summary's hardware sections: the dominant path split by unit (HMX,
// HVX, DMA, DMA wait, sync, idle) in total and per QNN op, the per-QNN-op
// compute / staging / DMA roll-up, the VTCM read hit ratio per QNN op (bytes)
// and QHAS's figures per HTP core.  Text and JSON (docs/summary-json.md); all
// figures in HTP cycles unless named.
#pragma once

#include <nlohmann/json.hpp>
#include <string>

#include "analysis/summary.h"
#include "report/lazy_json.h"

namespace htpscope {

// The sections as text ("" when the run gives none of them); `top_n` rows
// per op table.
std::string RenderHardwareSections(const Summary& summary, int top_n);

// Sets "dominant_path_by_unit", "op_rollup", "vtcm_read_hits" (each null,
// or an object whose "ops" array is built element by element) and
// "qhas_cores" in `doc`;
// every op is listed.
void AddHardwareJson(const Summary& summary, LazyObject& doc);

}  // namespace htpscope
