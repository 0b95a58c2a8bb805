// Rendering `htpscope aot` (docs/aot.md): lowering time by stage from one
// sampling profile, or the per-stage comparison of two, for people (text,
// markdown for PR comments) and machines (JSON), and flame graphs as SVG.
//
// JSON schemas htpscope.aot/1 (one profile) and htpscope.aot_diff/1 (two) are
// documented in docs/aot.md; field names carry their unit (_seconds, _pct).
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "analysis/aot_flame.h"
#include "analysis/aot_stages.h"
#include "analysis/gate.h"

namespace htpscope {

enum class AotFormat { kText, kMarkdown, kJson };

// "text", "markdown" or "json"; nullopt for anything else.
std::optional<AotFormat> ParseAotFormat(std::string_view name);

// One profile: per stage seconds, share, GC seconds and top self-time frames.
std::string RenderAotAttribution(const StageAttribution& s, const StageMap& map, AotFormat format);
nlohmann::json AotAttributionToJson(const StageAttribution& s, const StageMap& map);

// Two profiles: per stage A s, B s, change, improvement % and GC, the total,
// the frames whose self time changed most, and the gates.
std::string RenderAotDiff(const AotDiff& diff, const StageAttribution& a, const StageAttribution& b,
                          const StageMap& map, const std::vector<GateResult>& gates,
                          AotFormat format);
nlohmann::json AotDiffToJson(const AotDiff& diff, const StageAttribution& a,
                             const StageAttribution& b, const StageMap& map,
                             const std::vector<GateResult>& gates);

// A standalone SVG flame graph (root at the bottom, as flamegraph.pl draws
// it).  One profile: widths are seconds, colours the stages.  Two profiles
// (a differential flame graph, as Brendan Gregg's difffolded): widths are
// B's seconds, red where B spends more time than A, blue where less, the
// intensity proportional to the change; frames B no longer runs have no
// width (the report's changed-frames table lists them).  Every frame name
// is XML-escaped.
std::string RenderAotFlameSvg(const FlameTree& tree, std::string_view title);

}  // namespace htpscope
