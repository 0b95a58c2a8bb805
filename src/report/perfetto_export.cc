#include "report/perfetto_export.h"

#include <absl/container/flat_hash_map.h>
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string_view>
#include <utility>
#include <vector>

#include "base/errors.h"
#include "model/figures.h"
#include "perfetto_trace_subset.pb.h"

namespace htpscope {
namespace {

namespace pb = perfetto::protos;

constexpr uint32_t kSequence = 1;
constexpr uint64_t kProcessUuid = 1;
constexpr int32_t kProcessPid = 1;

// An interval placed on a track: [start_ns, end_ns).
struct Placed {
  int64_t start_ns = 0, end_ns = 0;
  uint32_t track = 0;  // index into Writer::tracks_
};

// Assigns intervals (visited in order of start, longer first) to lanes.
// Sequential lanes take an interval when it starts at or after the lane's
// last end; nesting lanes also take one that lies inside an open interval.
class Lanes {
 public:
  explicit Lanes(bool nesting) : nesting_(nesting) {}
  // The lane of [start, end).
  size_t Place(int64_t start, int64_t end) {
    for (size_t i = 0;; ++i) {
      if (i == open_.size()) open_.emplace_back();
      std::vector<int64_t>& ends = open_[i];
      while (!ends.empty() && ends.back() <= start) ends.pop_back();
      if (ends.empty() || (nesting_ && ends.back() >= end)) {
        ends.push_back(end);
        return i;
      }
    }
  }

 private:
  bool nesting_;
  std::vector<std::vector<int64_t>> open_;  // per lane, the ends of its open intervals
};

class Writer {
 public:
  Writer(const Run& run, const PerfettoOptions& options, std::ostream& out, std::string name)
      : run_(run), options_(options), out_(out), name_(std::move(name)) {}

  PerfettoStats Write() {
    PlanThreads();
    PlanPhases();
    PlanCounters();
    PlanFlows();
    if (slices_.empty() && phases_.empty() && stats_.counter_samples == 0)
      throw InputError(run_.label,
                       "nothing to draw: the run has no optrace slices, counters or runtrace "
                       "phases with HTP cycles (a Perfetto export needs chrometrace.json or "
                       "chrometrace_runtrace.json)");
    WriteAttributes();
    WriteTracks();
    WriteEvents();
    out_.flush();
    if (!out_) throw OutputError(name_, "cannot write the Perfetto trace");
    return stats_;
  }

 private:
  struct Track {
    std::string name, description;
    uint64_t uuid = 0;
    int32_t rank = 0;
    bool counter_bytes = false;
    bool is_counter = false;
  };
  // One event of the sorted stream.
  enum class Kind : uint8_t {
    kSliceBegin,
    kSliceEnd,
    kSliceInstant,
    kPhaseBegin,
    kPhaseEnd,
    kPhaseInstant,
    kCounter
  };
  struct Event {
    int64_t ts_ns = 0;
    int order = 0;         // at equal times: ends, zero-length slices, counters, begins
    int64_t tiebreak = 0;  // begins: longer first; ends: shorter (later start) first
    Kind kind = Kind::kSliceBegin;
    uint32_t index = 0;  // slice, phase or (counter track, sample) index
    uint32_t sample = 0;
  };

  int64_t ToNs(int64_t cycle) const {
    if (!options_.clock_ghz) return cycle;
    return std::llround(static_cast<double>(cycle) / *options_.clock_ghz);
  }

  std::string TimeUnit() const {
    return options_.clock_ghz ? fmt::format("ns at {} GHz (cycles ÷ clock)", *options_.clock_ghz)
                              : "1 ns = 1 HTP cycle";
  }

  uint32_t AddTrack(std::string name, std::string description, int32_t rank) {
    Track t;
    t.name = std::move(name);
    t.description = std::move(description);
    t.uuid = 100 + tracks_.size();
    t.rank = rank;
    tracks_.push_back(std::move(t));
    return static_cast<uint32_t>(tracks_.size() - 1);
  }

  void AddInterval(std::vector<Event>& events, int64_t start_ns, int64_t end_ns, Kind begin,
                   Kind end, Kind instant, uint32_t index) {
    if (end_ns <= start_ns) {
      events.push_back({start_ns, 1, 0, instant, index, 0});
      return;
    }
    events.push_back({start_ns, 3, -end_ns, begin, index, 0});
    events.push_back({end_ns, 0, -start_ns, end, index, 0});
  }

