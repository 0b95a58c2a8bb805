// Rendering the per-thread timeline: fixed-width ASCII text, a standalone
// SVG and JSON (schema in docs/timeline-and-graph.md).  Cycle figures are
// HTP cycles; the text shows graph cycles (relative to the first executed
// slice), JSON and SVG titles absolute cycles too.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

#include "analysis/timeline.h"
#include "model/run.h"
#include "report/lazy_json.h"

namespace htpscope {

// `width` columns for the picture (at least 10).  The op-group table shows
// the `max_rows` groups of most busy cycles (0: all), in order of first
// start, and sums up the rest; so does the warnings list.
std::string RenderTimelineText(const Timeline& timeline, int width, size_t max_rows = 0);

// A standalone SVG document: one row per thread, op groups coloured with a
// legend, boundary/system-service ops in their own colours, idle gaps blank.
std::string RenderTimelineSvg(const Timeline& timeline, const Run& run);

// The document `timeline --json` prints, its groups, rows' slices and
// warnings built as they are written.  Holds references to its arguments.
LazyObject TimelineJson(const Timeline& timeline, const Run& run);

// Printable ASCII only (others become '?'), cut to `width` columns with ".."
// at the end when longer.
std::string AsciiFit(std::string_view text, size_t width);

// "HMX 256", "HVX 512-515", "HMX 256, HVX 512-513, 515".
std::string DescribeThreads(const std::vector<uint32_t>& tids);

}  // namespace htpscope
