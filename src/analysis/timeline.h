// The per-thread timeline of one traced execution: which op group runs on
// each hardware thread when, the idle gaps, and the busy/span/concurrency of
// every op group.  Built from the de-duplicated optrace slices (pid 0), one
// row per thread: tid 256 (HMX, also the main thread that carries DMA and
// sync) and each HVX tid present.  All *_cycles are HTP cycles, absolute
// unless the name says otherwise.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "analysis/concurrency.h"
#include "analysis/dependency_graph.h"
#include "analysis/name_regex.h"
#include "model/run.h"

namespace htpscope {

enum class GroupBy : uint8_t { kQnnOp, kHtpOpType };

// --group NAME=REGEX: ops whose QNN op name, or else HTP op type, the regex
// matches (anywhere, RE2: analysis/name_regex.h) belong to group NAME.
struct UserGroup {
  std::string name;
  std::string pattern;
  std::shared_ptr<const re2::RE2> regex;  // `pattern` compiled
};
// Parses "NAME=REGEX"; throws std::invalid_argument on a missing name or
// pattern or an invalid regex.
UserGroup ParseUserGroup(std::string_view spec);

struct Grouping {
  GroupBy by = GroupBy::kQnnOp;
  std::vector<UserGroup> user;  // first match wins; unmatched ops fall back to `by`
  std::string GroupOf(std::string_view qnn_op_name, std::string_view htp_op_type) const {
    return std::string(GroupName(qnn_op_name, htp_op_type));
  }
  std::string GroupOf(const DepNode& node) const {
    return GroupOf(node.qnn_op_name, node.htp_op_type);
  }
  // The same name as a view of a user group's name, of one of the two
  // names given, or of a literal: it lives as long as they do.
  std::string_view GroupName(std::string_view qnn_op_name, std::string_view htp_op_type) const;
  std::string_view GroupName(const DepNode& node) const {
    return GroupName(node.qnn_op_name, node.htp_op_type);
  }
};

// How a slice is drawn: its op group's own mark, or one of the marks kept for
// boundary and system-service ops (they belong to no model computation).
enum class SliceMark : uint8_t {
  kGroup,
  kSpillFill,      // @Spill / @Fill: VTCM <-> DDR round trips
  kConcat,         // Concat
  kForceFormat,    // ForceFormat_* and flat_from_vtcm layout changes
  kSlice,          // input/output and other slices
  kDmaCopy,        // DMA copies (weights/bias to VTCM, DramToTcm, TcmToDram)
  kDmaCheckpoint,  // DmaCheckpointSet / dma_wait
  kSync,           // SyncOp
  kOtherService,   // any other system-service op (BlockZap, SystemService)
};
SliceMark MarkOf(std::string_view htp_op_type, OpCategory category, uint8_t flags);
char MarkChar(SliceMark mark);         // '%', '+', '~', '/', '=', ':', '!', '*'; 0 for kGroup
const char* MarkName(SliceMark mark);  // "spill/fill", ...

// The part of the trace to show.  Cycles are relative to the first executed
// slice's start ("graph cycle 0"); ops are matched by QNN op name, HTP op
// type or group name, and give the first start of `from_op` and the last end
// of `to_op` (like the profile viewer's zoom_start / zoom_end).
struct TimelineWindow {
  std::optional<int64_t> from_cycle, to_cycle;
  std::optional<std::string> from_op, to_op;
  // A window of no cycle (a trace whose slices all sit at one cycle) gives a
  // timeline of zero length, its slices all kept, instead of an error.
  bool allow_empty = false;
};

struct TimelineSlice {
  uint32_t slice = 0;                        // index into Run::slices
  uint32_t group = 0;                        // index into Timeline::groups
  int64_t start_cycles = 0, end_cycles = 0;  // clipped to the window
  uint32_t tid = 0;
  SliceMark mark = SliceMark::kGroup;
};

struct TimelineRow {
  uint32_t tid = 0;
  UnitKind kind = UnitKind::kUnknown;
  std::string name;              // the trace's name for the thread; "" when it gives none
  std::vector<uint32_t> slices;  // into Timeline::slices, by start
  int64_t busy_cycles = 0;       // Σ clipped slice durations
  int64_t active_cycles = 0;     // union: cycles with something running
};

struct TimelineGroup {
  std::string name;
  char letter = '?';                            // its mark in the text timeline
  OpCategory category = OpCategory::kBoundary;  // compute when any of its ops is
  ConcurrencyStats stats;                       // over its clipped slices
  std::vector<uint32_t> tids;
  uint64_t ops = 0;  // distinct op ids
};

struct Timeline {
  std::string label;
  int64_t graph_start_cycles = 0, graph_end_cycles = 0;    // the whole trace
  int64_t window_start_cycles = 0, window_end_cycles = 0;  // what is shown
  std::string window;                                      // how the window was chosen
  std::vector<TimelineSlice> slices;
  std::vector<TimelineRow> rows;      // by tid
  std::vector<TimelineGroup> groups;  // by first start
  ConcurrencyStats all;               // every slice in the window
  // HMX work = slices flagged uses_hmx (tid 256 also runs DMA, checkpoint
  // and sync ops, which are not matrix work); HVX work = slices on the HVX
  // threads.
  int64_t hmx_active_cycles = 0, hvx_active_cycles = 0, hmx_hvx_overlap_cycles = 0;
  double hmx_hvx_overlap_pct = 0;  // of the window length
  std::vector<WarningRow> warnings;

  int64_t window_cycles() const { return window_end_cycles - window_start_cycles; }
};

// Throws std::invalid_argument when the run has no slice, the window names
// no op, or it is empty (unless window.allow_empty).
Timeline BuildTimeline(const Run& run, const Grouping& grouping, const TimelineWindow& window);

// Adds `serialized_groups` warnings: compute groups that ran back to back
// with zero overlap although no data dependency links them either way.
void AddSerializationWarnings(Timeline& timeline, const DependencyGraph& graph,
                              const Grouping& grouping);

// AddSerializationWarnings in two steps: what needs only the timeline (its
// boundary and system-service slices in start order, for what ran in each
// gap) is made first, while the dependency graph may still be built.
class SerializationCheck {
 public:
  // Views `timeline`'s slices: the timeline must outlive the check.
  explicit SerializationCheck(const Timeline& timeline);
  void AddWarnings(Timeline& timeline, const DependencyGraph& graph,
                   const Grouping& grouping) const;

 private:
  std::vector<const TimelineSlice*> marked_;  // by start cycle
  std::vector<int64_t> max_end_so_far_;       // the running maximum of their end cycles
};

}  // namespace htpscope