  // One track per hardware thread (plus one per extra lane of overlapping
  // slices), in tid order: HMX first, then the HVX threads.
  void PlanThreads() {
    const auto& slices = run_.slices;
    std::vector<uint32_t> order(slices.size());
    for (uint32_t i = 0; i < order.size(); ++i) order[i] = i;
    std::sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) {
      const SliceRow &x = slices[a], &y = slices[b];
      if (x.tid != y.tid) return x.tid < y.tid;
      if (x.start_cycle != y.start_cycle) return x.start_cycle < y.start_cycle;
      return x.dur_cycles > y.dur_cycles;
    });
    slices_.resize(slices.size());
    absl::flat_hash_map<uint32_t, UnitKind> kinds;
    for (const UnitRow& u : run_.units) kinds[u.tid] = u.kind;
    size_t begin = 0;
    while (begin < order.size()) {
      const uint32_t tid = slices[order[begin]].tid;
      size_t end = begin;
      while (end < order.size() && slices[order[end]].tid == tid) ++end;
      auto kind = kinds.find(tid);
      const std::string unit = kind == kinds.end() || kind->second == UnitKind::kUnknown
                                   ? "thread"
                                   : UnitKindName(kind->second);
      Lanes lanes(false);
      std::vector<uint32_t> lane_tracks;
      for (size_t k = begin; k < end; ++k) {
        const SliceRow& s = slices[order[k]];
        Placed& p = slices_[order[k]];
        p.start_ns = ToNs(s.start_cycle);
        p.end_ns = ToNs(s.end_cycle());
        size_t lane = lanes.Place(p.start_ns, p.end_ns);
        while (lane_tracks.size() <= lane) {
          std::string track = fmt::format("{} {}", unit, tid);
          if (!lane_tracks.empty()) track += " (overlapping slices)";
          lane_tracks.push_back(
              AddTrack(std::move(track),
                       fmt::format("{} hardware thread, tid {}; {}", unit, tid, TimeUnit()),
                       static_cast<int32_t>(tracks_.size())));
          ++stats_.thread_tracks;
        }
        p.track = lane_tracks[lane];
      }
      begin = end;
    }
    stats_.slices = slices.size();
  }

  // The runtrace phases that carry HTP cycles, one track per graph; without
  // them, the traced execution's span.
  void PlanPhases() {
    std::vector<uint32_t> order;
    for (uint32_t i = 0; i < run_.phases.size(); ++i)
      if (run_.phases[i].start_cycle && run_.phases[i].end_cycle) order.push_back(i);
    std::sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) {
      const PhaseRow &x = run_.phases[a], &y = run_.phases[b];
      if (*x.start_cycle != *y.start_cycle) return *x.start_cycle < *y.start_cycle;
      return *x.end_cycle > *y.end_cycle;
    });
    std::vector<std::pair<std::string, Lanes>> graphs;
    std::vector<std::vector<uint32_t>> graph_tracks;
    for (uint32_t i : order) {
      const PhaseRow& ph = run_.phases[i];
      size_t g = 0;
      while (g < graphs.size() && graphs[g].first != ph.graph_name) ++g;
      if (g == graphs.size()) {
        graphs.emplace_back(ph.graph_name, Lanes(true));
        graph_tracks.emplace_back();
      }
      Phase p;
      p.name = ph.phase;
      p.row = static_cast<int32_t>(i);
      p.at.start_ns = ToNs(*ph.start_cycle);
      p.at.end_ns = ToNs(*ph.end_cycle);
      size_t lane = graphs[g].second.Place(p.at.start_ns, p.at.end_ns);
      while (graph_tracks[g].size() <= lane)
        graph_tracks[g].push_back(
            GraphTrack(ph.graph_name, graph_tracks[g].empty() ? "" : " (overlapping phases)"));
      p.at.track = graph_tracks[g][lane];
      phases_.push_back(std::move(p));
    }
    const RunFigures& f = run_.figures;
    if (phases_.empty() && !run_.slices.empty() && f.start_cycle && f.end_cycle) {
      std::string graph = run_.graphs.size() == 1 ? run_.graphs.front().name : "";
      Phase p;
      p.name = f.traced_execution ? fmt::format("execution {} (traced)", *f.traced_execution)
                                  : "traced execution";
      p.at = {ToNs(*f.start_cycle), ToNs(*f.end_cycle), GraphTrack(graph, "")};
      phases_.push_back(std::move(p));
    }
    stats_.phases = phases_.size();
  }

  uint32_t GraphTrack(const std::string& graph, const char* suffix) {
    std::string name = graph.empty() ? "graph" : "graph " + graph;
    return AddTrack(fmt::format("{}: executions{}", name, suffix),
                    fmt::format("runtrace phases of each execution of {}; {}", name, TimeUnit()),
                    -1);
  }

  void PlanCounters() {
    for (uint32_t c = 0; c < run_.counters.size(); ++c) {
      const CounterTrack& ct = run_.counters[c];
      uint32_t t = AddTrack(ct.name, fmt::format("optrace counter \"{}\"; {}", ct.name, TimeUnit()),
                            static_cast<int32_t>(1000 + c));
      tracks_[t].is_counter = true;
      tracks_[t].counter_bytes =
          ct.name.find("VTCM") != std::string::npos || ct.name.find("DRAM") != std::string::npos;
      counter_tracks_.push_back(t);
      stats_.counter_samples += ct.samples.size();
    }
  }

  // Graph dependencies between executed ops, from the consumers' inputs.
  void PlanFlows() {
    absl::flat_hash_map<uint64_t, uint32_t> instance_of;
    for (uint32_t i = 0; i < run_.op_instances.size(); ++i)
      if (run_.op_instances[i].slice_count > 0) instance_of.emplace(run_.op_instances[i].op_id, i);
    uint64_t next_id = 1;
    std::vector<uint32_t> producers;
    for (uint32_t c = 0; c < run_.op_instances.size(); ++c) {
      const OpInstanceRow& consumer = run_.op_instances[c];
      if (consumer.slice_count == 0) continue;
      producers.clear();
      for (uint32_t k = 0; k < consumer.inputs_count; ++k) {
        size_t at = consumer.inputs_begin + k;
        if (at >= run_.input_ids.size()) break;
        auto it = instance_of.find(run_.input_ids[at]);
        if (it == instance_of.end() || it->second == c) continue;
        if (std::find(producers.begin(), producers.end(), it->second) != producers.end()) continue;
        producers.push_back(it->second);
      }
      uint32_t first = FirstSlice(consumer);
      for (uint32_t p : producers) {
        const uint64_t id = next_id++;
        flow_out_.emplace_back(LastSlice(run_.op_instances[p]), id);
        flow_in_.emplace_back(first, id);
      }
    }
    std::sort(flow_out_.begin(), flow_out_.end());
    std::sort(flow_in_.begin(), flow_in_.end());
    stats_.flows = next_id - 1;
  }

  uint32_t FirstSlice(const OpInstanceRow& op) const {
    uint32_t best = op.first_slice;
    for (uint32_t s = op.first_slice; s < op.first_slice + op.slice_count; ++s)
      if (slices_[s].start_ns < slices_[best].start_ns) best = s;
    return best;
  }
  uint32_t LastSlice(const OpInstanceRow& op) const {
    uint32_t best = op.first_slice;
    for (uint32_t s = op.first_slice; s < op.first_slice + op.slice_count; ++s)
      if (slices_[s].end_ns > slices_[best].end_ns) best = s;
    return best;
  }

  // Writes the packet as one `Trace.packet` entry: a trace file is the
  // concatenation of such entries.  The packet's sub-messages are cleared,
  // not freed, between packets so that they are allocated once.
  void Emit() {
    bytes_.clear();
    if (!trace_.SerializeToString(&bytes_))
      throw InternalError("a Perfetto trace packet failed to serialise");
    out_.write(bytes_.data(), static_cast<std::streamsize>(bytes_.size()));
    if (!out_) throw OutputError(name_, "cannot write the Perfetto trace");
  }

  pb::TracePacket& StartPacket() {
    packet_->Clear();
    packet_->set_trusted_packet_sequence_id(kSequence);
    if (first_packet_) packet_->set_sequence_flags(pb::TracePacket::SEQ_INCREMENTAL_STATE_CLEARED);
    first_packet_ = false;
    return *packet_;
  }

  void WriteAttributes() {
    pb::TraceAttributes* attrs = StartPacket().mutable_trace_attributes();
    auto add = [&](const std::string& key, const std::string& value) {
      pb::TraceAttributes::Attribute* attr = attrs->add_attribute();
      attr->set_key(key);
      attr->set_string_value(value);
    };
    add("htpscope.time_unit", options_.clock_ghz
                                  ? TimeUnit()
                                  : "1 ns = 1 HTP cycle: timestamps are the HTP cycle counter and "
                                    "durations are cycles, not time");
    if (options_.clock_ghz) add("htpscope.clock_ghz", fmt::format("{}", *options_.clock_ghz));
    add("htpscope.run", run_.label);
    add("htpscope.slices",
        "the optrace's slices, de-duplicated (its per-op process copies dropped)");
    Emit();
  }

  void WriteTracks() {
    pb::TrackDescriptor* desc = StartPacket().mutable_track_descriptor();
    desc->set_uuid(kProcessUuid);
    desc->mutable_process()->set_pid(kProcessPid);
    desc->mutable_process()->set_process_name(
        options_.clock_ghz ? fmt::format("HTP (ns at {} GHz)", *options_.clock_ghz)
                           : std::string("HTP (1 ns = 1 cycle)"));
    desc->set_child_ordering(pb::TrackDescriptor::EXPLICIT);
    Emit();
    for (const Track& t : tracks_) {
      desc = StartPacket().mutable_track_descriptor();
      desc->set_uuid(t.uuid);
      desc->set_parent_uuid(kProcessUuid);
      desc->set_name(t.name);
      desc->set_description(t.description);
      desc->set_sibling_order_rank(t.rank);
      if (t.is_counter) {
        pb::CounterDescriptor* counter = desc->mutable_counter();
        if (t.counter_bytes) counter->set_unit(pb::CounterDescriptor::UNIT_SIZE_BYTES);
      }
      Emit();
    }
  }

  void Annotate(pb::TrackEvent& event, const std::string& name, int64_t value) {
    pb::DebugAnnotation* a = event.add_debug_annotations();
    a->set_name(name);
    a->set_int_value(value);
  }
  void Annotate(pb::TrackEvent& event, const std::string& name, double value) {
    pb::DebugAnnotation* a = event.add_debug_annotations();
    a->set_name(name);
    a->set_double_value(value);
  }
  void Annotate(pb::TrackEvent& event, const std::string& name, std::string_view value) {
    pb::DebugAnnotation* a = event.add_debug_annotations();
    a->set_name(name);
    a->set_string_value(std::string(value));
  }

  // A track event packet at `ts_ns` on `track`, of `type`, for the caller to fill.
  pb::TrackEvent& StartEvent(int64_t ts_ns, uint32_t track, pb::TrackEvent::Type type) {
    pb::TracePacket& packet = StartPacket();
    packet.set_timestamp(static_cast<uint64_t>(ts_ns));
    pb::TrackEvent* event = packet.mutable_track_event();
    event->set_type(type);
    event->set_track_uuid(tracks_[track].uuid);
    return *event;
  }

  void EndEvent(uint32_t track, int64_t ts_ns) {
    StartEvent(ts_ns, track, pb::TrackEvent::TYPE_SLICE_END);
    Emit();
  }

  void SliceBegin(uint32_t i) {
    const SliceRow& s = run_.slices[i];
    const OpInstanceRow& op = run_.op_instances[s.instance];
    const std::string_view qnn_op = run_.Str(op.qnn_op_name), htp = run_.Str(op.htp_op_type);
    pb::TrackEvent& event =
        StartEvent(slices_[i].start_ns, slices_[i].track, pb::TrackEvent::TYPE_SLICE_BEGIN);
    event.add_categories(OpCategoryName(op.category));
    event.set_name(std::string(qnn_op.empty() ? htp : qnn_op));
    Annotate(event, "op_id", OpIdHex(op.op_id));
    Annotate(event, "qnn_op", qnn_op);
    Annotate(event, "qnn_op_type", run_.Str(op.qnn_op_type));
    Annotate(event, "htp_op_type", htp);
    Annotate(event, "dpc_cycles", op.dpc_cycles);
    Annotate(event, "dpc_basis", DpcBasisName(op.dpc_basis));
    Annotate(event, "category", OpCategoryName(op.category));
    Annotate(event, "tid", static_cast<int64_t>(s.tid));
    Annotate(event, "start_cycle", s.start_cycle);
    Annotate(event, "dur_cycles", s.dur_cycles);
    auto flows = [&](const std::vector<std::pair<uint32_t, uint64_t>>& list, bool out) {
      auto it = std::lower_bound(list.begin(), list.end(), std::make_pair(i, uint64_t{0}));
      for (; it != list.end() && it->first == i; ++it)
        out ? event.add_flow_ids(it->second) : event.add_terminating_flow_ids(it->second);
    };
    flows(flow_out_, true);
    flows(flow_in_, false);
    Emit();
  }

  void PhaseBegin(uint32_t i) {
    const Phase& p = phases_[i];
    pb::TrackEvent& event = StartEvent(p.at.start_ns, p.at.track, pb::TrackEvent::TYPE_SLICE_BEGIN);
    event.set_name(p.name);
    if (p.row >= 0) {
      const PhaseRow& ph = run_.phases[static_cast<size_t>(p.row)];
      Annotate(event, "execution", static_cast<int64_t>(ph.execution));
      Annotate(event, "graph", ph.graph_name);
      Annotate(event, "start_cycle", *ph.start_cycle);
      if (auto cycles = ph.wall_cycles()) Annotate(event, "wall_cycles", *cycles);
      Annotate(event, ItemFigureName(ItemFigure::kPhaseWallUs), ph.wall_us());
      if (auto ghz = ph.effective_ghz()) Annotate(event, "effective_ghz", *ghz);
    } else {
      Annotate(event, "start_cycle", *run_.figures.start_cycle);
      Annotate(event, "wall_cycles", *run_.figures.end_cycle - *run_.figures.start_cycle);
    }
    Emit();
  }

  void WriteEvents() {
    std::vector<Event> events;
    events.reserve(2 * (slices_.size() + phases_.size()) + stats_.counter_samples);
    for (uint32_t i = 0; i < slices_.size(); ++i)
      AddInterval(events, slices_[i].start_ns, slices_[i].end_ns, Kind::kSliceBegin,
                  Kind::kSliceEnd, Kind::kSliceInstant, i);
    for (uint32_t i = 0; i < phases_.size(); ++i)
      AddInterval(events, phases_[i].at.start_ns, phases_[i].at.end_ns, Kind::kPhaseBegin,
                  Kind::kPhaseEnd, Kind::kPhaseInstant, i);
    for (uint32_t c = 0; c < run_.counters.size(); ++c)
      for (uint32_t s = 0; s < run_.counters[c].samples.size(); ++s)
        events.push_back({ToNs(run_.counters[c].samples[s].ts_cycles), 2, 0, Kind::kCounter, c, s});
    std::stable_sort(events.begin(), events.end(), [](const Event& a, const Event& b) {
      if (a.ts_ns != b.ts_ns) return a.ts_ns < b.ts_ns;
      if (a.order != b.order) return a.order < b.order;
      return a.tiebreak < b.tiebreak;
    });
    for (const Event& e : events) {
      switch (e.kind) {
        case Kind::kSliceBegin:
          SliceBegin(e.index);
          break;
        case Kind::kSliceEnd:
          EndEvent(slices_[e.index].track, e.ts_ns);
          break;
        case Kind::kSliceInstant:  // a zero-length slice: begin and end at once
          SliceBegin(e.index);
          EndEvent(slices_[e.index].track, e.ts_ns);
          break;
        case Kind::kPhaseBegin:
          PhaseBegin(e.index);
          break;
        case Kind::kPhaseEnd:
          EndEvent(phases_[e.index].at.track, e.ts_ns);
          break;
        case Kind::kPhaseInstant:
          PhaseBegin(e.index);
          EndEvent(phases_[e.index].at.track, e.ts_ns);
          break;
        case Kind::kCounter:
          StartEvent(e.ts_ns, counter_tracks_[e.index], pb::TrackEvent::TYPE_COUNTER)
              .set_counter_value(run_.counters[e.index].samples[e.sample].value);
          Emit();
          break;
      }
    }
  }

  struct Phase {
    std::string name;
    int32_t row = -1;  // into run_.phases; -1 for the traced execution's span
    Placed at;
  };

  const Run& run_;
  const PerfettoOptions& options_;
  std::ostream& out_;
  std::string name_;
  std::vector<Track> tracks_;
  std::vector<Placed> slices_;  // per run_.slices row
  std::vector<Phase> phases_;
  std::vector<uint32_t> counter_tracks_;                 // per run_.counters row
  std::vector<std::pair<uint32_t, uint64_t>> flow_out_;  // (slice, flow id), sorted
  std::vector<std::pair<uint32_t, uint64_t>> flow_in_;
  pb::Trace trace_;                                // holds packet_ alone
  pb::TracePacket* packet_ = trace_.add_packet();  // reused for every packet
  std::string bytes_;
  bool first_packet_ = true;
  PerfettoStats stats_;
};

}  // namespace

PerfettoStats WritePerfettoTrace(const Run& run, const PerfettoOptions& options, std::ostream& out,
                                 const std::string& name) {
  if (options.clock_ghz && !(std::isfinite(*options.clock_ghz) && *options.clock_ghz > 0))
    throw ValueError(ValueRole::kClockGhz, fmt::format("{}", *options.clock_ghz),
                     "expected a positive number of GHz");
  return Writer(run, options, out, name).Write();
}

}  // namespace htpscope
